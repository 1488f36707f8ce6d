'use client';

import { useTranslations } from 'next-intl';
import { useState, useSyncExternalStore } from 'react';
import type { MouseEvent } from 'react';
import { track } from '@/lib/analytics/browser';
import { downloadEvent } from '@/lib/analytics/events';
import { isPhoneUserAgent, preferredPlatform, type SoftwarePlatform } from '@/lib/software/software';
import { SOFTWARE_DOWNLOADED_EVENT } from './download-count';
import { PlatformIcon } from './platform-icon';
import styles from './download.module.css';

export interface DownloadButtonFile {
  readonly platform: SoftwarePlatform;
  /** The counting URL. */
  readonly url: string;
  /** Formatted size, e.g. 83.3 MB. */
  readonly size: string;
  /** The installer's bytes and file name, for the download's analytics event (decision 0022). */
  readonly bytes: number;
  readonly fileName: string | null;
  /** The installer's SHA-256 (null for a store page). */
  readonly sha256: string | null;
  readonly isStore: boolean;
}

// Every platform is a plain link to the counting URL (it works without JavaScript and is not
// prefetched). The server renders the first platform as the big button; in the browser the one
// that fits the visitor's device (navigator.userAgent) takes its place.
// Issue 28: with JavaScript an installer downloads without leaving the page: the counting URL is
// opened in a hidden frame (it redirects to the installer server, whose file the browser saves),
// so a slow or unreachable installer server never replaces the site with an error page. The page
// then says what is downloading, its size and SHA-256, and offers 下载没有开始？ with a link that
// opens the download in a new tab. A store page (App Store) is still a plain link. Installer links
// carry `download`, which tells the loading bar no page is coming (the browser ignores it on the
// installer server's other origin, so without JavaScript the link works as before).

// The user agent does not change while the page is open.
const subscribeToNothing = () => () => undefined;

export function DownloadButtons({ software, files }: { readonly software: string; readonly files: readonly DownloadButtonFile[] }) {
  const t = useTranslations('download');
  // A platform name or null: a primitive, so the same snapshot on every call.
  const detected = useSyncExternalStore(
    subscribeToNothing,
    () =>
      preferredPlatform(
        navigator.userAgent,
        files.map((file) => file.platform),
        navigator.maxTouchPoints,
      ),
    () => null,
  );

  const isPhone = useSyncExternalStore(
    subscribeToNothing,
    () => isPhoneUserAgent(navigator.userAgent, navigator.maxTouchPoints),
    () => false,
  );
  const isDesktopOnly = files.every((file) => file.platform !== 'android' && file.platform !== 'ios');

  // The download started on this page, and how many times (each click starts a new frame).
  const [started, setStarted] = useState<{ file: DownloadButtonFile; attempt: number } | null>(null);

  const main = files.find((file) => file.platform === detected) ?? files[0];
  if (main === undefined) return null;
  const others = files.filter((file) => file !== main);
  const announce = (file: DownloadButtonFile) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!file.isStore) {
      event.preventDefault();
      setStarted((previous) => ({ file, attempt: (previous?.attempt ?? 0) + 1 }));
    }
    track(
      downloadEvent({
        name: file.fileName ?? `${software}-${file.platform}`,
        actionName: `software:${software}`,
        size: file.bytes,
        result: 'success',
      }),
    );
    window.dispatchEvent(new Event(SOFTWARE_DOWNLOADED_EVENT));
  };
  const hintOf = (file: DownloadButtonFile) =>
    file.isStore
      ? t('button.storeHint', { platform: t(`platform.${file.platform}`) })
      : t('button.primaryHint', { platform: t(`platform.${file.platform}`), size: file.size });

  return (
    <div className={styles.buttons} data-testid="download-buttons">
      <a
        className={styles.primaryButton}
        href={main.url}
        rel="nofollow"
        download={main.isStore ? undefined : (main.fileName ?? '')}
        onClick={announce(main)}
        data-testid="download-primary"
        data-platform={main.platform}
      >
        <PlatformIcon platform={main.platform} className={styles.primaryIcon} />
        <span className={styles.primaryText}>
          <span className={styles.primaryLabel}>{main.isStore ? t(`button.${main.platform}`) : t('button.download')}</span>
          <span className={styles.primaryHint}>{hintOf(main)}</span>
        </span>
      </a>
      {started !== null && <DownloadStarted key={started.attempt} file={started.file} />}
      {isPhone && isDesktopOnly && (
        <p className={styles.phoneNote} role="note" data-testid="download-phone-note">
          {t('button.onPhone')}
        </p>
      )}
      {detected !== null && files.length > 1 && (
        <p className={styles.detected} data-testid="download-detected">
          {t('button.recommended')}
        </p>
      )}
      {others.length > 0 && (
        <div className={styles.otherButtons}>
          <span className={styles.othersLabel}>{t('button.others')}</span>
          <ul>
            {others.map((file) => (
              <li key={file.platform}>
                <a
                  className={styles.secondaryButton}
                  href={file.url}
                  rel="nofollow"
                  download={file.isStore ? undefined : (file.fileName ?? '')}
                  onClick={announce(file)}
                  data-testid={`download-${file.platform}`}
                  data-platform={file.platform}
                  title={hintOf(file)}
                >
                  <PlatformIcon platform={file.platform} className={styles.secondaryIcon} />
                  {t(`button.${file.platform}`)}
                  {!file.isStore && <span className={styles.secondarySize}>{file.size}</span>}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** What is downloading, its size and checksum, the fallback link, and the hidden frame that downloads it. */
function DownloadStarted({ file }: { readonly file: DownloadButtonFile }) {
  const t = useTranslations('download.started');
  return (
    <div className={styles.started} role="status" data-testid="download-started" data-platform={file.platform}>
      <iframe className={styles.downloadFrame} src={file.url} title={file.fileName ?? file.platform} tabIndex={-1} aria-hidden="true" />
      <p className={styles.startedTitle}>{t('title', { file: file.fileName ?? file.platform })}</p>
      <p className={styles.startedFacts}>
        <span data-testid="download-started-size">{t('size', { size: file.size })}</span>
        {file.sha256 !== null && (
          <span className={styles.startedHash}>
            {t('sha256')}
            <code data-testid="download-started-sha256">{file.sha256}</code>
          </span>
        )}
      </p>
      <p className={styles.startedRetry}>
        {t('notStarted')}
        <a href={file.url} target="_blank" rel="nofollow noopener" data-testid="download-fallback">
          {t('retry')}
        </a>
        <span className={styles.startedHint}>{t('hint')}</span>
      </p>
    </div>
  );
}
