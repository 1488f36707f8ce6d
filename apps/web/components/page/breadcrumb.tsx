import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { breadcrumbOf, pathOf } from '@/lib/routes';
import type { RouteName, RouteParams } from '@/lib/routes';
import styles from './breadcrumb.module.css';

/** Home, then the route's ancestors from the route table, then the page itself (not a link). */
export async function Breadcrumb({
  locale,
  name,
  params = {},
  values = params,
}: {
  locale: Locale;
  name: RouteName;
  params?: RouteParams;
  values?: RouteParams;
}) {
  const [common, pages] = await Promise.all([
    getTranslations({ locale, namespace: 'common' }),
    getTranslations({ locale, namespace: 'pages' }),
  ]);
  const trail = breadcrumbOf(name);
  return (
    <nav aria-label={common('breadcrumb')} data-testid="breadcrumb" className={styles.breadcrumb}>
      <ol>
        <li>
          <Link href={localizePath('/', locale)}>{common('home')}</Link>
        </li>
        {trail.map((route, index) => {
          const title = pages(`${route.messageKey}.title`, values);
          const isCurrent = index === trail.length - 1;
          return (
            <li key={route.name}>
              {isCurrent ? (
                <span aria-current="page">{title}</span>
              ) : (
                <Link href={localizePath(pathOf(route.name, params), locale)}>{title}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
