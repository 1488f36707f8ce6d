import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { dailypicById, hotPictures } from '@/components/dailypic/dailypic-data';
import { DailypicUnavailable } from '@/components/dailypic/dailypic-grid';
import { DailypicView } from '@/components/dailypic/dailypic-view';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/dailypics/{id}` (route name dailypics-id): one daily picture with its facts, the
// download (counted), views counted once per visit, previous/next and the most viewed pictures.
// An id the content API does not know as a daily picture is a 404.
const ROUTE = 'dailypics-id';
const HOT_COUNT = 6;

async function pictureRoute(props: RouteProps) {
  const route = await resolveRoute(ROUTE, props);
  const id = Number(route.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) notFound();
  return { route, load: await dailypicById(id) };
}

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { route, load } = await pictureRoute(props);
  if (load.state === 'missing') notFound();
  const base = await routeMetadata(route.locale, ROUTE, route.params);
  if (load.state !== 'found') return base;
  const { title, excerpt, image } = load.value;
  const description = excerpt || base.description;
  return {
    ...base,
    title,
    description,
    keywords: load.value.tags.map((tag) => tag.name).join(','),
    openGraph: {
      ...base.openGraph,
      type: 'article',
      title,
      description: description ?? undefined,
      ...(image === '' ? {} : { images: [image] }),
    },
  };
}

// Rendered on first request and then cached: no parameter is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default async function DailypicPage(props: RouteProps) {
  const { route, load } = await pictureRoute(props);
  if (load.state === 'missing') notFound();
  if (load.state === 'unavailable') {
    return (
      <PageFrame locale={route.locale} name={ROUTE} params={route.params}>
        <DailypicUnavailable locale={route.locale} />
      </PageFrame>
    );
  }
  const hot = (await hotPictures(HOT_COUNT + 1)).filter((item) => item.id !== load.value.id).slice(0, HOT_COUNT);
  return <DailypicView locale={route.locale} picture={load.value} hot={hot} />;
}
