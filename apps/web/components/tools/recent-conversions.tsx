'use client';

import { TIMINGS, type TTaskDetails } from '@xcad/protocol';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { DownloadIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { formatBeijingTime } from '@/lib/orders/orders';
import { timeLeftOf } from '@/lib/tools/format';
import { canDownload, isTaskActive, taskTitleOf } from '@/lib/tools/progress';
import type { SignedFields } from '@/lib/tools/upload';
import { listTasks } from './conversion-calls';
import { useDownload } from './use-download';
import styles from './tools.module.css';

// 'Recent conversions' under a tool (decision 0019): the tasks of this browser, or of the signed-in
// user, that the server still keeps (24 h), newest first, with their download while retained.
// The list lives on the server (tasklist by the visitor cookie or the session, decision 0029), so
// it survives reloads.

const RECENT_COUNT = 5;
/** While a listed task is still working (another tab), the list is read again this often. */
const ACTIVE_REFRESH_MS = TIMINGS.taskPollIntervalMs * 2;

type Loaded = { readonly phase: 'ready'; readonly tasks: readonly TTaskDetails[]; readonly now: number } | { readonly phase: 'failed' };

export function TaskStatus({ status }: { readonly status: TTaskDetails['status'] }) {
  const t = useTranslations('tools.recent.status');
  return (
    <span className={styles.badge} data-status={status}>
      {t(status)}
    </span>
  );
}

export function RecentConversions({
  signed,
  isReady,
  refreshKey,
  hiddenTag,
}: {
  readonly signed: SignedFields;
  /** The session has been read: the list is asked with the right owner. */
  readonly isReady: boolean;
  /** Changes when a conversion of this page ends: the list is read again. */
  readonly refreshKey: number;
  /** The task running above the list, shown there and not twice. */
  readonly hiddenTag: string | null;
}) {
  const t = useTranslations('tools.recent');
  const tools = useTranslations('tools.tool');
  const { href } = useSiteLocale();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [attempt, setAttempt] = useState(0);
  const { account, usertoken } = signed;
  const { busyTag, error, download } = useDownload(signed);

  useEffect(() => {
    if (!isReady) return;
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      listTasks(account === undefined ? {} : { account, usertoken }, 1, RECENT_COUNT).then(
        ({ tasks }) => {
          if (!isCurrent) return;
          setLoaded({ phase: 'ready', tasks, now: Math.floor(Date.now() / 1000) });
          if (tasks.some((task) => task.tasktag !== hiddenTag && isTaskActive(task))) timer = setTimeout(read, ACTIVE_REFRESH_MS);
        },
        () => {
          if (isCurrent) setLoaded({ phase: 'failed' });
        },
      );
    };
    read();
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [isReady, account, usertoken, refreshKey, attempt, hiddenTag]);

  const tasks = loaded?.phase === 'ready' ? loaded.tasks.filter((task) => task.tasktag !== hiddenTag) : [];
  return (
    <section className={styles.recent} aria-labelledby="tool-recent-title" data-testid="tool-recent">
      <div className={styles.recentHead}>
        <h2 id="tool-recent-title" className={styles.sectionTitle}>
          {account === undefined ? t('titleDevice') : t('titleUser')}
        </h2>
        {account !== undefined && (
          <Link className={styles.textLink} href={href('/personal-download.html')}>
            {t('all')}
          </Link>
        )}
      </div>
      {loaded === null && (
        <p className={styles.recentNote} aria-busy="true">
          <Spinner size={18} />
          {t('loading')}
        </p>
      )}
      {loaded?.phase === 'failed' && (
        <p className={styles.recentNote}>
          {t('loadFailed')}
          <button type="button" className={styles.linkButton} onClick={() => setAttempt((value) => value + 1)}>
            {t('retry')}
          </button>
        </p>
      )}
      {loaded?.phase === 'ready' && tasks.length === 0 && <p className={styles.recentNote}>{t('empty')}</p>}
      {loaded?.phase === 'ready' && tasks.length > 0 && (
        <ul className={styles.recentList}>
          {tasks.map((task) => {
            const title = taskTitleOf(task);
            const isDownloadable = canDownload(task, loaded.now);
            const left = timeLeftOf(task.expiretime, loaded.now);
            return (
              <li key={task.tasktag} className={styles.recentRow} data-testid="tool-recent-row" data-status={task.status}>
                <div className={styles.recentMain}>
                  <p className={styles.recentName} title={task.files.map((file) => file.name).join('\n')}>
                    <span className={styles.ellipsis}>{title.first}</span>
                    {title.more > 0 && <span className={styles.recentMore}>{t('more', { total: title.more + 1, more: title.more })}</span>}
                  </p>
                  <p className={styles.recentMeta}>
                    <span>{tools(`${task.tasktype}.name`)}</span>
                    <span>{formatBeijingTime(task.createtime)}</span>
                    <span>{isDownloadable ? t('expiresIn', left) : task.status === 'done' ? t('expired') : ''}</span>
                  </p>
                  {task.status === 'failed' && task.reason && <p className={styles.recentReason}>{task.reason}</p>}
                  {error?.tasktag === task.tasktag && (
                    <p className={styles.recentReason} role="alert">
                      {error.message}
                    </p>
                  )}
                </div>
                <TaskStatus status={task.status} />
                {isDownloadable && (
                  <button
                    type="button"
                    className={styles.smallButton}
                    disabled={busyTag === task.tasktag}
                    onClick={() => download(task.tasktag)}
                    data-testid="tool-recent-download"
                  >
                    <DownloadIcon size={16} />
                    {t('download')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
