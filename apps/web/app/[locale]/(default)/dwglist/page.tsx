import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import {
  DrawingFilters,
  DrawingResults,
  DrawingSearch,
  DrawingToolbar,
  DrawingsUnavailable,
  MemberNote,
} from '@/components/drawings/drawing-list';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { loadDrawingList } from '@/lib/drawings/drawings-api';
import { hasFilters, listStateOf, type SearchParams } from '@/lib/drawings/drawings';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/dwglist` (decision 0012): the drawing library with category, format and access filters,
// search (`?q=`) and pages (`?page=`). Filtered and searched views are not indexed; the canonical
// link is the plain list. A bad parameter or a page past the end is a 404.

interface Props extends RouteProps {
  searchParams: Promise<SearchParams>;
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const [route, search] = await Promise.all([resolveRoute('dwglist', props), props.searchParams]);
  const metadata = await routeMetadata(route.locale, 'dwglist');
  const state = listStateOf(search);
  if (state === null || (!hasFilters(state) && state.page === 1)) return metadata;
  const t = await getTranslations({ locale: route.locale, namespace: 'drawings' });
  let title = metadata.title;
  if (state.q !== '') title = t('pageTitleSearch', { q: state.q });
  else if (state.category !== undefined) {
    const list = await loadDrawingList(state);
    const name = list.state === 'found' ? list.value.categories.find((category) => category.slug === state.category)?.name : undefined;
    if (name !== undefined) title = t('pageTitleFiltered', { name });
  }
  return { ...metadata, title, robots: { index: false, follow: true } };
}

export default async function DrawingListPage(props: Props) {
  const [route, search] = await Promise.all([resolveRoute('dwglist', props), props.searchParams]);
  const state = listStateOf(search);
  if (state === null) notFound();
  const list = await loadDrawingList(state);
  if (list.state === 'missing') notFound();
  if (list.state === 'found' && state.page > 1 && state.page > list.value.totalPages) notFound();
  return (
    <PageFrame locale={route.locale} name="dwglist">
      {list.state === 'found' ? (
        <>
          <DrawingToolbar>
            <DrawingSearch locale={route.locale} state={state} />
            <DrawingFilters locale={route.locale} state={state} list={list.value} />
          </DrawingToolbar>
          <DrawingResults locale={route.locale} state={state} list={list.value} />
          <MemberNote locale={route.locale} />
        </>
      ) : (
        <DrawingToolbar>
          <DrawingSearch locale={route.locale} state={state} />
          <DrawingsUnavailable locale={route.locale} />
        </DrawingToolbar>
      )}
    </PageFrame>
  );
}
