'use client';

import type { TTaskDetails } from '@xcad/protocol';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useMemo, useState } from 'react';
import { useSession } from '@/components/auth/session-provider';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { ChevronLeftIcon, ChevronRightIcon, ConverterGlyph, DownloadIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { isSessionRefused } from '@/lib/auth/session-refused';
import { formatBeijingTime, pageCountOf } from '@/lib/orders/orders';
import { formatBytes, timeLeftOf } from '@/lib/tools/format';
import { canDownload, isTaskActive } from '@/lib/tools/progress';
import type { SignedFields } from '@/lib/tools/upload';
import { listTasks } from './conversion-calls';
import { TaskStatus } from './recent-conversions';
import { useDownload } from './use-download';
import styles from './tools.module.css';

// /personal-download.html (decision 0019): the signed-in user's online conversions the server still
// keeps, newest first, a page at a time, each with its files, its state and, while retained, a
// fresh download link and the time it will be deleted.

const HISTORY_PAGE_SIZE = 10;

type Loaded =
  | {
      readonly phase: 'ready';
      readonly page: number;
      readonly tasks: readonly TTaskDetails[];
      readonly total: number;
      readonly now: number;
    }
  | { readonly phase: 'failed'; readonly page: number };

function HistoryRow({ task, now, signed }: { readonly task: TTaskDetails; readonly now: number; readonly signed: SignedFields }) {
  const t = useTranslations('tools');
  const { busyTag, error, download } = useDownload(signed);
  const isDownloadable = canDownload(task, now);
  return (
    <li className={styles.historyRow} data-testid="history-row" data-status={task.status}>
      <div className={styles.historyMain}>
        <p className={styles.historyTool}>
          <span>{t(`tool.${task.tasktype}.name`)}</span>
          <TaskStatus status={task.status} />
        </p>
        <ul className={styles.historyFiles}>
          {task.files.map((file) => (
            <li key={file.fileindex}>
              <span className={styles.ellipsis}>{file.name}</span>
              <span className={styles.historySize}>{formatBytes(file.size)}</span>
            </li>
          ))}
        </ul>
        {task.status === 'failed' && task.reason && <p className={styles.recentReason}>{task.reason}</p>}
        <p className={styles.recentMeta}>
          <span>{t('history.created', { time: formatBeijingTime(task.createtime) })}</span>
          {isDownloadable && <span>{t('history.expiresAt', { time: formatBeijingTime(task.expiretime) })}</span>}
          {isDownloadable && <span>{t('recent.expiresIn', timeLeftOf(task.expiretime, now))}</span>}
          {!isDownloadable && task.status === 'done' && <span>{t('recent.expired')}</span>}
        </p>
        {error !== null && (
          <p className={styles.recentReason} role="alert">
            {error.message}
          </p>
        )}
      </div>
      {isDownloadable && (
        <button
          type="button"
          className={styles.smallButton}
          disabled={busyTag === task.tasktag}
          onClick={() => download(task.tasktag)}
          data-testid="history-download"
        >
          <DownloadIcon size={16} />
          {t('recent.download')}
        </button>
      )}
    </li>
  );
}

export function ConversionHistory() {
  const t = useTranslations('tools.history');
  const recent = useTranslations('tools.recent');
  const router = useRouter();
  const { href } = useSiteLocale();
  const { status, user } = useSession();
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const account = user?.username;
  const usertoken = user?.usertoken;
  const signed = useMemo<SignedFields>(() => (account === undefined ? {} : { account, usertoken }), [account, usertoken]);

  useEffect(() => {
    if (status === 'unknown' || account === undefined) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      listTasks({ account, usertoken }, page, HISTORY_PAGE_SIZE).then(
        ({ tasks, total }) => {
          if (!isCurrent) return;
          setLoaded({ phase: 'ready', page, tasks, total, now: Math.floor(Date.now() / 1000) });
          // A conversion still running (in another tab) is shown as it ends.
          if (tasks.some(isTaskActive)) timer = setTimeout(() => void read(), 4_000);
        },
        (error: unknown) => {
          if (!isCurrent) return;
          // The session ended meanwhile: the page re-renders as the sign-in gate.
          if (isSessionRefused(error)) router.refresh();
          else setLoaded({ phase: 'failed', page });
        },
      );
    void read();
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [status, account, usertoken, page, attempt, router]);

  const isBusy = loaded === null || loaded.page !== page;
  if (loaded === null || (loaded.phase === 'failed' && isBusy)) {
    return (
      <div className={styles.historyPlaceholder} aria-busy="true" data-testid="history-loading">
        <Spinner size={28} />
        <p>{recent('loading')}</p>
      </div>
    );
  }
  if (loaded.phase === 'failed') {
    return (
      <div className={styles.historyPlaceholder} data-testid="history-failed">
        <p role="alert">{recent('loadFailed')}</p>
        <button type="button" className={styles.secondaryButton} onClick={() => setAttempt((value) => value + 1)}>
          {recent('retry')}
        </button>
      </div>
    );
  }
  if (loaded.total === 0) {
    return (
      <section className={styles.historyEmpty} data-testid="history-empty" aria-labelledby="history-empty-title">
        <span className={styles.toolIcon} aria-hidden="true">
          <ConverterGlyph size={28} />
        </span>
        <h2 id="history-empty-title" className={styles.historyEmptyTitle}>
          {t('empty')}
        </h2>
        <p className={styles.recentNote}>{t('emptyText')}</p>
        <Link className={styles.primaryButton} href={href('/tools.html')}>
          {t('toTools')}
        </Link>
      </section>
    );
  }

  const count = pageCountOf(loaded.total, HISTORY_PAGE_SIZE);
  return (
    <section className={styles.history} aria-labelledby="history-title" data-testid="conversion-history">
      <h2 id="history-title" className={styles.sectionTitle}>
        {t('title')}
      </h2>
      <p className={styles.sectionLead}>{t('lead')}</p>
      <ul className={styles.historyList} aria-busy={isBusy}>
        {loaded.tasks.map((task) => (
          <HistoryRow key={task.tasktag} task={task} now={loaded.now} signed={signed} />
        ))}
      </ul>
      {count > 1 && (
        <nav className={styles.pager} aria-label={t('pager.label')}>
          <button
            type="button"
            className={styles.iconButton}
            disabled={page <= 1 || isBusy}
            onClick={() => setPage(page - 1)}
            aria-label={t('pager.previous')}
          >
            <ChevronLeftIcon size={16} />
          </button>
          <span>{t('pager.page', { page, count })}</span>
          <button
            type="button"
            className={styles.iconButton}
            disabled={page >= count || isBusy}
            onClick={() => setPage(page + 1)}
            aria-label={t('pager.next')}
          >
            <ChevronRightIcon size={16} />
          </button>
        </nav>
      )}
    </section>
  );
}
