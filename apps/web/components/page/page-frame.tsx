import { linkCardClass } from '@/components/ui/card';
import Link from '@/components/ui/link';
import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { ROUTES, pathOf, routeByName } from '@/lib/routes';
import type { RouteName, RouteParams } from '@/lib/routes';
import { Breadcrumb } from './breadcrumb';
import styles from './page-frame.module.css';

/**
 * The frame of a page whose features arrive with a later issue (spec §2 routes): breadcrumb, the
 * page title, what the page is for, an honest note that it is not available yet, and links to the
 * pages below it in the route table. `children` replaces the note once a page has real content.
 */
export async function PageFrame({
  locale,
  name,
  params = {},
  values = params,
  showRelated = true,
  children,
}: {
  locale: Locale;
  name: RouteName;
  params?: RouteParams;
  values?: RouteParams;
  /** false when the page itself presents its child pages (the buy index's product cards). */
  showRelated?: boolean;
  children?: ReactNode;
}) {
  const [common, pages] = await Promise.all([
    getTranslations({ locale, namespace: 'common' }),
    getTranslations({ locale, namespace: 'pages' }),
  ]);
  const route = routeByName(name);
  const related = !showRelated ? [] : ROUTES.filter((candidate) => candidate.parent === name && !candidate.pattern.includes('{'));
  return (
    <div className={styles.frame} data-testid="page-frame">
      <header className={styles.hero}>
        <div className="container">
          <Breadcrumb locale={locale} name={name} params={params} values={values} />
          <h1 className={styles.title}>{pages(`${route.messageKey}.title`, values)}</h1>
          <p className={styles.description}>{pages(`${route.messageKey}.description`, values)}</p>
        </div>
      </header>
      <div className={`container ${styles.body}`}>
        {children ?? (
          <p className={styles.pending} role="note">
            <svg viewBox="0 0 20 20" aria-hidden="true">
              <circle cx="10" cy="10" r="8.5" />
              <path d="M10 5.5v5.2l3.2 2" />
            </svg>
            {common('pending')}
          </p>
        )}
        {related.length > 0 && (
          <section className={styles.related} aria-labelledby={`related-${name}`}>
            <h2 id={`related-${name}`} className={styles.relatedTitle}>
              {common('related')}
            </h2>
            <ul className={styles.cards}>
              {related.map((child) => (
                <li key={child.name}>
                  <Link className={linkCardClass(styles.childCard)} href={localizePath(pathOf(child.name), locale)}>
                    <span className={styles.cardTitle}>{pages(`${child.messageKey}.title`)}</span>
                    <span className={styles.cardText}>{pages(`${child.messageKey}.description`)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
