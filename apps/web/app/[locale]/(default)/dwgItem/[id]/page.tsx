import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { DrawingDetail } from '@/components/drawings/drawing-detail';
import { DrawingsUnavailable } from '@/components/drawings/drawing-list';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { summaryOf } from '@/lib/drawings/drawings';
import { loadDrawing } from '@/lib/drawings/drawings-api';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/dwgItem/{id}` (decision 0012): one drawing of the library; an unknown id is a 404. The
// title and description of the head come from the drawing.

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute('dwgItem-id', props);
  const base = await routeMetadata(route.locale, 'dwgItem-id', route.params);
  const drawing = await loadDrawing(Number(route.params.id));
  if (drawing.state === 'missing') notFound();
  if (drawing.state !== 'found') return base;
  const t = await getTranslations({ locale: route.locale, namespace: 'drawings' });
  const title = t('detailTitle', { title: drawing.value.title, format: drawing.value.format });
  const description = summaryOf(drawing.value.description);
  return {
    ...base,
    title,
    description,
    keywords: drawing.value.tags,
    openGraph: { ...base.openGraph, title, description, images: [{ url: drawing.value.preview, width: 960, height: 720 }] },
  };
}

// Rendered on first request and then cached: no parameter is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default async function DrawingPage(props: RouteProps) {
  const route = await resolveRoute('dwgItem-id', props);
  const drawing = await loadDrawing(Number(route.params.id));
  if (drawing.state === 'missing') notFound();
  if (drawing.state === 'unavailable') {
    return (
      <PageFrame locale={route.locale} name="dwgItem-id" params={route.params}>
        <DrawingsUnavailable locale={route.locale} />
      </PageFrame>
    );
  }
  return <DrawingDetail locale={route.locale} drawing={drawing.value} />;
}
