import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { dailypicTags, indexPage } from '@/components/dailypic/dailypic-data';
import { DailypicIndex } from '@/components/dailypic/dailypic-index';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute, searchRouteMetadata } from '@/components/page/route-page';
import type { SearchRouteProps } from '@/components/page/route-page';
import { dailypicQueryOf, dailypicTabOf } from '@/lib/content/dailypics';
import { pageNumberOf } from '@/lib/content/lists';

// spec §2 `/dailypic.html` (每日一图): the pictures newest first (最新) or most viewed first
// (`?tab=hot`, 最热), a title search (`?q=`), the tags of the pictures, twelve a page (`?page=N`).
// A page past the end is a 404; search results and the hot list are not indexed separately.

export function generateMetadata(props: SearchRouteProps): Promise<Metadata> {
  return searchRouteMetadata(
    'dailypic',
    props,
    (search) => dailypicQueryOf(search.q) !== '' || dailypicTabOf(search.tab) === 'hot' || search.page !== undefined,
  );
}

export default async function DailypicIndexPage(props: SearchRouteProps) {
  const [route, search] = await Promise.all([resolveRoute('dailypic', props), props.searchParams]);
  const page = pageNumberOf(search.page);
  if (page === null) notFound();
  const tab = dailypicTabOf(search.tab);
  const query = dailypicQueryOf(search.q);
  const [load, tags] = await Promise.all([indexPage(tab, query, page), dailypicTags()]);
  if (load.state === 'missing') notFound();
  return (
    <PageFrame locale={route.locale} name="dailypic">
      <DailypicIndex locale={route.locale} tab={tab} query={query} load={load} tags={tags} />
    </PageFrame>
  );
}
