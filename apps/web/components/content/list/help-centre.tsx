import Link from '@/components/ui/link';
import { SearchForm } from '@/components/ui/search-form';
import { getTranslations } from 'next-intl/server';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { helpArticlesPage, helpSections } from './list-data';
import { Pagination } from './pagination';
import { ContentUnavailable, PostList } from './post-list';
import styles from './list.module.css';

/** The search box of the help centre: a plain GET form to `/help.html?s=`, so it works without JavaScript. */
export async function HelpSearch({ locale, query }: { locale: Locale; query: string }) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  return (
    <SearchForm
      action={localizePath('/help.html', locale)}
      name="s"
      query={query}
      maxLength={50}
      inputId="help-search-input"
      label={t('searchLabel')}
      placeholder={t('searchPlaceholder')}
      submitText={t('searchButton')}
      classes={{ form: styles.search, input: styles.searchInput, button: styles.searchButton }}
      testIds={{ form: 'help-search', input: 'help-search-input', submit: 'help-search-submit' }}
    />
  );
}

/** Search results (`posts?search=` over the help categories), paged by `?page=`. */
async function HelpSearchResults({ locale, query, page }: { locale: Locale; query: string; page: number }) {
  const [t, load] = await Promise.all([getTranslations({ locale, namespace: 'contentList' }), helpArticlesPage(page, query)]);
  if (load.state === 'unavailable') return <ContentUnavailable locale={locale} />;
  const result = load.state === 'found' ? load.value : { posts: [], page, totalPages: 0, total: 0 };
  const base = localizePath('/help.html', locale);
  return (
    <section className={styles.results} data-testid="search-results" aria-live="polite">
      <h2 className={styles.sectionTitle}>
        {result.total > 0 ? t('searchResults', { query, total: result.total }) : t('searchEmpty', { query })}
      </h2>
      <PostList posts={result.posts} locale={locale} />
      <Pagination
        locale={locale}
        page={result.page}
        totalPages={result.totalPages}
        hrefOf={(target) => `${base}?${new URLSearchParams({ s: query, ...(target > 1 ? { page: String(target) } : {}) }).toString()}`}
      />
      <Link className={styles.moreLink} href={base}>
        {t('backToHelp')}
      </Link>
    </section>
  );
}

/** `/help.html`: the search box, the category tabs and each category with its articles. */
export async function HelpCentre({ locale, query, page }: { locale: Locale; query: string; page: number }) {
  const t = await getTranslations({ locale, namespace: 'contentList' });
  if (query !== '') {
    return (
      <>
        <HelpSearch locale={locale} query={query} />
        <HelpSearchResults locale={locale} query={query} page={page} />
      </>
    );
  }
  const load = await helpSections();
  return (
    <>
      <HelpSearch locale={locale} query="" />
      {load.state === 'found' ? (
        <>
          <nav className={styles.tabs} aria-label={t('categoriesNav')} data-testid="help-tabs">
            <ul>
              {load.value.map(({ category }) => (
                <li key={category.id}>
                  <a className={styles.tab} href={`#${category.slug}`}>
                    {category.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className={styles.sections}>
            {load.value.map(({ category, posts }) => (
              <section
                key={category.id}
                id={category.slug}
                className={styles.section}
                aria-labelledby={`help-${category.slug}`}
                data-testid="help-category"
                data-slug={category.slug}
              >
                <h2 id={`help-${category.slug}`} className={styles.sectionTitle}>
                  {category.name}
                  <span className={styles.sectionCount}>{t('articleCount', { count: posts.length })}</span>
                </h2>
                <PostList posts={posts} locale={locale} compact />
              </section>
            ))}
          </div>
          <Link className={styles.moreLink} href={localizePath('/help/1', locale)} data-testid="help-all">
            {t('allArticles')}
          </Link>
        </>
      ) : (
        <ContentUnavailable locale={locale} />
      )}
    </>
  );
}
