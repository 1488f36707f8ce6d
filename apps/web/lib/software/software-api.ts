import 'server-only';
import { cache } from 'react';
import { siteConfig } from '../../config/site';
import { htmlToText } from '../content/latest-guides';
import { wpGet } from '../content/wp-fetch';
import { softwareOf, type Software } from './software';

// Server-side reads of the download pages (decision 0012): the product from the API's
// `/api/site/software/{key}`, the titles of its help articles from the content API.

/**
 * Seconds Next.js keeps a product before asking again: the page is static (ISR) and the shown
 * count is refreshed on the client, so this only bounds how old a new release can look.
 */
const SOFTWARE_REVALIDATE_SECONDS = 60;

export type SoftwareLoad = { state: 'found'; software: Software } | { state: 'missing' } | { state: 'unavailable' };

// The last good answer per product in this process: a regeneration while the API is briefly down
// keeps showing the release it showed before (the count is refreshed in the browser anyway)
// instead of replacing a good page with the "unavailable" note for a whole revalidation period.
const lastGood = new Map<string, Software>();

// `cache`: generateMetadata and the page ask for the same product in one render.
export const loadSoftware = cache(async (key: string): Promise<SoftwareLoad> => {
  const url = `${siteConfig().apiOrigin}/api/site/software/${encodeURIComponent(key)}`;
  try {
    const response = await fetch(url, { next: { revalidate: SOFTWARE_REVALIDATE_SECONDS } });
    if (response.status === 404) return { state: 'missing' };
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const software = softwareOf(await response.json());
    if (software === null) throw new Error('not a product');
    lastGood.set(key, software);
    return { state: 'found', software };
  } catch (error) {
    console.error(`[software] ${key} failed:`, error instanceof Error ? error.message : error);
    const previous = lastGood.get(key);
    return previous === undefined ? { state: 'unavailable' } : { state: 'found', software: previous };
  }
});

export interface HelpLink {
  readonly id: number;
  readonly title: string;
}

/** The titles of the given help articles, in the given order; [] when the content API fails. */
export async function helpLinksOf(ids: readonly number[]): Promise<HelpLink[]> {
  if (ids.length === 0) return [];
  const answer = await wpGet('posts', { include: ids.join(','), per_page: ids.length, orderby: 'include', _fields: 'id,title' });
  if (answer === false || !Array.isArray(answer.body)) return [];
  const titles = new Map<number, string>();
  for (const post of answer.body as unknown[]) {
    if (typeof post !== 'object' || post === null) continue;
    const { id, title } = post as { id?: unknown; title?: unknown };
    const rendered = typeof title === 'object' && title !== null ? (title as { rendered?: unknown }).rendered : undefined;
    if (typeof id === 'number' && typeof rendered === 'string') titles.set(id, htmlToText(rendered));
  }
  return ids.flatMap((id) => {
    const title = titles.get(id);
    return title === undefined ? [] : [{ id, title }];
  });
}
