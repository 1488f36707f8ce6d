'use client';

import { useTranslations } from 'next-intl';
import { useSyncExternalStore } from 'react';
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
  readonly isStore: boolean;
}

// Every platform is a plain link to the counting URL (it works without JavaScript and is not
// prefetched). The server renders the first platform as the big button; in the browser the one
// that fits the visitor's device (navigator.userAgent) takes its place.

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

  const main = files.find((file) => file.platform === detected) ?? files[0];
  if (main === undefined) return null;
  const others = files.filter((file) => file !== main);
  const announce = (file: DownloadButtonFile) => () => {
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
