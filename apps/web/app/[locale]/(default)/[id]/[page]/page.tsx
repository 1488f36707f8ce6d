import type { Metadata } from 'next';
import { notFound, permanentRedirect } from 'next/navigation';
import { loadPost, relatedPosts, sidebarGuides } from '@/components/content/article/article-data';
import { articleMetadata } from '@/components/content/article/article-metadata';
import { ArticleView, ContentUnavailable } from '@/components/content/article/article-view';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { articlePagePath, articlePages } from '@/lib/content/posts';
import { localizePath } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';

// spec §2 `/{id}?/{page}` (route index-id-page): page {page} of an article the author split with
// WordPress's `<!--nextpage-->`. Page 1 is the article itself (/{id}.html, a permanent redirect);
// a page the article does not have, or an unknown article, is a 404.
const ROUTE = 'index-id-page';

async function articlePageRoute(props: RouteProps) {
  const route = await resolveRoute(ROUTE, props);
  const id = Number(route.params.id);
  const page = Number(route.params.page);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(page) || page < 1) notFound();
  const load = await loadPost('posts', id);
  if (load.state === 'missing') notFound();
  if (load.state === 'found') {
    if (page > articlePages(load.article.html).length) notFound();
    if (page === 1) permanentRedirect(localizePath(articlePagePath(id, 1), route.locale));
  }
  return { route, id, page, load };
}

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { route, id, page, load } = await articlePageRoute(props);
  if (load.state !== 'found') return routeMetadata(route.locale, ROUTE, route.params, route.values);
  const base = articleMetadata(route.locale, load.article, articlePagePath(id, page));
  const total = articlePages(load.article.html).length;
  const title = `${load.article.seo.title} (${page}/${total})`;
  return { ...base, title, openGraph: { ...base.openGraph, title } };
}

// Rendered on first request and then cached: no article id is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default async function ArticlePagePage(props: RouteProps) {
  const { route, page, load } = await articlePageRoute(props);
  if (load.state === 'unavailable') {
    return (
      <PageFrame locale={route.locale} name={ROUTE} params={route.params} values={route.values}>
        <ContentUnavailable locale={route.locale} />
      </PageFrame>
    );
  }
  if (load.state !== 'found') notFound();
  const [related, guides] = await Promise.all([relatedPosts(load.article), sidebarGuides(load.article.id)]);
  return <ArticleView locale={route.locale} article={load.article} related={related} guides={guides} page={page} />;
}
