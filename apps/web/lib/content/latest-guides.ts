import { siteConfig } from '../../config/site';

// The newest guide articles for the footer and the home page (spec §2 "Footer": six articles
// linking to /{id}.html). The content API is optional for rendering a page: any failure gives an
// empty list, which the callers hide.

export interface GuideSummary {
  readonly id: number;
  readonly title: string;
  /** Plain-text excerpt, possibly empty. */
  readonly excerpt: string;
  /** Last modification as the API gives it (`YYYY-MM-DD hh:mm:ss`), or ''. */
  readonly modified: string;
}

/** Seconds Next.js keeps a fetched list before fetching it again. */
export const LATEST_GUIDES_REVALIDATE_SECONDS = 300;

const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  mdash: '—',
  ndash: '–',
};

/** Titles and excerpts come as HTML from the blog backend; they are shown as plain text. */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** spec §7: some responses carry junk before the JSON; parsing starts at the first brace or bracket. */
export function parseJsonWithJunk(text: string): unknown {
  const start = text.search(/[{[]/);
  if (start < 0) throw new SyntaxError('no JSON in the response');
  return JSON.parse(text.slice(start));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function guideOf(item: unknown): GuideSummary | null {
  if (!isRecord(item)) return null;
  const id = typeof item.ID === 'string' ? Number(item.ID) : item.ID;
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return null;
  if (typeof item.post_title !== 'string') return null;
  const title = htmlToText(item.post_title);
  if (title === '') return null;
  return {
    id,
    title,
    excerpt: typeof item.excerpt === 'string' ? htmlToText(item.excerpt) : '',
    modified: typeof item.post_modified === 'string' ? item.post_modified : '',
  };
}

/** The guides of a `newPosts` answer (`{total, data: [...]}`); throws when the shape is wrong. */
export function guidesOf(body: unknown): GuideSummary[] {
  if (!isRecord(body) || !Array.isArray(body.data)) throw new TypeError('newPosts answer without a data list');
  return body.data.map(guideOf).filter((guide): guide is GuideSummary => guide !== null);
}

// One log line per outage rather than one per render while the API is down.
let isFailureLogged = false;

/** The `count` newest guides, newest first; [] when the content API fails in any way. */
export async function latestGuides(count: number): Promise<GuideSummary[]> {
  const url = `${siteConfig().apiOrigin}/wp-json/wp/v2/newPosts/?paged=1&per_page=${count}`;
  try {
    const response = await fetch(url, { next: { revalidate: LATEST_GUIDES_REVALIDATE_SECONDS } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const guides = guidesOf(parseJsonWithJunk(await response.text())).slice(0, count);
    isFailureLogged = false;
    return guides;
  } catch (error) {
    if (!isFailureLogged) {
      isFailureLogged = true;
      console.error(`[content] latest guides unavailable from ${url}:`, error instanceof Error ? error.message : error);
    }
    return [];
  }
}
