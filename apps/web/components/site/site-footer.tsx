import { LAYOUT } from '@xcad/protocol';
import { ConsentSettingsItem } from '@/components/analytics/consent-settings-item';
import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { isExternalUrl, siteConfig } from '@/config/site';
import { latestGuides } from '@/lib/content/latest-guides';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import {
  articlePath,
  FOOTER_LEGAL_LINKS,
  FOOTER_SOFTWARE_LINKS,
  FOOTER_TOOL_LINKS,
  GUIDES_INDEX_PATH,
} from '@/lib/navigation/footer-links';
import { ClockIcon, MailIcon, PhoneIcon } from '@/components/ui/icons';
import { CopyEmailButton } from './copy-email-button';
import { FilingBadge } from './filing-badge';
import { LogoMark } from './logo';
import styles from './site-footer.module.css';

/** The desktop footer of spec §2 (shown above 750 px). */
export async function SiteFooter({ locale }: { readonly locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'footer' });
  const config = siteConfig();
  const guides = await latestGuides(LAYOUT.footerGuideCount);
  const href = (path: string) => localizePath(path, locale);

  return (
    <footer className={styles.footer} data-testid="site-footer" aria-label={t('label')} data-track-module="footer">
      <div className={styles.inner}>
        <div className={styles.top} data-has-guides={guides.length > 0}>
          <section className={styles.about} aria-labelledby="footer-about">
            <div className={styles.brand}>
              <LogoMark size={30} />
              <h2 id="footer-about" className={styles.brandName}>
                {t('about.title')}
              </h2>
            </div>
            <p className={styles.aboutText}>{t('about.text')}</p>
          </section>

          <nav className={styles.column} aria-labelledby="footer-software">
            <h2 id="footer-software" className={styles.title}>
              {t('software.title')}
            </h2>
            <ul className={styles.list}>
              {FOOTER_SOFTWARE_LINKS.map((link) => (
                <li key={link.key}>
                  <Link href={href(link.href)} className={styles.link}>
                    {t(`software.${link.key}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          <nav className={styles.column} aria-labelledby="footer-tools">
            <h2 id="footer-tools" className={styles.title}>
              {t('tools.title')}
            </h2>
            <ul className={styles.list}>
              {FOOTER_TOOL_LINKS.map((link) => (
                <li key={link.key}>
                  <Link href={href(link.href)} className={styles.link}>
                    {t(`tools.${link.key}`)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>

          {guides.length > 0 && (
            <nav className={styles.guidesColumn} aria-labelledby="footer-guides" data-testid="footer-guides">
              <h2 id="footer-guides" className={styles.title}>
                {t('guides.title')}
              </h2>
              <ul className={styles.list}>
                {guides.map((guide) => (
                  <li key={guide.id}>
                    <Link href={href(articlePath(guide.id))} className={styles.guideLink} title={guide.title}>
                      {guide.title}
                    </Link>
                  </li>
                ))}
              </ul>
              <Link href={href(GUIDES_INDEX_PATH)} className={styles.more}>
                {t('guides.more')}
              </Link>
            </nav>
          )}

          <section className={styles.contact} aria-labelledby="footer-contact">
            <h2 id="footer-contact" className={styles.title}>
              {t('contact.title')}
            </h2>
            <p className={styles.contactLabel}>
              <PhoneIcon size={14} />
              {t('contact.hotline')}
            </p>
            <ul className={styles.phones}>
              {config.phones.map((phone) => (
                <li key={phone}>
                  <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={styles.phone}>
                    {phone}
                  </a>
                </li>
              ))}
            </ul>
            <p className={styles.hours}>
              <ClockIcon size={14} />
              {t('contact.hours')}
            </p>
            <p className={styles.contactLabel}>
              <MailIcon size={14} />
              {t('contact.email')}
            </p>
            <p className={styles.email}>
              <a href={`mailto:${config.supportEmail}`} className={styles.link}>
                {config.supportEmail}
              </a>
              <CopyEmailButton email={config.supportEmail} className={styles.copy} />
            </p>
          </section>
        </div>

        {config.friendLinks.length > 0 && (
          <nav className={styles.friends} aria-labelledby="footer-friends">
            <h2 id="footer-friends" className={styles.friendsTitle}>
              {t('friends.title')}
            </h2>
            <ul className={styles.friendList}>
              {config.friendLinks.map((link) => (
                <li key={link.key}>
                  <a href={link.url} className={styles.link} target="_blank" rel="noopener">
                    {t(`friends.${link.key}`)}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </div>

      <div className={styles.bottom}>
        <div className={styles.bottomInner}>
          <p className={styles.copyright}>{t('legal.copyright', { year: new Date().getFullYear() })}</p>
          <ul className={styles.legal}>
            {FOOTER_LEGAL_LINKS.map((link) => (
              <li key={link.key}>
                <Link href={href(link.href)} className={styles.link}>
                  {t(`legal.${link.key}`)}
                </Link>
              </li>
            ))}
            <ConsentSettingsItem className={styles.link} />
          </ul>
          <p className={styles.filings}>
            <a href={config.icpUrl} className={styles.link} target="_blank" rel="noopener noreferrer">
              {config.icp ?? t('filing.icp')}
            </a>
            <a
              href={config.psbUrl}
              className={`${styles.link} ${styles.psb}`}
              target={isExternalUrl(config.psbUrl) ? '_blank' : undefined}
              rel="noopener noreferrer"
            >
              <FilingBadge label={t('filing.psbBadge')} />
              {config.psb ?? t('filing.psb', { code: config.psbCode })}
            </a>
          </p>
        </div>
      </div>
    </footer>
  );
}
