import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ContentPostType, ContentTaxonomy, Database, Executor } from '@xcad/db';

// Reads of published content for the content API, and its view and download counters. Lists are
// paginated in SQL and term counts are one GROUP BY, so nothing scales with the whole table in
// memory (decision 0011).

export interface PostRow {
  id: number;
  type: ContentPostType;
  slug: string;
  title: string;
  excerpt: string;
  content_html: string;
  author: string;
  image: string;
  menu_order: number;
  views: number;
  downloads: number;
  date: number;
  modified: number;
}

export interface PostFilter {
  type: ContentPostType;
  /** Case-insensitive, in title and content. */
  search?: string;
  /** Case-insensitive, in the title only. */
  titleSearch?: string;
  slugs?: readonly string[];
  include?: readonly number[];
  exclude?: readonly number[];
  /** Posts in any of these categories. */
  categories?: readonly number[];
  /** Posts with any of these tags. */
  tags?: readonly number[];
}

export type PostOrderBy = 'date' | 'id' | 'include' | 'title' | 'slug' | 'modified' | 'views' | 'menu_order';

export interface PostPage {
  orderBy: PostOrderBy;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  /** The ids whose order `orderBy: 'include'` follows. */
  includeOrder?: readonly number[];
}

type PostExpressions = ExpressionBuilder<Database, 'content_post'>;

const POST_COLUMNS = [
  'content_post.id',
  'content_post.type',
  'content_post.slug',
  'content_post.title',
  'content_post.excerpt',
  'content_post.content_html',
  'content_post.author',
  'content_post.image',
  'content_post.menu_order',
  'content_post.views',
  'content_post.downloads',
  'content_post.date',
  'content_post.modified',
] as const;

/** A LIKE pattern that finds `text` literally (its % and _ are escaped with a backslash). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

// better-sqlite3 cannot bind booleans, so an empty list is spelled in SQL.
const nothing = sql<SqlBool>`1 = 0`;

function lowerLike(column: 'content_post.title' | 'content_post.content_html', text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

function withTermIn(eb: PostExpressions, taxonomy: ContentTaxonomy, termIds: readonly number[]): Expression<SqlBool> {
  return eb(
    'content_post.id',
    'in',
    eb
      .selectFrom('content_post_term')
      .innerJoin('content_term', 'content_term.id', 'content_post_term.term_id')
      .select('content_post_term.post_id')
      .where('content_term.taxonomy', '=', taxonomy)
      .where('content_post_term.term_id', 'in', termIds),
  );
}

function filtered(db: Executor, filter: PostFilter) {
  return db
    .selectFrom('content_post')
    .where('content_post.type', '=', filter.type)
    .where('content_post.status', '=', 'publish')
    .where((eb) => {
      const conditions: Array<Expression<SqlBool>> = [];
      if (filter.search !== undefined && filter.search !== '') {
        conditions.push(eb.or([lowerLike('content_post.title', filter.search), lowerLike('content_post.content_html', filter.search)]));
      }
      if (filter.titleSearch !== undefined && filter.titleSearch !== '') conditions.push(lowerLike('content_post.title', filter.titleSearch));
      if (filter.slugs !== undefined) conditions.push(filter.slugs.length === 0 ? nothing : eb('content_post.slug', 'in', filter.slugs));
      if (filter.include !== undefined && filter.include.length > 0) conditions.push(eb('content_post.id', 'in', filter.include));
      if (filter.exclude !== undefined && filter.exclude.length > 0) conditions.push(eb('content_post.id', 'not in', filter.exclude));
      if (filter.categories !== undefined && filter.categories.length > 0) conditions.push(withTermIn(eb, 'category', filter.categories));
      if (filter.tags !== undefined && filter.tags.length > 0) conditions.push(withTermIn(eb, 'post_tag', filter.tags));
      return eb.and(conditions);
    });
}

export async function countPosts(db: Executor, filter: PostFilter): Promise<number> {
  const row = await filtered(db, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

function orderColumn(orderBy: Exclude<PostOrderBy, 'include'>) {
  return `content_post.${orderBy}` as const;
}

export async function listPosts(db: Executor, filter: PostFilter, page: PostPage): Promise<PostRow[]> {
  let query = filtered(db, filter).select(POST_COLUMNS);
  if (page.orderBy === 'include') {
    const ids = page.includeOrder ?? [];
    const position = sql<number>`case ${sql.join(
      ids.map((id, index) => sql`when ${sql.ref('content_post.id')} = ${id} then ${index}`),
      sql` `,
    )} else ${ids.length} end`;
    query = query.orderBy(position, page.order);
  } else {
    query = query.orderBy(orderColumn(page.orderBy), page.order);
  }
  // Ties (same date, same title) keep one stable order across pages.
  return query.orderBy('content_post.id', page.order).limit(page.limit).offset(page.offset).execute();
}

export async function findPublishedPost(db: Executor, id: number, type: ContentPostType): Promise<PostRow | undefined> {
  return db
    .selectFrom('content_post')
    .select(POST_COLUMNS)
    .where('content_post.id', '=', id)
    .where('content_post.type', '=', type)
    .where('content_post.status', '=', 'publish')
    .executeTakeFirst();
}

export async function isPublished(db: Executor, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('content_post')
    .select('id')
    .where('id', '=', id)
    .where('status', '=', 'publish')
    .executeTakeFirst();
  return row !== undefined;
}

export interface PostTermRow {
  post_id: number;
  id: number;
  taxonomy: ContentTaxonomy;
  name: string;
  slug: string;
}

/** The categories and tags of these posts, in term id order. */
export async function termsOfPosts(db: Executor, postIds: readonly number[]): Promise<PostTermRow[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('content_post_term')
    .innerJoin('content_term', 'content_term.id', 'content_post_term.term_id')
    .select(['content_post_term.post_id', 'content_term.id', 'content_term.taxonomy', 'content_term.name', 'content_term.slug'])
    .where('content_post_term.post_id', 'in', postIds)
    .orderBy('content_term.id')
    .execute();
}

export interface PostMetaRow {
  post_id: number;
  key: string;
  value: string;
}

export async function metaOfPosts(db: Executor, postIds: readonly number[]): Promise<PostMetaRow[]> {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('content_post_meta')
    .select(['post_id', 'key', 'value'])
    .where('post_id', 'in', postIds)
    .orderBy('key')
    .execute();
}

export interface Neighbour {
  id: number;
  title: string;
  slug: string;
  image: string;
}

export interface Neighbours {
  previous: Neighbour | null;
  next: Neighbour | null;
}

interface NeighbourIds {
  post_id: number;
  previous_id: number | null;
  next_id: number | null;
}

async function neighboursOf(db: Executor, rows: readonly NeighbourIds[]): Promise<Map<number, Neighbours>> {
  const ids = [...new Set(rows.flatMap((row) => [row.previous_id, row.next_id]).filter((id): id is number => id !== null))];
  const found =
    ids.length === 0
      ? []
      : await db.selectFrom('content_post').select(['id', 'title', 'slug', 'image']).where('id', 'in', ids).execute();
  const byId = new Map(found.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
  const lookup = (id: number | null): Neighbour | null => (id === null ? null : (byId.get(Number(id)) ?? null));
  return new Map(rows.map((row) => [Number(row.post_id), { previous: lookup(row.previous_id), next: lookup(row.next_id) }]));
}

/**
 * spec §3 Article previous/next: the older and newer published posts of the same primary
 * category (the post's category with the lowest id), by date. One window query for a whole page.
 */
export async function postNeighbours(db: Executor, postIds: readonly number[]): Promise<Map<number, Neighbours>> {
  if (postIds.length === 0) return new Map();
  const result = await sql<NeighbourIds>`
    with primary_category as (
      select pt.post_id, min(pt.term_id) as category_id
      from content_post_term pt
      join content_term t on t.id = pt.term_id and t.taxonomy = 'category'
      join content_post p on p.id = pt.post_id and p.type = 'post' and p.status = 'publish'
      group by pt.post_id
    ), ordered as (
      select pc.post_id,
        lag(pc.post_id) over (partition by pc.category_id order by p.date, p.id) as previous_id,
        lead(pc.post_id) over (partition by pc.category_id order by p.date, p.id) as next_id
      from primary_category pc
      join content_post p on p.id = pc.post_id
    )
    select post_id, previous_id, next_id from ordered
    where post_id in (${sql.join(postIds)})`.execute(db);
  return neighboursOf(db, result.rows);
}

/** The older and newer published daily pictures of one, by date. */
export async function dailypicNeighbours(db: Executor, id: number): Promise<Neighbours> {
  const result = await sql<NeighbourIds>`
    with ordered as (
      select id as post_id,
        lag(id) over (order by date, id) as previous_id,
        lead(id) over (order by date, id) as next_id
      from content_post
      where type = 'dailypic' and status = 'publish'
    )
    select post_id, previous_id, next_id from ordered where post_id = ${id}`.execute(db);
  return (await neighboursOf(db, result.rows)).get(id) ?? { previous: null, next: null };
}

export interface TermRow {
  id: number;
  taxonomy: ContentTaxonomy;
  slug: string;
  name: string;
  description: string;
  parent_id: number | null;
  parent_slug: string | null;
  count: number;
}

export interface TermFilter {
  taxonomy: ContentTaxonomy;
  search?: string;
  slugs?: readonly string[];
  include?: readonly number[];
  exclude?: readonly number[];
  parent?: number;
  /** Only terms of this post. */
  post?: number;
  hideEmpty?: boolean;
}

export type TermOrderBy = 'id' | 'include' | 'name' | 'slug' | 'count' | 'description';

export interface TermPage {
  orderBy: TermOrderBy;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  includeOrder?: readonly number[];
}

/** Published posts and daily pictures per term; pages carry no terms. */
function termCounts(db: Executor) {
  return db
    .selectFrom('content_post_term')
    .innerJoin('content_post', 'content_post.id', 'content_post_term.post_id')
    .select(['content_post_term.term_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('content_post.status', '=', 'publish')
    .where('content_post.type', 'in', ['post', 'dailypic'])
    .groupBy('content_post_term.term_id');
}

function filteredTerms(db: Executor, filter: TermFilter) {
  return db
    .selectFrom('content_term')
    .leftJoin(termCounts(db).as('counts'), 'counts.term_id', 'content_term.id')
    .leftJoin('content_term as parent', 'parent.id', 'content_term.parent_id')
    .where('content_term.taxonomy', '=', filter.taxonomy)
    .where((eb) => {
      const conditions: Array<Expression<SqlBool>> = [];
      if (filter.search !== undefined && filter.search !== '') {
        const pattern = containsPattern(filter.search);
        conditions.push(
          eb.or([
            sql<SqlBool>`lower(${sql.ref('content_term.name')}) like ${pattern} escape '\\'`,
            sql<SqlBool>`lower(${sql.ref('content_term.slug')}) like ${pattern} escape '\\'`,
          ]),
        );
      }
      if (filter.slugs !== undefined) conditions.push(filter.slugs.length === 0 ? nothing : eb('content_term.slug', 'in', filter.slugs));
      if (filter.include !== undefined && filter.include.length > 0) conditions.push(eb('content_term.id', 'in', filter.include));
      if (filter.exclude !== undefined && filter.exclude.length > 0) conditions.push(eb('content_term.id', 'not in', filter.exclude));
      if (filter.parent !== undefined) {
        conditions.push(filter.parent === 0 ? eb('content_term.parent_id', 'is', null) : eb('content_term.parent_id', '=', filter.parent));
      }
      if (filter.post !== undefined) {
        conditions.push(
          eb('content_term.id', 'in', eb.selectFrom('content_post_term').select('term_id').where('post_id', '=', filter.post)),
        );
      }
      if (filter.hideEmpty === true) conditions.push(eb('counts.count', '>', 0));
      return eb.and(conditions);
    });
}

function termRowOf(row: Omit<TermRow, 'count'> & { count: number | null }): TermRow {
  return {
    ...row,
    id: Number(row.id),
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    count: Number(row.count ?? 0),
  };
}

const TERM_COLUMNS = [
  'content_term.id',
  'content_term.taxonomy',
  'content_term.slug',
  'content_term.name',
  'content_term.description',
  'content_term.parent_id',
  'parent.slug as parent_slug',
  'counts.count',
] as const;

export async function countTerms(db: Executor, filter: TermFilter): Promise<number> {
  const row = await filteredTerms(db, filter).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listTerms(db: Executor, filter: TermFilter, page: TermPage): Promise<TermRow[]> {
  let query = filteredTerms(db, filter).select(TERM_COLUMNS);
  if (page.orderBy === 'include') {
    const ids = page.includeOrder ?? [];
    const position = sql<number>`case ${sql.join(
      ids.map((id, index) => sql`when ${sql.ref('content_term.id')} = ${id} then ${index}`),
      sql` `,
    )} else ${ids.length} end`;
    query = query.orderBy(position, page.order);
  } else if (page.orderBy === 'count') {
    query = query.orderBy(sql`coalesce(${sql.ref('counts.count')}, 0)`, page.order);
  } else {
    query = query.orderBy(`content_term.${page.orderBy}`, page.order);
  }
  const rows = await query.orderBy('content_term.id', page.order).limit(page.limit).offset(page.offset).execute();
  return rows.map(termRowOf);
}

export async function findTerm(db: Executor, taxonomy: ContentTaxonomy, id: number): Promise<TermRow | undefined> {
  const row = await filteredTerms(db, { taxonomy }).select(TERM_COLUMNS).where('content_term.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : termRowOf(row);
}

/** The category `id` and its direct children. */
export async function categoryWithChildren(db: Executor, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom('content_term')
    .select('id')
    .where('taxonomy', '=', 'category')
    .where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)]))
    .execute();
  return rows.map((row) => Number(row.id));
}

export type PostCounter = 'views' | 'downloads';

/** Adds one in the database itself, so concurrent visits are all counted; undefined for an unknown post. */
export async function incrementCounter(db: Executor, id: number, counter: PostCounter): Promise<number | undefined> {
  const row = await db
    .updateTable('content_post')
    .set((eb) => ({ [counter]: eb(counter, '+', 1) }))
    .where('id', '=', id)
    .where('status', '=', 'publish')
    .returning(counter)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row[counter]);
}
