import { getTranslations } from 'next-intl/server';
import type { Locale } from '@/lib/i18n/locales';
import type { ListTerm } from '@/lib/content/lists';
import type { PostPage } from './list-data';
import { HelpSearch } from './help-centre';
import { Pagination } from './pagination';
import { PostList } from './post-list';
import styles from './list.module.css';

/** `/help/{page}`: one page of all help articles with the search box and page links. */
export async function HelpArticlesPage({ locale, result, hrefOf }: { locale: Locale; result: PostPage; hrefOf: (page: number) => string }) {
  return (
    <>
      <HelpSearch locale={locale} query="" />
      <section className={styles.results} data-testid="help-page-list">
        <PostList posts={result.posts} locale={locale} />
        <Pagination locale={locale} page={result.page} totalPages={result.totalPages} hrefOf={hrefOf} />
      </section>
    </>
  );
}

/** `/tag/{id}`: the tag's name and one page of its posts. */
export async function TagPosts({
  locale,
  tag,
  result,
  hrefOf,
}: {
  locale: Locale;
  tag: ListTerm;
  result: PostPage;
  hrefOf: (page: number) => string;
}) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  return (
    <section className={styles.results} data-testid="tag-posts">
      <h2 className={styles.sectionTitle}>
        <span data-testid="tag-name">{t('tagHeading', { name: tag.name })}</span>
        <span className={styles.sectionCount}>{t('tagTotal', { total: result.total })}</span>
      </h2>
      <PostList posts={result.posts} locale={locale} />
      <Pagination locale={locale} page={result.page} totalPages={result.totalPages} hrefOf={hrefOf} />
    </section>
  );
}
