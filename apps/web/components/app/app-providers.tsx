import type { ReactNode } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages, setRequestLocale } from 'next-intl/server';
import { LoginModalProvider } from '@/components/auth/login-modal-provider';
import { SessionProvider } from '@/components/auth/session-provider';
import type { Locale } from '@/lib/i18n/locales';
import { SITE_URL } from '@/lib/site-url';
import { AppStateProvider } from './app-state';
import { CacheHostGuard } from './cache-host-guard';
import { ChunkReloadGuard } from './chunk-reload-guard';
import { DesktopFrame } from './desktop-frame';
import { HydrationMark } from './hydration-mark';
import { LoadingBar } from './loading-bar';

// Namespaces only server components read: kept out of every page's client payload.
const SERVER_ONLY_NAMESPACES = new Set(['pages', 'home', 'feedback', 'buy', 'tools']);

/** Messages, application state, the session and login modal, and the page-wide guards every document gets. */
export async function AppProviders({ locale, children }: { locale: Locale; children: ReactNode }) {
  // The provider reads formats and `now` from the request config: with the locale set here that
  // never falls back to request headers (which would make static pages dynamic).
  setRequestLocale(locale);
  const messages = Object.fromEntries(
    Object.entries(await getMessages({ locale })).filter(([namespace]) => !SERVER_ONLY_NAMESPACES.has(namespace)),
  );
  return (
    <NextIntlClientProvider locale={locale} messages={messages} timeZone="Asia/Shanghai">
      <AppStateProvider>
        <CacheHostGuard siteUrl={SITE_URL} />
        <ChunkReloadGuard />
        <LoadingBar />
        <DesktopFrame />
        <HydrationMark />
        <SessionProvider>
          <LoginModalProvider>{children}</LoginModalProvider>
        </SessionProvider>
      </AppStateProvider>
    </NextIntlClientProvider>
  );
}
