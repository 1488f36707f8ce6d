import type { ContentTaxonomy } from '@xcad/db';
import { WpError } from './wp-error';
import type { WpParams } from './wp-params';
import type { PostOrderBy, TermOrderBy } from './published-content.repository';

// The query parameters of each content route, read as WordPress 6 reads them (FACTS.md
// "WordPress REST API"; the custom routes of spec §7 follow the same rules, decision 0011).

const MAX_PER_PAGE = 100;
const PER_PAGE = { minimum: 1, maximum: MAX_PER_PAGE } as const;
const ORDERS = ['asc', 'desc'] as const;
const POST_ORDER_BY = ['date', 'id', 'include', 'title', 'slug', 'modified'] as const;
const TERM_ORDER_BY = ['id', 'include', 'name', 'slug', 'count', 'description'] as const;

/** `_fields` and `_embed`, common to every collection and item route. */
export interface ResponseShaping {
  /** `_fields`; undefined for every field. */
  fields?: readonly string[];
  /** `_embed` relations; '*' for all, empty for none. */
  embed: ReadonlySet<string>;
}

function shapingOf(params: WpParams): ResponseShaping {
  const fields = params.stringList('_fields');
  if (!params.has('_embed')) return { fields, embed: new Set() };
  // `_embed` alone (or =1, =true) embeds everything; WordPress 5.4+ also takes a list of relations.
  const relations = (params.stringList('_embed') ?? []).filter((relation) => relation !== '1' && relation !== 'true');
  return { fields, embed: new Set(relations.length === 0 ? ['*'] : relations) };
}

/** The parameters every WordPress collection route reads the same way. */
interface CollectionQuery {
  page: number;
  perPage: number;
  offset?: number;
  search?: string;
  slugs?: string[];
  include?: number[];
  exclude?: number[];
}

function collectionOf(params: WpParams): CollectionQuery {
  return {
    page: params.integer('page', { minimum: 1 }) ?? 1,
    perPage: params.integer('per_page', PER_PAGE) ?? 10,
    offset: params.integer('offset', { minimum: 0 }),
    search: params.string('search'),
    slugs: params.stringList('slug'),
    include: params.integerList('include'),
    exclude: params.integerList('exclude'),
  };
}

export interface PostsQuery extends ResponseShaping, CollectionQuery {
  categories?: number[];
  tags?: number[];
  order: 'asc' | 'desc';
  orderBy: PostOrderBy;
}

export function parsePostsQuery(params: WpParams): PostsQuery {
  const query: PostsQuery = {
    ...collectionOf(params),
    categories: params.integerList('categories'),
    tags: params.integerList('tags'),
    order: params.oneOf('order', ORDERS, 'desc'),
    orderBy: params.oneOf('orderby', POST_ORDER_BY, 'date'),
    ...shapingOf(params),
  };
  // Visitors may list published posts only, as on WordPress without a login.
  const statuses = params.stringList('status');
  if (statuses !== undefined && statuses.some((status) => status !== 'publish')) {
    params.reject('status', 'rest_forbidden_status', 'Status is forbidden.');
  }
  params.check();
  if (query.orderBy === 'include' && (query.include ?? []).length === 0) {
    throw new WpError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  }
  return query;
}

export interface TermsQuery extends ResponseShaping, CollectionQuery {
  taxonomy: ContentTaxonomy;
  parent?: number;
  post?: number;
  hideEmpty: boolean;
  order: 'asc' | 'desc';
  orderBy: TermOrderBy;
}

export function parseTermsQuery(params: WpParams, taxonomy: ContentTaxonomy): TermsQuery {
  const query: TermsQuery = {
    taxonomy,
    ...collectionOf(params),
    // Tags are flat in WordPress: `parent` exists for categories only.
    parent: taxonomy === 'category' ? params.integer('parent', { minimum: 0 }) : undefined,
    post: params.integer('post', { minimum: 1 }),
    hideEmpty: params.boolean('hide_empty', false),
    order: params.oneOf('order', ORDERS, 'asc'),
    orderBy: params.oneOf('orderby', TERM_ORDER_BY, 'name'),
    ...shapingOf(params),
  };
  params.check();
  return query;
}

export function parseItemShaping(params: WpParams): ResponseShaping {
  const shaping = shapingOf(params);
  params.check();
  return shaping;
}

/** The paging of the custom list routes of spec §7 (`paged`, `per_page`). */
export interface CustomPage {
  paged: number;
  perPage: number;
}

export function readCustomPage(params: WpParams, defaultPerPage: number): CustomPage {
  return {
    paged: params.integer('paged', { minimum: 1 }) ?? 1,
    perPage: params.integer('per_page', PER_PAGE) ?? defaultPerPage,
  };
}

/** The required `id` of the custom item routes. */
export function readRequiredId(params: WpParams): number {
  const id = params.integer('id', { minimum: 1 });
  params.check(['id']);
  return id ?? 0;
}
