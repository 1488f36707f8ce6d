import type { ReactNode } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages, setRequestLocale } from 'next-intl/server';
import { AnalyticsRoot } from '@/components/analytics/analytics-root';
import { LoginModalProvider } from '@/components/auth/login-modal-provider';
import { SessionProvider } from '@/components/auth/session-provider';
import { DesktopLayout } from '@/components/desktop/desktop-layout';
import { analyticsClientConfig } from '@/lib/analytics/site-config';
import type { Locale } from '@/lib/i18n/locales';
import { SITE_URL } from '@/lib/site-url';
import { AppStateProvider } from './app-state';
import { CacheHostGuard } from './cache-host-guard';
import { ChunkReloadGuard } from './chunk-reload-guard';
import { HydrationMark } from './hydration-mark';
import { LoadingBar } from './loading-bar';

// Namespaces only server components read: kept out of every page's client payload.
const SERVER_ONLY_NAMESPACES = new Set(['pages', 'home', 'feedback', 'buy', 'tools', 'operator', 'viewer', 'console']);

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
        <DesktopLayout />
        <HydrationMark />
        <AnalyticsRoot {...analyticsClientConfig()} />
        <SessionProvider>
          <LoginModalProvider>{children}</LoginModalProvider>
        </SessionProvider>
      </AppStateProvider>
    </NextIntlClientProvider>
  );
}
