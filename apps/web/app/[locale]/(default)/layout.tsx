import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { setRequestLocale } from 'next-intl/server';
import { SiteFrame } from '@/components/app/site-frame';
import { isLocale } from '@/lib/i18n/locales';

// spec §2 "Layouts", default: header, main, footer and the floating side bar.
export default async function DefaultLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return (
    <SiteFrame locale={locale} hasSideBar>
      {children}
    </SiteFrame>
  );
}
