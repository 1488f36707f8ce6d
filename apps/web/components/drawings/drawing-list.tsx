import Link from '@/components/ui/link';
import { SearchForm } from '@/components/ui/search-form';
import type { ReactNode } from 'react';
import { getTranslations } from 'next-intl/server';
import type { TDrawingList } from '@xcad/protocol';
import { Pagination } from '@/components/content/list/pagination';
import { hasFilters, listHref, type ListState } from '@/lib/drawings/drawings';
import { localizePath } from '@/lib/i18n/locales';
import type { Locale } from '@/lib/i18n/locales';
import { DrawingCard } from './drawing-card';
import styles from './drawings.module.css';

// spec §2 `/dwglist` (decision 0012): the drawing library. Every filter is a plain link and the search a
// GET form, so each view has a shareable URL and works without JavaScript.

const BUY_PATH = '/buy/cadtuku.html';
const LIST_PATH = '/dwglist';

interface ChipProps {
  href: string;
  isCurrent: boolean;
  label: string;
  count?: number;
  testId: string;
}

function Chip({ href, isCurrent, label, count, testId }: ChipProps) {
  return (
    <li>
      <Link href={href} className={styles.chip} aria-current={isCurrent ? 'true' : undefined} data-testid={testId} scroll={false}>
        {label}
        {count !== undefined && <span className={styles.chipCount}>{count}</span>}
      </Link>
    </li>
  );
}

export function DrawingToolbar({ children }: { children: ReactNode }) {
  return <div className={styles.toolbar}>{children}</div>;
}

export async function DrawingSearch({ locale, state }: { locale: Locale; state: ListState }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  return (
    <SearchForm
      action={localizePath(LIST_PATH, locale)}
      name="q"
      query={state.q}
      maxLength={50}
      inputId="drawing-search"
      label={t('searchLabel')}
      placeholder={t('searchPlaceholder')}
      submitText={t('searchButton')}
      classes={{ form: styles.search, input: styles.searchInput, button: styles.searchButton }}
      testIds={{ input: 'drawing-search-input', submit: 'drawing-search-submit' }}
    >
      {state.category !== undefined && <input type="hidden" name="category" value={state.category} />}
      {state.format !== undefined && <input type="hidden" name="format" value={state.format} />}
      {state.access !== undefined && <input type="hidden" name="access" value={state.access} />}
    </SearchForm>
  );
}

export async function DrawingFilters({ locale, state, list }: { locale: Locale; state: ListState; list: TDrawingList }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  const base = localizePath(LIST_PATH, locale);
  const total = list.categories.reduce((sum, category) => sum + category.count, 0);
  return (
    <nav className={styles.filters} aria-label={t('filtersLabel')} data-testid="drawing-filters">
      <div className={styles.filterRow}>
        <span className={styles.filterName} id="filter-category">
          {t('categoryLabel')}
        </span>
        <ul className={styles.chips} aria-labelledby="filter-category">
          <Chip
            href={listHref(base, state, { category: undefined })}
            isCurrent={state.category === undefined}
            label={t('allCategories')}
            count={total}
            testId="category-all"
          />
          {list.categories.map((category) => (
            <Chip
              key={category.slug}
              href={listHref(base, state, { category: category.slug })}
              isCurrent={state.category === category.slug}
              label={category.name}
              count={category.count}
              testId={`category-${category.slug}`}
            />
          ))}
        </ul>
      </div>
      <div className={styles.filterRow}>
        <span className={styles.filterName} id="filter-format">
          {t('formatLabel')}
        </span>
        <ul className={styles.chips} aria-labelledby="filter-format">
          <Chip
            href={listHref(base, state, { format: undefined })}
            isCurrent={state.format === undefined}
            label={t('allFormats')}
            testId="format-all"
          />
          <Chip href={listHref(base, state, { format: 'DWG' })} isCurrent={state.format === 'DWG'} label="DWG" testId="format-DWG" />
          <Chip href={listHref(base, state, { format: 'DXF' })} isCurrent={state.format === 'DXF'} label="DXF" testId="format-DXF" />
        </ul>
      </div>
      <div className={styles.filterRow}>
        <span className={styles.filterName} id="filter-access">
          {t('accessLabel')}
        </span>
        <ul className={styles.chips} aria-labelledby="filter-access">
          <Chip
            href={listHref(base, state, { access: undefined })}
            isCurrent={state.access === undefined}
            label={t('accessAll')}
            testId="access-all"
          />
          <Chip
            href={listHref(base, state, { access: 'free' })}
            isCurrent={state.access === 'free'}
            label={t('accessFree')}
            testId="access-free"
          />
          <Chip
            href={listHref(base, state, { access: 'member' })}
            isCurrent={state.access === 'member'}
            label={t('accessMember')}
            testId="access-member"
          />
        </ul>
      </div>
    </nav>
  );
}

export async function DrawingResults({ locale, state, list }: { locale: Locale; state: ListState; list: TDrawingList }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  const base = localizePath(LIST_PATH, locale);
  const clearHref = base;
  return (
    <section aria-labelledby="drawing-results-heading">
      <h2 id="drawing-results-heading" className="visually-hidden">
        {t('listHeading')}
      </h2>
      <div className={styles.resultBar}>
        <p className={styles.resultCount} role="status" data-testid="drawing-count" data-total={list.total}>
          {state.q === ''
            ? t.rich('resultCount', { total: list.total, strong: (chunks) => <strong>{chunks}</strong> })
            : t('resultCountQuery', { total: list.total, q: state.q })}
        </p>
        {hasFilters(state) && (
          <Link className={styles.clear} href={clearHref} data-testid="drawing-clear">
            {t('clearFilters')}
          </Link>
        )}
      </div>
      {list.items.length === 0 ? (
        <div className={styles.empty} data-testid="drawing-empty">
          <p className={styles.emptyTitle}>{t('emptyTitle')}</p>
          <p className={styles.emptyHint}>{t('emptyHint')}</p>
          <Link className={styles.clear} href={clearHref}>
            {t('clearFilters')}
          </Link>
        </div>
      ) : (
        <ul className={styles.grid} data-testid="drawing-grid">
          {list.items.map((drawing, index) => (
            <li key={drawing.id}>
              <DrawingCard locale={locale} drawing={drawing} isEager={index < 4} />
            </li>
          ))}
        </ul>
      )}
      <div className={styles.pagination}>
        <Pagination locale={locale} page={list.page} totalPages={list.totalPages} hrefOf={(page) => listHref(base, state, { page })} />
      </div>
    </section>
  );
}

export async function MemberNote({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  return (
    <aside className={styles.memberNote} aria-labelledby="member-note-title">
      <div>
        <p className={styles.memberNoteTitle} id="member-note-title">
          {t('memberNoteTitle')}
        </p>
        <p className={styles.memberNoteText}>{t('memberNoteText')}</p>
      </div>
      <Link className={styles.memberNoteLink} href={localizePath(BUY_PATH, locale)}>
        {t('memberNoteLink')}
      </Link>
    </aside>
  );
}

export async function DrawingsUnavailable({ locale }: { locale: Locale }) {
  const t = await getTranslations({ locale, namespace: 'drawings' });
  return (
    <p className={styles.unavailable} role="status" data-testid="drawings-unavailable">
      {t('unavailable')}
    </p>
  );
}
