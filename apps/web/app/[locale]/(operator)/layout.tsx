import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages, setRequestLocale } from 'next-intl/server';
import { isLocale } from '@/lib/i18n/locales';

// The back office (decision 0042): its sign-in page and the console, without the site's header,
// footer or side bar. The console is Chinese whatever the address's locale: its client components
// read the zh-CN `console` messages given here.
export default async function OperatorLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  const messages = await getMessages({ locale: 'zh-CN' });
  return (
    <NextIntlClientProvider locale="zh-CN" messages={{ console: messages['console'] ?? {} }} timeZone="Asia/Shanghai">
      {children}
    </NextIntlClientProvider>
  );
}
