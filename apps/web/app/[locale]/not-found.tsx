import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { SiteFrame } from '@/components/app/site-frame';
import { NotFoundPage } from '@/components/page/not-found-page';
import { DEFAULT_LOCALE, isLocale } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { notFoundLinks } from '@/lib/not-found-links';

// When a page calls notFound() (an article, a daily picture or a drawing that does not exist, e.g.
// /99999). Not-found files get no route parameters: the locale is the one the layout set. The page
// is the 404 page in the site's frame, with its own title (not the home page's) and no menu entry
// marked active. Unknown URLs never get here: the proxy serves them the full 404 page.

async function requestLocale(): Promise<Locale> {
  const locale = await getLocale();
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await requestLocale(), namespace: 'pages' });
  return { title: t('not-found.title'), description: t('not-found.description'), robots: { index: false } };
}

export default async function LocaleNotFound() {
  return (
    <SiteFrame locale={await requestLocale()} isNotFound>
      <NotFoundPage links={notFoundLinks()} />
    </SiteFrame>
  );
}
