import { getRequestConfig } from 'next-intl/server';
import { loadMessages } from '@/lib/i18n/messages';
import { DEFAULT_LOCALE, isLocale } from '@/lib/i18n/locales';

// next-intl request configuration. The locale is the one passed explicitly, else the `[locale]`
// segment's (set by the layouts and pages with setRequestLocale); outside it (root not-found) the
// default. `requestLocale` is read only when needed: reading it without a locale set falls back
// to request headers, which would make static pages dynamic.
export default getRequestConfig(async (params) => {
  const requested = params.locale ?? (await params.requestLocale);
  const locale = isLocale(requested) ? requested : DEFAULT_LOCALE;
  return { locale, messages: await loadMessages(locale), timeZone: 'Asia/Shanghai' };
});
