import { ConsentSettingsItem } from '@/components/analytics/consent-settings-item';
import Link from '@/components/ui/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { siteConfig } from '@/config/site';
import { DEFAULT_LOCALE, isLocale, localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { MOBILE_FOOTER_LINKS } from '@/lib/navigation/footer-links';
import { FilingBadge } from './filing-badge';
import styles from './mobile-footer.module.css';

/** The compact footer of mobile layouts (750 px and below): links, hotline and filing numbers. */
export async function MobileFooter({ locale: given }: { readonly locale?: Locale }) {
  const requested = given ?? (await getLocale());
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  const t = await getTranslations({ locale, namespace: 'mobile.footer' });
  const tFooter = await getTranslations({ locale, namespace: 'footer' });
  const config = siteConfig();
  const firstPhone = config.phones[0];

  return (
    <footer className={styles.footer} data-testid="mobile-footer" aria-label={t('label')} data-track-module="mobile-footer">
      <ul className={styles.links}>
        {MOBILE_FOOTER_LINKS.map((link) => (
          <li key={link.key}>
            <Link href={localizePath(link.href, locale)} className={styles.link}>
              {t(`links.${link.key}`)}
            </Link>
          </li>
        ))}
        <ConsentSettingsItem className={styles.link} />
      </ul>
      {firstPhone !== undefined && (
        <p className={styles.hotline}>
          {t('hotline')}
          <a href={`tel:${firstPhone.replace(/[^\d+]/g, '')}`} className={styles.phone}>
            {firstPhone}
          </a>
        </p>
      )}
      <p className={styles.copyright}>{t('copyright', { year: new Date().getFullYear() })}</p>
      <p className={styles.filings}>
        <a href={config.icpUrl} className={styles.filing} target="_blank" rel="noopener noreferrer">
          {config.icp ?? tFooter('filing.icp')}
        </a>
        <a href={config.psbUrl} className={styles.filing} target="_blank" rel="noopener noreferrer">
          <FilingBadge label={tFooter('filing.psbBadge')} />
          {config.psb ?? tFooter('filing.psb', { code: config.psbCode })}
        </a>
      </p>
    </footer>
  );
}
