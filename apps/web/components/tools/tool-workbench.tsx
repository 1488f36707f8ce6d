'use client';

import type { TFileChange, TTaskType } from '@xcad/protocol';
import { useFormatter, useMessages, useTranslations } from 'next-intl';
import { useCallback, useMemo, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { CheckIcon, CloseIcon, CrownIcon, DownloadIcon, QrCodeIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { formatBeijingTime } from '@/lib/orders/orders';
import {
  addFiles,
  limitsOf,
  limitsizeOf,
  megabytesOf,
  startProblemOf,
  tierOf,
  type ConverterTier,
  type FileProblem,
  type StartProblem,
  type TierLimits,
} from '@/lib/tools/files';
import { formatBytes } from '@/lib/tools/format';
import { defaultOptionsOf, taskParamsOf, type ToolOptions } from '@/lib/tools/options';
import { fileBarOf, filesToRetry } from '@/lib/tools/progress';
import { changeParts, reportWordsOf, type ReportWords } from '@/lib/tools/report';
import { acceptOf, kindsLabelOf, takesCompanions } from '@/lib/tools/tools';
import { initialSnapshot, type FileProgress, type RunSnapshot, type SignedFields } from '@/lib/tools/upload';
import { qrSrcOf } from './conversion-calls';
import { DropZone } from './drop-zone';
import { RecentConversions } from './recent-conversions';
import { ToolOptionsFields } from './tool-options';
import { useConversion } from './use-conversion';
import { useDownload, type Download } from './use-download';
import styles from './tools.module.css';

// A tool page's working part (decision 0019): files in (drop or pick, checked against the visitor's
// tier), the tool's settings, then one conversion at a time with a bar per file through upload
// and conversion, cancel, the download and the phone QR, the tiers and the recent conversions.

/** Changes listed at once under a file; the dropped ones come first. */
const CHANGES_SHOWN = 6;

function ChangeLine({ change, words }: { readonly change: TFileChange; readonly words: ReportWords }) {
  const t = useTranslations('tools.workbench.report');
  const format = useFormatter();
  const names = change.names?.length ? format.list(change.names, { type: 'unit' }) : '';
  return (
    <li data-outcome={change.outcome} data-testid="tool-file-change">
      {t('change', changeParts(change, words))}
      {names && t('names', { names })}
    </li>
  );
}

/** A converted file's report (decision 0036): what it holds, then each change from the original as a short line. */
function FileReport({ file }: { readonly file: FileProgress }) {
  const t = useTranslations('tools.workbench.report');
  const messages = useMessages() as { tools?: { workbench?: { report?: unknown } } };
  const words = reportWordsOf(messages.tools?.workbench?.report);
  const format = useFormatter();
  const { summary, changes } = file;
  if (summary === null && changes.length === 0) return null;
  const layouts = format.list(summary?.layouts.map((layout) => (layout === 'Model' ? t('model') : layout)) ?? [], { type: 'conjunction' });
  return (
    <div className={styles.fileReport} data-testid="tool-file-report">
      {summary !== null && (
        <p className={styles.fileSummary}>
          {layouts === '' ? t('objectsOnly', { objects: summary.objects }) : t('summary', { layouts, objects: summary.objects })}
        </p>
      )}
      {changes.length > 0 && words !== null && (
        <>
          <p className={styles.changesTitle}>{t('changesTitle')}</p>
          <ul className={styles.changes} data-testid="tool-file-changes">
            {changes.slice(0, CHANGES_SHOWN).map((change) => (
              <ChangeLine key={`${change.type}-${change.outcome}-${change.how}`} change={change} words={words} />
            ))}
          </ul>
          {/* A save-as to R12 may change twenty kinds of objects: the first few, the rest on request. */}
          {changes.length > CHANGES_SHOWN && (
            <details className={styles.moreChanges}>
              <summary>{t('more', { count: changes.length - CHANGES_SHOWN })}</summary>
              <ul className={styles.changes}>
                {changes.slice(CHANGES_SHOWN).map((change) => (
                  <ChangeLine key={`${change.type}-${change.outcome}-${change.how}`} change={change} words={words} />
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </div>
  );
}

function FileRow({
  file,
  taskError = null,
  onRemove,
  onDownload,
  isDownloading = false,
}: {
  readonly file: FileProgress;
  readonly taskError?: string | null;
  readonly onRemove?: () => void;
  /** Once the task is done: this converted file's own download. */
  readonly onDownload?: () => void;
  readonly isDownloading?: boolean;
}) {
  const t = useTranslations('tools.workbench');
  const bar = fileBarOf(file);
  const stageText = file.stage === 'uploading' ? t('stage.uploading', { percent: bar.percent ?? 0 }) : t(`stage.${file.stage}`);
  const hasEnded = file.stage === 'done' || file.stage === 'failed' || file.stage === 'cancelled' || file.stage === 'attached';
  return (
    <li className={styles.fileRow} data-testid="tool-file-row" data-state={file.stage} data-retryable={file.retryable || undefined}>
      <div className={styles.fileHead}>
        <span className={styles.fileType} aria-hidden="true">
          {file.name.split('.').pop()?.slice(0, 4).toUpperCase()}
        </span>
        <div className={styles.fileText}>
          <p className={styles.fileName} title={file.name} data-testid="tool-file-name">
            {file.name}
          </p>
          <p className={styles.fileMeta}>
            <span>{formatBytes(file.size)}</span>
            {onRemove === undefined && (
              <span className={styles.fileStage} data-tone={bar.tone}>
                {(file.stage === 'done' || file.stage === 'attached') && <CheckIcon size={14} />}
                {stageText}
              </span>
            )}
          </p>
        </div>
        {onRemove !== undefined && (
          <button type="button" className={styles.iconButton} aria-label={t('remove', { name: file.name })} onClick={onRemove}>
            <CloseIcon size={16} />
          </button>
        )}
        {onDownload !== undefined && file.stage === 'done' && file.outputname && (
          <button
            type="button"
            className={styles.smallButton}
            aria-label={t('downloadFileLabel', { name: file.outputname })}
            disabled={isDownloading}
            onClick={onDownload}
            data-testid="tool-file-download"
            data-track-name="download-file"
          >
            {isDownloading ? <Spinner size={14} /> : <DownloadIcon size={14} />}
            {t('downloadFile')}
          </button>
        )}
      </div>
      {onRemove === undefined && !hasEnded && (
        <div
          className={styles.bar}
          role="progressbar"
          aria-label={stageText}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={bar.percent ?? undefined}
          data-tone={bar.tone}
          data-indeterminate={bar.percent === null || undefined}
          data-testid="tool-file-progress"
        >
          <span className={styles.barFill} style={bar.percent === null ? undefined : { width: `${bar.percent}%` }} />
        </div>
      )}
      {file.stage === 'done' && file.outputname && (
        <p className={styles.fileOutput} data-testid="tool-file-output">
          {t('output', { name: file.outputname })}
        </p>
      )}
      {file.stage === 'done' && <FileReport file={file} />}
      {/* The task's own error is shown above the list: a file repeating it would say it twice. */}
      {(file.stage === 'failed' || file.stage === 'cancelled') && file.reason && file.reason !== taskError && (
        <p className={styles.fileReason} data-testid="tool-file-reason">
          {file.reason}
          {file.stage === 'failed' && file.retryable && <span className={styles.retryHint}>{t('retryHint')}</span>}
        </p>
      )}
    </li>
  );
}

function Result({
  snapshot,
  busyTag,
  error,
  onDownload,
}: {
  readonly snapshot: RunSnapshot;
  readonly busyTag: string | null;
  readonly error: Download['error'];
  readonly onDownload: () => void;
}) {
  const t = useTranslations('tools.workbench');
  const { tasktag } = snapshot;
  if (tasktag === null) return null;
  const isBusy = busyTag === tasktag;
  const done = snapshot.files.filter((file) => file.stage === 'done');
  const failed = snapshot.files.length - done.length;
  return (
    <div className={styles.result} data-partial={failed > 0 || undefined}>
      <div className={styles.resultMain}>
        <p className={styles.resultTitle}>
          <CheckIcon size={22} />
          {t('phase.done')}
        </p>
        {failed > 0 && (
          <p className={styles.resultCounts} data-testid="tool-result-counts">
            {t('partDone', { done: done.length, failed })}
          </p>
        )}
        {snapshot.expiretime !== null && (
          <p className={styles.resultNote}>{t('expires', { time: formatBeijingTime(snapshot.expiretime) })}</p>
        )}
        <button
          type="button"
          className={`${styles.primaryButton} ${styles.bigButton}`}
          disabled={isBusy}
          onClick={onDownload}
          data-testid="tool-download"
          data-track-name="download"
        >
          {isBusy ? <Spinner size={18} tone="light" /> : <DownloadIcon size={18} />}
          {isBusy ? t('downloading') : done.length > 1 ? t('downloadAll', { count: done.length }) : t('download')}
        </button>
        {error !== null && (
          <p className={styles.errorText} role="alert" data-testid="tool-error">
            {t('errors.download', { message: error.message })}
          </p>
        )}
      </div>
      <figure className={styles.qr}>
        {/* eslint-disable-next-line @next/next/no-img-element -- the API draws the QR per task; next/image would only re-encode it */}
        <img src={qrSrcOf(tasktag)} alt={t('qrAlt')} width={132} height={132} data-testid="tool-qr" />
        <figcaption>
          <strong>
            <QrCodeIcon size={16} />
            {t('qrTitle')}
          </strong>
          <span>{t('qrText')}</span>
        </figcaption>
      </figure>
    </div>
  );
}

function TierPanel({ tier }: { readonly tier: ConverterTier }) {
  const t = useTranslations('tools.tiers');
  const { href } = useSiteLocale();
  const rows = [
    { key: 'fileSize', value: (limits: TierLimits) => t('mb', { mb: megabytesOf(limits.maxFileBytes) }) },
    { key: 'fileCount', value: (limits: TierLimits) => t('files', { count: limits.maxFiles }) },
    { key: 'perDay', value: (limits: TierLimits) => t('times', { count: limits.tasksPerDay }) },
  ] as const;
  const tiers = ['visitor', 'member'] as const;
  return (
    <section className={styles.tiers} aria-labelledby="tool-tiers-title" data-testid="tool-tiers">
      <h2 id="tool-tiers-title" className="visually-hidden">
        {t('title')}
      </h2>
      <div className={styles.tierCards}>
        {tiers.map((candidate) => {
          const limits = limitsOf(candidate);
          return (
            <div key={candidate} className={styles.tierCard} data-tier={candidate} data-current={candidate === tier || undefined}>
              <p className={styles.tierName}>
                {candidate === 'member' && <CrownIcon size={16} />}
                {t(candidate)}
                {candidate === tier && <span className={styles.tierCurrent}>{t('current')}</span>}
              </p>
              <dl className={styles.tierFacts}>
                {rows.map((row) => (
                  <div key={row.key}>
                    <dt>{t(row.key)}</dt>
                    <dd>{row.value(limits)}</dd>
                  </div>
                ))}
                <div>
                  <dt>{t('priority')}</dt>
                  <dd>{candidate === 'member' ? t('first') : t('normal')}</dd>
                </div>
              </dl>
            </div>
          );
        })}
      </div>
      <div className={styles.tierAside}>
        <p className={styles.tierRetention}>{t('retention')}</p>
        {tier === 'visitor' && (
          <Link className={styles.buyLink} href={href('/buy/cadconverter.html')} data-testid="tool-buy">
            <CrownIcon size={16} />
            {t('buy')}
          </Link>
        )}
      </div>
    </section>
  );
}

export function ToolWorkbench({ tool }: { readonly tool: TTaskType }) {
  const t = useTranslations('tools.workbench');
  const options = useTranslations('tools.options');
  const name = useTranslations('tools.tool')(`${tool}.name`);
  const session = useSession();
  // Membership is judged at the page's start; a sign-in or purchase re-renders with the new state.
  const [nowSeconds] = useState(() => Math.floor(Date.now() / 1000));
  const tier = tierOf(session.membership, nowSeconds);
  const limits = limitsOf(tier);
  const account = session.user?.username;
  const usertoken = session.user?.usertoken;
  const signed = useMemo<SignedFields>(() => (account === undefined ? {} : { account, usertoken }), [account, usertoken]);

  const [files, setFiles] = useState<readonly File[]>([]);
  const [notices, setNotices] = useState<readonly string[]>([]);
  const [choices, setChoices] = useState<ToolOptions>(() => defaultOptionsOf(tool));
  const [pagesError, setPagesError] = useState('');
  const [refreshKey, setRefreshKey] = useState(0);
  const conversion = useConversion(useCallback(() => setRefreshKey((value) => value + 1), []));
  const { snapshot, isRunning } = conversion;
  const download = useDownload(signed);

  const problemText = (fileName: string, problem: FileProblem) => {
    switch (problem.kind) {
      case 'wrongType':
        return t('errors.wrongType', { name: fileName, expected: problem.expected });
      case 'tooLarge':
        return t('errors.tooLarge', { name: fileName, maxMb: problem.maxMb });
      case 'empty':
        return t('errors.empty', { name: fileName });
    }
  };

  const startProblemText = (problem: StartProblem) => {
    if ('index' in problem) return problemText(files[problem.index]?.name ?? '', problem);
    return problem.kind === 'noFiles' ? t('errors.noFiles') : t('errors.tooMany', { max: problem.max });
  };

  function add(picked: readonly File[]) {
    const added = addFiles(files, picked, tool, tier);
    setFiles(added.files);
    setNotices([
      ...added.refused.map(({ file, problem }) => problemText(file.name, problem)),
      ...(added.overflow > 0 ? [t('errors.overflow', { max: limits.maxFiles, count: added.overflow })] : []),
    ]);
  }

  function remove(index: number) {
    setFiles((previous) => previous.filter((_, position) => position !== index));
    setNotices([]);
  }

  function start(chosen: readonly File[] = files) {
    const problem = startProblemOf(chosen, tool, tier);
    if (problem !== null) {
      setNotices([startProblemText(problem)]);
      return;
    }
    const params = taskParamsOf(choices);
    if (!params.ok) {
      setPagesError(t('errors.pages'));
      return;
    }
    setNotices([]);
    setPagesError('');
    conversion.start({ tasktype: tool, params: params.params, files: chosen, limitsize: limitsizeOf(tier), signed });
  }

  // Decision 0036: 重新转换 sends again, as a new task, only the files a retry can help.
  const retryable = filesToRetry(snapshot);

  function retry() {
    const chosen = retryable.map((file) => files[file.index]).filter((file) => file !== undefined);
    setFiles(chosen);
    start(chosen);
  }

  function startOver() {
    conversion.reset();
    setFiles([]);
    setNotices([]);
  }

  const phase = snapshot?.phase ?? null;
  // One converted file downloads with the result's button; several also one by one (decision 0036).
  const convertedCount = (snapshot?.files ?? []).filter((file) => file.stage === 'done').length;
  const hasEnded = !isRunning && (phase === 'done' || phase === 'failed' || phase === 'cancelled');
  const pendingRows = useMemo(() => initialSnapshot(files).files, [files]);

  return (
    <>
      <section
        className={styles.workbench}
        aria-label={t('label', { name })}
        data-testid="tool-workbench"
        data-tool={tool}
        data-phase={phase ?? 'idle'}
        data-track-module="tools"
        data-track-tab={tool}
      >
        <div className={styles.panel}>
          {snapshot === null ? (
            <>
              <DropZone
                accept={acceptOf(tool)}
                kinds={kindsLabelOf(tool)}
                hint={
                  t('dropHint', { maxMb: megabytesOf(limits.maxFileBytes), maxFiles: limits.maxFiles }) +
                  (takesCompanions(tool) ? t('companionsHint') : '')
                }
                isCompact={files.length > 0}
                onFiles={add}
              />
              {notices.length > 0 && (
                <ul className={styles.errorBox} role="alert" data-testid="tool-error">
                  {notices.map((notice) => (
                    <li key={notice}>{notice}</li>
                  ))}
                </ul>
              )}
              {files.length > 0 && (
                <div className={styles.files}>
                  <h2 className={styles.filesTitle}>{t('filesTitle', { count: files.length })}</h2>
                  <ul className={styles.fileList}>
                    {pendingRows.map((row) => (
                      <FileRow key={`${row.index}-${row.name}`} file={row} onRemove={() => remove(row.index)} />
                    ))}
                  </ul>
                </div>
              )}
            </>
          ) : (
            <>
              {/* Once done, the result box says so where people look; the line stays for screen readers. */}
              <div className={snapshot.phase === 'done' ? 'visually-hidden' : styles.status} aria-live="polite" data-testid="tool-status">
                <p className={styles.statusTitle}>
                  {isRunning && <Spinner size={18} />}
                  {t(`phase.${snapshot.phase}`)}
                </p>
                {snapshot.phase === 'converting' && (
                  <p className={styles.statusDetail}>
                    {snapshot.statusdetail && <span>{snapshot.statusdetail}</span>}
                    <span>{t('progress', { percent: snapshot.progress })}</span>
                  </p>
                )}
              </div>
              {snapshot.phase === 'failed' && (
                <p className={styles.errorBox} role="alert" data-testid="tool-error">
                  {snapshot.error || t('errors.failed')}
                </p>
              )}
              {snapshot.phase === 'done' && !isRunning && (
                <Result
                  snapshot={snapshot}
                  busyTag={download.busyTag}
                  error={download.error}
                  onDownload={() => snapshot.tasktag !== null && download.download(snapshot.tasktag)}
                />
              )}
              <ul className={styles.fileList}>
                {snapshot.files.map((file) => (
                  <FileRow
                    key={`${file.index}-${file.name}`}
                    file={file}
                    taskError={snapshot.error}
                    {...(snapshot.phase === 'done' && !isRunning && snapshot.tasktag !== null && convertedCount > 1
                      ? {
                          onDownload: () => snapshot.tasktag !== null && download.download(snapshot.tasktag, file.index),
                          isDownloading: download.busyTag === `${snapshot.tasktag}/${file.index}`,
                        }
                      : {})}
                  />
                ))}
              </ul>
              <div className={styles.runActions}>
                {isRunning && (
                  <button
                    type="button"
                    className={styles.secondaryButton}
                    onClick={conversion.cancel}
                    data-testid="tool-cancel"
                    data-track-name="cancel"
                  >
                    {t('cancel')}
                  </button>
                )}
                {hasEnded && retryable.length > 0 && (
                  <button type="button" className={styles.primaryButton} onClick={retry} data-testid="tool-retry" data-track-name="retry">
                    {phase === 'done' ? t('retryFailed', { count: retryable.length }) : t('retry')}
                  </button>
                )}
                {hasEnded && phase !== 'done' && (
                  <button
                    type="button"
                    className={retryable.length > 0 ? styles.secondaryButton : styles.primaryButton}
                    onClick={conversion.reset}
                    data-testid="tool-edit"
                    data-track-name="edit"
                  >
                    {t('edit')}
                  </button>
                )}
                {hasEnded && phase === 'done' && (
                  <button
                    type="button"
                    className={styles.secondaryButton}
                    onClick={startOver}
                    data-testid="tool-again"
                    data-track-name="again"
                  >
                    {t('again')}
                  </button>
                )}
              </div>
            </>
          )}
        </div>
        <aside className={styles.settings} aria-labelledby="tool-settings-title">
          <h2 id="tool-settings-title" className={styles.settingsTitle}>
            {options('title')}
          </h2>
          <div className={styles.settingsFields}>
            <ToolOptionsFields
              options={choices}
              isDisabled={snapshot !== null}
              pagesError={pagesError}
              onChange={(next) => {
                setChoices(next);
                setPagesError('');
              }}
            />
          </div>
          {snapshot === null && (
            <button
              type="button"
              className={`${styles.primaryButton} ${styles.startButton}`}
              onClick={() => start()}
              data-testid="tool-start"
              data-track-name="start"
            >
              {t('start')}
            </button>
          )}
        </aside>
      </section>
      <TierPanel tier={tier} />
      <RecentConversions
        signed={signed}
        isReady={session.status !== 'unknown'}
        refreshKey={refreshKey}
        hiddenTag={isRunning ? (snapshot?.tasktag ?? null) : null}
      />
    </>
  );
}
