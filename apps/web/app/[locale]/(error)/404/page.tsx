import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { NotFoundPage } from '@/components/page/not-found-page';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { NOT_FOUND_TITLE, notFoundLinks } from '@/lib/not-found-links';

// The 404 page. The proxy renders it, with status 404, for `/404` and every path the route table
// does not serve (lib/request-routing.ts); it is static like the other pages.

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { locale } = await resolveRoute('not-found', props);
  const t = await getTranslations({ locale, namespace: 'pages' });
  // '404' in the locale's title template, as every not-found page is titled (app/[locale]/not-found.tsx).
  return { title: NOT_FOUND_TITLE, description: t('not-found.description'), robots: { index: false } };
}

export default async function NotFoundRoute(props: RouteProps) {
  await resolveRoute('not-found', props);
  return <NotFoundPage links={notFoundLinks()} />;
}
