import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { setRequestLocale } from 'next-intl/server';
import { isLocale } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { routeMetadata } from '@/lib/metadata';
import { areParamsValid, paramsFromSegments } from '@/lib/routes';
import type { RouteName, RouteParams } from '@/lib/routes';
import { PageFrame } from './page-frame';

// Each page file of app/[locale]/ is a few lines built here from the route table: metadata
// (title, description, canonical, alternates) and the page frame, with the route's parameters
// checked against the table's rules (anything else is a 404).

export interface RouteProps {
  params: Promise<Record<string, string | string[] | undefined>>;
}

/** A page's query string as Next.js passes it. */
export type SearchParams = Record<string, string | string[] | undefined>;

export interface SearchRouteProps extends RouteProps {
  searchParams: Promise<SearchParams>;
}

export interface ResolvedRoute {
  locale: Locale;
  /** Parameters as in the URL; they build the canonical path. */
  params: RouteParams;
  /** Values for the title and description messages. */
  values: RouteParams;
}

export interface RoutePageOptions {
  /** Canonical form of the parameters (e.g. an article id always with `.html`). */
  canonical?: (params: RouteParams) => RouteParams;
  /** Message values derived from the parameters (e.g. page 1 when the page is omitted). */
  values?: (params: RouteParams) => RouteParams;
}

export async function resolveRoute(name: RouteName, props: RouteProps, options: RoutePageOptions = {}): Promise<ResolvedRoute> {
  const { locale, ...segments } = await props.params;
  if (!isLocale(locale)) notFound();
  const params = paramsFromSegments(segments);
  if (!params || !areParamsValid(name, params)) notFound();
  setRequestLocale(locale);
  return {
    locale,
    params: options.canonical ? options.canonical(params) : params,
    values: options.values ? options.values(params) : params,
  };
}

export function routePage(name: RouteName, options: RoutePageOptions = {}) {
  return {
    async generateMetadata(props: RouteProps): Promise<Metadata> {
      const route = await resolveRoute(name, props, options);
      return routeMetadata(route.locale, name, route.params, route.values);
    },
    async Page(props: RouteProps) {
      const route = await resolveRoute(name, props, options);
      return <PageFrame locale={route.locale} name={name} params={route.params} values={route.values} />;
    },
  };
}

/**
 * The metadata of a list page whose query string picks variants (a search, a tab, a later page):
 * those stay out of search engines' index, the plain list is indexed.
 */
export async function searchRouteMetadata(
  name: RouteName,
  props: SearchRouteProps,
  isVariant: (search: SearchParams) => boolean,
): Promise<Metadata> {
  const [route, search] = await Promise.all([resolveRoute(name, props), props.searchParams]);
  const metadata = await routeMetadata(route.locale, name);
  return isVariant(search) ? { ...metadata, robots: { index: false, follow: true } } : metadata;
}
