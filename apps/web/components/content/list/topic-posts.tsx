import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import type { ListTerm } from '@/lib/content/lists';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import type { PostPage } from './list-data';
import { Pagination } from './pagination';
import { PostList } from './post-list';
import styles from './list.module.css';

/** `/lingwai.html` and `/lingwai/{slug}`: the topic chips, then one page of the chosen topic's articles. */
export async function TopicPosts({
  locale,
  topics,
  current,
  result,
  hrefOf,
}: {
  locale: Locale;
  topics: readonly ListTerm[];
  /** The chosen topic; null for every article. */
  current: ListTerm | null;
  result: PostPage;
  hrefOf: (page: number) => string;
}) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  const chips = [{ key: 'all', name: t('topicAll'), path: '/lingwai.html', active: current === null }].concat(
    topics.map((topic) => ({ key: topic.slug, name: topic.name, path: `/lingwai/${topic.slug}`, active: current?.id === topic.id })),
  );
  return (
    <>
      <nav aria-label={t('topicsNav')} className={styles.tabs} data-testid="topic-nav">
        <ul>
          {chips.map((chip) => (
            <li key={chip.key}>
              <Link href={localizePath(chip.path, locale)} className={styles.tab} aria-current={chip.active ? 'page' : undefined}>
                {chip.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section className={styles.results} data-testid="topic-posts">
        <h2 className={styles.sectionTitle}>
          <span data-testid="topic-name">{current === null ? t('topicAll') : current.name}</span>
          <span className={styles.sectionCount}>{t('tagTotal', { total: result.total })}</span>
        </h2>
        <PostList posts={result.posts} locale={locale} />
        <Pagination locale={locale} page={result.page} totalPages={result.totalPages} hrefOf={hrefOf} />
      </section>
    </>
  );
}
