import type { ContentPostType, ContentTaxonomy, ContentTerm, Executor, NewContentPost } from '@xcad/db';

// The SQL of the content importer (content/ -> content_post, content_term, content_post_term,
// content_post_meta). The importer owns the transaction and passes it in.

/** What the importer needs to know of a post it imported before. */
export interface ImportedPostRow {
  id: number;
  type: ContentPostType;
  slug: string;
  source_path: string;
  source_hash: string;
}

/** Posts whose source_path starts with `prefix`: the ones an import owns and may replace or delete. */
export async function listImportedPosts(db: Executor, prefix: string): Promise<ImportedPostRow[]> {
  return db
    .selectFrom('content_post')
    .select(['id', 'type', 'slug', 'source_path', 'source_hash'])
    .where('source_path', 'like', `${prefix}%`)
    .execute();
}

/** Posts among `ids` that did not come from `prefix`: the import must not take them over. */
export async function findForeignPosts(db: Executor, ids: readonly number[], prefix: string): Promise<Array<{ id: number; source_path: string }>> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('content_post')
    .select(['id', 'source_path'])
    .where('id', 'in', [...ids])
    .where('source_path', 'not like', `${prefix}%`)
    .execute();
}

/** Posts of the given (type, slug) pairs that did not come from `prefix`. */
export async function findForeignSlugs(
  db: Executor,
  type: ContentPostType,
  slugs: readonly string[],
  prefix: string,
): Promise<Array<{ id: number; slug: string; source_path: string }>> {
  if (slugs.length === 0) return [];
  return db
    .selectFrom('content_post')
    .select(['id', 'slug', 'source_path'])
    .where('type', '=', type)
    .where('slug', 'in', [...slugs])
    .where('source_path', 'not like', `${prefix}%`)
    .execute();
}

/** Deletes posts; their terms and meta go with them (ON DELETE CASCADE). */
export async function deletePosts(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('content_post').where('id', 'in', [...ids]).execute();
}

export async function insertPost(db: Executor, post: NewContentPost): Promise<void> {
  await db.insertInto('content_post').values(post).execute();
}

/** The authored fields of a post; its counters (views, downloads) and status stay as they are. */
export type AuthoredPostFields = Omit<NewContentPost, 'id' | 'views' | 'downloads' | 'status'>;

export async function updatePost(db: Executor, id: number, fields: AuthoredPostFields): Promise<void> {
  await db.updateTable('content_post').set(fields).where('id', '=', id).execute();
}

/**
 * Moves a post's unique columns (slug, source_path) out of the way, so that posts of one import
 * can swap slugs or files between them without tripping the unique constraints mid-way.
 */
export async function parkPost(db: Executor, id: number): Promise<void> {
  await db
    .updateTable('content_post')
    .set({ slug: `~import-${id}`, source_path: `~import/${id}` })
    .where('id', '=', id)
    .execute();
}

export async function listTerms(db: Executor, taxonomy: ContentTaxonomy): Promise<ContentTerm[]> {
  return db.selectFrom('content_term').selectAll().where('taxonomy', '=', taxonomy).execute();
}

export interface TermFields {
  taxonomy: ContentTaxonomy;
  slug: string;
  name: string;
  description: string;
  parentId: number | null;
}

export async function insertTerm(db: Executor, term: TermFields): Promise<number> {
  const row = await db
    .insertInto('content_term')
    .values({ taxonomy: term.taxonomy, slug: term.slug, name: term.name, description: term.description, parent_id: term.parentId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateTerm(db: Executor, id: number, term: Omit<TermFields, 'taxonomy' | 'slug'>): Promise<void> {
  await db
    .updateTable('content_term')
    .set({ name: term.name, description: term.description, parent_id: term.parentId })
    .where('id', '=', id)
    .execute();
}

export async function replacePostTerms(db: Executor, postId: number, termIds: readonly number[]): Promise<void> {
  await db.deleteFrom('content_post_term').where('post_id', '=', postId).execute();
  const unique = [...new Set(termIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('content_post_term')
    .values(unique.map((termId) => ({ post_id: postId, term_id: termId })))
    .execute();
}

export async function replacePostMeta(db: Executor, postId: number, meta: Readonly<Record<string, string>>): Promise<void> {
  await db.deleteFrom('content_post_meta').where('post_id', '=', postId).execute();
  const rows = Object.entries(meta).map(([key, value]) => ({ post_id: postId, key, value }));
  if (rows.length === 0) return;
  await db.insertInto('content_post_meta').values(rows).execute();
}
