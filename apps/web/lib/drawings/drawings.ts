import { parseDrawingListQuery, ZDrawingDetail, ZDrawingList, type TDrawingDetail, type TDrawingList } from '@xcad/protocol';

// The drawing library's pages (/dwglist, /dwgItem/{id}, decision 0012): the page's own query string read
// with the API's rules, the links of the filters, and the API answers checked before use. Pure
// functions, unit-tested; the fetching is in drawings-api.ts.

export type SearchParams = Readonly<Record<string, string | string[] | undefined>>;

/** The filters a list page shows, as its URL carries them. */
export interface ListState {
  readonly category?: string | undefined;
  readonly format?: 'DWG' | 'DXF' | undefined;
  readonly access?: 'free' | 'member' | undefined;
  readonly q: string;
  readonly page: number;
}

/** The list page's query (`category`, `format`, `access`, `q`, `page`); null when it is not valid (a 404). */
export function listStateOf(params: SearchParams): ListState | null {
  const raw: Record<string, unknown> = {};
  for (const name of ['category', 'format', 'access', 'q', 'page']) raw[name] = params[name];
  const parsed = parseDrawingListQuery(raw);
  if (!parsed.ok) return null;
  const { category, format, access, q, page } = parsed.query;
  return { category, format, access, q, page };
}

/** The API query of a list state (the page size is the API's default). */
export function apiQueryOf(state: ListState): Record<string, string> {
  const query: Record<string, string> = {};
  if (state.category !== undefined) query.category = state.category;
  if (state.format !== undefined) query.format = state.format;
  if (state.access !== undefined) query.access = state.access;
  if (state.q !== '') query.q = state.q;
  if (state.page > 1) query.page = String(state.page);
  return query;
}

/**
 * The list's address with `changes` applied; changing a filter goes back to page 1 (the old page
 * may not exist under the new filter). Parameters in a fixed order, defaults left out, so every
 * view has one shareable URL.
 */
export function listHref(base: string, state: ListState, changes: Partial<ListState> = {}): string {
  const isFilterChange = Object.keys(changes).some((key) => key !== 'page');
  const next: ListState = { ...state, ...(isFilterChange ? { page: 1 } : {}), ...changes };
  const search = new URLSearchParams(apiQueryOf(next)).toString();
  return search === '' ? base : `${base}?${search}`;
}

export function hasFilters(state: ListState): boolean {
  return state.category !== undefined || state.format !== undefined || state.access !== undefined || state.q !== '';
}

/** A file size as a person reads it: 36.4 KB, 1.2 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb.toFixed(kb < 10 ? 1 : 0)} KB`;
  return `${(kb / 1024).toFixed(1)} MB`;
}

/** The list answer of the API, or null when it is not one. */
export function drawingListOf(body: unknown): TDrawingList | null {
  const result = ZDrawingList.safeParse(body);
  return result.success ? result.data : null;
}

export function drawingDetailOf(body: unknown): TDrawingDetail | null {
  const result = ZDrawingDetail.safeParse(body);
  return result.success ? result.data : null;
}

/** The description's paragraphs (the API keeps plain text with blank lines between paragraphs). */
export function paragraphsOf(description: string): string[] {
  return description
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter((paragraph) => paragraph !== '');
}

/** The first paragraph cut to `max` characters, for meta descriptions. */
export function summaryOf(description: string, max = 120): string {
  const first = paragraphsOf(description)[0] ?? '';
  const chars = Array.from(first);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : first;
}
