import 'server-only';
import { COURSE_PATHS, ZCourseResponse, type TCourseResponse } from '@xcad/protocol';
import { cache } from 'react';
import { siteConfig } from '@/config/site';
import { listPostsOf, termsOf, type ListPost } from '@/lib/content/lists';
import { wpGet } from '@/lib/content/wp-fetch';

// Server-side reads of /video.html and /resources.html (decision 0012): the course from the API's
// public `GET /api/site/course`, and the newest tutorial articles of a course category from the
// content API. 'unavailable' when the API cannot answer: the page shows a note instead of failing.

export type CourseLoad = { state: 'found'; course: TCourseResponse } | { state: 'unavailable' };

/** Seconds a course answer is reused (the API says a minute too). */
const COURSE_REVALIDATE_SECONDS = 60;

/** The course with its lessons; `cache`: metadata and page ask for it in one render. */
export const loadCourse = cache(async (): Promise<CourseLoad> => {
  const url = `${siteConfig().apiOrigin}${COURSE_PATHS.course}`;
  try {
    const response = await fetch(url, { next: { revalidate: COURSE_REVALIDATE_SECONDS } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const parsed = ZCourseResponse.safeParse(await response.json());
    if (!parsed.success) throw new Error(`unexpected answer: ${parsed.error.issues[0]?.message ?? ''}`);
    return { state: 'found', course: parsed.data };
  } catch (error) {
    console.error(`[course] ${COURSE_PATHS.course} failed:`, error instanceof Error ? error.message : error);
    return { state: 'unavailable' };
  }
});

/** The `count` newest articles of a tutorial category (`basics`, `master`); null when the content API fails. */
export async function newestTutorials(slug: 'basics' | 'master', count: number): Promise<{ posts: ListPost[]; total: number } | null> {
  const category = await wpGet('categories', { slug, _fields: 'id,name,slug' });
  const term = category === false ? undefined : termsOf(category.body)?.[0];
  if (term === undefined) return null;
  const answer = await wpGet('posts', {
    categories: term.id,
    per_page: count,
    orderby: 'date',
    order: 'desc',
    _fields: 'id,title,excerpt,date',
  });
  const posts = answer === false ? null : listPostsOf(answer.body);
  if (posts === null || answer === false) return null;
  return { posts, total: answer.total ?? posts.length };
}
