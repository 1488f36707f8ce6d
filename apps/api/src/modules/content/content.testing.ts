import type { ContentPostType, ContentTaxonomy, Executor } from '@xcad/db';

// Test fixtures of the content API: rows written straight into the tables, independent of the
// Markdown importer.

export interface TermSeed {
  taxonomy: ContentTaxonomy;
  slug: string;
  name: string;
  description?: string;
  parentId?: number;
}

export async function addTerm(db: Executor, term: TermSeed): Promise<number> {
  const row = await db
    .insertInto('content_term')
    .values({ taxonomy: term.taxonomy, slug: term.slug, name: term.name, description: term.description ?? '', parent_id: term.parentId ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export interface PostSeed {
  id: number;
  type?: ContentPostType;
  status?: 'publish' | 'draft';
  title: string;
  slug?: string;
  excerpt?: string;
  content?: string;
  author?: string;
  image?: string;
  views?: number;
  downloads?: number;
  /** 'YYYY-MM-DDTHH:mm:ss' in Asia/Shanghai. */
  date: string;
  modified?: string;
  termIds?: readonly number[];
  meta?: Readonly<Record<string, string>>;
}

/** Epoch seconds of a Beijing wall-clock time. */
export function shanghaiEpoch(localIso: string): number {
  return Math.floor(Date.parse(`${localIso}+08:00`) / 1000);
}

export async function addPost(db: Executor, post: PostSeed): Promise<number> {
  const date = shanghaiEpoch(post.date);
  await db
    .insertInto('content_post')
    .values({
      id: post.id,
      type: post.type ?? 'post',
      status: post.status ?? 'publish',
      slug: post.slug ?? `post-${post.id}`,
      title: post.title,
      excerpt: post.excerpt ?? '',
      content_html: post.content ?? `<p>${post.title}</p>`,
      author: post.author ?? '迅捷CAD',
      image: post.image ?? '',
      views: post.views ?? 0,
      downloads: post.downloads ?? 0,
      date,
      modified: post.modified === undefined ? date : shanghaiEpoch(post.modified),
      source_path: `test/${post.id}.md`,
      source_hash: String(post.id),
    })
    .execute();
  if (post.termIds !== undefined && post.termIds.length > 0) {
    await db.insertInto('content_post_term').values(post.termIds.map((termId) => ({ post_id: post.id, term_id: termId }))).execute();
  }
  const meta = Object.entries(post.meta ?? {});
  if (meta.length > 0) {
    await db.insertInto('content_post_meta').values(meta.map(([key, value]) => ({ post_id: post.id, key, value }))).execute();
  }
  return post.id;
}
