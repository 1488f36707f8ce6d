import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONTENT_FOLDERS, importContent, tagSlug } from './content.import';
import { ImportError } from '../../lib/import-error';
import { shanghaiDateToEpoch } from '../../lib/source-dates';

const TAXONOMY = `categories:
  - slug: help
    name: 软件帮助
  - slug: installation
    name: 下载安装
    parent: help
  - slug: conversion
    name: 格式转换
    parent: help
`;

const EXCERPT = '从官网下载迅捷CAD编辑器安装包，按步骤完成安装、选择安装目录并首次启动，附安装后的基本检查方法。';

interface PostFile {
  id: number;
  slug: string;
  title?: string;
  tags?: string[];
  categories?: string[];
  body?: string;
  extra?: string;
}

let database: TestDatabaseHandle;
let contentDir: string;

function writeRaw(relative: string, text: string): void {
  const file = path.join(contentDir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function writePost(relative: string, post: PostFile): void {
  const frontMatter = [
    `id: ${post.id}`,
    `title: ${post.title ?? `文章${post.id}`}`,
    `slug: ${post.slug}`,
    'date: 2026-03-02',
    `categories: [${(post.categories ?? ['installation']).join(', ')}]`,
    `tags: [${(post.tags ?? ['安装']).join(', ')}]`,
    `excerpt: ${EXCERPT}`,
    post.extra ?? '',
  ].join('\n');
  writeRaw(relative, `---\n${frontMatter}\n---\n${post.body ?? '## 步骤\n\n双击安装包。\n'}`);
}

async function postRows() {
  return database.db.selectFrom('content_post').selectAll().orderBy('id').execute();
}

async function termNamesOf(postId: number, taxonomy: 'category' | 'post_tag'): Promise<string[]> {
  const rows = await database.db
    .selectFrom('content_post_term')
    .innerJoin('content_term', 'content_term.id', 'content_post_term.term_id')
    .select('content_term.name')
    .where('content_post_term.post_id', '=', postId)
    .where('content_term.taxonomy', '=', taxonomy)
    .orderBy('content_term.name')
    .execute();
  return rows.map((row) => row.name);
}

async function metaOf(postId: number): Promise<Record<string, string>> {
  const rows = await database.db.selectFrom('content_post_meta').select(['key', 'value']).where('post_id', '=', postId).execute();
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

/** Every row of the content tables, to show a failed import changed nothing. */
async function snapshot() {
  return {
    posts: await postRows(),
    terms: await database.db.selectFrom('content_term').selectAll().orderBy('id').execute(),
    links: await database.db.selectFrom('content_post_term').selectAll().orderBy('post_id').orderBy('term_id').execute(),
    meta: await database.db.selectFrom('content_post_meta').selectAll().orderBy('post_id').orderBy('key').execute(),
  };
}

async function importFailure(): Promise<ImportError> {
  const error = await importContent(database.db, contentDir).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ImportError)) throw new Error(`expected a ImportError, got ${String(error)}`);
  return error;
}

beforeEach(async () => {
  database = await createTestDatabase();
  contentDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-content-'));
  writeFileSync(path.join(contentDir, 'taxonomy.yml'), TAXONOMY);
  writeFileSync(path.join(contentDir, 'README.md'), '# not content\n');
  writePost('help/1001-install.md', {
    id: 1001,
    slug: 'install-cad-editor',
    tags: ['安装', 'Windows'],
    body: '## 快捷键\n\n| 命令 | 别名 |\n|---|---|\n| LINE | L |\n\n![界面](/content/images/ui.svg)\n\n<script>alert(1)</script>\n',
    extra: 'image: /content/images/install-1.svg\norder: 2\nseo:\n  title: 安装迅捷CAD\nmeta:\n  rating: 4',
  });
  writePost('help/1002-convert.md', { id: 1002, slug: 'dwg-to-pdf', categories: ['conversion'], tags: ['转换', 'PDF'] });
  writeRaw('pages/privacy.md', '---\nid: 9001\ntitle: 隐私政策\nslug: privacy\ndate: 2026-01-05\n---\n## 我们收集的信息\n\n手机号。\n');
});

afterEach(async () => {
  await database.destroy();
  rmSync(contentDir, { recursive: true, force: true });
});

describe('importContent', () => {
  it('writes every file on the first import, with its terms, meta and rendered Markdown', async () => {
    const summary = await importContent(database.db, contentDir);
    expect(summary).toEqual({ files: 3, written: 3, unchanged: 0, deleted: 0, termsWritten: 3 + 4 });

    const posts = await postRows();
    expect(posts.map((post) => [post.id, post.type, post.slug, post.source_path])).toEqual([
      [1001, 'post', 'install-cad-editor', 'content/help/1001-install.md'],
      [1002, 'post', 'dwg-to-pdf', 'content/help/1002-convert.md'],
      [9001, 'page', 'privacy', 'content/pages/privacy.md'],
    ]);
    const [install] = posts;
    expect(install).toMatchObject({
      title: '文章1001',
      excerpt: EXCERPT,
      author: '迅捷CAD',
      image: '/content/images/install-1.svg',
      menu_order: 2,
      date: shanghaiDateToEpoch('2026-03-02'),
      modified: shanghaiDateToEpoch('2026-03-02'),
      status: 'publish',
    });
    expect(install?.content_html).toContain('<h2>快捷键</h2>');
    expect(install?.content_html).toContain('<td>LINE</td>');
    expect(install?.content_html).toContain('<img src="/content/images/ui.svg" alt="界面" />');
    expect(install?.content_html).not.toContain('<script');
    expect(install?.content_html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');

    expect(await termNamesOf(1001, 'category')).toEqual(['下载安装']);
    expect(await termNamesOf(1001, 'post_tag')).toEqual(['Windows', '安装'].sort());
    expect(await termNamesOf(1002, 'post_tag')).toEqual(['PDF', '转换'].sort());
    expect(await metaOf(1001)).toEqual({ rating: '4', seo_title: '安装迅捷CAD' });

    const installation = await database.db.selectFrom('content_term').selectAll().where('slug', '=', 'installation').executeTakeFirstOrThrow();
    const help = await database.db.selectFrom('content_term').selectAll().where('slug', '=', 'help').executeTakeFirstOrThrow();
    expect(Number(installation.parent_id)).toBe(Number(help.id));
    const tag = await database.db.selectFrom('content_term').selectAll().where('slug', '=', tagSlug('安装')).executeTakeFirstOrThrow();
    expect(tag).toMatchObject({ taxonomy: 'post_tag', name: '安装' });
  });

  it('writes nothing when run again on the same files', async () => {
    await importContent(database.db, contentDir);
    const before = await snapshot();
    expect(await importContent(database.db, contentDir)).toEqual({ files: 3, written: 0, unchanged: 3, deleted: 0, termsWritten: 0 });
    expect(await snapshot()).toEqual(before);
  });

  it('updates a changed file: post, terms and meta, keeping its counters', async () => {
    await importContent(database.db, contentDir);
    await database.db.updateTable('content_post').set({ views: 57, downloads: 4 }).where('id', '=', 1001).execute();

    writePost('help/1001-install.md', { id: 1001, slug: 'install-cad-editor', title: '新标题', categories: ['conversion'], tags: ['Windows', '新手'] });
    expect(await importContent(database.db, contentDir)).toMatchObject({ written: 1, unchanged: 2, deleted: 0 });

    const post = await database.db.selectFrom('content_post').selectAll().where('id', '=', 1001).executeTakeFirstOrThrow();
    expect(post).toMatchObject({ title: '新标题', image: '', menu_order: 0, views: 57, downloads: 4 });
    expect(post.content_html).toBe('<h2>步骤</h2>\n<p>双击安装包。</p>\n');
    expect(await termNamesOf(1001, 'category')).toEqual(['格式转换']);
    expect(await termNamesOf(1001, 'post_tag')).toEqual(['Windows', '新手'].sort());
    expect(await metaOf(1001)).not.toHaveProperty('rating');
  });

  it('deletes the post of a removed file, and only posts that came from content/', async () => {
    await importContent(database.db, contentDir);
    await database.db
      .insertInto('content_post')
      .values({ id: 5, type: 'post', slug: 'from-elsewhere', title: '别处的文章', content_html: '', author: 'x', date: 1, modified: 1, source_path: 'legacy/5', source_hash: 'x' })
      .execute();

    unlinkSync(path.join(contentDir, 'help', '1002-convert.md'));
    expect(await importContent(database.db, contentDir)).toMatchObject({ files: 2, written: 0, deleted: 1 });
    expect((await postRows()).map((post) => post.id)).toEqual([5, 1001, 9001]);
    expect(await metaOf(1002)).toEqual({});
    expect(await termNamesOf(1002, 'post_tag')).toEqual([]);
  });

  it('fails on a bad file, naming it and its field, and leaves the database as it was', async () => {
    await importContent(database.db, contentDir);
    const before = await snapshot();

    writePost('help/1001-install.md', { id: 1001, slug: 'install-cad-editor', title: '这次不应写入' });
    writePost('tutorials/2001-line.md', { id: 2001, slug: 'line-command', categories: ['basics'] });
    const error = await importFailure();
    expect(error.problems).toEqual([{ file: 'content/tutorials/2001-line.md', field: 'categories', message: '"basics" is not a category of taxonomy.yml' }]);
    expect(error.message).toContain('content/tutorials/2001-line.md: categories:');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses an id used twice, naming both files', async () => {
    writePost('help/1003-copy.md', { id: 1002, slug: 'another-slug' });
    const error = await importFailure();
    expect(error.problems).toEqual([{ file: 'content/help/1003-copy.md', field: 'id', message: '1002 is also the id of content/help/1002-convert.md' }]);
    expect(await postRows()).toEqual([]);
  });

  it('rolls back the whole run when the database fails part-way through it', async () => {
    // Posts, terms and links are written before the meta table is reached.
    await sql`DROP TABLE content_post_meta`.execute(database.db);
    const error = await importContent(database.db, contentDir).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toContain('content/help/1001-install.md: could not be written');
    expect(await postRows()).toEqual([]);
    expect(await database.db.selectFrom('content_term').selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom('content_post_term').selectAll().execute()).toEqual([]);
  });

  it('refuses an id held by a post that did not come from content/, writing nothing', async () => {
    await database.db
      .insertInto('content_post')
      .values({ id: 1002, type: 'post', slug: 'legacy', title: '旧文章', content_html: '', author: 'x', date: 1, modified: 1, source_path: 'legacy/1002', source_hash: 'x' })
      .execute();
    const error = await importFailure();
    expect(error.problems[0]).toMatchObject({ file: 'content/help/1002-convert.md', field: 'id' });
    expect((await postRows()).map((post) => post.id)).toEqual([1002]);
    expect(await database.db.selectFrom('content_term').selectAll().execute()).toEqual([]);
  });

  it('lets two files swap their slugs in one import', async () => {
    await importContent(database.db, contentDir);
    writePost('help/1001-install.md', { id: 1001, slug: 'dwg-to-pdf' });
    writePost('help/1002-convert.md', { id: 1002, slug: 'install-cad-editor' });
    expect(await importContent(database.db, contentDir)).toMatchObject({ written: 2 });
    const slugs = (await postRows()).map((post) => [post.id, post.slug]);
    expect(slugs).toEqual([
      [1001, 'dwg-to-pdf'],
      [1002, 'install-cad-editor'],
      [9001, 'privacy'],
    ]);
  });
});

describe('the repository content/ folder', () => {
  it('imports without a problem, one post per Markdown file of the post folders', async () => {
    const folder = path.join(repositoryRoot, 'content');
    // Other folders (credits/, software/, drawings/) hold Markdown that is not a post.
    const markdownFiles = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter(
      (name) => name.endsWith('.md') && path.basename(name).toLowerCase() !== 'readme.md' && name.split(path.sep)[0]! in CONTENT_FOLDERS,
    );
    const summary = await importContent(database.db, folder);
    expect(summary.files).toBe(markdownFiles.length);
    expect(summary.written).toBe(markdownFiles.length);
    const paths = (await postRows()).map((post) => post.source_path).sort();
    expect(paths).toEqual(markdownFiles.map((name) => `content/${name.split(path.sep).join('/')}`).sort());
    expect(await importContent(database.db, folder)).toMatchObject({ written: 0, deleted: 0, termsWritten: 0 });
  });
});
