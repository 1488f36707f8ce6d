import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { setRequestLocale } from 'next-intl/server';
import { SiteFrame } from '@/components/app/site-frame';
import { isLocale } from '@/lib/i18n/locales';

// The operator's pages (decision 0022, the analytics reports): the site's header and footer without
// the visitor's floating side bar (customer service, downloads) or the personal centre's menu.
export default async function OperatorLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return <SiteFrame locale={locale}>{children}</SiteFrame>;
}
