import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0012: the tables of the drawing library (/dwglist, /dwgItem/{id}) (migration 2026-11-22T0100_drawings).
// Epochs are seconds.

export interface DrawingCategoryTable {
  slug: string;
  name: string;
  description: Generated<string>;
  /** Order of the category navigation (the order of content/drawings/library.yml). */
  position: number;
}

export type DrawingFormat = 'DWG' | 'DXF';

export interface DrawingTable {
  /** The authored id: the public URL /dwgItem/{id}. */
  id: number;
  slug: string;
  title: string;
  category_slug: string;
  /** Tag names joined by commas. */
  tags: Generated<string>;
  /** Plain text; paragraphs separated by a blank line. */
  description: string;
  format: DrawingFormat;
  /** The AutoCAD release the file is saved as, e.g. R2000, R2018. */
  version: string;
  size_bytes: number;
  /** Public URL path of the preview image, e.g. /content/images/drawings/5001-x.webp. */
  preview: string;
  /** Storage key of the file: content/files/drawings/... (free) or private/drawings/... (members). */
  file_key: string;
  /** 1: only members of product 203 (图库) may download it. */
  member_only: Generated<number>;
  views: Generated<number>;
  downloads: Generated<number>;
  published_at: number;
  credit: string;
  /** The library file the entry was imported from. */
  source_path: string;
  /** SHA-256 of the entry and its file: an unchanged entry is not written again. */
  source_hash: string;
}

export interface DrawingsTables {
  drawing_category: DrawingCategoryTable;
  drawing: DrawingTable;
}

export type Drawing = Selectable<DrawingTable>;
export type NewDrawing = Insertable<DrawingTable>;
export type DrawingCategory = Selectable<DrawingCategoryTable>;
