import type { Database, Drawing, DrawingCategory, Executor, NewDrawing } from '@xcad/db';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';

// All SQL of the drawing library: the public reads and counters, the membership look-up of the
// download check, and the importer's writes. Functions take the executor so callers own the
// transaction.

export interface DrawingFilter {
  categorySlug?: string | undefined;
  format?: 'DWG' | 'DXF' | undefined;
  isMemberOnly?: boolean | undefined;
  /** Words that must each appear in the title, the tags or the description. */
  words: readonly string[];
}

export interface CategoryCount {
  slug: string;
  name: string;
  description: string;
  count: number;
}

/** `%` and `_` typed by a visitor are literal characters, not LIKE wildcards. */
function likePattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function matchesFilter(filter: DrawingFilter) {
  return (eb: ExpressionBuilder<Database, 'drawing'>) => {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.categorySlug !== undefined) conditions.push(eb('category_slug', '=', filter.categorySlug));
    if (filter.format !== undefined) conditions.push(eb('format', '=', filter.format));
    if (filter.isMemberOnly !== undefined) conditions.push(eb('member_only', '=', filter.isMemberOnly ? 1 : 0));
    for (const word of filter.words) {
      const pattern = likePattern(word);
      // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's only for non-ASCII.
      conditions.push(
        eb.or([
          sql<SqlBool>`lower(title) like ${pattern} escape '\\'`,
          sql<SqlBool>`lower(tags) like ${pattern} escape '\\'`,
          sql<SqlBool>`lower(description) like ${pattern} escape '\\'`,
        ]),
      );
    }
    return eb.and(conditions);
  };
}

export async function countDrawings(db: Executor, filter: DrawingFilter): Promise<number> {
  const row = await db
    .selectFrom('drawing')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where(matchesFilter(filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of drawings, newest first (then by id, so pages never overlap). */
export async function listDrawings(db: Executor, filter: DrawingFilter, limit: number, offset: number): Promise<Drawing[]> {
  return db
    .selectFrom('drawing')
    .selectAll()
    .where(matchesFilter(filter))
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function findDrawing(db: Executor, id: number): Promise<Drawing | undefined> {
  return db.selectFrom('drawing').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Other drawings of the category, newest first. */
export async function relatedDrawings(db: Executor, categorySlug: string, excludeId: number, limit: number): Promise<Drawing[]> {
  return db
    .selectFrom('drawing')
    .selectAll()
    .where('category_slug', '=', categorySlug)
    .where('id', '!=', excludeId)
    .orderBy('published_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Every category in navigation order, with how many drawings it holds (one GROUP BY). */
export async function categoriesWithCounts(db: Executor): Promise<CategoryCount[]> {
  const rows = await db
    .selectFrom('drawing_category as c')
    .leftJoin('drawing as d', 'd.category_slug', 'c.slug')
    .select((eb) => ['c.slug', 'c.name', 'c.description', eb.fn.count<number | string>('d.id').as('count')])
    .groupBy(['c.slug', 'c.name', 'c.description', 'c.position'])
    .orderBy('c.position')
    .execute();
  return rows.map((row) => ({ slug: row.slug, name: row.name, description: row.description, count: Number(row.count) }));
}

export async function categoryNames(db: Executor): Promise<Map<string, string>> {
  const rows = await db.selectFrom('drawing_category').select(['slug', 'name']).execute();
  return new Map(rows.map((row) => [row.slug, row.name]));
}

/** One atomic increment, so concurrent downloads are all counted; undefined for an unknown id. */
export async function incrementDownloads(db: Executor, id: number): Promise<number | undefined> {
  const row = await db
    .updateTable('drawing')
    .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
    .where('id', '=', id)
    .returning('downloads')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.downloads);
}

export async function incrementViews(db: Executor, id: number): Promise<number | undefined> {
  const row = await db
    .updateTable('drawing')
    .set((eb) => ({ views: eb('views', '+', 1) }))
    .where('id', '=', id)
    .returning('views')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.views);
}

/** spec §4: the user's expiry (epoch seconds) for `productId`, undefined when never bought. */
export async function membershipExpiry(db: Executor, userId: number, productId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('membership')
    .select('auth_value')
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.auth_value);
}

// --- the importer's reads and writes ---

export type AuthoredDrawing = Omit<NewDrawing, 'views' | 'downloads'>;

export async function listAllCategories(db: Executor): Promise<DrawingCategory[]> {
  return db.selectFrom('drawing_category').selectAll().execute();
}

export async function insertCategory(db: Executor, category: DrawingCategory): Promise<void> {
  await db.insertInto('drawing_category').values(category).execute();
}

export async function updateCategory(db: Executor, category: DrawingCategory): Promise<void> {
  await db
    .updateTable('drawing_category')
    .set({ name: category.name, description: category.description, position: category.position })
    .where('slug', '=', category.slug)
    .execute();
}

export async function deleteCategories(db: Executor, slugs: readonly string[]): Promise<void> {
  if (slugs.length > 0)
    await db
      .deleteFrom('drawing_category')
      .where('slug', 'in', [...slugs])
      .execute();
}

export async function listImportedDrawings(db: Executor): Promise<Array<Pick<Drawing, 'id' | 'slug' | 'source_hash'>>> {
  return db.selectFrom('drawing').select(['id', 'slug', 'source_hash']).execute();
}

export async function insertDrawing(db: Executor, drawing: AuthoredDrawing): Promise<void> {
  await db.insertInto('drawing').values(drawing).execute();
}

/** Replaces what was authored; the counters (views, downloads) stay. */
export async function updateDrawing(db: Executor, drawing: AuthoredDrawing): Promise<void> {
  const { id, ...fields } = drawing;
  await db.updateTable('drawing').set(fields).where('id', '=', id).execute();
}

export async function deleteDrawings(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length > 0)
    await db
      .deleteFrom('drawing')
      .where('id', 'in', [...ids])
      .execute();
}

/** Frees the slugs of drawings about to be rewritten, so two drawings may swap slugs in one run. */
export async function parkSlugs(db: Executor, ids: readonly number[]): Promise<void> {
  for (const id of ids)
    await db
      .updateTable('drawing')
      .set({ slug: `__moving-${id}` })
      .where('id', '=', id)
      .execute();
}
