import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ArticleView, ContentUnavailable } from '@/components/content/article/article-view';
import { loadPost, relatedPosts, sidebarGuides } from '@/components/content/article/article-data';
import { articleMetadata } from '@/components/content/article/article-metadata';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { articleIdOf } from '@/lib/content/posts';
import { routeMetadata } from '@/lib/metadata';
import { articlePath } from '@/lib/navigation/footer-links';

// spec §2: `/{id}` and `/{id}.html` are one article page (route name index-id); the footer links
// the `.html` form, so that is the canonical one. An id the content API does not know is a 404.
const ROUTE = 'index-id';

async function articleRoute(props: RouteProps) {
  const route = await resolveRoute(ROUTE, props, {
    canonical: ({ id = '' }) => ({ id: `${id.replace(/\.html$/, '')}.html` }),
    values: ({ id = '' }) => ({ id: id.replace(/\.html$/, '') }),
  });
  const id = articleIdOf(route.values.id ?? '');
  if (id === null) notFound();
  return { route, id, load: await loadPost('posts', id) };
}

export async function generateMetadata(props: RouteProps): Promise<Metadata> {
  const { route, id, load } = await articleRoute(props);
  if (load.state === 'missing') notFound();
  if (load.state === 'unavailable') return routeMetadata(route.locale, ROUTE, route.params, route.values);
  return articleMetadata(route.locale, load.article, articlePath(id));
}

// Rendered on first request and then cached: no article id is known at build time.
export function generateStaticParams(): Record<string, string>[] {
  return [];
}

export default async function ArticlePage(props: RouteProps) {
  const { route, load } = await articleRoute(props);
  if (load.state === 'missing') notFound();
  if (load.state === 'unavailable') {
    return (
      <PageFrame locale={route.locale} name={ROUTE} params={route.params} values={route.values}>
        <ContentUnavailable locale={route.locale} />
      </PageFrame>
    );
  }
  const [related, guides] = await Promise.all([relatedPosts(load.article), sidebarGuides(load.article.id)]);
  return <ArticleView locale={route.locale} article={load.article} related={related} guides={guides} />;
}
