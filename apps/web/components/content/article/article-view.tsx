import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import breadcrumbStyles from '@/components/page/breadcrumb.module.css';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import type { GuideSummary } from '@/lib/content/latest-guides';
import { articlePagePath, articlePages, type Article, type Neighbour, type PostSummary } from '@/lib/content/posts';
import { articlePath, GUIDES_INDEX_PATH } from '@/lib/navigation/footer-links';
import { Pagination } from '@/components/content/list/pagination';
import { ArticleBody } from './article-body';
import { ViewCounter } from './view-counter';
import styles from './article.module.css';

interface Crumb {
  readonly name: string;
  readonly path: string;
}

/** Home, the given trail, then the current page (not a link). */
export async function ArticleBreadcrumb({ locale, trail, current }: { locale: Locale; trail: readonly Crumb[]; current: string }) {
  const common = await getTranslations({ locale, namespace: 'common' });
  return (
    <nav aria-label={common('breadcrumb')} data-testid="breadcrumb" className={breadcrumbStyles.breadcrumb}>
      <ol>
        <li>
          <Link href={localizePath('/', locale)}>{common('home')}</Link>
        </li>
        {trail.map((crumb) => (
          <li key={crumb.path}>
            <Link href={localizePath(crumb.path, locale)}>{crumb.name}</Link>
          </li>
        ))}
        <li className={styles.crumbCurrent}>
          <span aria-current="page">{current}</span>
        </li>
      </ol>
    </nav>
  );
}

function NeighbourLink({ locale, label, none, post, testId }: { locale: Locale; label: string; none: string; post: Neighbour | null; testId: string }) {
  return (
    <div className={styles.neighbour}>
      <span className={styles.neighbourLabel}>{label}</span>
      {post ? (
        <Link href={localizePath(articlePath(post.id), locale)} data-testid={testId} className={styles.neighbourLink}>
          {post.title}
        </Link>
      ) : (
        <span className={styles.neighbourNone}>{none}</span>
      )}
    </div>
  );
}

/** spec §2/§3 Article: the article with its facts, terms, previous/next, related posts and newest guides. */
export async function ArticleView({
  locale,
  article,
  related,
  guides,
  page = 1,
}: {
  locale: Locale;
  article: Article;
  related: readonly PostSummary[];
  guides: readonly GuideSummary[];
  /** Which page of an article split by `<!--nextpage-->` (spec §2 `/{id}/{page}`); the caller checked it exists. */
  page?: number;
}) {
  const t = await getTranslations({ locale, namespace: 'article' });
  const pages = articlePages(article.html);
  const category = article.categories[0];
  const trail = category && category.path !== '' ? [{ name: category.name, path: category.path }] : [];
  return (
    <div className={styles.page} data-testid="article-page">
      <ViewCounter id={article.id} />
      <div className="container">
        <ArticleBreadcrumb locale={locale} trail={trail} current={article.title} />
        <div className={styles.layout}>
          <article className={styles.main}>
            <header className={styles.header}>
              <h1 className={styles.title} data-testid="article-title">
                {article.title}
                {pages.length > 1 && page > 1 && <span className={styles.titlePage}>{t('pageOf', { page, total: pages.length })}</span>}
              </h1>
              <p className={styles.facts}>
                {article.date !== '' && <time dateTime={article.date}>{t('published', { date: article.date })}</time>}
                {article.modified !== '' && article.modified !== article.date && (
                  <time dateTime={article.modified}>{t('modified', { date: article.modified })}</time>
                )}
                {article.author !== '' && <span>{t('author', { name: article.author })}</span>}
                {article.categories.length > 0 && (
                  <span>
                    {t('category')}
                    {article.categories.map((term, index) => (
                      <span key={term.id}>
                        {index > 0 && ' / '}
                        {term.path === '' ? term.name : <Link href={localizePath(term.path, locale)}>{term.name}</Link>}
                      </span>
                    ))}
                  </span>
                )}
              </p>
            </header>
            <ArticleBody html={pages[page - 1] ?? ''} />
            <Pagination locale={locale} page={page} totalPages={pages.length} hrefOf={(target) => localizePath(articlePagePath(article.id, target), locale)} />
            {article.tags.length > 0 && (
              <div className={styles.tags} data-testid="article-tags">
                <span className={styles.tagsLabel}>{t('tags')}</span>
                <ul>
                  {article.tags.map((tag) => (
                    <li key={tag.id}>
                      <Link href={localizePath(tag.path, locale)} className={styles.tag}>
                        {tag.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <nav className={styles.pager} aria-label={t('pager')} data-testid="article-pager">
              <NeighbourLink locale={locale} label={t('previous')} none={t('none')} post={article.previous} testId="article-previous" />
              <NeighbourLink locale={locale} label={t('next')} none={t('none')} post={article.next} testId="article-next" />
            </nav>
            {related.length > 0 && (
              <section className={styles.related} aria-labelledby="article-related" data-testid="article-related">
                <h2 id="article-related" className={styles.sectionTitle}>
                  {t('related')}
                </h2>
                <ul className={styles.relatedList}>
                  {related.map((post) => (
                    <li key={post.id}>
                      <Link href={localizePath(articlePath(post.id), locale)} className={styles.relatedLink}>
                        <span className={styles.relatedTitle}>{post.title}</span>
                        {post.date !== '' && <time dateTime={post.date}>{post.date}</time>}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </article>
          {guides.length > 0 && (
            <aside className={styles.sidebar} aria-labelledby="article-newest" data-testid="article-sidebar">
              <h2 id="article-newest" className={styles.sectionTitle}>
                {t('newest')}
              </h2>
              <ol className={styles.guideList}>
                {guides.map((guide) => (
                  <li key={guide.id}>
                    <Link href={localizePath(articlePath(guide.id), locale)} className={styles.guideLink}>
                      {guide.title}
                    </Link>
                  </li>
                ))}
              </ol>
              <Link href={localizePath(GUIDES_INDEX_PATH, locale)} className={styles.more}>
                {t('moreGuides')}
              </Link>
            </aside>
          )}
        </div>
      </div>
    </div>
  );
}

/** A single page (privacy, statement) in the article typography. */
export async function StaticPageView({ locale, article }: { locale: Locale; article: Article }) {
  const t = await getTranslations({ locale, namespace: 'article' });
  return (
    <div className={styles.page} data-testid="article-page">
      <div className="container">
        <ArticleBreadcrumb locale={locale} trail={[]} current={article.title} />
        <article className={`${styles.main} ${styles.single}`}>
          <header className={styles.header}>
            <h1 className={styles.title} data-testid="article-title">
              {article.title}
            </h1>
            {article.modified !== '' && (
              <p className={styles.facts}>
                <time dateTime={article.modified}>{t('modified', { date: article.modified })}</time>
              </p>
            )}
          </header>
          <ArticleBody html={article.html} />
        </article>
      </div>
    </div>
  );
}

/** The content API could not be reached: a note instead of the article (never a crash). */
export async function ContentUnavailable({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'article' });
  return (
    <div className={styles.unavailable} role="status" data-testid="content-unavailable">
      <p>{t('unavailable')}</p>
      <Link href={localizePath(GUIDES_INDEX_PATH, locale)}>{t('backToHelp')}</Link>
    </div>
  );
}
