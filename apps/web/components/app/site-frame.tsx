import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { ConsentBar } from '@/components/analytics/consent-bar';
import { MobileFooter } from '@/components/site/mobile-footer';
import { MobileHeader } from '@/components/site/mobile-header';
import { SideBar } from '@/components/site/side-bar';
import { SiteFooter } from '@/components/site/site-footer';
import { SiteHeader } from '@/components/site/site-header';
import type { Locale } from '@/lib/i18n/locales';
import styles from './site-frame.module.css';

/**
 * The site's chrome around a page (spec §2 "Layouts"): the desktop and the mobile header and
 * footer are both rendered and CSS shows one (pages stay cacheable for every device); the
 * floating side bar belongs to the default layout only. On the not-found page (`isNotFound`) the
 * headers mark no menu entry: an unknown address such as /404 or /99999 looks like an article's.
 */
export async function SiteFrame({
  locale,
  children,
  hasSideBar = false,
  isNotFound = false,
}: {
  locale: Locale;
  children: ReactNode;
  hasSideBar?: boolean;
  isNotFound?: boolean;
}) {
  const t = await getTranslations({ locale, namespace: 'common' });
  return (
    <div className={hasSideBar ? `${styles.frame} ${styles.withSideBar}` : styles.frame}>
      <a className={styles.skip} href="#main">
        {t('skipToContent')}
      </a>
      <SiteHeader hasActiveEntry={!isNotFound} />
      <MobileHeader hasActiveEntry={!isNotFound} />
      <main id="main" className={styles.main}>
        {children}
      </main>
      <SiteFooter locale={locale} />
      <MobileFooter locale={locale} />
      {hasSideBar && <SideBar />}
      <ConsentBar />
    </div>
  );
}
