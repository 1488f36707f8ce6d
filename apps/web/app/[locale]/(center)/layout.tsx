import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { PersonalNav } from '@/components/app/personal-nav';
import { SiteFrame } from '@/components/app/site-frame';
import { isLocale, localizePath } from '@/lib/i18n/locales';
import { ROUTES } from '@/lib/routes';
import styles from './center.module.css';

// spec §2 "Layouts", center: the personal centre, with a left navigation of its pages.
export default async function CenterLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const [common, pages] = await Promise.all([
    getTranslations({ locale, namespace: 'common' }),
    getTranslations({ locale, namespace: 'pages' }),
  ]);
  const items = ROUTES.filter((route) => route.layout === 'center').map((route) => ({
    path: route.pattern,
    href: localizePath(route.pattern, locale),
    label: pages(`${route.messageKey}.title`),
  }));
  return (
    <SiteFrame locale={locale}>
      <div className={`container ${styles.center}`}>
        <aside className={styles.aside}>
          <PersonalNav label={common('personalNav')} items={items} />
        </aside>
        <div className={styles.content}>{children}</div>
      </div>
    </SiteFrame>
  );
}
