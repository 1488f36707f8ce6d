import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContentPostType, Database, Executor } from '@xcad/db';
import type { Kysely } from 'kysely';
import { Marked, type Token } from 'marked';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  deletePosts,
  findForeignPosts,
  findForeignSlugs,
  insertPost,
  insertTerm,
  listImportedPosts,
  listTerms,
  parkPost,
  replacePostMeta,
  replacePostTerms,
  updatePost,
  updateTerm,
  type AuthoredPostFields,
} from './content-import.repository';
import { PAGE_BREAK, sanitizeArticlePage } from './content.sanitize';
import { SEO_META_KEYS } from './wp-present';
import { escapeHtml } from '../../lib/html';
import { ImportError, type ImportProblem } from '../../lib/import-error';
import { shanghaiDateToEpoch, ZSourceDate } from '../../lib/source-dates';

// The content importer (decision 0011): the Markdown files under content/ become posts,
// idempotently. The format is content/README.md; everything is read and checked before anything is
// written, and one transaction writes the whole run, so a bad file leaves the database as it was.

/** Every imported post's source_path starts with this: only such posts are replaced or deleted. */
export const CONTENT_SOURCE_PREFIX = 'content/';

/** The folders of content/ and the post type each holds (content/README.md "Folders"). */
export const CONTENT_FOLDERS: Readonly<Record<string, ContentPostType>> = {
  help: 'post',
  tutorials: 'post',
  dailypics: 'dailypic',
  pages: 'page',
};

const TAXONOMY_FILE = 'taxonomy.yml';
const DEFAULT_AUTHOR = '迅捷CAD';
const EXCERPT_LENGTH = { min: 40, max: 120 } as const;
const RESERVED_META_KEYS: ReadonlySet<string> = new Set(Object.values(SEO_META_KEYS));

export interface TaxonomyCategory {
  slug: string;
  name: string;
  description: string;
  parent: string | null;
}

export interface ContentTag {
  slug: string;
  name: string;
}

/** One file of content/, checked and rendered, ready to be written. */
export interface ContentDocument {
  sourcePath: string;
  sourceHash: string;
  type: ContentPostType;
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  contentHtml: string;
  author: string;
  image: string;
  menuOrder: number;
  /** Epoch seconds. */
  date: number;
  modified: number;
  /** Category slugs, each in taxonomy.yml. */
  categories: string[];
  tags: ContentTag[];
  meta: Record<string, string>;
}

export interface ContentSource {
  categories: TaxonomyCategory[];
  documents: ContentDocument[];
}

export interface ContentImportSummary {
  files: number;
  written: number;
  unchanged: number;
  deleted: number;
  /** Categories and tags created or changed. */
  termsWritten: number;
}

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Tag slugs must be ASCII and stable; a hash of the (Chinese) name is both, without a pinyin table. */
export function tagSlug(name: string): string {
  return `t-${createHash('sha1').update(name, 'utf8').digest('hex').slice(0, 10)}`;
}

const ZPlainText = z.string().trim().min(1, 'must not be empty');

const ZTaxonomy = z.strictObject({
  categories: z
    .array(
      z.strictObject({
        slug: z.string().regex(SLUG_PATTERN, 'must be lower-case ASCII words joined by -'),
        name: ZPlainText,
        description: z.string().trim().optional(),
        parent: z.string().optional(),
      }),
    )
    .min(1, 'must list at least one category'),
});

const ZFrontMatter = z.strictObject({
  id: z.number({ error: 'must be a positive integer' }).int('must be a positive integer').positive('must be a positive integer').max(Number.MAX_SAFE_INTEGER),
  title: ZPlainText,
  slug: z.string().regex(SLUG_PATTERN, 'must be lower-case ASCII words joined by - (e.g. install-cad-editor)'),
  date: ZSourceDate,
  modified: ZSourceDate.optional(),
  author: ZPlainText.optional(),
  categories: z.array(z.string()).optional(),
  // A tag such as 2024 comes out of YAML as a number; it is still a tag name.
  tags: z.array(z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().min(1, 'must not be empty').max(40))).optional(),
  excerpt: z.string().trim().optional(),
  image: z.string().regex(/^(?:\/|https?:\/\/)\S+$/, 'must be a path starting with / or an http(s) URL').optional(),
  order: z.number().int().min(0).optional(),
  seo: z
    .strictObject({
      title: ZPlainText.optional(),
      description: ZPlainText.optional(),
      keywords: z.union([ZPlainText, z.array(ZPlainText).min(1)]).optional(),
    })
    .optional(),
  meta: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_]*$/, 'meta keys are lower-case ASCII, digits and _'),
      z.union([z.string(), z.number(), z.boolean()], { error: 'meta values must be text, numbers or true/false' }),
    )
    .optional(),
});

type FrontMatter = z.output<typeof ZFrontMatter>;

function zodProblems(file: string, error: z.ZodError): ImportProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'front matter';
    const message = issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message;
    return { file, field, message };
  });
}

function parseYamlText(file: string, field: string, text: string): { value: unknown } | { problem: ImportProblem } {
  try {
    // The core schema keeps dates as the strings authors wrote; duplicate keys are errors.
    const value: unknown = parseYaml(text, { schema: 'core', uniqueKeys: true, prettyErrors: true });
    return { value };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] ?? error.message : String(error);
    return { problem: { file, field, message: `is not valid YAML: ${message}` } };
  }
}

/** Reads taxonomy.yml: categories with unique slugs, known parents and no cycles, parents first. */
export function parseTaxonomy(text: string, file = `${CONTENT_SOURCE_PREFIX}${TAXONOMY_FILE}`): TaxonomyCategory[] {
  const parsed = parseYamlText(file, 'categories', text);
  if ('problem' in parsed) throw new ImportError('content', [parsed.problem]);
  const result = ZTaxonomy.safeParse(parsed.value);
  if (!result.success) throw new ImportError('content', zodProblems(file, result.error));

  const problems: ImportProblem[] = [];
  const bySlug = new Map<string, TaxonomyCategory>();
  for (const [index, entry] of result.data.categories.entries()) {
    if (bySlug.has(entry.slug)) problems.push({ file, field: `categories.${index}.slug`, message: `"${entry.slug}" is listed twice` });
    bySlug.set(entry.slug, { slug: entry.slug, name: entry.name, description: entry.description ?? '', parent: entry.parent ?? null });
  }
  const ordered: TaxonomyCategory[] = [];
  const placed = new Set<string>();
  const place = (category: TaxonomyCategory, trail: readonly string[]): void => {
    if (placed.has(category.slug)) return;
    if (trail.includes(category.slug)) {
      problems.push({ file, field: `categories.${category.slug}.parent`, message: `parents form a cycle: ${[...trail, category.slug].join(' -> ')}` });
      return;
    }
    if (category.parent !== null) {
      const parent = bySlug.get(category.parent);
      if (parent === undefined) {
        problems.push({ file, field: `categories.${category.slug}.parent`, message: `"${category.parent}" is not a category` });
        return;
      }
      place(parent, [...trail, category.slug]);
      if (!placed.has(parent.slug)) return;
    }
    placed.add(category.slug);
    ordered.push(category);
  };
  for (const category of bySlug.values()) place(category, []);
  if (problems.length > 0) throw new ImportError('content', problems);
  return ordered;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

// Authors write Markdown, not HTML: raw HTML in a file is shown as text (the README's format has
// no HTML), and the result is sanitised besides, since the API serves it as HTML.
const markdown = new Marked({ gfm: true, breaks: false, async: false });
markdown.use({
  renderer: {
    html({ text, block }) {
      return block ? `<p>${escapeHtml(text.trim())}</p>\n` : escapeHtml(text);
    },
    checkbox({ checked }) {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

function collectTokens(tokens: readonly Token[]): Token[] {
  const all: Token[] = [];
  markdown.walkTokens([...tokens], (token) => {
    all.push(token);
  });
  return all;
}

/** A line of its own `<!--nextpage-->` in the Markdown splits the article into pages. */
const MARKDOWN_PAGE_BREAK = /^[ \t]*<!--\s*nextpage\s*-->[ \t]*$/im;

/** Markdown (GFM, tables) to HTML sanitised as it is served (## to ####, content/README.md); page breaks kept. */
export function renderMarkdown(source: string): string {
  return source
    .split(MARKDOWN_PAGE_BREAK)
    .map((page) => sanitizeArticlePage(markdown.parse(page, { async: false })))
    .join(`\n${PAGE_BREAK}\n`);
}

function countCharacters(text: string): number {
  return [...text].length;
}

// Only what the author wrote is stored: the defaults of an absent seo value (title, excerpt, tags,
// content/README.md) are applied where posts are presented (wp-present.ts).
function buildMeta(frontMatter: FrontMatter): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const [key, value] of Object.entries(frontMatter.meta ?? {})) meta[key] = String(value);
  const { title, description, keywords } = frontMatter.seo ?? {};
  if (title !== undefined) meta[SEO_META_KEYS.title] = title;
  if (description !== undefined) meta[SEO_META_KEYS.description] = description;
  if (keywords !== undefined) meta[SEO_META_KEYS.keywords] = Array.isArray(keywords) ? keywords.join(',') : keywords;
  return meta;
}

export interface ContentFile {
  /** `content/<folder>/<name>.md` */
  sourcePath: string;
  type: ContentPostType;
  bytes: Uint8Array;
}

/** Checks and renders one file; answers the document, or every problem found in it. */
export function parseContentFile(file: ContentFile, categorySlugs: ReadonlySet<string>): ContentDocument | ImportProblem[] {
  const at = (field: string, message: string): ImportProblem => ({ file: file.sourcePath, field, message });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes).replace(/^\uFEFF/, '');
  } catch {
    return [at('file', 'is not valid UTF-8')];
  }
  const match = FRONT_MATTER.exec(text);
  if (match === null) return [at('front matter', 'the file must begin with a front matter block between two --- lines')];
  const yaml = parseYamlText(file.sourcePath, 'front matter', match[1] ?? '');
  if ('problem' in yaml) return [yaml.problem];
  if (yaml.value === null || typeof yaml.value !== 'object' || Array.isArray(yaml.value)) {
    return [at('front matter', 'must be a map of fields (id, title, slug, date, ...)')];
  }
  const result = ZFrontMatter.safeParse(yaml.value);
  if (!result.success) return zodProblems(file.sourcePath, result.error);
  const frontMatter = result.data;

  const problems: ImportProblem[] = [];
  const isPost = file.type === 'post';
  const excerpt = frontMatter.excerpt ?? '';
  if (isPost) {
    const length = countCharacters(excerpt);
    if (frontMatter.excerpt === undefined) problems.push(at('excerpt', 'is required for posts'));
    else if (length < EXCERPT_LENGTH.min || length > EXCERPT_LENGTH.max) {
      problems.push(at('excerpt', `must be ${EXCERPT_LENGTH.min}-${EXCERPT_LENGTH.max} characters, has ${length}`));
    }
  }
  const categories = [...new Set(frontMatter.categories ?? [])];
  if (isPost && categories.length === 0) problems.push(at('categories', 'a post needs at least one category'));
  for (const slug of categories) {
    if (!categorySlugs.has(slug)) problems.push(at('categories', `"${slug}" is not a category of taxonomy.yml`));
  }
  const modifiedText = frontMatter.modified ?? frontMatter.date;
  if (modifiedText < frontMatter.date) problems.push(at('modified', `${modifiedText} is before date ${frontMatter.date}`));
  for (const key of Object.keys(frontMatter.meta ?? {})) {
    if (RESERVED_META_KEYS.has(key)) problems.push(at(`meta.${key}`, 'is set through seo:, not meta:'));
  }

  const body = text.slice(match[0].length);
  const tokens = markdown.lexer(body);
  if (collectTokens(tokens).some((token) => token.type === 'heading' && token.depth === 1)) {
    problems.push(at('body', 'headings start at ## (the page shows the title as #)'));
  }
  if (problems.length > 0) return problems;

  const tagsBySlug = new Map<string, ContentTag>();
  for (const name of frontMatter.tags ?? []) tagsBySlug.set(tagSlug(name), { slug: tagSlug(name), name });
  const tags = [...tagsBySlug.values()];
  return {
    sourcePath: file.sourcePath,
    sourceHash: createHash('sha256').update(file.bytes).digest('hex'),
    type: file.type,
    id: frontMatter.id,
    slug: frontMatter.slug,
    title: frontMatter.title,
    excerpt,
    contentHtml: renderMarkdown(body),
    author: frontMatter.author ?? DEFAULT_AUTHOR,
    image: frontMatter.image ?? '',
    menuOrder: frontMatter.order ?? 0,
    date: shanghaiDateToEpoch(frontMatter.date),
    modified: shanghaiDateToEpoch(modifiedText),
    categories,
    tags,
    meta: buildMeta(frontMatter),
  };
}

async function listMarkdownFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    // A folder the writers have not started yet (dailypics before its issue) is simply empty.
    if (typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md') && entry.name.toLowerCase() !== 'readme.md')
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Reads and checks all of content/; throws ImportError with every problem found. */
export async function readContentFolder(contentDir: string): Promise<ContentSource> {
  const taxonomyPath = path.join(contentDir, TAXONOMY_FILE);
  let taxonomyText: string;
  try {
    taxonomyText = await readFile(taxonomyPath, 'utf8');
  } catch {
    throw new ImportError('content', [{ file: `${CONTENT_SOURCE_PREFIX}${TAXONOMY_FILE}`, field: 'file', message: `cannot be read at ${taxonomyPath}` }]);
  }
  const categories = parseTaxonomy(taxonomyText);
  const categorySlugs = new Set(categories.map((category) => category.slug));

  const problems: ImportProblem[] = [];
  const documents: ContentDocument[] = [];
  for (const [folder, type] of Object.entries(CONTENT_FOLDERS)) {
    for (const absolute of await listMarkdownFiles(path.join(contentDir, folder))) {
      const sourcePath = CONTENT_SOURCE_PREFIX + path.relative(contentDir, absolute).split(path.sep).join('/');
      const parsed = parseContentFile({ sourcePath, type, bytes: await readFile(absolute) }, categorySlugs);
      if (Array.isArray(parsed)) problems.push(...parsed);
      else documents.push(parsed);
    }
  }

  const byId = new Map<number, ContentDocument>();
  const bySlug = new Map<string, ContentDocument>();
  for (const document of documents) {
    const sameId = byId.get(document.id);
    if (sameId) problems.push({ file: document.sourcePath, field: 'id', message: `${document.id} is also the id of ${sameId.sourcePath}` });
    else byId.set(document.id, document);
    const slugKey = `${document.type}:${document.slug}`;
    const sameSlug = bySlug.get(slugKey);
    if (sameSlug) problems.push({ file: document.sourcePath, field: 'slug', message: `"${document.slug}" is also the slug of ${sameSlug.sourcePath}` });
    else bySlug.set(slugKey, document);
  }
  if (problems.length > 0) throw new ImportError('content', problems);
  return { categories, documents };
}

async function writeCategories(db: Executor, categories: readonly TaxonomyCategory[]): Promise<{ ids: Map<string, number>; written: number }> {
  const existing = new Map((await listTerms(db, 'category')).map((term) => [term.slug, term]));
  const ids = new Map<string, number>();
  let written = 0;
  // Parents come first (parseTaxonomy), so a parent's id is known before its children.
  for (const category of categories) {
    const parentId = category.parent === null ? null : (ids.get(category.parent) ?? null);
    const fields = { name: category.name, description: category.description, parentId };
    const term = existing.get(category.slug);
    if (term === undefined) {
      ids.set(category.slug, await insertTerm(db, { taxonomy: 'category', slug: category.slug, ...fields }));
      written++;
      continue;
    }
    const termId = Number(term.id);
    ids.set(category.slug, termId);
    const currentParent = term.parent_id === null ? null : Number(term.parent_id);
    if (term.name !== fields.name || term.description !== fields.description || currentParent !== parentId) {
      await updateTerm(db, termId, fields);
      written++;
    }
  }
  return { ids, written };
}

async function writeTags(db: Executor, documents: readonly ContentDocument[]): Promise<{ ids: Map<string, number>; written: number }> {
  const ids = new Map((await listTerms(db, 'post_tag')).map((term) => [term.slug, Number(term.id)]));
  let written = 0;
  for (const document of documents) {
    for (const tag of document.tags) {
      if (ids.has(tag.slug)) continue;
      ids.set(tag.slug, await insertTerm(db, { taxonomy: 'post_tag', slug: tag.slug, name: tag.name, description: '', parentId: null }));
      written++;
    }
  }
  return { ids, written };
}

/** Refuses ids and slugs held by posts that did not come from content/ (another source owns them). */
async function checkForeignPosts(db: Executor, documents: readonly ContentDocument[]): Promise<void> {
  const problems: ImportProblem[] = [];
  const byId = new Map(documents.map((document) => [document.id, document]));
  for (const post of await findForeignPosts(db, [...byId.keys()], CONTENT_SOURCE_PREFIX)) {
    const document = byId.get(Number(post.id));
    if (document) problems.push({ file: document.sourcePath, field: 'id', message: `${document.id} is already used by a post not imported from content/ (${post.source_path})` });
  }
  for (const type of new Set(documents.map((document) => document.type))) {
    const ofType = documents.filter((document) => document.type === type);
    const bySlug = new Map(ofType.map((document) => [document.slug, document]));
    for (const post of await findForeignSlugs(db, type, [...bySlug.keys()], CONTENT_SOURCE_PREFIX)) {
      const document = bySlug.get(post.slug);
      if (document) problems.push({ file: document.sourcePath, field: 'slug', message: `"${post.slug}" is already used by a post not imported from content/ (${post.source_path})` });
    }
  }
  if (problems.length > 0) throw new ImportError('content', problems);
}

function authoredFields(document: ContentDocument): AuthoredPostFields {
  return {
    type: document.type,
    slug: document.slug,
    title: document.title,
    excerpt: document.excerpt,
    content_html: document.contentHtml,
    author: document.author,
    image: document.image,
    menu_order: document.menuOrder,
    date: document.date,
    modified: document.modified,
    source_path: document.sourcePath,
    source_hash: document.sourceHash,
  };
}

/** Writes a checked content folder in `db` (a transaction the caller owns). */
export async function writeContent(db: Executor, source: ContentSource): Promise<ContentImportSummary> {
  const { documents } = source;
  await checkForeignPosts(db, documents);
  const categories = await writeCategories(db, source.categories);
  const tags = await writeTags(db, documents);

  const existing = new Map((await listImportedPosts(db, CONTENT_SOURCE_PREFIX)).map((post) => [Number(post.id), post]));
  const currentIds = new Set(documents.map((document) => document.id));
  const removed = [...existing.keys()].filter((id) => !currentIds.has(id));
  await deletePosts(db, removed);

  const changed = documents.filter((document) => {
    const before = existing.get(document.id);
    return before === undefined || before.source_hash !== document.sourceHash || before.source_path !== document.sourcePath;
  });
  for (const document of changed) {
    const before = existing.get(document.id);
    const isMoving = before !== undefined && (before.slug !== document.slug || before.type !== document.type || before.source_path !== document.sourcePath);
    if (isMoving) await parkPost(db, document.id);
  }
  for (const document of changed) {
    try {
      if (existing.has(document.id)) await updatePost(db, document.id, authoredFields(document));
      else await insertPost(db, { id: document.id, ...authoredFields(document) });
      const termIds = [
        ...document.categories.map((slug) => categories.ids.get(slug)),
        ...document.tags.map((tag) => tags.ids.get(tag.slug)),
      ].filter((id): id is number => id !== undefined);
      await replacePostTerms(db, document.id, termIds);
      await replacePostMeta(db, document.id, document.meta);
    } catch (error) {
      const cause = error instanceof Error ? error.message : String(error);
      throw new Error(`${document.sourcePath}: could not be written: ${cause}`, { cause: error });
    }
  }
  return {
    files: documents.length,
    written: changed.length,
    unchanged: documents.length - changed.length,
    deleted: removed.length,
    termsWritten: categories.written + tags.written,
  };
}

/** Imports content/ (at `contentDir`) into the database in one transaction. */
export async function importContent(db: Kysely<Database>, contentDir: string): Promise<ContentImportSummary> {
  const source = await readContentFolder(contentDir);
  return db.transaction().execute((trx) => writeContent(trx, source));
}

export function hasChanges(summary: ContentImportSummary): boolean {
  return summary.written > 0 || summary.deleted > 0 || summary.termsWritten > 0;
}

export function formatSummary(summary: ContentImportSummary): string {
  const terms = summary.termsWritten > 0 ? `, ${summary.termsWritten} categories/tags written` : '';
  return `content: ${summary.files} files, ${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted${terms}`;
}
