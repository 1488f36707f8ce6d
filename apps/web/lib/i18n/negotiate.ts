import { PAGE } from '@xcad/protocol/constants';
import { isApiPath } from '../api-paths';
import { DEFAULT_LOCALE, isLocale, localizePath, splitLocalePath } from './locales';
import type { Locale } from './locales';

// Locale routing of spec §2, §4 and §9, kept pure so it is unit-tested and the proxy stays thin.

/** The feedback page's public path `/意见反馈.html` of spec §2, percent-encoded as browsers send it. */
export const FEEDBACK_PUBLIC_PATH = '/%E6%84%8F%E8%A7%81%E5%8F%8D%E9%A6%88.html';
/** The folder that serves it under `app/[locale]/`: route folders stay ASCII. */
export const FEEDBACK_INTERNAL_PATH = '/feedback.html';

export interface LocaleRequest {
  /** Request path as received (percent-encoded or not). */
  pathname: string;
  /** Query string including its `?`, or ''. */
  search: string;
  cookieLocale?: string | undefined;
  acceptLanguage?: string | null | undefined;
}

export type RouteDecision = { kind: 'redirect'; location: string; status: number } | { kind: 'rewrite'; pathname: string; locale: Locale };

/** The supported locale a browser prefers most, from an Accept-Language header; null if none. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    // Every Chinese variant gets the one Chinese locale; every English variant gets English.
    if (tag === 'zh' || tag.startsWith('zh-')) return 'zh-CN';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return null;
}

/** spec §4: route prefix, then the stored cookie, then the browser language, then the default. */
export function negotiateLocale(request: Omit<LocaleRequest, 'search'>): Locale {
  const { locale: fromPath } = splitLocalePath(request.pathname);
  if (fromPath) return fromPath;
  if (isLocale(request.cookieLocale)) return request.cookieLocale;
  return localeFromAcceptLanguage(request.acceptLanguage) ?? DEFAULT_LOCALE;
}

function canonicalEncoding(path: string): string {
  try {
    return encodeURI(decodeURI(path));
  } catch {
    return path;
  }
}

/** Maps an unprefixed public path to the route folder path that serves it. */
export function internalPathOf(publicPath: string): string {
  return canonicalEncoding(publicPath) === FEEDBACK_PUBLIC_PATH ? FEEDBACK_INTERNAL_PATH : publicPath;
}

function redirect(location: string): RouteDecision {
  return { kind: 'redirect', location, status: PAGE.rootRedirectStatus };
}

/**
 * What the proxy does with a page request:
 * - `/zh-CN/...` redirects (302) to the unprefixed form: the default locale has no prefix;
 * - `/` redirects (302, spec §9) to `/en` when the negotiated locale is English, else is served in Chinese;
 * - `/en/...` is served in English; any other path is served in Chinese (rewritten to `/zh-CN/...`);
 * - the feedback page's internal folder is not a public URL and redirects to `/意见反馈.html`.
 * On a search-engine cache copy (`isCacheCopy`) the visitor is not on our host, so nothing redirects:
 * the page that would have been reached is rendered in place.
 */
export function decideRoute(request: LocaleRequest, { isCacheCopy = false } = {}): RouteDecision {
  const { locale: prefixed, rest } = splitLocalePath(request.pathname);
  const served = (locale: Locale, path: string): RouteDecision => ({
    kind: 'rewrite',
    pathname: `/${locale}${path === '/' ? '' : internalPathOf(path)}`,
    locale,
  });
  const moved = (locale: Locale, path: string): RouteDecision =>
    isCacheCopy ? served(locale, path) : redirect(`${localizePath(path, locale)}${request.search}`);

  if (rest === FEEDBACK_INTERNAL_PATH) return moved(prefixed ?? DEFAULT_LOCALE, FEEDBACK_PUBLIC_PATH);
  if (prefixed === DEFAULT_LOCALE) return moved(DEFAULT_LOCALE, rest);
  if (prefixed) return served(prefixed, rest);
  if (rest === '/') {
    const locale = negotiateLocale(request);
    return locale === DEFAULT_LOCALE ? served(locale, rest) : moved(locale, rest);
  }
  return served(DEFAULT_LOCALE, rest);
}

/**
 * Whether the proxy handles a path at all. Mirrors `config.matcher` in proxy.ts, which Next.js needs
 * as a literal: API and content API paths, Next.js assets, `/health` and files other than `.html`
 * pass straight through.
 */
export function isPagePath(pathname: string): boolean {
  if (isApiPath(pathname) || pathname.startsWith('/_next/')) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot === -1 || last.slice(dot) === '.html';
}
