import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { setRequestLocale } from 'next-intl/server';
import { SiteFrame } from '@/components/app/site-frame';
import { isLocale } from '@/lib/i18n/locales';

// spec §2 "Layouts": the error layout shows the not-found page, with the site's header and footer
// so the visitor can go on from there.
export default async function ErrorLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return (
    <SiteFrame locale={locale} isNotFound>
      {children}
    </SiteFrame>
  );
}
