import { decideRoute } from './i18n/negotiate';
import type { LocaleRequest, RouteDecision } from './i18n/negotiate';
import { splitLocalePath } from './i18n/locales';
import { isServedPath } from './routes';

export type PageDecision = RouteDecision | { kind: 'not-found'; pathname: string; status: 404 };

/**
 * What the proxy does with a page request: the locale decision (lib/i18n/negotiate.ts), and for a
 * path the route table does not serve, the locale's 404 page with status 404. Rendering that
 * static page here, rather than calling notFound() in a route, gives every unknown URL a fully
 * server-rendered 404 page in the right locale.
 */
export function decidePageRequest(request: LocaleRequest, options: { isCacheCopy?: boolean } = {}): PageDecision {
  const decision = decideRoute(request, options);
  if (decision.kind === 'redirect') return decision;
  if (isServedPath(splitLocalePath(request.pathname).rest)) return decision;
  return { kind: 'not-found', pathname: `/${decision.locale}/404`, status: 404 };
}

/**
 * A query string without Next.js's `_rsc` cache-busting parameter: a redirect sends the browser
 * to the public URL, which never carries it.
 */
export function publicSearch(search: string): string {
  const params = new URLSearchParams(search);
  if (!params.has('_rsc')) return search;
  params.delete('_rsc');
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
