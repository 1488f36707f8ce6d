import { htmlToText } from './latest-guides';

// Posts and pages of the blog backend as the article pages read them (spec §3 Article; shapes in
// docs/decisions/0011-content-api.md). The readers here are pure so they can be tested without a
// server; the fetching lives in components/content/article/article-data.ts. A field of the wrong shape is dropped rather than
// trusted: the same client has to work against a real WordPress site (spec §7).

interface TermLink {
  readonly id: number;
  readonly name: string;
  /** Site path of the term's page (a tag's `/tag/{id}`, a category's section page), or ''. */
  readonly path: string;
}

export interface Neighbour {
  readonly id: number;
  readonly title: string;
}

export interface Article {
  readonly id: number;
  readonly title: string;
  /** Sanitised HTML from the content API. */
  readonly html: string;
  readonly excerpt: string;
  /** `YYYY-MM-DD` (Beijing time as the API gives it), or ''. */
  readonly date: string;
  readonly modified: string;
  readonly author: string;
  readonly categoryIds: readonly number[];
  readonly categories: readonly TermLink[];
  readonly tags: readonly TermLink[];
  readonly previous: Neighbour | null;
  readonly next: Neighbour | null;
  readonly seo: { readonly title: string; readonly description: string; readonly keywords: string };
}

export interface PostSummary {
  readonly id: number;
  readonly title: string;
  readonly date: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function positiveId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `title.rendered` style fields, or a plain string. */
function renderedText(value: unknown): string {
  if (typeof value === 'string') return htmlToText(value);
  if (isRecord(value) && typeof value.rendered === 'string') return htmlToText(value.rendered);
  return '';
}

/** The day part of a WordPress date (`2026-03-01T10:00:00` or `2026-03-01 10:00:00`). */
export function dayOf(value: unknown): string {
  if (typeof value !== 'string') return '';
  const match = /^(\d{4}-\d{2}-\d{2})/.exec(value);
  return match?.[1] ?? '';
}

/** The path of a link on any origin (the API makes term links absolute on the public origin). */
export function sitePath(link: unknown): string {
  if (typeof link !== 'string' || link === '') return '';
  try {
    const url = new URL(link, 'http://site.invalid');
    return url.pathname.startsWith('/') ? `${url.pathname}${url.search}` : '';
  } catch {
    return '';
  }
}

function neighbourOf(value: unknown): Neighbour | null {
  if (!isRecord(value)) return null;
  const id = positiveId(value.id);
  const title = renderedText(value.title);
  return id === null || title === '' ? null : { id, title };
}

function idList(value: unknown): number[] {
  return Array.isArray(value) ? value.map(positiveId).filter((id): id is number => id !== null) : [];
}

function embeddedTerms(post: Record<string, unknown>, taxonomy: string): Record<string, unknown>[] {
  const embedded = post._embedded;
  if (!isRecord(embedded) || !Array.isArray(embedded['wp:term'])) return [];
  return embedded['wp:term'].flat().filter((term): term is Record<string, unknown> => isRecord(term) && term.taxonomy === taxonomy);
}

function categoriesOf(post: Record<string, unknown>): TermLink[] {
  return embeddedTerms(post, 'category').flatMap((term) => {
    const id = positiveId(term.id);
    const name = renderedText(term.name);
    return id === null || name === '' ? [] : [{ id, name, path: sitePath(term.link) }];
  });
}

/** spec §3 `tags_d`; without it (a plain WordPress site) the embedded post_tag terms. */
function tagsOf(post: Record<string, unknown>): TermLink[] {
  const source = Array.isArray(post.tags_d) ? post.tags_d : embeddedTerms(post, 'post_tag');
  return source.flatMap((term: unknown) => {
    if (!isRecord(term)) return [];
    const id = positiveId(term.id);
    const name = renderedText(term.name);
    return id === null || name === '' ? [] : [{ id, name, path: `/tag/${id}` }];
  });
}

function authorOf(post: Record<string, unknown>): string {
  const embedded = post._embedded;
  if (!isRecord(embedded) || !Array.isArray(embedded.author)) return '';
  const first: unknown = embedded.author[0];
  return isRecord(first) && typeof first.name === 'string' ? first.name.trim() : '';
}

/** An article from a `/posts/{id}` or `/pages/{id}` answer; null when it is not a usable post. */
export function articleOf(body: unknown): Article | null {
  if (!isRecord(body)) return null;
  const id = positiveId(body.id);
  const title = renderedText(body.title);
  if (id === null || title === '') return null;
  const html = isRecord(body.content) && typeof body.content.rendered === 'string' ? body.content.rendered : '';
  const excerpt = renderedText(body.excerpt);
  const yoast = isRecord(body.yoast_head_json) ? body.yoast_head_json : {};
  const text = (value: unknown, fallback: string): string => {
    const plain = typeof value === 'string' ? htmlToText(value) : '';
    return plain === '' ? fallback : plain;
  };
  const tags = tagsOf(body);
  return {
    id,
    title,
    html,
    excerpt,
    date: dayOf(body.date),
    modified: dayOf(body.modified),
    author: authorOf(body),
    categoryIds: idList(body.categories),
    categories: categoriesOf(body),
    tags,
    previous: neighbourOf(body.previous),
    next: neighbourOf(body.next),
    seo: {
      title: text(yoast.title, title),
      description: text(yoast.description, excerpt),
      keywords: text(yoast.keywords, tags.map((tag) => tag.name).join(',')),
    },
  };
}

/** The posts of a `/posts` list answer, without `excludeId`, at most `limit`. */
export function summariesOf(body: unknown, excludeId: number, limit: number): PostSummary[] {
  if (!Array.isArray(body)) return [];
  const seen = new Set<number>([excludeId]);
  const list: PostSummary[] = [];
  for (const item of body) {
    if (!isRecord(item)) continue;
    const id = positiveId(item.id);
    const title = renderedText(item.title);
    if (id === null || title === '' || seen.has(id)) continue;
    seen.add(id);
    list.push({ id, title, date: dayOf(item.date) });
    if (list.length === limit) break;
  }
  return list;
}

/**
 * The list queries for related posts, best first: the article's first tag, then its primary
 * category (the lowest id, as the API's previous/next use it).
 */
export function relatedQueries(article: Pick<Article, 'tags' | 'categoryIds'>): Array<Record<string, string>> {
  const queries: Array<Record<string, string>> = [];
  if (article.tags[0]) queries.push({ tags: String(article.tags[0].id) });
  if (article.categoryIds.length > 0) queries.push({ categories: String(Math.min(...article.categoryIds)) });
  return queries;
}

/** An article id from the `[id]` segment (`123` or `123.html`); null for anything else. */
export function articleIdOf(segment: string): number | null {
  const match = /^(\d{1,15})(\.html)?$/.exec(segment);
  return match ? positiveId(match[1]) : null;
}

/** WordPress's page break inside `content.rendered` (the API keeps it; see content.sanitize.ts). */
const PAGE_BREAK = /<!--\s*nextpage\s*-->/i;

/** The pages of an article's HTML (spec §2 `/{id}?/{page}`): at least one, empty pages dropped. */
export function articlePages(html: string): string[] {
  const pages = html.split(PAGE_BREAK).map((page) => page.trim()).filter((page) => page !== '');
  return pages.length === 0 ? [''] : pages;
}

/** The address of page `page` of article `id`: page 1 is the article itself. */
export function articlePagePath(id: number, page: number): string {
  return page <= 1 ? `/${id}.html` : `/${id}/${page}`;
}
