import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { HelpCentre } from '@/components/content/list/help-centre';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { pageNumberOf, searchQueryOf } from '@/lib/content/lists';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/help.html` (软件帮助): the help categories with their articles and a search box
// (`?s=`, paged by `?page=`; search result pages are not indexed).

interface Props extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const [route, search] = await Promise.all([resolveRoute('help', props), props.searchParams]);
  const metadata = await routeMetadata(route.locale, 'help');
  return searchQueryOf(search.s) === '' ? metadata : { ...metadata, robots: { index: false, follow: true } };
}

export default async function HelpPage(props: Props) {
  const [route, search] = await Promise.all([resolveRoute('help', props), props.searchParams]);
  const query = searchQueryOf(search.s);
  const page = pageNumberOf(search.page);
  if (page === null) notFound();
  return (
    <PageFrame locale={route.locale} name="help">
      <HelpCentre locale={route.locale} query={query} page={page} />
    </PageFrame>
  );
}
