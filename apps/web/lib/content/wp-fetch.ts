import 'server-only';
import { siteConfig } from '../../config/site';
import { parseJsonWithJunk } from './latest-guides';

// spec §7 "Blog backend": every content helper returns false on failure and logs it; some
// answers carry junk before the JSON, which is removed before parsing. The server renders pages
// from the content API directly (not through the front server's /wp-json pass-through).

/** Seconds Next.js keeps a content answer before asking again (pages are ISR). */
const CONTENT_REVALIDATE_SECONDS = 300;

export interface WpAnswer {
  readonly status: number;
  readonly body: unknown;
  /** X-WP-Total and X-WP-TotalPages when the route sends them. */
  readonly total: number | undefined;
  readonly totalPages: number | undefined;
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  const parsed = value === null ? Number.NaN : Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * GETs `/wp-json/wp/v2/<route>` with `params`; false on a network failure, an unreadable body or
 * an error status other than those in `acceptStatuses` (a 404 a page turns into "not found").
 */
export async function wpGet(
  route: string,
  params: Readonly<Record<string, string | number | undefined>> = {},
  acceptStatuses: readonly number[] = [],
): Promise<WpAnswer | false> {
  const url = new URL(`${siteConfig().apiOrigin}/wp-json/wp/v2/${route.replace(/^\/+/, '')}`);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  }
  try {
    const response = await fetch(url, { next: { revalidate: CONTENT_REVALIDATE_SECONDS } });
    if (!response.ok && !acceptStatuses.includes(response.status)) throw new Error(`HTTP ${response.status}`);
    return {
      status: response.status,
      body: parseJsonWithJunk(await response.text()),
      total: numberHeader(response.headers, 'x-wp-total'),
      totalPages: numberHeader(response.headers, 'x-wp-totalpages'),
    };
  } catch (error) {
    console.error(`[content] ${url.pathname}${url.search} failed:`, error instanceof Error ? error.message : error);
    return false;
  }
}
