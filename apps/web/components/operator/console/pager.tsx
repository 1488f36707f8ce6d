import { getTranslations } from 'next-intl/server';
import Link from '@/components/ui/link';
import { queryWith } from '@/lib/operator/format';
import styles from './console.module.css';

/** A list's pages, as links that keep the list's filters. */
export async function Pager({
  path,
  query,
  page,
  pageSize,
  total,
}: {
  path: string;
  query: Record<string, string>;
  page: number;
  pageSize: number;
  total: number;
}) {
  const t = await getTranslations({ locale: 'zh-CN', namespace: 'console.common' });
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className={styles.pager} data-testid="pager">
      <span>{t('total', { total })}</span>
      <span>{t('page', { page, pages })}</span>
      {page > 1 ? (
        <Link className={styles.buttonGhost} href={`${path}${queryWith(query, { page: String(page - 1) })}`}>
          {t('prev')}
        </Link>
      ) : null}
      {page < pages ? (
        <Link className={styles.buttonGhost} href={`${path}${queryWith(query, { page: String(page + 1) })}`}>
          {t('next')}
        </Link>
      ) : null}
    </nav>
  );
}
