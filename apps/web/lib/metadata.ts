import 'server-only';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { alternateLinks } from './alternates';
import type { Locale } from './i18n/locales';
import { pathOf, routeByName } from './routes';
import type { RouteName, RouteParams } from './routes';

/**
 * Title, description, canonical and alternates of a page of the route table. `params` build the
 * canonical path; `values` (default: the params) fill the title and description messages.
 */
export async function routeMetadata(
  locale: Locale,
  name: RouteName,
  params: RouteParams = {},
  values: RouteParams = params,
): Promise<Metadata> {
  const route = routeByName(name);
  const t = await getTranslations({ locale, namespace: 'pages' });
  const title = t(`${route.messageKey}.title`, values);
  const description = t(`${route.messageKey}.description`, values);
  const links = alternateLinks(pathOf(name, params), locale);
  return {
    title,
    description,
    alternates: { canonical: links.canonical, languages: { ...links.languages } },
    openGraph: { title, description, url: links.canonical },
  };
}
