import { htmlToText } from './latest-guides';

// Shapes of the content lists (help centre, course lists, tag pages) read from WordPress answers
// (decision 0011: `title.rendered`, `excerpt.rendered`, `date` in Beijing time). Pure functions so
// the parsing rules are unit-tested; the fetching lives with the list components.

/** One article of a list. */
export interface ListPost {
  readonly id: number;
  readonly title: string;
  /** Plain-text excerpt, possibly empty. */
  readonly excerpt: string;
  /** Publication day `YYYY-MM-DD`, or '' when the API gave none. */
  readonly date: string;
}

export interface ListTerm {
  readonly id: number;
  readonly name: string;
  readonly slug: string;
}

/** Articles per page of /help/{page} and /tag/{id} (spec §2 lists page by ten, as WordPress does). */
export const LIST_PAGE_SIZE = 10;

/** The fields a list asks for (`_fields`), so answers stay small. */
export const LIST_FIELDS = 'id,title,excerpt,date';

/** The help sub-categories in the order the help centre shows them (content/taxonomy.yml). */
export const HELP_CATEGORY_SLUGS = ['installation', 'activation', 'drawing', 'conversion', 'printing', 'troubleshooting'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

function renderedText(value: unknown): string {
  if (isRecord(value) && typeof value.rendered === 'string') return htmlToText(value.rendered);
  return typeof value === 'string' ? htmlToText(value) : '';
}

function listPostOf(item: unknown): ListPost | null {
  if (!isRecord(item)) return null;
  const id = positiveId(item.id);
  const title = renderedText(item.title);
  if (id === null || title === '') return null;
  const date = typeof item.date === 'string' && /^\d{4}-\d{2}-\d{2}/.test(item.date) ? item.date.slice(0, 10) : '';
  return { id, title, excerpt: renderedText(item.excerpt), date };
}

/** The posts of a `/posts` answer; null when the answer is not a list at all. */
export function listPostsOf(body: unknown): ListPost[] | null {
  if (!Array.isArray(body)) return null;
  return body.map(listPostOf).filter((post): post is ListPost => post !== null);
}

function termOf(item: unknown): ListTerm | null {
  if (!isRecord(item)) return null;
  const id = positiveId(item.id);
  const name = typeof item.name === 'string' ? htmlToText(item.name) : '';
  if (id === null || name === '') return null;
  return { id, name, slug: typeof item.slug === 'string' ? item.slug : '' };
}

/** A single term (`/tags/{id}`); null when the shape is wrong. */
export function termFrom(body: unknown): ListTerm | null {
  return termOf(body);
}

/** The terms of a `/categories` or `/tags` answer; null when it is not a list. */
export function termsOf(body: unknown): ListTerm[] | null {
  if (!Array.isArray(body)) return null;
  return body.map(termOf).filter((term): term is ListTerm => term !== null);
}

/** `terms` put in the order of `slugs`; slugs the API does not know are left out. */
export function orderBySlugs(terms: readonly ListTerm[], slugs: readonly string[]): ListTerm[] {
  return slugs.flatMap((slug) => terms.filter((term) => term.slug === slug));
}

/**
 * A page number from the URL (`?page=` or the /help/{page} segment): absent is 1, anything but a
 * positive whole number is null (the page answers 404).
 */
export function pageNumberOf(value: string | string[] | undefined): number | null {
  if (value === undefined) return 1;
  if (Array.isArray(value) || !/^\d{1,6}$/.test(value)) return null;
  const page = Number(value);
  return page >= 1 ? page : null;
}

/** A search query from `?s=`: trimmed, at most 50 characters; '' when there is none. */
export function searchQueryOf(value: string | string[] | undefined): string {
  const text = (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).replace(/\s+/g, ' ').trim();
  return Array.from(text).slice(0, 50).join('');
}

/** Page numbers a pagination bar shows: the first, the last and two either side of the current, with gaps as null. */
export function paginationItems(current: number, totalPages: number): (number | null)[] {
  const shown = new Set<number>([1, totalPages]);
  for (let page = current - 2; page <= current + 2; page += 1) {
    if (page >= 1 && page <= totalPages) shown.add(page);
  }
  const pages = [...shown].filter((page) => page >= 1).sort((a, b) => a - b);
  const items: (number | null)[] = [];
  pages.forEach((page, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && page - previous > 1) items.push(null);
    items.push(page);
  });
  return items;
}
