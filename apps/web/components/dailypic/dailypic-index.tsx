import Link from '@/components/ui/link';
import { SearchForm } from '@/components/ui/search-form';
import { getTranslations } from 'next-intl/server';
import {
  ALL_PICTURES_TAG_ID,
  dailypicIndexHref,
  dailypicTagPath,
  DAILYPIC_INDEX_PATH,
  type DailypicTab,
  type DailypicTagCount,
} from '@/lib/content/dailypics';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import type { DailypicPage, Load } from './dailypic-data';
import { DailypicGrid, DailypicUnavailable } from './dailypic-grid';
import styles from './dailypic.module.css';

/** Chips shown: the most used tags; rarer ones are reached from the pictures that carry them. */
const TAG_CHIP_COUNT = 16;

/**
 * Tag chips: the most used tags of the daily pictures, linking to their paged lists; `current`
 * is highlighted (and shown even when it is a rare tag).
 */
export async function DailypicTagBar({ locale, tags, current }: { locale: Locale; tags: readonly DailypicTagCount[]; current?: number }) {
  if (tags.length === 0) return null;
  const shown = tags.filter((tag, index) => index < TAG_CHIP_COUNT || tag.id === current);
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  const chip = (id: number, name: string, count?: number) => (
    <li key={id}>
      <Link
        href={localizePath(dailypicTagPath(id), locale)}
        className={`${styles.chip} ${current === id ? styles.chipActive : ''}`}
        aria-current={current === id ? 'page' : undefined}
        data-testid="dailypic-tag"
      >
        {name}
        {count !== undefined && <span className={styles.chipCount}>{count}</span>}
      </Link>
    </li>
  );
  return (
    <nav className={styles.tagBar} aria-label={t('tagsNav')}>
      <span className={styles.tagBarLabel}>{t('tagsLabel')}</span>
      <ul className={styles.chips}>
        {chip(ALL_PICTURES_TAG_ID, t('allPictures'))}
        {shown.map((tag) => chip(tag.id, tag.name, tag.count))}
      </ul>
    </nav>
  );
}

/** /dailypic.html: 最新 and 最热 tabs, a title search, tag chips and the paged grid. */
export async function DailypicIndex({
  locale,
  tab,
  query,
  load,
  tags,
}: {
  locale: Locale;
  tab: DailypicTab;
  query: string;
  load: Load<DailypicPage>;
  tags: readonly DailypicTagCount[];
}) {
  const t = await getTranslations({ locale, namespace: 'dailypic' });
  const isSearch = query !== '';
  const tabLink = (target: DailypicTab) => {
    const isActive = !isSearch && tab === target;
    return (
      <Link
        href={localizePath(dailypicIndexHref({ tab: target }), locale)}
        className={`${styles.tab} ${isActive ? styles.tabActive : ''}`}
        aria-current={isActive ? 'page' : undefined}
        data-testid={`dailypic-tab-${target}`}
      >
        {t(target === 'hot' ? 'tabHot' : 'tabNew')}
      </Link>
    );
  };
  return (
    <div data-testid="dailypic-index">
      <div className={styles.toolbar}>
        <nav className={styles.tabs} aria-label={t('tabsNav')}>
          {tabLink('new')}
          {tabLink('hot')}
        </nav>
        <SearchForm
          action={localizePath(DAILYPIC_INDEX_PATH, locale)}
          name="q"
          query={query}
          maxLength={30}
          inputId="dailypic-search"
          label={t('searchLabel')}
          placeholder={t('searchPlaceholder')}
          submitText={t('searchButton')}
          classes={{ form: styles.search, input: styles.searchInput, button: styles.searchButton }}
          testIds={{ input: 'dailypic-search-input', submit: 'dailypic-search-submit' }}
        />
      </div>
      <DailypicTagBar locale={locale} tags={tags} />
      {load.state !== 'found' ? (
        <DailypicUnavailable locale={locale} />
      ) : load.value.total === 0 ? (
        <div className={styles.empty} role="status" data-testid="dailypic-empty">
          <p>{isSearch ? t('searchEmpty', { query }) : t('empty')}</p>
          {isSearch && <Link href={localizePath(DAILYPIC_INDEX_PATH, locale)}>{t('backToAll')}</Link>}
        </div>
      ) : (
        <>
          <p className={styles.summary} data-testid="dailypic-summary">
            {isSearch
              ? t.rich('searchResults', { query, total: load.value.total, strong: (chunks) => <strong>{chunks}</strong> })
              : t.rich(tab === 'hot' ? 'hotSummary' : 'newSummary', {
                  total: load.value.total,
                  strong: (chunks) => <strong>{chunks}</strong>,
                })}
          </p>
          <DailypicGrid
            locale={locale}
            result={load.value}
            isRanked={!isSearch && tab === 'hot'}
            hrefOf={(page) => localizePath(dailypicIndexHref({ tab, query, page }), locale)}
          />
        </>
      )}
    </div>
  );
}
