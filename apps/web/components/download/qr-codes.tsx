import { getTranslations } from 'next-intl/server';
import { renderSVG } from 'uqr';
import type { Locale } from '@/lib/i18n/locales';
import { absoluteUrl } from '@/lib/site-url';
import type { SoftwareFile } from '@/lib/software/software';
import styles from './download.module.css';

// Mobile apps: one QR code per phone platform, each of its counting URL on the site's public
// origin, so a scan is a counted download that lands on the APK or the App Store page. The SVG is
// drawn on the server by uqr from our own URL: rectangles only, nothing fetched. Low error
// correction keeps the long URL's code coarse enough for a phone camera at 132 px. Hidden in the
// mobile layout: a phone cannot scan its own screen.

export async function QrCodes({ locale, files }: { locale: Locale; files: readonly SoftwareFile[] }) {
  const t = await getTranslations({ locale, namespace: 'download' });
  const phones = files.filter((file) => file.platform === 'android' || file.platform === 'ios');
  if (phones.length === 0) return null;
  return (
    <section className={`${styles.sideCard} ${styles.qrCard}`} aria-labelledby="download-qr" data-testid="download-qr">
      <h2 id="download-qr" className={styles.sideTitle}>
        {t('qr.title')}
      </h2>
      <p className={styles.sideText}>{t('qr.text')}</p>
      <ul className={styles.qrList}>
        {phones.map((file) => {
          const target = absoluteUrl(file.url);
          return (
            <li key={file.platform} className={styles.qrItem}>
              <div
                className={styles.qrImage}
                role="img"
                aria-label={t('qr.alt', { platform: t(`platform.${file.platform}`) })}
                data-qr-url={target}
                dangerouslySetInnerHTML={{ __html: renderSVG(target, { border: 1, ecc: 'L', blackColor: '#1f2329' }) }}
              />
              <span className={styles.qrLabel}>{t(`qr.${file.platform === 'ios' ? 'ios' : 'android'}`)}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
