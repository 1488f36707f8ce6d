import type { Metadata } from 'next';
import { connection } from 'next/server';
import { PageFrame } from '@/components/page/page-frame';
import { resolveRoute } from '@/components/page/route-page';
import type { RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import { pathOf } from '@/lib/routes';
import type { RouteName } from '@/lib/routes';
import { loadPost } from './article-data';
import { articleMetadata } from './article-metadata';
import { ContentUnavailable, StaticPageView } from './article-view';

/**
 * A route of the table whose body is one page of the content API (`/pages/{id}`), e.g. the
 * privacy policy. Its head comes from the page's SEO data on the route's own path; when the API
 * cannot give the page, the route's frame shows a "temporarily unavailable" note.
 *
 * That note must never be what the page cache keeps: the site is built while the API is down, so a
 * prerendered failure would be served until the next revalidation. `connection()` makes such a
 * render dynamic (at build time the route is then rendered per request from the 300 s fetch
 * cache; during a revalidation it aborts, keeping the last good page).
 */
export function contentPage(name: RouteName, pageId: number) {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props);
      const load = await loadPost('pages', pageId);
      if (load.state !== 'found') {
        await connection();
        return routeMetadata(route.locale, name, route.params);
      }
      return articleMetadata(route.locale, load.article, pathOf(name, route.params));
    },
    async Page(props: RouteProps) {
      const route = await resolveRoute(name, props);
      const load = await loadPost('pages', pageId);
      if (load.state !== 'found') {
        await connection();
        return (
          <PageFrame locale={route.locale} name={name} params={route.params}>
            <ContentUnavailable locale={route.locale} />
          </PageFrame>
        );
      }
      return <StaticPageView locale={route.locale} article={load.article} />;
    },
  };
}
