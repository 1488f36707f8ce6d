'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { DownloadIcon } from '@/components/ui/icons';
import { countDailypicDownload, countDailypicView, readDailypicCounts } from '@/lib/content/counters';
import { isFirstVisit } from '@/lib/first-visit';
import styles from './dailypic.module.css';

// The live counters of a daily picture's page (decision 0012: views counted once per visit, downloads
// counted). The server renders the numbers it had (pages are cached for minutes); on arrival the
// browser counts the visit once per tab session, or else reads the current numbers, and a
// download click counts the download and shows the new total at once.

const VIEWED_KEY_PREFIX = 'xcad:dailypic-viewed:';

interface Counts {
  readonly views: number;
  readonly downloads: number;
}

interface LiveState extends Counts {
  readonly countDownload: () => void;
}

const LiveContext = createContext<LiveState | null>(null);

export function DailypicLive({ id, initial, children }: { id: number; initial: Counts; children: ReactNode }) {
  const [counts, setCounts] = useState<Counts>(initial);

  useEffect(() => {
    let isCurrent = true;
    const request = isFirstVisit(`${VIEWED_KEY_PREFIX}${id}`) ? countDailypicView(id) : readDailypicCounts(id);
    request
      .then(({ views, downloads }) => {
        if (!isCurrent) return;
        setCounts((current) => ({ views: views ?? current.views, downloads: downloads ?? current.downloads }));
      })
      // A counter never blocks looking at the drawing: the server's numbers stay.
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [id]);

  const countDownload = useCallback(() => {
    setCounts((current) => ({ ...current, downloads: current.downloads + 1 }));
    countDailypicDownload(id)
      .then(({ downloads }) => {
        if (downloads !== null) setCounts((current) => ({ ...current, downloads }));
      })
      .catch(() => undefined);
  }, [id]);

  const value = useMemo(() => ({ ...counts, countDownload }), [counts, countDownload]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

function useLive(): LiveState {
  const state = useContext(LiveContext);
  if (state === null) throw new Error('DailypicLive is missing around a live counter');
  return state;
}

/** The current number of views or downloads, announced politely when it changes. */
export function LiveCount({ kind, testId }: { kind: keyof Counts; testId: string }) {
  const state = useLive();
  return (
    <span data-testid={testId} aria-live="polite">
      {state[kind].toLocaleString('zh-CN')}
    </span>
  );
}

/**
 * The download button: a plain link to the file with `download`, so the browser saves it as it
 * would any link (and it works without script); the click also counts the download.
 */
export function DownloadButton({ file, downloadName, meta }: { file: string; downloadName: string; meta: string }) {
  const t = useTranslations('dailypic');
  const { countDownload } = useLive();
  return (
    <a className={styles.downloadButton} href={file} download={downloadName} onClick={countDownload} data-testid="dailypic-download">
      <DownloadIcon size={18} />
      <span>{t('download')}</span>
      {meta !== '' && <span className={styles.downloadMeta}>{meta}</span>}
    </a>
  );
}
