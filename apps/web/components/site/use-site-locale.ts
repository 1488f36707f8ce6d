'use client';

import { useLocale } from 'next-intl';
import { useCallback } from 'react';
import { DEFAULT_LOCALE, isLocale, localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';

/** The page's locale and a function giving a site path in it (`/help.html` -> `/en/help.html`). */
export function useSiteLocale(): { locale: Locale; href: (path: string) => string } {
  const current = useLocale();
  const locale: Locale = isLocale(current) ? current : DEFAULT_LOCALE;
  const href = useCallback((path: string) => localizePath(path, locale), [locale]);
  return { locale, href };
}
