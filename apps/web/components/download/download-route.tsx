import type { Metadata } from 'next';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import type { DownloadRoute } from '@/lib/software/software';
import { routeMetadata } from '@/lib/metadata';
import { DownloadPage } from './download-page';

/** Metadata and page of one of the nine download routes; each page file is three lines built here. */
export function downloadRoutePage(route: DownloadRoute) {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const resolved = await resolveRoute(route, props);
      return routeMetadata(resolved.locale, route);
    },
    async Page(props: RouteProps) {
      const resolved = await resolveRoute(route, props);
      return <DownloadPage locale={resolved.locale} route={route} />;
    },
  };
}
