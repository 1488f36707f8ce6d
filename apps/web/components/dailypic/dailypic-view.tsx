import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { ArticleBody } from '@/components/content/article/article-body';
import { ArticleBreadcrumb } from '@/components/content/article/article-view';
import {
  DAILYPIC_INDEX_PATH,
  dailypicIndexHref,
  dailypicPath,
  dailypicTagPath,
  downloadNameOf,
  type Dailypic,
  type DailypicNeighbour,
  type DailypicSummary,
} from '@/lib/content/dailypics';
import { localizePath } from '@/lib/i18n/locales';
import { VIEWER_PATH, viewerHref } from '@/lib/viewer/source';
import type { Locale } from '@/lib/i18n/locales';
import { ArrowDownIcon, EyeIcon, PREVIEW_HEIGHT, PREVIEW_WIDTH, RatingStars } from './dailypic-grid';
import { DailypicLive, DownloadButton, LiveCount } from './dailypic-live';
import styles from './dailypic.module.css';

const EDITOR_DOWNLOAD_PATH = '/download.html';

async function NeighbourLink({
  locale,
  picture,
  direction,
}: {
  locale: Locale;
  picture: DailypicNeighbour | null;
  direction: 'previous' | 'next';
}) {
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  if (picture === null) return <span className={styles.pagerNone}>{t(direction === 'previous' ? 'noPrevious' : 'noNext')}</span>;
  return (
    <Link
      href={localizePath(dailypicPath(picture.id), locale)}
      className={`${styles.pagerLink} ${direction === 'next' ? styles.pagerNext : ''}`}
      rel={direction === 'previous' ? 'prev' : 'next'}
      data-testid={`dailypic-${direction}`}
    >
      <span className={styles.pagerThumb}>
        {picture.image !== '' && (
          // eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage
          <img src={picture.image} alt="" width={PREVIEW_WIDTH} height={PREVIEW_HEIGHT} loading="lazy" decoding="async" />
        )}
      </span>
      <span className={styles.pagerText}>
        <span className={styles.pagerLabel}>{t(direction === 'previous' ? 'previous' : 'next')}</span>
        <span className={styles.pagerTitle}>{picture.title}</span>
      </span>
    </Link>
  );
}

/** spec §2 `/dailypics/{id}`: the picture, its facts and download, description, neighbours and the hot list. */
export async function DailypicView({ locale, picture, hot }: { locale: Locale; picture: Dailypic; hot: readonly DailypicSummary[] }) {
  const [t, pages] = await Promise.all([
    getTranslations({ locale, namespace: 'dailypic' }),
    getTranslations({ locale, namespace: 'pages' }),
  ]);
  const href = (path: string) => localizePath(path, locale);
  // The drawing opens in the online viewer by link when the post has a file (decision 0021).
  const viewerLink = picture.file !== '' ? viewerHref(href(VIEWER_PATH), picture.file, downloadNameOf(picture.file)) : href(VIEWER_PATH);
  const ratingLabel = picture.rating > 0 ? t('ratingLabel', { rating: picture.rating }) : t('notRated');
  return (
    <div className={styles.page} data-testid="dailypic-page">
      <div className="container">
        <ArticleBreadcrumb locale={locale} trail={[{ name: pages('dailypic.title'), path: DAILYPIC_INDEX_PATH }]} current={picture.title} />
        <DailypicLive id={picture.id} initial={{ views: picture.views, downloads: picture.downloads }}>
          <div className={styles.layout}>
            <div className={styles.main}>
              <header className={styles.head}>
                <h1 data-testid="dailypic-title">{picture.title}</h1>
                <div className={styles.headMeta}>
                  {picture.date !== '' && <time dateTime={picture.date}>{t('publishedOn', { date: picture.date })}</time>}
                  <span className={styles.stat}>
                    <EyeIcon />
                    {t('views')} <LiveCount kind="views" testId="dailypic-views-inline" />
                  </span>
                  {picture.tags.length > 0 && (
                    <ul className={styles.tagLinks} aria-label={t('tagsLabel')} data-testid="dailypic-tags">
                      {picture.tags.map((tag) => (
                        <li key={tag.id}>
                          <Link href={href(dailypicTagPath(tag.id))} className={styles.tagLink}>
                            {tag.name}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </header>

              <figure className={styles.figure}>
                {picture.image !== '' && (
                  // eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage
                  <img
                    src={picture.image}
                    alt={t('previewAlt', { title: picture.title })}
                    width={PREVIEW_WIDTH}
                    height={PREVIEW_HEIGHT}
                    fetchPriority="high"
                    data-testid="dailypic-preview"
                  />
                )}
                <figcaption>
                  <span>{t('previewCaption')}</span>
                  <Link href={viewerLink} data-testid="dailypic-open-viewer">
                    {t('openOnline')}
                  </Link>
                </figcaption>
              </figure>

              <section className={styles.body} aria-label={t('aboutDrawing')}>
                <ArticleBody html={picture.html} />
              </section>

              <nav className={styles.pager} aria-label={t('pager')}>
                <NeighbourLink locale={locale} picture={picture.previous} direction="previous" />
                <NeighbourLink locale={locale} picture={picture.next} direction="next" />
              </nav>
            </div>

            <aside className={styles.aside}>
              <section className={`${styles.panel} ${styles.factsPanel}`} aria-labelledby="dailypic-facts">
                <h2 id="dailypic-facts" className={styles.panelTitle}>
                  {t('facts')}
                </h2>
                <dl className={styles.facts} data-testid="dailypic-facts">
                  <dt>{t('size')}</dt>
                  <dd>{picture.size || t('unknown')}</dd>
                  <dt>{t('filetype')}</dt>
                  <dd>{picture.filetype || t('unknown')}</dd>
                  <dt>{t('rating')}</dt>
                  <dd>
                    <RatingStars rating={picture.rating} label={ratingLabel} />
                  </dd>
                  <dt>{t('views')}</dt>
                  <dd>
                    <LiveCount kind="views" testId="dailypic-views" />
                  </dd>
                  <dt>{t('downloads')}</dt>
                  <dd>
                    <LiveCount kind="downloads" testId="dailypic-downloads" />
                  </dd>
                  <dt>{t('published')}</dt>
                  <dd>{picture.date || t('unknown')}</dd>
                </dl>
                {picture.file !== '' ? (
                  <DownloadButton
                    file={picture.file}
                    downloadName={downloadNameOf(picture.file)}
                    meta={[picture.filetype, picture.size].filter((part) => part !== '').join(' · ')}
                  />
                ) : (
                  <p className={styles.note}>{t('noFile')}</p>
                )}
                <div className={styles.openWith}>
                  <Link href={viewerLink}>{t('viewOnline')}</Link>
                  <Link href={href(EDITOR_DOWNLOAD_PATH)}>{t('getEditor')}</Link>
                </div>
                <p className={styles.note}>{t('downloadNote')}</p>
              </section>

              {hot.length > 0 && (
                <section className={`${styles.panel} ${styles.hotPanel}`} aria-labelledby="dailypic-hot" data-testid="dailypic-hot">
                  <h2 id="dailypic-hot" className={styles.panelTitle}>
                    {t('hotTitle')}
                  </h2>
                  <ol className={styles.hotList}>
                    {hot.map((item, index) => (
                      <li key={item.id}>
                        <Link href={href(dailypicPath(item.id))} className={styles.hotItem}>
                          <span className={styles.hotThumb}>
                            {item.image !== '' && (
                              // eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage
                              <img src={item.image} alt="" width={PREVIEW_WIDTH} height={PREVIEW_HEIGHT} loading="lazy" decoding="async" />
                            )}
                            <span className={`${styles.hotRank} ${index < 3 ? styles.hotRankTop : ''}`}>{index + 1}</span>
                          </span>
                          <span className={styles.hotText}>
                            <span className={styles.hotTitle}>{item.title}</span>
                            <span className={styles.hotViews}>
                              <span className={styles.stat}>
                                <EyeIcon /> {t('viewsCount', { count: item.views })}
                              </span>{' '}
                              <span className={styles.stat}>
                                <ArrowDownIcon /> {t('downloadsCount', { count: item.downloads })}
                              </span>
                            </span>
                          </span>
                        </Link>
                      </li>
                    ))}
                  </ol>
                  <Link href={href(dailypicIndexHref({ tab: 'hot' }))} className={styles.moreLink}>
                    {t('moreHot')}
                  </Link>
                </section>
              )}
            </aside>
          </div>
        </DailypicLive>
      </div>
    </div>
  );
}
