import type { ContentTaxonomy } from '@xcad/db';
import type { HtmlSanitizer } from './content.sanitize';
import type { Neighbour, Neighbours, PostMetaRow, PostRow, PostTermRow, TermRow } from './published-content.repository';
import { escapeHtml } from '../../lib/html';

// The WordPress 6 shapes of posts and terms (FACTS.md "WordPress REST API"), plus the extra
// fields of spec §3 "Article". Pure: everything it needs comes in as arguments.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** spec §3 dates are Beijing time; China has no daylight saving, so it is UTC+8 all year. */
const SHANGHAI_OFFSET_SECONDS = 8 * 3600;

/** WordPress's `date_gmt`: 'YYYY-MM-DDTHH:mm:ss' in UTC. */
export function isoUtc(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 19);
}

/** WordPress's `date`: the same in the site's time zone, Asia/Shanghai. */
export function isoShanghai(epochSeconds: number): string {
  return isoUtc(epochSeconds + SHANGHAI_OFFSET_SECONDS);
}

/** MySQL's DATETIME text, as `post_modified` reads: 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai. */
export function mysqlShanghai(epochSeconds: number): string {
  return isoShanghai(epochSeconds).replace('T', ' ');
}

/** Relative paths (as content stores them) made absolute on the public site, as WordPress gives URLs. */
export function absoluteUrl(publicOrigin: string, pathOrUrl: string): string {
  if (pathOrUrl === '' || /^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  return new URL(pathOrUrl, publicOrigin).toString();
}

/**
 * WordPress's `_fields`: keeps only the named fields, where `title.rendered` keeps that part of
 * `title`. Unknown names are ignored.
 */
export function filterFields(object: JsonObject, fields: readonly string[]): JsonObject {
  const result: JsonObject = {};
  for (const field of fields) {
    const path = field.split('.');
    let source: Json = object;
    let target: JsonObject = result;
    for (const [index, key] of path.entries()) {
      if (typeof source !== 'object' || source === null || Array.isArray(source) || !(key in source)) break;
      const value: Json = source[key] ?? null;
      if (index === path.length - 1) {
        target[key] = value;
        break;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) break;
      const existing = target[key];
      if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) {
        if (existing !== undefined) break;
        target[key] = {};
      }
      target = target[key] as JsonObject;
      source = value;
    }
  }
  return result;
}

// Category pages of the site (spec §2 routes); other categories belong to their parent's page.
const CATEGORY_PAGES: Readonly<Record<string, string>> = {
  help: '/help.html',
  tutorials: '/basics.html',
  basics: '/basics.html',
  master: '/master.html',
  dailypic: '/dailypic.html',
};

export function termLink(publicOrigin: string, term: Pick<TermRow, 'id' | 'taxonomy' | 'slug' | 'parent_slug'>): string {
  if (term.taxonomy === 'post_tag') return absoluteUrl(publicOrigin, `/tag/${term.id}`);
  const page = CATEGORY_PAGES[term.slug] ?? CATEGORY_PAGES[term.parent_slug ?? ''] ?? '/help.html';
  return absoluteUrl(publicOrigin, page);
}

const TAXONOMY_REST_BASE: Readonly<Record<ContentTaxonomy, string>> = { category: 'categories', post_tag: 'tags' };

export function termObject(publicOrigin: string, apiBase: string, term: TermRow): JsonObject {
  const base = TAXONOMY_REST_BASE[term.taxonomy];
  return {
    id: term.id,
    count: term.count,
    description: term.description,
    link: termLink(publicOrigin, term),
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    ...(term.taxonomy === 'category' ? { parent: term.parent_id ?? 0 } : {}),
    meta: [],
    _links: {
      self: [{ href: `${apiBase}/${base}/${term.id}` }],
      collection: [{ href: `${apiBase}/${base}` }],
    },
  };
}

/** What a post's answer needs besides its row, fetched for a whole page at once. */
export interface PostExtras {
  terms: readonly PostTermRow[];
  meta: readonly PostMetaRow[];
  /** Absent when the fields asked for do not include previous/next. */
  neighbours?: Neighbours;
}

export interface PostPresentation {
  publicOrigin: string;
  /** The API root as the client reached it, e.g. https://host/wp-json/wp/v2. */
  apiBase: string;
  sanitize: HtmlSanitizer;
  /** `_embed` relations to embed; empty for none. */
  embed: ReadonlySet<string>;
  /** The top-level fields `_fields` asks for; undefined for all. Saves sanitising unread content. */
  fields?: ReadonlySet<string>;
}

export const SEO_META_KEYS = { title: 'seo_title', description: 'seo_description', keywords: 'seo_keywords' } as const;

function neighbourObject(neighbour: Neighbour | null | undefined): Json {
  return neighbour == null ? null : { id: neighbour.id, title: neighbour.title, slug: neighbour.slug };
}

export function postLink(publicOrigin: string, row: Pick<PostRow, 'id' | 'type' | 'slug'>): string {
  if (row.type === 'dailypic') return absoluteUrl(publicOrigin, `/dailypics/${row.id}`);
  if (row.type === 'page') return absoluteUrl(publicOrigin, `/${row.slug}.html`);
  return absoluteUrl(publicOrigin, `/${row.id}.html`);
}

export function metaObject(meta: readonly PostMetaRow[]): JsonObject {
  return Object.fromEntries(meta.map((entry) => [entry.key, entry.value]));
}

/** A post (or page) as WordPress's /wp/v2/posts answers it, with spec §3's extra fields. */
export function postObject(row: PostRow, extras: PostExtras, view: PostPresentation): JsonObject {
  const { publicOrigin, apiBase } = view;
  const link = postLink(publicOrigin, row);
  const categories = extras.terms.filter((term) => term.taxonomy === 'category');
  const tags = extras.terms.filter((term) => term.taxonomy === 'post_tag');
  const meta = metaObject(extras.meta);
  const image = absoluteUrl(publicOrigin, row.image);
  const rest = row.type === 'page' ? 'pages' : 'posts';
  const object: JsonObject = {
    id: row.id,
    date: isoShanghai(row.date),
    date_gmt: isoUtc(row.date),
    guid: { rendered: link },
    modified: isoShanghai(row.modified),
    modified_gmt: isoUtc(row.modified),
    slug: row.slug,
    status: 'publish',
    type: row.type,
    link,
    title: { rendered: escapeHtml(row.title) },
    content: { rendered: view.fields === undefined || view.fields.has('content') ? view.sanitize(row.content_html) : '', protected: false },
    excerpt: { rendered: row.excerpt === '' ? '' : `<p>${escapeHtml(row.excerpt)}</p>\n`, protected: false },
    author: 1,
    featured_media: image === '' ? 0 : row.id,
    menu_order: row.menu_order,
    comment_status: 'closed',
    ping_status: 'closed',
    template: '',
    meta,
    ...(row.type === 'page' ? { parent: 0 } : { sticky: false, format: 'standard', categories: categories.map((term) => term.id), tags: tags.map((term) => term.id) }),
    jetpack_featured_media_url: image,
    tags_d: tags.map((term) => ({ id: term.id, name: term.name, slug: term.slug })),
    previous: neighbourObject(extras.neighbours?.previous),
    next: neighbourObject(extras.neighbours?.next),
    yoast_head_json: {
      title: meta[SEO_META_KEYS.title] ?? row.title,
      description: meta[SEO_META_KEYS.description] ?? row.excerpt,
      canonical: link,
      keywords: meta[SEO_META_KEYS.keywords] ?? tags.map((term) => term.name).join(','),
    },
    _links: {
      self: [{ href: `${apiBase}/${rest}/${row.id}` }],
      collection: [{ href: `${apiBase}/${rest}` }],
      'wp:term': [
        { taxonomy: 'category', embeddable: true, href: `${apiBase}/categories?post=${row.id}` },
        { taxonomy: 'post_tag', embeddable: true, href: `${apiBase}/tags?post=${row.id}` },
      ],
    },
  };
  if (view.embed.size > 0) {
    const embedded: JsonObject = {};
    const wants = (relation: string): boolean => view.embed.has('*') || view.embed.has(relation);
    if (wants('author')) embedded['author'] = [{ id: 1, name: row.author, url: '', description: '', link: absoluteUrl(publicOrigin, '/'), slug: 'admin' }];
    if (wants('wp:featuredmedia') && image !== '') {
      embedded['wp:featuredmedia'] = [
        { id: row.id, date: isoShanghai(row.date), slug: `${row.slug}-image`, type: 'attachment', title: { rendered: escapeHtml(row.title) }, alt_text: row.title, media_type: 'image', source_url: image },
      ];
    }
    if (wants('wp:term') && row.type !== 'page') {
      const embedTerm = (term: PostTermRow): Json => ({
        id: term.id,
        link: termLink(publicOrigin, { ...term, parent_slug: null }),
        name: term.name,
        slug: term.slug,
        taxonomy: term.taxonomy,
      });
      embedded['wp:term'] = [categories.map(embedTerm), tags.map(embedTerm)];
    }
    object['_embedded'] = embedded;
  }
  return object;
}
