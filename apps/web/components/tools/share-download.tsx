'use client';

import type { TTaskStatus } from '@xcad/protocol';
import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useSiteLocale } from '@/components/site/use-site-locale';
import { cardClass } from '@/components/ui/card';
import { DownloadIcon } from '@/components/ui/icons';
import Link from '@/components/ui/link';
import { Spinner } from '@/components/ui/spinner';
import { track } from '@/lib/analytics/browser';
import { downloadEvent } from '@/lib/analytics/events';
import { formatBeijingTime } from '@/lib/orders/orders';
import { formatBytes } from '@/lib/tools/format';
import { askShare, isShareFinal, shareParamsOf, type ShareView } from '@/lib/tools/share';
import styles from './share.module.css';

// /share.html (spec §2, decision 0019): what a phone shows after scanning a task's QR. It asks about
// the task every 2 s until it has ended; once done, a big download button. The signed link of a
// finished task expires after a while, so it is asked for again every few minutes.

/** spec §9: task poll 2 s. A literal: this page avoids the protocol's runtime (see lib/tools/share.ts). */
const POLL_MS = 2_000;
/** The link of a finished task is renewed this often (it is good for 30 minutes). */
const RENEW_MS = 10 * 60_000;
/** After an unreadable answer the page waits a little longer before asking again. */
const UNREADABLE_RETRY_MS = 5_000;

type Shown =
  | { readonly kind: 'loading' }
  | { readonly kind: 'view'; readonly view: ShareView; readonly isStale: boolean }
  | { readonly kind: 'refused'; readonly message: string };

const STATE_TONE: Readonly<Record<TTaskStatus, 'active' | 'done' | 'failed'>> = {
  uploading: 'active',
  queued: 'active',
  processing: 'active',
  done: 'done',
  failed: 'failed',
  cancelled: 'failed',
};

/** The bytes a phone downloads from the share page: the results, or the inputs where a result has no size. */
function sharedBytes(view: ShareView): number {
  return view.files.reduce((total, file) => total + (file.outputsize ?? file.size), 0);
}

function ShareBody({ tasktag, code }: { readonly tasktag: string; readonly code: string }) {
  const t = useTranslations('tools.share');
  const states = useTranslations('tools.recent.status');
  const { href } = useSiteLocale();
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });

  useEffect(() => {
    let isCurrent = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = async () => {
      const answer = await askShare(tasktag, code);
      if (!isCurrent) return;
      if (answer.kind === 'refused') {
        setShown(answer);
        return;
      }
      if (answer.kind === 'unreadable') {
        setShown((previous) => (previous.kind === 'view' ? { ...previous, isStale: true } : previous));
        timer = setTimeout(ask, UNREADABLE_RETRY_MS);
        return;
      }
      setShown({ kind: 'view', view: answer.view, isStale: false });
      if (!isShareFinal(answer.view)) timer = setTimeout(ask, POLL_MS);
      else if (answer.view.status === 'done') timer = setTimeout(ask, RENEW_MS);
    };
    void ask();
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [tasktag, code]);

  if (shown.kind === 'loading') {
    return (
      <div className={cardClass(styles.sheet)} aria-busy="true" data-testid="share-loading">
        <Spinner size={28} />
        <p className={styles.note}>{t('loading')}</p>
      </div>
    );
  }
  if (shown.kind === 'refused') {
    return (
      <div className={cardClass(styles.sheet)} data-testid="share-refused">
        <p className={styles.error} role="alert">
          {shown.message}
        </p>
        <Link className={styles.secondary} href={href('/tools.html')}>
          {t('toTools')}
        </Link>
      </div>
    );
  }

  const { view } = shown;
  const tone = STATE_TONE[view.status];
  return (
    <div className={cardClass(styles.sheet)} data-testid="share-view" data-status={view.status}>
      <ul className={styles.files}>
        {view.files.map((file, index) => (
          <li key={`${index}-${file.name}`} className={styles.file}>
            <span className={styles.fileName}>{file.outputname ?? file.name}</span>
            <span className={styles.fileMeta}>{formatBytes(file.outputsize ?? file.size)}</span>
            {file.state === 'failed' && file.reason && <span className={styles.fileReason}>{file.reason}</span>}
          </li>
        ))}
      </ul>
      <p className={styles.state} data-tone={tone} aria-live="polite">
        {tone === 'active' && <Spinner size={18} />}
        {states(view.status)}
        {tone === 'active' && view.statusdetail && <span className={styles.detail}>{view.statusdetail}</span>}
      </p>
      {tone === 'active' && <p className={styles.note}>{t('waiting')}</p>}
      {view.status === 'failed' && (
        <p className={styles.error} role="alert">
          {view.reason ?? t('failed')}
        </p>
      )}
      {view.status === 'cancelled' && <p className={styles.note}>{t('cancelled')}</p>}
      {view.status === 'done' && view.downurl !== undefined && (
        <>
          <a
            className={styles.download}
            href={view.downurl}
            download={view.filename}
            data-testid="share-download"
            onClick={() =>
              track(
                downloadEvent({
                  io: 'share',
                  name: view.filename ?? tasktag,
                  actionName: 'share',
                  size: sharedBytes(view),
                  result: 'success',
                }),
              )
            }
          >
            <DownloadIcon size={22} />
            {view.filename ? t('downloadName', { name: view.filename }) : t('download')}
          </a>
          <p className={styles.note}>{t('expires', { time: formatBeijingTime(view.expiretime) })}</p>
          <p className={styles.tip}>{t('tip')}</p>
        </>
      )}
      {shown.isStale && <p className={styles.note}>{t('unreadable')}</p>}
      <Link className={styles.secondary} href={href('/tools.html')}>
        {t('toTools')}
      </Link>
    </div>
  );
}

export function ShareDownload() {
  const t = useTranslations('tools.share');
  const params = shareParamsOf(useSearchParams());
  if (params === null) {
    return (
      <div className={cardClass(styles.sheet)} data-testid="share-missing">
        <p className={styles.error} role="alert">
          {t('missing')}
        </p>
      </div>
    );
  }
  return <ShareBody key={`${params.tasktag}/${params.code}`} tasktag={params.tasktag} code={params.code} />;
}
