import { DEFAULT_LOCALE, LOCALES, LOCALE_CONFIGS, hreflangOf, localizePath } from './i18n/locales';
import type { Locale } from './i18n/locales';
import { absoluteUrl } from './site-url';

export interface AlternateLinks {
  readonly canonical: string;
  /** hreflang -> absolute URL, for every locale and x-default. */
  readonly languages: Readonly<Record<string, string>>;
}

/**
 * spec §2: alternate and canonical links per locale. The canonical URL is the page in its own
 * locale; alternates name every locale (zh-CN unprefixed, en under /en) and x-default (Chinese).
 */
export function alternateLinks(unprefixedPath: string, locale: Locale): AlternateLinks {
  const languages: Record<string, string> = {};
  for (const code of LOCALES) languages[hreflangOf(LOCALE_CONFIGS[code])] = absoluteUrl(localizePath(unprefixedPath, code));
  languages['x-default'] = absoluteUrl(localizePath(unprefixedPath, DEFAULT_LOCALE));
  return { canonical: absoluteUrl(localizePath(unprefixedPath, locale)), languages };
}
