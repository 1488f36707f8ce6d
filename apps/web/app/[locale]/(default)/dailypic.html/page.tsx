import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { dailypicTags, indexPage } from '@/components/dailypic/dailypic-data';
import { DailypicIndex } from '@/components/dailypic/dailypic-index';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { dailypicQueryOf, dailypicTabOf } from '@/lib/content/dailypics';
import { pageNumberOf } from '@/lib/content/lists';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/dailypic.html` (每日一图): the pictures newest first (最新) or most viewed first
// (`?tab=hot`, 最热), a title search (`?q=`), the tags of the pictures, twelve a page (`?page=N`).
// A page past the end is a 404; search results and the hot list are not indexed separately.

interface Props extends RouteProps {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const [route, search] = await Promise.all([resolveRoute('dailypic', props), props.searchParams]);
  const metadata = await routeMetadata(route.locale, 'dailypic');
  const isVariant = dailypicQueryOf(search.q) !== '' || dailypicTabOf(search.tab) === 'hot' || search.page !== undefined;
  return isVariant ? { ...metadata, robots: { index: false, follow: true } } : metadata;
}

export default async function DailypicIndexPage(props: Props) {
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
