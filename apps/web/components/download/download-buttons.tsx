'use client';

import { useTranslations } from 'next-intl';
import { useState, useSyncExternalStore } from 'react';
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
// Issue 28: an installer downloads without leaving the page: its link opens in a new tab (the
// counting URL redirects to the installer server; the browser saves the file and closes the tab),
// so a slow or unreachable installer server never replaces the site with an error page, with or
// without JavaScript. With it, the page also says what is downloading, its size and SHA-256, and
// offers 下载没有开始？ with the link again. (A hidden frame would keep even the tab out of sight,
// but Chromium refuses downloads a frame starts from the installer server's other origin.)
// A store page (App Store) is a plain link.

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

  // The download started from this page, and how many times (the status is shown afresh each time).
  const [started, setStarted] = useState<{ file: DownloadButtonFile; attempt: number } | null>(null);

  const main = files.find((file) => file.platform === detected) ?? files[0];
  if (main === undefined) return null;
  const others = files.filter((file) => file !== main);
  const announce = (file: DownloadButtonFile) => () => {
    if (!file.isStore) setStarted((previous) => ({ file, attempt: (previous?.attempt ?? 0) + 1 }));
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
        rel={main.isStore ? 'nofollow' : 'nofollow noopener'}
        target={main.isStore ? undefined : '_blank'}
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
                  rel={file.isStore ? 'nofollow' : 'nofollow noopener'}
                  target={file.isStore ? undefined : '_blank'}
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

/** What is downloading, its size and checksum, and the link to start it again. */
function DownloadStarted({ file }: { readonly file: DownloadButtonFile }) {
  const t = useTranslations('download.started');
  return (
    <div className={styles.started} role="status" data-testid="download-started" data-platform={file.platform}>
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
