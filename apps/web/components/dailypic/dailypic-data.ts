import 'server-only';
import { cache } from 'react';
import {
  DAILYPIC_PAGE_SIZE,
  dailypicListOf,
  dailypicOf,
  tagCounts,
  totalPagesOf,
  type Dailypic,
  type DailypicSummary,
  type DailypicTab,
  type DailypicTagCount,
} from '@/lib/content/dailypics';
import { termFrom } from '@/lib/content/lists';
import { wpGet } from '@/lib/content/wp-fetch';

// The daily pictures' data for the pages, from the content API's custom routes (spec §7). Each
// loader answers 'unavailable' when the API fails (the page shows a note, never a crash) and
// 'missing' when the thing asked for does not exist (the page is a 404).

export type Load<T> = { state: 'found'; value: T } | { state: 'missing' } | { state: 'unavailable' };

export interface DailypicPage {
  readonly items: readonly DailypicSummary[];
  readonly page: number;
  readonly total: number;
  readonly totalPages: number;
}

const UNAVAILABLE = { state: 'unavailable' } as const;
const MISSING = { state: 'missing' } as const;

/** Every custom list answers `{total, data: []}` past the end; the pages turn that into a 404. */
async function listPage(route: string, params: Record<string, string | number>, page: number): Promise<Load<DailypicPage>> {
  const answer = await wpGet(route, { ...params, paged: page, per_page: DAILYPIC_PAGE_SIZE });
  const list = answer === false ? null : dailypicListOf(answer.body);
  if (list === null) return UNAVAILABLE;
  const totalPages = totalPagesOf(list.total);
  if (page > totalPages) return MISSING;
  return { state: 'found', value: { items: list.items, page, total: list.total, totalPages } };
}

/** /dailypic.html: newest first, most viewed first (`hot`), or the pictures whose title has `query`. */
export function indexPage(tab: DailypicTab, query: string, page: number): Promise<Load<DailypicPage>> {
  if (query !== '') return listPage('get_dailypics', { post_title: query }, page);
  return listPage(tab === 'hot' ? 'get_dailypics_hot' : 'get_dailypics', {}, page);
}

/** /dailypics/{tag}/{page}: one tag's pictures, newest first; tag 0 is every picture. */
export function tagPage(tagId: number, page: number): Promise<Load<DailypicPage>> {
  return tagId === 0 ? listPage('get_dailypics', {}, page) : listPage('getDailypicTags', { tag_id: tagId }, page);
}

/** The most viewed pictures (the detail page's side list). */
export async function hotPictures(count: number): Promise<readonly DailypicSummary[]> {
  const answer = await wpGet('get_dailypics_hot', { paged: 1, per_page: count });
  return (answer === false ? null : dailypicListOf(answer.body))?.items ?? [];
}

/** The newest pictures (the home page's teaser); [] when the API fails. */
export async function newestPictures(count: number): Promise<readonly DailypicSummary[]> {
  const answer = await wpGet('get_dailypics', { paged: 1, per_page: count });
  return (answer === false ? null : dailypicListOf(answer.body))?.items ?? [];
}

/**
 * The tags used by daily pictures, with counts. No route lists them directly (getAllTags mixes
 * in the articles' tags), so they are gathered from one page of every picture: a few hundred at
 * most, cached like every content answer.
 */
export const dailypicTags = cache(async (): Promise<DailypicTagCount[]> => {
  const answer = await wpGet('get_dailypics', { paged: 1, per_page: 100 });
  const list = answer === false ? null : dailypicListOf(answer.body);
  return list === null ? [] : tagCounts(list.items);
});

/** One picture; `cache`: the metadata and the page ask for it in one render. */
export const dailypicById = cache(async (id: number): Promise<Load<Dailypic>> => {
  const answer = await wpGet('get_dailypicsId', { id }, [400, 404]);
  if (answer === false) return UNAVAILABLE;
  if (answer.status !== 200) return MISSING;
  const picture = dailypicOf(answer.body);
  return picture === null ? UNAVAILABLE : { state: 'found', value: picture };
});

/** A tag's name for the tag list's title; 'missing' for an unknown tag. */
export const dailypicTagById = cache(async (id: number): Promise<Load<string>> => {
  const answer = await wpGet(`tags/${id}`, { _fields: 'id,name,slug' }, [400, 404]);
  if (answer === false) return UNAVAILABLE;
  if (answer.status !== 200) return MISSING;
  const term = termFrom(answer.body);
  return term === null ? UNAVAILABLE : { state: 'found', value: term.name };
});
