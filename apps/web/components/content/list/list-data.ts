import 'server-only';
import { cache } from 'react';
import { HELP_CATEGORY_SLUGS, LIST_FIELDS, LIST_PAGE_SIZE, listPostsOf, orderBySlugs, termFrom, termsOf } from '@/lib/content/lists';
import type { ListPost, ListTerm } from '@/lib/content/lists';
import { wpGet } from '@/lib/content/wp-fetch';

// Every loader answers 'unavailable' when the content API fails (the page shows a friendly note
// instead of crashing) and 'missing' when the thing asked for does not exist (the page is a 404).

export type Load<T> = { state: 'found'; value: T } | { state: 'missing' } | { state: 'unavailable' };

export interface PostPage {
  readonly posts: ListPost[];
  readonly page: number;
  readonly totalPages: number;
  readonly total: number;
}

export interface HelpSection {
  readonly category: ListTerm;
  readonly posts: ListPost[];
}

const UNAVAILABLE = { state: 'unavailable' } as const;
const MISSING = { state: 'missing' } as const;

/** The help sub-categories (children of the `help` category), in the help centre's order. */
const helpCategories = cache(async (): Promise<Load<ListTerm[]>> => {
  const parent = await wpGet('categories', { slug: 'help', _fields: 'id,name,slug' });
  const help = parent === false ? null : termsOf(parent.body)?.[0];
  if (!help) return UNAVAILABLE;
  const children = await wpGet('categories', { parent: help.id, per_page: 100, _fields: 'id,name,slug' });
  const terms = children === false ? null : termsOf(children.body);
  if (!terms) return UNAVAILABLE;
  const ordered = orderBySlugs(terms, HELP_CATEGORY_SLUGS);
  // Categories added later than the known six still show, after them.
  const extra = terms.filter((term) => !ordered.includes(term));
  return { state: 'found', value: [...ordered, ...extra] };
});

/** One page of posts for `query`; 'missing' for a page past the end (WordPress answers 400). */
async function postPage(query: Record<string, string | number>, page: number): Promise<Load<PostPage>> {
  const answer = await wpGet('posts', { ...query, page, per_page: LIST_PAGE_SIZE, _fields: LIST_FIELDS }, [400]);
  if (answer === false) return UNAVAILABLE;
  if (answer.status === 400) return MISSING;
  const posts = listPostsOf(answer.body);
  if (!posts) return UNAVAILABLE;
  const totalPages = answer.totalPages ?? 1;
  if (page > 1 && page > totalPages) return MISSING;
  return { state: 'found', value: { posts, page, totalPages, total: answer.total ?? posts.length } };
}

/** Every help category with all its articles, newest first. */
export async function helpSections(): Promise<Load<HelpSection[]>> {
  const categories = await helpCategories();
  if (categories.state !== 'found') return categories;
  const sections = await Promise.all(
    categories.value.map(async (category) => {
      const answer = await wpGet('posts', { categories: category.id, per_page: 100, _fields: LIST_FIELDS });
      const posts = answer === false ? null : listPostsOf(answer.body);
      return posts ? { category, posts } : null;
    }),
  );
  if (sections.some((section) => section === null)) return UNAVAILABLE;
  return { state: 'found', value: sections.filter((section): section is HelpSection => section !== null) };
}

/** Page `page` of every help article (all help sub-categories), newest first. */
export async function helpArticlesPage(page: number, search = ''): Promise<Load<PostPage>> {
  const categories = await helpCategories();
  if (categories.state !== 'found') return categories;
  const ids = categories.value.map((category) => category.id).join(',');
  return postPage(search === '' ? { categories: ids } : { categories: ids, search }, page);
}

/** The lessons of a course category (`basics`, `master`) in course order: oldest first. */
export async function courseLessons(slug: string): Promise<Load<ListPost[]>> {
  const category = await wpGet('categories', { slug, _fields: 'id,name,slug' });
  const term = category === false ? null : termsOf(category.body)?.[0];
  if (!term) return UNAVAILABLE;
  const answer = await wpGet('posts', { categories: term.id, per_page: 100, orderby: 'date', order: 'asc', _fields: LIST_FIELDS });
  const posts = answer === false ? null : listPostsOf(answer.body);
  return posts ? { state: 'found', value: posts } : UNAVAILABLE;
}

/** A tag by id; 'missing' for an unknown tag. `cache`: metadata and page ask for it in one render. */
export const tagById = cache(async (id: number): Promise<Load<ListTerm>> => {
  const answer = await wpGet(`tags/${id}`, { _fields: 'id,name,slug' }, [404, 400]);
  if (answer === false) return UNAVAILABLE;
  if (answer.status !== 200) return MISSING;
  const term = termFrom(answer.body);
  return term ? { state: 'found', value: term } : UNAVAILABLE;
});

export async function tagPostsPage(tagId: number, page: number): Promise<Load<PostPage>> {
  return postPage({ tags: tagId }, page);
}

/** The topics of `/lingwai`: every category that holds articles (the help and tutorial sub-categories), by name. */
export const articleTopics = cache(async (): Promise<Load<ListTerm[]>> => {
  const answer = await wpGet('categories', { per_page: 100, hide_empty: 'true', _fields: 'id,name,slug,parent,count' });
  if (answer === false || !Array.isArray(answer.body)) return UNAVAILABLE;
  const body = answer.body as Array<Record<string, unknown>>;
  // Parents (软件帮助, CAD教程) and the daily pictures' category are groupings, not topics.
  const topics = body.filter((term) => Number(term.parent) > 0 && term.slug !== 'dailypic');
  const terms = termsOf(topics);
  if (!terms) return UNAVAILABLE;
  // The help centre's order, then the two courses; topics added later follow.
  const ordered = orderBySlugs(terms, [...HELP_CATEGORY_SLUGS, 'basics', 'master']);
  return { state: 'found', value: [...ordered, ...terms.filter((term) => !ordered.includes(term))] };
});

/** Page `page` of every article (help and tutorials), newest first; or of one topic. */
export async function topicPostsPage(topic: ListTerm | null, page: number): Promise<Load<PostPage>> {
  if (topic !== null) return postPage({ categories: topic.id }, page);
  const topics = await articleTopics();
  if (topics.state !== 'found') return topics;
  return postPage({ categories: topics.value.map((term) => term.id).join(',') }, page);
}
