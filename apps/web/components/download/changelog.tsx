import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/lib/i18n/locales';
import type { SoftwareRelease } from '@/lib/software/software';
import styles from './download.module.css';

const KINDS = ['added', 'improved', 'fixed'] as const;

async function ReleaseNotes({ locale, release }: { locale: Locale; release: SoftwareRelease }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  return (
    <ul className={styles.notes}>
      {KINDS.flatMap((kind) =>
        release[kind].map((item, index) => (
          <li key={`${kind}-${index}`} className={styles.note}>
            <span className={`${styles.noteKind} ${styles[kind]}`}>{t(`changelog.${kind}`)}</span>
            <span>{item}</span>
          </li>
        )),
      )}
    </ul>
  );
}

/** The current release open, every earlier one folded into its own <details> (no script needed). */
export async function Changelog({ locale, releases }: { locale: Locale; releases: readonly SoftwareRelease[] }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  const [current, ...older] = releases;
  if (current === undefined) return null;
  return (
    <section className={styles.section} aria-labelledby="download-changelog" data-testid="download-changelog">
      <h2 id="download-changelog" className={styles.sectionTitle}>
        {t('changelog.title')}
      </h2>
      <ol className={styles.timeline}>
        <li className={`${styles.release} ${styles.releaseCurrent}`} data-testid="release-current">
          <h3 className={styles.releaseHead}>
            <span className={styles.releaseVersion}>V{current.version}</span>
            <span className={styles.releaseBadge}>{t('changelog.current')}</span>
            <time className={styles.releaseDate} dateTime={current.releasedAt}>
              {t('changelog.released', { date: current.releasedAt })}
            </time>
          </h3>
          <ReleaseNotes locale={locale} release={current} />
        </li>
        {older.length > 0 && (
          <li className={styles.olderGroup}>
            <p className={styles.olderTitle}>{t('changelog.older', { count: older.length })}</p>
            <ol>
              {older.map((release) => (
                <li key={release.version} className={styles.release}>
                  <details className={styles.releaseDetails} data-testid="release-older">
                    <summary className={styles.releaseHead}>
                      <span className={styles.releaseVersion}>V{release.version}</span>
                      <time className={styles.releaseDate} dateTime={release.releasedAt}>
                        {t('changelog.released', { date: release.releasedAt })}
                      </time>
                    </summary>
                    <ReleaseNotes locale={locale} release={release} />
                  </details>
                </li>
              ))}
            </ol>
          </li>
        )}
      </ol>
    </section>
  );
}
