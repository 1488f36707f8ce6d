import type { ContentPostType, Executor } from '@xcad/db';
import { createHtmlSanitizer, type HtmlSanitizer } from './content.sanitize';
import {
  categoryWithChildren,
  countPosts,
  countTerms,
  dailypicNeighbours,
  findPublishedPost,
  findTerm,
  incrementCounter,
  isPublished,
  listPosts,
  listTerms,
  metaOfPosts,
  postNeighbours,
  termsOfPosts,
  type Neighbour,
  type PostCounter,
  type PostFilter,
  type PostMetaRow,
  type PostOrderBy,
  type PostRow,
  type PostTermRow,
} from './published-content.repository';
import { invalidPageNumber, invalidPostId, invalidTerm } from './wp-error';
import {
  absoluteUrl,
  filterFields,
  metaObject,
  mysqlShanghai,
  postObject,
  termObject,
  type JsonObject,
  type PostExtras,
} from './wp-present';
import type { CustomPage, PostsQuery, ResponseShaping, TermsQuery } from './wp-queries';

// The content API's rules (decision 0011, spec §3 and §7, decision 0011): WordPress collections and
// items, and the custom routes of the site's blog backend.

export interface ContentDeps {
  db: Executor;
  /** The public site (env PUBLIC_ORIGIN): post links and image URLs point there. */
  publicOrigin: string;
}

export interface Collection {
  items: JsonObject[];
  total: number;
  totalPages: number;
}

/** The answer of the custom list routes: `{total, data}`. */
export interface CustomList {
  total: number;
  data: JsonObject[];
}

function groupByPost<T extends { post_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const id = Number(row.post_id);
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  return groups;
}

function topLevelFields(fields: readonly string[] | undefined): ReadonlySet<string> | undefined {
  return fields === undefined ? undefined : new Set(fields.map((field) => field.split('.')[0] ?? field));
}

function offsetOf(page: CustomPage): number {
  return (page.paged - 1) * page.perPage;
}

function tagList(terms: readonly PostTermRow[] | undefined): JsonObject[] {
  return (terms ?? []).filter((term) => term.taxonomy === 'post_tag').map((term) => ({ id: term.id, name: term.name, slug: term.slug }));
}

export function createContentService({ db, publicOrigin }: ContentDeps) {
  const sanitize: HtmlSanitizer = createHtmlSanitizer(publicOrigin);

  async function extrasOf(rows: readonly PostRow[], wantsNeighbours: boolean): Promise<Map<number, PostExtras>> {
    const ids = rows.map((row) => row.id);
    const [terms, meta, neighbours] = await Promise.all([
      termsOfPosts(db, ids),
      metaOfPosts(db, ids),
      wantsNeighbours ? postNeighbours(db, ids.filter((_, index) => rows[index]?.type === 'post')) : Promise.resolve(undefined),
    ]);
    const termsByPost = groupByPost(terms);
    const metaByPost = groupByPost(meta);
    return new Map(
      ids.map((id) => [id, { terms: termsByPost.get(id) ?? [], meta: metaByPost.get(id) ?? [], neighbours: neighbours?.get(id) }]),
    );
  }

  async function present(rows: readonly PostRow[], shaping: ResponseShaping, apiBase: string): Promise<JsonObject[]> {
    const fields = topLevelFields(shaping.fields);
    const wantsNeighbours = fields === undefined || fields.has('previous') || fields.has('next');
    const extras = await extrasOf(rows, wantsNeighbours);
    const view = { publicOrigin, apiBase, sanitize, embed: shaping.embed, fields };
    return rows.map((row) => {
      const object = postObject(row, extras.get(row.id) ?? { terms: [], meta: [] }, view);
      return shaping.fields === undefined ? object : filterFields(object, shaping.fields);
    });
  }

  /** GET /wp/v2/posts and /wp/v2/pages. */
  async function listPostCollection(type: ContentPostType, query: PostsQuery, apiBase: string): Promise<Collection> {
    const filter: PostFilter = {
      type,
      search: query.search,
      slugs: query.slugs,
      include: query.include,
      exclude: query.exclude,
      categories: query.categories,
      tags: query.tags,
    };
    const total = await countPosts(db, filter);
    const totalPages = Math.ceil(total / query.perPage);
    // WordPress answers an empty collection, not an error, when nothing matches at all.
    if (query.page > totalPages && total > 0) throw invalidPageNumber();
    const offset = query.offset ?? (query.page - 1) * query.perPage;
    const rows =
      offset >= total
        ? []
        : await listPosts(db, filter, { orderBy: query.orderBy, order: query.order, limit: query.perPage, offset, includeOrder: query.include });
    return { items: await present(rows, query, apiBase), total, totalPages };
  }

  /** GET /wp/v2/posts/{id} and /wp/v2/pages/{id}: drafts and other types are "invalid" too. */
  async function getPost(type: ContentPostType, id: number, shaping: ResponseShaping, apiBase: string): Promise<JsonObject> {
    const row = await findPublishedPost(db, id, type);
    if (row === undefined) throw invalidPostId();
    const [object] = await present([row], shaping, apiBase);
    if (object === undefined) throw invalidPostId();
    return object;
  }

  async function listTermCollection(query: TermsQuery, apiBase: string): Promise<Collection> {
    const filter = {
      taxonomy: query.taxonomy,
      search: query.search,
      slugs: query.slugs,
      include: query.include,
      exclude: query.exclude,
      parent: query.parent,
      post: query.post,
      hideEmpty: query.hideEmpty,
    };
    const total = await countTerms(db, filter);
    const offset = query.offset ?? (query.page - 1) * query.perPage;
    const rows =
      offset >= total
        ? []
        : await listTerms(db, filter, { orderBy: query.orderBy, order: query.order, limit: query.perPage, offset, includeOrder: query.include });
    const items = rows.map((row) => {
      const object = termObject(publicOrigin, apiBase, row);
      return query.fields === undefined ? object : filterFields(object, query.fields);
    });
    return { items, total, totalPages: Math.ceil(total / query.perPage) };
  }

  async function getTerm(taxonomy: 'category' | 'post_tag', id: number, shaping: ResponseShaping, apiBase: string): Promise<JsonObject> {
    const row = await findTerm(db, taxonomy, id);
    if (row === undefined) throw invalidTerm();
    const object = termObject(publicOrigin, apiBase, row);
    return shaping.fields === undefined ? object : filterFields(object, shaping.fields);
  }

  /** spec §7 newPosts: the newest guides, optionally of one category (with its subcategories). */
  async function newPosts(page: CustomPage, options: { categoryId?: number; title?: string }): Promise<CustomList> {
    const categories = options.categoryId === undefined ? undefined : await categoryWithChildren(db, options.categoryId);
    if (categories !== undefined && categories.length === 0) return { total: 0, data: [] };
    const filter: PostFilter = { type: 'post', titleSearch: options.title, categories };
    const total = await countPosts(db, filter);
    const offset = offsetOf(page);
    const rows = offset >= total ? [] : await listPosts(db, filter, { orderBy: 'date', order: 'desc', limit: page.perPage, offset });
    const terms = groupByPost(await termsOfPosts(db, rows.map((row) => row.id)));
    const data = rows.map((row) => {
      const postCategories = (terms.get(row.id) ?? []).filter((term) => term.taxonomy === 'category');
      return {
        ID: row.id,
        post_title: row.title,
        excerpt: row.excerpt,
        post_date: mysqlShanghai(row.date),
        post_modified: mysqlShanghai(row.modified),
        imgUrl: absoluteUrl(publicOrigin, row.image),
        cate_id: postCategories[0]?.id ?? 0,
        categories: postCategories.map((term) => ({ term_id: term.id, name: term.name, slug: term.slug })),
      };
    });
    return { total, data };
  }

  function dailypicItem(row: PostRow, terms: readonly PostTermRow[] | undefined, meta: readonly PostMetaRow[] | undefined): JsonObject {
    return {
      ID: row.id,
      post_title: row.title,
      excerpt: row.excerpt,
      imgUrl: absoluteUrl(publicOrigin, row.image),
      views: Number(row.views),
      downloads: Number(row.downloads),
      post_date: mysqlShanghai(row.date),
      post_modified: mysqlShanghai(row.modified),
      meta: metaObject(meta ?? []),
      tags: tagList(terms),
    };
  }

  async function dailypicList(page: CustomPage, filter: Omit<PostFilter, 'type'>, orderBy: PostOrderBy): Promise<CustomList> {
    const fullFilter: PostFilter = { ...filter, type: 'dailypic' };
    const total = await countPosts(db, fullFilter);
    const offset = offsetOf(page);
    const rows = offset >= total ? [] : await listPosts(db, fullFilter, { orderBy, order: 'desc', limit: page.perPage, offset });
    const ids = rows.map((row) => row.id);
    const [terms, meta] = await Promise.all([termsOfPosts(db, ids), metaOfPosts(db, ids)]);
    const termsByPost = groupByPost(terms);
    const metaByPost = groupByPost(meta);
    return { total, data: rows.map((row) => dailypicItem(row, termsByPost.get(row.id), metaByPost.get(row.id))) };
  }

  function neighbourItem(neighbour: Neighbour | null): JsonObject | null {
    return neighbour === null ? null : { ID: neighbour.id, post_title: neighbour.title, imgUrl: absoluteUrl(publicOrigin, neighbour.image) };
  }

  async function dailypic(id: number): Promise<JsonObject> {
    const row = await findPublishedPost(db, id, 'dailypic');
    if (row === undefined) throw invalidPostId();
    const [terms, meta, neighbours] = await Promise.all([termsOfPosts(db, [id]), metaOfPosts(db, [id]), dailypicNeighbours(db, id)]);
    return {
      ...dailypicItem(row, terms, meta),
      post_content: sanitize(row.content_html),
      previous: neighbourItem(neighbours.previous),
      next: neighbourItem(neighbours.next),
    };
  }

  async function publishedPostOrPic(id: number): Promise<PostRow> {
    const row = (await findPublishedPost(db, id, 'post')) ?? (await findPublishedPost(db, id, 'dailypic'));
    if (row === undefined) throw invalidPostId();
    return row;
  }

  return {
    listPostCollection,
    getPost,
    listTermCollection,
    getTerm,
    newPosts,

    /** spec §7 get_dailypics: newest first, optionally by title. */
    dailypics: (page: CustomPage, title?: string) => dailypicList(page, { titleSearch: title }, 'date'),
    dailypicsHot: (page: CustomPage) => dailypicList(page, {}, 'views'),
    dailypicsNew: (page: CustomPage) => dailypicList(page, {}, 'modified'),
    dailypicsOfTag: (page: CustomPage, tagId: number | undefined, title?: string) =>
      dailypicList(page, { titleSearch: title, tags: tagId === undefined ? undefined : [tagId] }, 'date'),
    dailypic,

    /** spec §7 getTheTagsList: the tags of one post or daily picture. */
    async tagsOfPost(id: number): Promise<JsonObject[]> {
      await publishedPostOrPic(id);
      const rows = await listTerms(db, { taxonomy: 'post_tag', post: id }, { orderBy: 'name', order: 'asc', limit: 1000, offset: 0 });
      return rows.map((row) => ({ id: row.id, name: row.name, slug: row.slug, count: row.count }));
    },

    /** spec §7 getAllTags: tags in use (count above 0), most used first. */
    async tagsInUse(): Promise<JsonObject[]> {
      const filter = { taxonomy: 'post_tag' as const, hideEmpty: true };
      const total = await countTerms(db, filter);
      const rows = await listTerms(db, filter, { orderBy: 'count', order: 'desc', limit: total, offset: 0 });
      return rows.map((row) => ({ id: row.id, name: row.name, slug: row.slug, count: row.count }));
    },

    async countVisit(id: number, counter: PostCounter): Promise<number> {
      const value = await incrementCounter(db, id, counter);
      if (value === undefined) throw invalidPostId();
      return value;
    },

    /** spec §7 get_first_image: the first image of the content, else the featured image, else ''. */
    async firstImage(id: number): Promise<JsonObject> {
      const row = await publishedPostOrPic(id);
      const match = /<img\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/i.exec(sanitize(row.content_html));
      const source = match?.[1] ?? row.image;
      return { id: row.id, url: absoluteUrl(publicOrigin, source.replaceAll('&amp;', '&')) };
    },

    /** spec §7 get_tags_tdk: the head data of a tag page (/tag/{id}). */
    async tagHead(id: number): Promise<JsonObject> {
      const tag = await findTerm(db, 'post_tag', id);
      if (tag === undefined) throw invalidTerm();
      return { id: tag.id, title: tag.name, description: tag.description, keywords: tag.name };
    },

    async postMeta(id: number): Promise<JsonObject> {
      if (!(await isPublished(db, id))) throw invalidPostId();
      return metaObject(await metaOfPosts(db, [id]));
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
