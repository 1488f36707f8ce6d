'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { readDownloadCount } from '@/lib/software/download-count';

// The page is static (ISR), so the count it was rendered with may be a minute old: the browser
// asks the API for the current one after load, and again shortly after a download button is
// used (the download is counted by the redirect, not here; a failed refresh keeps the old count).

/** Dispatched on window by the download buttons. */
export const SOFTWARE_DOWNLOADED_EVENT = 'xcad:software-downloaded';
const REFRESH_AFTER_DOWNLOAD_MS = 1500;

export function DownloadCount({ productKey, initial }: { readonly productKey: string; readonly initial: number }) {
  const t = useTranslations('download');
  const [count, setCount] = useState(initial);

  useEffect(() => {
    let isMounted = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      readDownloadCount(productKey)
        .then((fresh) => {
          if (isMounted && fresh !== null) setCount(fresh);
        })
        .catch(() => undefined);
    };
    const onDownloaded = () => {
      clearTimeout(timer);
      timer = setTimeout(refresh, REFRESH_AFTER_DOWNLOAD_MS);
    };
    refresh();
    window.addEventListener(SOFTWARE_DOWNLOADED_EVENT, onDownloaded);
    return () => {
      isMounted = false;
      clearTimeout(timer);
      window.removeEventListener(SOFTWARE_DOWNLOADED_EVENT, onDownloaded);
    };
  }, [productKey]);

  return (
    <span data-testid="download-count" data-count={count} aria-live="polite">
      {t('facts.downloads', { count })}
    </span>
  );
}
