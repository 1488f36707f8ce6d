import 'server-only';
import { DRAWINGS_API_PREFIX, type TDrawingDetail, type TDrawingList } from '@xcad/protocol';
import { cache } from 'react';
import { siteConfig } from '../../config/site';
import { apiQueryOf, drawingDetailOf, drawingListOf, type ListState } from './drawings';

// Server-side reads of the drawing library (decision 0012) from the API's /api/site/drawings. Each load
// answers 'missing' for what does not exist (the page is a 404) and 'unavailable' when the API
// cannot be reached or answers nonsense (the page shows a friendly note instead of crashing).

export type DrawingLoad<T> = { state: 'found'; value: T } | { state: 'missing' } | { state: 'unavailable' };

/** Seconds Next.js keeps an answer: short, so download counts and new drawings show soon. */
const REVALIDATE_SECONDS = 30;

async function getJson(pathAndQuery: string, missingStatuses: readonly number[]): Promise<DrawingLoad<unknown>> {
  const url = `${siteConfig().apiOrigin}${pathAndQuery}`;
  try {
    const response = await fetch(url, { next: { revalidate: REVALIDATE_SECONDS } });
    if (missingStatuses.includes(response.status)) return { state: 'missing' };
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return { state: 'found', value: await response.json() };
  } catch (error) {
    console.error(`[drawings] ${pathAndQuery} failed:`, error instanceof Error ? error.message : error);
    return { state: 'unavailable' };
  }
}

/** One page of the list; 'missing' when the API refuses the filters (an unknown category). */
export async function loadDrawingList(state: ListState): Promise<DrawingLoad<TDrawingList>> {
  const search = new URLSearchParams(apiQueryOf(state)).toString();
  const answer = await getJson(search === '' ? DRAWINGS_API_PREFIX : `${DRAWINGS_API_PREFIX}?${search}`, [400]);
  if (answer.state !== 'found') return answer;
  const list = drawingListOf(answer.value);
  return list === null ? { state: 'unavailable' } : { state: 'found', value: list };
}

// `cache`: generateMetadata and the page ask for the same drawing in one render.
export const loadDrawing = cache(async (id: number): Promise<DrawingLoad<TDrawingDetail>> => {
  const answer = await getJson(`${DRAWINGS_API_PREFIX}/${id}`, [404]);
  if (answer.state !== 'found') return answer;
  const detail = drawingDetailOf(answer.value);
  return detail === null ? { state: 'unavailable' } : { state: 'found', value: detail };
});
