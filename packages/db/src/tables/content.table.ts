import type { Generated, Insertable, Selectable } from 'kysely';

// Tables of content (migration 2026-11-21T2300_content). Epochs are seconds.

/** post: guides and tutorials (/{id}.html); dailypic: 每日一图; page: legal and about pages. */
export type ContentPostType = 'post' | 'dailypic' | 'page';

export interface ContentPostTable {
  /** The authored id: the article's public URL /{id}.html. */
  id: number;
  type: ContentPostType;
  status: Generated<'publish' | 'draft'>;
  slug: string;
  title: string;
  /** Plain text. */
  excerpt: Generated<string>;
  /** Rendered from Markdown at import; sanitised again on output. */
  content_html: string;
  author: string;
  /** Path or URL of the featured image, '' when none. */
  image: Generated<string>;
  menu_order: Generated<number>;
  views: Generated<number>;
  downloads: Generated<number>;
  date: number;
  modified: number;
  /** The Markdown file under content/ it was imported from. */
  source_path: string;
  /** SHA-256 of that file: an unchanged file is not written again. */
  source_hash: string;
}

export type ContentTaxonomy = 'category' | 'post_tag';

export interface ContentTermTable {
  id: Generated<number>;
  taxonomy: ContentTaxonomy;
  slug: string;
  name: string;
  description: Generated<string>;
  parent_id: number | null;
}

export interface ContentPostTermTable {
  post_id: number;
  term_id: number;
}

export interface ContentPostMetaTable {
  post_id: number;
  key: string;
  value: string;
}

export type ContentPost = Selectable<ContentPostTable>;
export type NewContentPost = Insertable<ContentPostTable>;
export type ContentTerm = Selectable<ContentTermTable>;
