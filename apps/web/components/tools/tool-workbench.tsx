'use client';

import type { TTaskType } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
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
import { fileBarOf } from '@/lib/tools/progress';
import { acceptOf, kindsLabelOf } from '@/lib/tools/tools';
import { initialSnapshot, type FileProgress, type RunSnapshot, type SignedFields } from '@/lib/tools/upload';
import { qrSrcOf } from './conversion-calls';
import { DropZone } from './drop-zone';
import { RecentConversions } from './recent-conversions';
import { ToolOptionsFields } from './tool-options';
import { useConversion } from './use-conversion';
import { useDownload } from './use-download';
import styles from './tools.module.css';

// A tool page's working part (decision 0019): files in (drop or pick, checked against the visitor's
// tier), the tool's settings, then one conversion at a time with a bar per file through upload
// and conversion, cancel, the download and the phone QR, the tiers and the recent conversions.

function FileRow({
  file,
  taskError = null,
  onRemove,
}: {
  readonly file: FileProgress;
  readonly taskError?: string | null;
  readonly onRemove?: () => void;
}) {
  const t = useTranslations('tools.workbench');
  const bar = fileBarOf(file);
  const stageText = file.stage === 'uploading' ? t('stage.uploading', { percent: bar.percent ?? 0 }) : t(`stage.${file.stage}`);
  return (
    <li className={styles.fileRow} data-testid="tool-file-row" data-state={file.stage}>
      <div className={styles.fileHead}>
        <span className={styles.fileType} aria-hidden="true">
          {file.name.split('.').pop()?.slice(0, 4).toUpperCase()}
        </span>
        <div className={styles.fileText}>
          <p className={styles.fileName} title={file.name}>
            {file.name}
          </p>
          <p className={styles.fileMeta}>
            <span>{formatBytes(file.size)}</span>
            {onRemove === undefined && (
              <span className={styles.fileStage} data-tone={bar.tone}>
                {file.stage === 'done' && <CheckIcon size={14} />}
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
      </div>
      {onRemove === undefined && (
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
      {file.stage === 'done' && file.outputname && <p className={styles.fileOutput}>{t('output', { name: file.outputname })}</p>}
      {/* The task's own error is shown above the list: a file repeating it would say it twice. */}
      {(file.stage === 'failed' || file.stage === 'cancelled') && file.reason && file.reason !== taskError && (
        <p className={styles.fileReason}>{file.reason}</p>
      )}
    </li>
  );
}

function Result({ snapshot, signed }: { readonly snapshot: RunSnapshot; readonly signed: SignedFields }) {
  const t = useTranslations('tools.workbench');
  const { busyTag, error, download } = useDownload(signed);
  const { tasktag } = snapshot;
  if (tasktag === null) return null;
  const isBusy = busyTag === tasktag;
  return (
    <div className={styles.result}>
      <div className={styles.resultMain}>
        <p className={styles.resultTitle}>
          <CheckIcon size={22} />
          {t('phase.done')}
        </p>
        {snapshot.expiretime !== null && (
          <p className={styles.resultNote}>{t('expires', { time: formatBeijingTime(snapshot.expiretime) })}</p>
        )}
        <button
          type="button"
          className={`${styles.primaryButton} ${styles.bigButton}`}
          disabled={isBusy}
          onClick={() => download(tasktag)}
          data-testid="tool-download"
          data-track-name="download"
        >
          {isBusy ? <Spinner size={18} tone="light" /> : <DownloadIcon size={18} />}
          {isBusy ? t('downloading') : t('download')}
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

  function start() {
    const problem = startProblemOf(files, tool, tier);
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
    conversion.start({ tasktype: tool, params: params.params, files, limitsize: limitsizeOf(tier), signed });
  }

  function startOver() {
    conversion.reset();
    setFiles([]);
    setNotices([]);
  }

  const phase = snapshot?.phase ?? null;
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
                hint={t('dropHint', { maxMb: megabytesOf(limits.maxFileBytes), maxFiles: limits.maxFiles })}
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
              <ul className={styles.fileList}>
                {snapshot.files.map((file) => (
                  <FileRow key={`${file.index}-${file.name}`} file={file} taskError={snapshot.error} />
                ))}
              </ul>
              {snapshot.phase === 'done' && !isRunning && <Result snapshot={snapshot} signed={signed} />}
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
                {hasEnded && phase !== 'done' && (
                  <button type="button" className={styles.primaryButton} onClick={start} data-testid="tool-retry" data-track-name="retry">
                    {t('retry')}
                  </button>
                )}
                {hasEnded && phase !== 'done' && (
                  <button
                    type="button"
                    className={styles.secondaryButton}
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
              onClick={start}
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
