import { linkCardClass } from '@/components/ui/card';
import Link from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { Pagination } from '@/components/content/list/pagination';
import { DAILYPIC_PAGE_SIZE, dailypicPath, type DailypicSummary } from '@/lib/content/dailypics';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import type { DailypicPage } from './dailypic-data';
import styles from './dailypic.module.css';

/** The preview's intrinsic size (scripts/content/drawing-previews.py renders 960 x 720). */
export const PREVIEW_WIDTH = 960;
export const PREVIEW_HEIGHT = 720;

/** Cards of the first row are above the fold on desktop: loaded eagerly, the rest lazily. */
const EAGER_CARDS = 3;

export function EyeIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M1.5 8S4 3.5 8 3.5 14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8Z" />
      <circle cx="8" cy="8" r="2" />
    </svg>
  );
}

export function ArrowDownIcon() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M8 2.5v8M4.5 7.5 8 11l3.5-3.5M3 13.5h10" />
    </svg>
  );
}

/** Whole stars out of five; the label says the rating in words. */
export function RatingStars({ rating, label }: { rating: number; label: string }) {
  return (
    <span className={styles.stars} role="img" aria-label={label}>
      {[1, 2, 3, 4, 5].map((star) => (
        <svg
          key={star}
          viewBox="0 0 20 20"
          aria-hidden="true"
          focusable="false"
          className={star <= rating ? styles.starOn : styles.starOff}
        >
          <path d="m10 1.8 2.5 5.2 5.7.8-4.1 4 1 5.6L10 14.7l-5.1 2.7 1-5.6-4.1-4 5.7-.8Z" />
        </svg>
      ))}
    </span>
  );
}

async function DailypicCard({
  locale,
  picture,
  rank,
  isEager,
}: {
  locale: Locale;
  picture: DailypicSummary;
  rank?: number;
  isEager: boolean;
}) {
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  return (
    <Link
      href={localizePath(dailypicPath(picture.id), locale)}
      className={linkCardClass(styles.tile)}
      data-testid="dailypic-card"
      data-id={picture.id}
    >
      <span className={styles.thumb}>
        {picture.image !== '' && (
          // eslint-disable-next-line @next/next/no-img-element -- previews are served by the API's storage, not next/image
          <img
            src={picture.image}
            alt={t('previewAlt', { title: picture.title })}
            width={PREVIEW_WIDTH}
            height={PREVIEW_HEIGHT}
            loading={isEager ? 'eager' : 'lazy'}
            decoding="async"
          />
        )}
        {picture.filetype !== '' && <span className={styles.badge}>{picture.filetype}</span>}
        {rank !== undefined && (
          <span className={styles.rank} aria-label={t('rank', { rank })}>
            {rank}
          </span>
        )}
      </span>
      <span className={styles.cardBody}>
        <span className={styles.cardTitle} data-testid="dailypic-card-title">
          {picture.title}
        </span>
        {picture.excerpt !== '' && <span className={styles.cardExcerpt}>{picture.excerpt}</span>}
        <span className={styles.cardMeta}>
          {picture.date !== '' && (
            <time className={styles.cardDate} dateTime={picture.date}>
              {picture.date}
            </time>
          )}
          <span className={styles.stat} title={t('views')}>
            <EyeIcon />
            <span className="visually-hidden">{t('views')}</span>
            <span data-testid="dailypic-card-views">{picture.views.toLocaleString('zh-CN')}</span>
          </span>
          <span className={styles.stat} title={t('downloads')}>
            <ArrowDownIcon />
            <span className="visually-hidden">{t('downloads')}</span>
            <span data-testid="dailypic-card-downloads">{picture.downloads.toLocaleString('zh-CN')}</span>
          </span>
        </span>
      </span>
    </Link>
  );
}

/** A page of pictures as cards with the page links; `ranked` numbers them (the hot list). */
export async function DailypicGrid({
  locale,
  result,
  hrefOf,
  isRanked = false,
}: {
  locale: Locale;
  result: DailypicPage;
  hrefOf: (page: number) => string;
  isRanked?: boolean;
}) {
  const first = (result.page - 1) * DAILYPIC_PAGE_SIZE;
  if (result.items.length === 0) {
    const t = await getTranslations({ locale, namespace: 'dailypic' });
    return (
      <div className={styles.empty} role="status" data-testid="dailypic-empty">
        <p>{t('empty')}</p>
      </div>
    );
  }
  return (
    <>
      <ul className={styles.grid} data-testid="dailypic-grid">
        {result.items.map((picture, index) => (
          <li key={picture.id}>
            <DailypicCard locale={locale} picture={picture} rank={isRanked ? first + index + 1 : undefined} isEager={index < EAGER_CARDS} />
          </li>
        ))}
      </ul>
      <Pagination locale={locale} page={result.page} totalPages={result.totalPages} hrefOf={hrefOf} />
    </>
  );
}

/** The content API could not be reached: a note instead of the pictures (never a crash). */
export async function DailypicUnavailable({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  return (
    <div className={styles.unavailable} role="status" data-testid="content-unavailable">
      <p>{t('unavailable')}</p>
    </div>
  );
}
