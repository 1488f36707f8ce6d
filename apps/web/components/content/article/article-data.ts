import 'server-only';
import { cache } from 'react';
import { latestGuides } from '@/lib/content/latest-guides';
import type { GuideSummary } from '@/lib/content/latest-guides';
import { articleOf, relatedQueries, summariesOf } from '@/lib/content/posts';
import type { Article, PostSummary } from '@/lib/content/posts';
import { wpGet } from '@/lib/content/wp-fetch';

/** What an article page renders: the article, missing (a 404), or the API being unreachable. */
export type ArticleLoad = { state: 'found'; article: Article } | { state: 'missing' } | { state: 'unavailable' };

const RELATED_COUNT = 5;
const SIDEBAR_GUIDES = 6;

// `cache`: generateMetadata and the page ask for the same post in one render.
export const loadPost = cache(async (kind: 'posts' | 'pages', id: number): Promise<ArticleLoad> => {
  const answer = await wpGet(`${kind}/${id}`, { _embed: 'author,wp:term' }, [404, 400]);
  if (answer === false) return { state: 'unavailable' };
  if (answer.status !== 200) return { state: 'missing' };
  const article = articleOf(answer.body);
  return article ? { state: 'found', article } : { state: 'unavailable' };
});

/** 3-5 posts sharing the first tag, topped up from the primary category; [] when the API fails. */
export async function relatedPosts(article: Article): Promise<PostSummary[]> {
  const found: PostSummary[] = [];
  for (const query of relatedQueries(article)) {
    const answer = await wpGet('posts', {
      ...query,
      per_page: RELATED_COUNT + 1,
      exclude: article.id,
      _fields: 'id,title,date',
    });
    if (answer === false) break;
    const seen = new Set(found.map((post) => post.id));
    for (const post of summariesOf(answer.body, article.id, RELATED_COUNT)) {
      if (!seen.has(post.id) && found.length < RELATED_COUNT) found.push(post);
    }
    if (found.length >= RELATED_COUNT) break;
  }
  return found;
}

export async function sidebarGuides(excludeId: number): Promise<GuideSummary[]> {
  const guides = await latestGuides(SIDEBAR_GUIDES + 1);
  return guides.filter((guide) => guide.id !== excludeId).slice(0, SIDEBAR_GUIDES);
}
