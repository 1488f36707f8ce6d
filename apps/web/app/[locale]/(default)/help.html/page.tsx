import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { HelpCentre } from '@/components/content/list/help-centre';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, searchRouteMetadata } from '@/components/page/route-page';
import type { SearchRouteProps } from '@/components/page/route-page';
import { pageNumberOf, searchQueryOf } from '@/lib/content/lists';

// spec §2 `/help.html` (软件帮助): the help categories with their articles and a search box
// (`?s=`, paged by `?page=`; search result pages are not indexed).

export function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  return searchRouteMetadata('help', props, (search) => searchQueryOf(search.s) !== '');
}

export default async function HelpPage(props: SearchRouteProps) {
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
