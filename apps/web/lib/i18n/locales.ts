import { LANGUAGE_COOKIE_DAYS } from '@xcad/protocol/constants';

// spec §3 "Locale": code, iso, dir, domain. spec §9: Chinese is the default and has no URL
// prefix; English is the one configured extra locale, under `/en`.
export interface LocaleConfig {
  readonly code: string;
  /** Language tag for hreflang links; a missing one is a configuration error (spec §8). */
  readonly iso?: string;
  readonly dir: 'ltr' | 'rtl';
  /** A domain of its own, when the locale is served from one. */
  readonly domain?: string;
}

export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'zh-CN';

export const LOCALE_CONFIGS: Readonly<Record<Locale, LocaleConfig>> = {
  'zh-CN': { code: 'zh-CN', iso: 'zh-CN', dir: 'ltr' },
  en: { code: 'en', iso: 'en', dir: 'ltr' },
};

/** Name of the cookie that remembers the visitor's choice (the name Next.js tooling expects). */
export const LOCALE_COOKIE = 'NEXT_LOCALE';

/** spec §9: the language cookie lives 365 days. */
const LOCALE_COOKIE_MAX_AGE_SECONDS = LANGUAGE_COOKIE_DAYS * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The hreflang of a locale; spec §8: a missing ISO code logs a warning and falls back to the code. */
export function hreflangOf(config: LocaleConfig): string {
  if (config.iso) return config.iso;
  console.warn(`[i18n] locale "${config.code}" has no ISO code; using the code as its hreflang`);
  return config.code;
}

/** The URL prefix of a locale: none for the default locale. */
function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

/**
 * The public path of `path` (an unprefixed path beginning with `/`) in `locale`:
 * `/help.html` -> `/help.html` (zh-CN) or `/en/help.html`; `/` -> `/` or `/en`.
 */
export function localizePath(path: string, locale: Locale): string {
  const prefix = localePrefix(locale);
  if (!prefix) return path;
  return path === '/' ? prefix : `${prefix}${path}`;
}

/** Splits a public path into its locale and the unprefixed rest (`/en/help.html` -> en, `/help.html`). */
export function splitLocalePath(pathname: string): { locale: Locale | null; rest: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const first = match?.[1];
  if (first !== undefined && isLocale(first)) return { locale: first, rest: match?.[2] ?? '/' };
  return { locale: null, rest: pathname };
}

/** The cookie string a browser stores for a locale choice (spec §4, §9). */
export function localeCookieString(locale: Locale): string {
  return `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
}
