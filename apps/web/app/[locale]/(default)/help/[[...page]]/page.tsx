import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { helpArticlesPage } from '@/components/content/list/list-data';
import { HelpArticlesPage } from '@/components/content/list/paged-posts';
import { ContentUnavailable } from '@/components/content/list/post-list';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RoutePageOptions, RouteProps } from '@/components/page/route-page';
import { pageNumberOf } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';

// spec §2: `/help/{page?}` lists every help article, ten a page, newest first; without a page
// number it is the first page, and a page past the end is a 404.
const options: RoutePageOptions = { values: ({ page: number = '1' }) => ({ page: number }) };

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const route = await resolveRoute('help-page', props, options);
  return routeMetadata(route.locale, 'help-page', route.params, route.values);
}

// Rendered on first request and then cached: a build-time prerender would run while the content
// API is not up and serve "content unavailable" until revalidation.
export function generateStaticParams(): { page: string[] }[] {
  return [];
}

export default async function HelpListPage(props: RouteProps) {
  const route = await resolveRoute('help-page', props, options);
  const page = pageNumberOf(route.values.page);
  if (page === null) notFound();
  const load = await helpArticlesPage(page);
  if (load.state === 'missing') notFound();
  return (
    <PageFrame locale={route.locale} name="help-page" params={route.params} values={route.values}>
      {load.state === 'found' ? (
        <HelpArticlesPage locale={route.locale} result={load.value} hrefOf={(target) => localizePath(`/help/${target}`, route.locale)} />
      ) : (
        <ContentUnavailable locale={route.locale} />
      )}
    </PageFrame>
  );
}
