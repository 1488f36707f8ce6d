import type { Metadata } from 'next';
import { resolveRoute, type RouteProps } from '@/components/page/route-page';
import { routeMetadata } from '@/lib/metadata';
import type { BuyRoute } from '@/lib/pay/buy-pages';
import { BuyIndex } from './buy-index';
import { BuyPage } from './buy-page';

/** Metadata and page of /buy.html or one of the six /buy/*.html routes (spec §2). */
export function buyRoutePage(route: BuyRoute | 'buy') {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const resolved = await resolveRoute(route, props);
      return routeMetadata(resolved.locale, route);
    },
    async Page(props: RouteProps) {
      const resolved = await resolveRoute(route, props);
      return route === 'buy' ? <BuyIndex locale={resolved.locale} /> : <BuyPage locale={resolved.locale} route={route} />;
    },
  };
}
