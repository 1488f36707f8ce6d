'use client';

import { useCallback, useState } from 'react';
import { track } from '@/lib/analytics/browser';
import { downloadEvent } from '@/lib/analytics/events';
import { messageOf, type SignedFields } from '@/lib/tools/upload';
import { downloadResult } from './conversion-calls';

// A download button's state: which task is fetching its link, and what went wrong last.

export interface Download {
  /** The task (or `tasktag/fileindex`, one file of it) whose link is being fetched, null when none. */
  readonly busyTag: string | null;
  readonly error: { readonly tasktag: string; readonly message: string } | null;
  /** The task's whole result, or with `fileindex` one converted file of it (decision 0036). */
  download(tasktag: string, fileindex?: number): void;
}

export function useDownload(signed: SignedFields): Download {
  const [busyTag, setBusyTag] = useState<string | null>(null);
  const [error, setError] = useState<Download['error']>(null);
  const { account, usertoken } = signed;

  const download = useCallback(
    (tasktag: string, fileindex?: number) => {
      setBusyTag(fileindex === undefined ? tasktag : `${tasktag}/${fileindex}`);
      setError(null);
      const startedAt = performance.now();
      downloadResult(tasktag, account === undefined ? {} : { account, usertoken }, fileindex).then(
        (filename) => {
          track(downloadEvent({ name: filename, actionName: 'conversion', durationMs: performance.now() - startedAt, result: 'success' }));
          // The page stays while the browser downloads: the button is free again shortly after.
          setTimeout(() => setBusyTag(null), 1500);
        },
        (failure: unknown) => {
          const message = messageOf(failure);
          track(
            downloadEvent({
              name: tasktag,
              actionName: 'conversion',
              durationMs: performance.now() - startedAt,
              result: 'fail',
              reason: message,
            }),
          );
          setBusyTag(null);
          setError({ tasktag, message });
        },
      );
    },
    [account, usertoken],
  );

  return { busyTag, error, download };
}
