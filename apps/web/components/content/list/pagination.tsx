import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { paginationItems } from '@/lib/content/lists';
import type { Locale } from '@/lib/i18n/locales';
import styles from './list.module.css';

/** Numbered page links; `hrefOf` gives the (already localised) address of a page. */
export async function Pagination({
  locale,
  page,
  totalPages,
  hrefOf,
}: {
  locale: Locale;
  page: number;
  totalPages: number;
  hrefOf: (page: number) => string;
}) {
  if (totalPages <= 1) return null;
  const t = await getTranslations({ locale, namespace: 'contentList' });
  return (
    <nav className={styles.pagination} aria-label={t('pagination')} data-testid="pagination">
      {page > 1 && (
        <Link className={styles.pageStep} href={hrefOf(page - 1)} rel="prev" data-testid="pagination-prev">
          {t('previous')}
        </Link>
      )}
      <ol className={styles.pageNumbers}>
        {paginationItems(page, totalPages).map((item, index) =>
          item === null ? (
            <li key={`gap-${index}`} className={styles.pageGap} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              {item === page ? (
                <span className={styles.pageCurrent} aria-current="page">
                  {item}
                </span>
              ) : (
                <Link className={styles.pageNumber} href={hrefOf(item)}>
                  {item}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < totalPages && (
        <Link className={styles.pageStep} href={hrefOf(page + 1)} rel="next" data-testid="pagination-next">
          {t('next')}
        </Link>
      )}
      <span className="visually-hidden">{t('pageStatus', { page, total: totalPages })}</span>
    </nav>
  );
}
