import { wpUrl } from './wp-url';

// The content API's counters (views and downloads, decision 0012; spec §7 for the URLs): called after a
// page is shown; a view count never blocks reading, so callers ignore failures.

const API = '/wp-json/wp/v2';

export interface LiveCounts {
  /** `null` where the answer did not carry the number (the page keeps the one it has). */
  readonly views: number | null;
  readonly downloads: number | null;
}

function numberIn(body: unknown, key: keyof LiveCounts): number | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

async function countsOf(request: Promise<Response>): Promise<LiveCounts> {
  const response = await request;
  const body: unknown = response.ok ? await response.json() : null;
  return { views: numberIn(body, 'views'), downloads: numberIn(body, 'downloads') };
}

/** Counts a view of an article; the answer and any failure are ignored. */
export function countArticleView(id: number): void {
  fetch(wpUrl(`${API}/update_post_views?id=${id}`), { method: 'POST', keepalive: true }).catch(() => undefined);
}

/** Counts a view of a daily picture, answering the new numbers. */
export function countDailypicView(id: number): Promise<LiveCounts> {
  return countsOf(fetch(wpUrl(`${API}/update_post_views?id=${id}`), { method: 'POST', keepalive: true }));
}

/** The current numbers of a daily picture, counting nothing. */
export function readDailypicCounts(id: number): Promise<LiveCounts> {
  return countsOf(fetch(wpUrl(`${API}/get_dailypicsId?id=${id}`), { cache: 'no-store' }));
}

/** Counts a download of a daily picture, answering the new numbers. */
export function countDailypicDownload(id: number): Promise<LiveCounts> {
  return countsOf(fetch(wpUrl(`${API}/update_post_download?id=${id}`), { method: 'POST', keepalive: true }));
}
