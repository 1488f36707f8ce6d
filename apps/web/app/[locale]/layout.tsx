import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { getTranslations, setRequestLocale } from 'next-intl/server';
import { AppProviders } from '@/components/app/app-providers';
import { LOCALES, LOCALE_CONFIGS, isLocale } from '@/lib/i18n/locales';

interface LocaleLayoutProps {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}

// Every page exists once per locale; all are rendered at build time where their data allows.
export function generateStaticParams(): { locale: string }[] {
  return LOCALES.map((locale) => ({ locale }));
}

export async function generateMetadata({ params }: LocaleLayoutProps): Promise<Metadata> {
  const { locale } = await params;
  if (!isLocale(locale)) return {};
  const t = await getTranslations({ locale, namespace: 'common' });
  return {
    title: { template: t('titleTemplate'), default: t('defaultTitle') },
    description: t('defaultDescription'),
    applicationName: t('siteName'),
    openGraph: { siteName: t('siteName'), locale, type: 'website' },
  };
}

export default async function LocaleLayout({ children, params }: LocaleLayoutProps) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return (
    <html lang={locale} dir={LOCALE_CONFIGS[locale].dir}>
      <body>
        <AppProviders locale={locale}>{children}</AppProviders>
      </body>
    </html>
  );
}
