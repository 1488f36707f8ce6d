import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { AppProviders } from '@/components/app/app-providers';
import { SiteFrame } from '@/components/app/site-frame';
import { NotFoundPage } from '@/components/page/not-found-page';
import { DEFAULT_LOCALE } from '@/lib/i18n/locales';
import { NOT_FOUND_TITLE, notFoundLinks } from '@/lib/not-found-links';

// URLs that match no route at all (outside every locale): the not-found page of spec §2 in the
// default locale. It is a whole document because it renders above app/[locale]/layout.tsx.

export async function generateMetadata(): Promise<Metadata> {
  const [pages, common] = await Promise.all([
    getTranslations({ locale: DEFAULT_LOCALE, namespace: 'pages' }),
    getTranslations({ locale: DEFAULT_LOCALE, namespace: 'common' }),
  ]);
  return {
    title: common('titleTemplate').replace('%s', NOT_FOUND_TITLE),
    description: pages('not-found.description'),
  };
}

export default function RootNotFound() {
  return (
    <html lang={DEFAULT_LOCALE}>
      <body>
        <AppProviders locale={DEFAULT_LOCALE}>
          <SiteFrame locale={DEFAULT_LOCALE} isNotFound>
            <NotFoundPage links={notFoundLinks()} />
          </SiteFrame>
        </AppProviders>
      </body>
    </html>
  );
}
