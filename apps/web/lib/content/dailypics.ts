import { htmlToText } from './latest-guides';

// 每日一图 (daily pictures) as the pages read them from the content API's custom routes
// (get_dailypics, get_dailypics_hot, getDailypicTags, get_dailypicsId; shapes in
// docs/decisions/0011-content-api.md). Pure readers, so the rules are unit-tested without a
// server; the fetching is in components/dailypic/dailypic-data.ts. A field of the wrong shape
// is dropped or defaulted rather than trusted.

interface DailypicTag {
  readonly id: number;
  readonly name: string;
}

export interface DailypicSummary {
  readonly id: number;
  readonly title: string;
  readonly excerpt: string;
  /** Site path of the preview image (`/content/images/...`), or ''. */
  readonly image: string;
  readonly views: number;
  readonly downloads: number;
  /** Publication day `YYYY-MM-DD`, or ''. */
  readonly date: string;
  /** Human size of the drawing file, e.g. `236 KB`, or ''. */
  readonly size: string;
  /** Format and version, e.g. `DXF R2018`, or ''. */
  readonly filetype: string;
  /** 0 (not rated) to 5 stars. */
  readonly rating: number;
  /** Site path of the downloadable drawing, or '' when there is none. */
  readonly file: string;
  readonly tags: readonly DailypicTag[];
}

export interface DailypicNeighbour {
  readonly id: number;
  readonly title: string;
  readonly image: string;
}

export interface Dailypic extends DailypicSummary {
  /** Sanitised HTML of the description (the API sanitises every answer). */
  readonly html: string;
  readonly modified: string;
  readonly previous: DailypicNeighbour | null;
  readonly next: DailypicNeighbour | null;
}

export interface DailypicList {
  readonly items: readonly DailypicSummary[];
  readonly total: number;
}

/** A tag with the number of daily pictures that carry it. */
export interface DailypicTagCount extends DailypicTag {
  readonly count: number;
}

/** Pictures per page of /dailypic.html and /dailypics/{tag}/{page}: a 3 x 4 grid (2 x 6 on phones). */
export const DAILYPIC_PAGE_SIZE = 12;

/** `/dailypics/0/{page}`: tag id 0 stands for every picture. */
export const ALL_PICTURES_TAG_ID = 0;

export type DailypicTab = 'new' | 'hot';

export const DAILYPIC_INDEX_PATH = '/dailypic.html';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

function count(value: unknown): number {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? htmlToText(value) : '';
}

/**
 * The path of a same-site file from an absolute or relative URL (the API makes image URLs
 * absolute on its public origin; the page serves them from its own). Only `/content/...` paths
 * are kept: a picture never links a file elsewhere.
 */
export function contentPath(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '';
  try {
    const url = new URL(value, 'http://site.invalid');
    return url.pathname.startsWith('/content/') ? url.pathname : '';
  } catch {
    return '';
  }
}

/** The day of a MySQL-style date (`2026-11-02 09:00:00`). */
function dayOf(value: unknown): string {
  return typeof value === 'string' ? (/^(\d{4}-\d{2}-\d{2})/.exec(value)?.[1] ?? '') : '';
}

/** A rating meta value as whole stars, 0 to 5. */
export function ratingOf(value: unknown): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) return 0;
  return Math.min(5, Math.max(0, Math.round(number)));
}

function tagsOf(value: unknown): DailypicTag[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!isRecord(item)) return [];
    const id = positiveId(item.id);
    const name = text(item.name);
    return id === null || name === '' ? [] : [{ id, name }];
  });
}

function summaryOf(item: unknown): DailypicSummary | null {
  if (!isRecord(item)) return null;
  const id = positiveId(item.ID);
  const title = text(item.post_title);
  if (id === null || title === '') return null;
  const meta = isRecord(item.meta) ? item.meta : {};
  return {
    id,
    title,
    excerpt: text(item.excerpt),
    image: contentPath(item.imgUrl),
    views: count(item.views),
    downloads: count(item.downloads),
    date: dayOf(item.post_date),
    size: text(meta.size),
    filetype: text(meta.filetype),
    rating: ratingOf(meta.rating),
    file: contentPath(meta.file),
    tags: tagsOf(item.tags),
  };
}

/** A `{total, data}` answer of the list routes; null when the shape is wrong. */
export function dailypicListOf(body: unknown): DailypicList | null {
  if (!isRecord(body) || !Array.isArray(body.data)) return null;
  const items = body.data.map(summaryOf).filter((item): item is DailypicSummary => item !== null);
  return { items, total: Math.max(count(body.total), items.length) };
}

function neighbourOf(value: unknown): DailypicNeighbour | null {
  if (!isRecord(value)) return null;
  const id = positiveId(value.ID);
  const title = text(value.post_title);
  return id === null || title === '' ? null : { id, title, image: contentPath(value.imgUrl) };
}

/** A get_dailypicsId answer; null when the shape is wrong. */
export function dailypicOf(body: unknown): Dailypic | null {
  const summary = summaryOf(body);
  if (summary === null || !isRecord(body)) return null;
  return {
    ...summary,
    html: typeof body.post_content === 'string' ? body.post_content : '',
    modified: dayOf(body.post_modified),
    previous: neighbourOf(body.previous),
    next: neighbourOf(body.next),
  };
}

/** The tags of a set of pictures with how many carry each, most used first, then by name. */
export function tagCounts(items: readonly DailypicSummary[]): DailypicTagCount[] {
  const counts = new Map<number, DailypicTagCount>();
  for (const item of items) {
    for (const tag of item.tags) {
      const known = counts.get(tag.id);
      counts.set(tag.id, { ...tag, count: (known?.count ?? 0) + 1 });
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name, 'zh-CN'));
}

export function totalPagesOf(total: number, pageSize = DAILYPIC_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function dailypicTabOf(value: string | string[] | undefined): DailypicTab {
  return value === 'hot' ? 'hot' : 'new';
}

/** The search text of `?q=`: trimmed, spaces collapsed, at most 30 characters; '' for none. */
export function dailypicQueryOf(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  return Array.from(raw.replace(/\s+/g, ' ').trim()).slice(0, 30).join('');
}

export function dailypicPath(id: number): string {
  return `/dailypics/${id}`;
}

/** The paged list of one tag's pictures (tag 0: all pictures). */
export function dailypicTagPath(tagId: number, page = 1): string {
  return `/dailypics/${tagId}/${page}`;
}

/** `/dailypic.html` with its tab, search and page; defaults are left out so each list has one URL. */
export function dailypicIndexHref({ tab = 'new', query = '', page = 1 }: { tab?: DailypicTab; query?: string; page?: number }): string {
  const params = new URLSearchParams();
  if (query !== '') params.set('q', query);
  else if (tab === 'hot') params.set('tab', 'hot');
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search === '' ? DAILYPIC_INDEX_PATH : `${DAILYPIC_INDEX_PATH}?${search}`;
}

/** The name a downloaded drawing is saved under: the file's own name. */
export function downloadNameOf(file: string): string {
  const name = file.split('/').pop() ?? '';
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
