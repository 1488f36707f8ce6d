import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database, DrawingCategory, Executor } from '@xcad/db';
import { CATEGORY_SLUG_PATTERN, DRAWING_FORMATS } from '@xcad/protocol';
import type { Kysely } from 'kysely';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Storage } from '../../storage';
import type { SiteImporter } from '../site-deps';
import {
  deleteCategories,
  deleteDrawings,
  insertCategory,
  insertDrawing,
  listAllCategories,
  listImportedDrawings,
  parkSlugs,
  updateCategory,
  updateDrawing,
  type AuthoredDrawing,
} from './drawings.repository';
import { ImportError, type ImportProblem } from '../../lib/import-error';
import { shanghaiDateToEpoch, ZSourceDate } from '../../lib/source-dates';

// The drawing library's importer (decision 0012): content/drawings/library.yml lists the categories and
// the drawings; each drawing's file lies under content/files/drawings/ (free, public) or
// content/private/drawings/ (members of product 203 only), its preview under
// content/images/drawings/. Everything is read and checked first; then the files are made sure to
// be in storage and one transaction writes the database, so a bad entry leaves it as it was.
// Idempotent: an entry whose text and file are unchanged is not written again.

export const LIBRARY_FILE = 'drawings/library.yml';
const SOURCE_PATH = `content/${LIBRARY_FILE}`;

/** Where an authored path (relative to content/) is stored, per content-assets.ts's folders. */
const STORAGE_PREFIX_OF = { files: 'content/files/', private: 'private/' } as const;
const FREE_FOLDER = 'files/drawings/';
const MEMBER_FOLDER = 'private/drawings/';
const PREVIEW_FOLDER = 'images/drawings/';
const PREVIEW_EXTENSIONS = /\.(?:webp|jpe?g|png)$/;

const ZText = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty');
const ZSlug = z
  .string({ error: 'must be text' })
  .max(80, 'is too long')
  .regex(CATEGORY_SLUG_PATTERN, 'must be lower-case ASCII words joined by -');
const ZRelativePath = z
  .string({ error: 'must be a path relative to content/' })
  .regex(/^[a-z]+\/drawings\/[A-Za-z0-9._-]+$/, 'must be a file directly under files/drawings/, private/drawings/ or images/drawings/');

const ZLibrary = z.strictObject({
  categories: z
    .array(z.strictObject({ slug: ZSlug, name: ZText.max(20, 'must be at most 20 characters'), description: z.string().trim().optional() }))
    .min(1, 'must list at least one category'),
  drawings: z.array(
    z.strictObject({
      id: z
        .number({ error: 'must be a positive integer' })
        .int('must be a positive integer')
        .positive('must be a positive integer')
        .max(Number.MAX_SAFE_INTEGER),
      slug: ZSlug,
      title: ZText.max(60, 'must be at most 60 characters'),
      category: z.string({ error: 'must be a category slug' }),
      tags: z
        .array(
          z
            .union([z.string(), z.number()])
            .transform(String)
            .pipe(
              z
                .string()
                .trim()
                .min(1, 'must not be empty')
                .max(20, 'must be at most 20 characters')
                .regex(/^[^,]+$/, 'must not contain a comma'),
            ),
        )
        .max(12, 'at most 12 tags'),
      description: ZText.max(2000, 'must be at most 2000 characters'),
      format: z.enum(DRAWING_FORMATS, { error: 'must be DWG or DXF' }),
      version: z.string({ error: 'must be text' }).regex(/^R(?:\d{1,2}|\d{4})$/, 'must be an AutoCAD release such as R12, R2000 or R2018'),
      file: ZRelativePath,
      preview: ZRelativePath,
      member_only: z.boolean({ error: 'must be true or false' }),
      date: ZSourceDate,
      credit: ZText.max(300, 'must be at most 300 characters'),
    }),
  ),
});

type LibraryEntry = z.output<typeof ZLibrary>['drawings'][number];

/** One checked drawing, ready to be written. */
interface CheckedDrawing {
  row: AuthoredDrawing;
  /** The authored path of the file (relative to content/), and its bytes. */
  filePath: string;
  bytes: Buffer;
}

export interface DrawingLibrary {
  categories: DrawingCategory[];
  drawings: CheckedDrawing[];
}

function storageKeyOf(relativePath: string): string {
  if (relativePath.startsWith(FREE_FOLDER)) return `${STORAGE_PREFIX_OF.files}${relativePath.slice('files/'.length)}`;
  return `${STORAGE_PREFIX_OF.private}${relativePath.slice('private/'.length)}`;
}

async function fileSize(absolute: string): Promise<number | undefined> {
  try {
    const info = await stat(absolute);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** Checks one entry against the rules the schema cannot express; answers its problems. */
async function entryProblems(
  contentDir: string,
  entry: LibraryEntry,
  index: number,
  categorySlugs: ReadonlySet<string>,
): Promise<ImportProblem[]> {
  const at = (field: string, message: string): ImportProblem => ({ field: `drawings.${index}.${field}`, message });
  const problems: ImportProblem[] = [];
  if (!categorySlugs.has(entry.category)) problems.push(at('category', `"${entry.category}" is not one of the categories listed above`));
  const folder = entry.member_only ? MEMBER_FOLDER : FREE_FOLDER;
  if (!entry.file.startsWith(folder)) {
    problems.push(
      at(
        'file',
        entry.member_only
          ? `a member drawing must lie under ${MEMBER_FOLDER} (never public)`
          : `a free drawing must lie under ${FREE_FOLDER}`,
      ),
    );
  }
  if (!entry.file.toLowerCase().endsWith(`.${entry.format.toLowerCase()}`))
    problems.push(at('file', `must end in .${entry.format.toLowerCase()} (format ${entry.format})`));
  if (!entry.preview.startsWith(PREVIEW_FOLDER) || !PREVIEW_EXTENSIONS.test(entry.preview)) {
    problems.push(at('preview', `must be a .webp, .jpg or .png picture under ${PREVIEW_FOLDER}`));
  }
  const size = await fileSize(path.join(contentDir, entry.file));
  if (size === undefined) problems.push(at('file', `content/${entry.file} does not exist`));
  else if (size === 0) problems.push(at('file', `content/${entry.file} is empty`));
  if ((await fileSize(path.join(contentDir, entry.preview))) === undefined)
    problems.push(at('preview', `content/${entry.preview} does not exist`));
  return problems;
}

function zodProblems(error: z.ZodError): ImportProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : 'file',
    message: issue.code === 'unrecognized_keys' ? `unknown field(s): ${issue.keys.join(', ')}` : issue.message,
  }));
}

/** Reads and checks content/drawings/library.yml; throws ImportError with every problem. */
export async function readDrawingLibrary(contentDir: string): Promise<DrawingLibrary> {
  let text: string;
  try {
    text = await readFile(path.join(contentDir, LIBRARY_FILE), 'utf8');
  } catch (error) {
    // No library authored yet: an empty one (which removes imported drawings, if any).
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return { categories: [], drawings: [] };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { schema: 'core', uniqueKeys: true });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new ImportError('drawing library', [{ field: 'file', message: `is not valid YAML: ${message}` }], SOURCE_PATH);
  }
  const result = ZLibrary.safeParse(parsed);
  if (!result.success) throw new ImportError('drawing library', zodProblems(result.error), SOURCE_PATH);
  const library = result.data;

  const problems: ImportProblem[] = [];
  const categorySlugs = new Set<string>();
  library.categories.forEach((category, index) => {
    if (categorySlugs.has(category.slug))
      problems.push({ field: `categories.${index}.slug`, message: `"${category.slug}" is listed twice` });
    categorySlugs.add(category.slug);
  });
  const ids = new Map<number, number>();
  const slugs = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [index, entry] of library.drawings.entries()) {
    const sameId = ids.get(entry.id);
    if (sameId !== undefined) problems.push({ field: `drawings.${index}.id`, message: `${entry.id} is also the id of drawings.${sameId}` });
    ids.set(entry.id, index);
    const sameSlug = slugs.get(entry.slug);
    if (sameSlug !== undefined)
      problems.push({ field: `drawings.${index}.slug`, message: `"${entry.slug}" is also the slug of drawings.${sameSlug}` });
    slugs.set(entry.slug, index);
    const sameFile = files.get(entry.file);
    if (sameFile !== undefined) problems.push({ field: `drawings.${index}.file`, message: `is also the file of drawings.${sameFile}` });
    files.set(entry.file, index);
    problems.push(...(await entryProblems(contentDir, entry, index, categorySlugs)));
  }
  if (problems.length > 0) throw new ImportError('drawing library', problems, SOURCE_PATH);

  const drawings = await Promise.all(
    library.drawings.map(async (entry): Promise<CheckedDrawing> => {
      const bytes = await readFile(path.join(contentDir, entry.file));
      const fileHash = createHash('sha256').update(bytes).digest('hex');
      // The entry as written plus its file's bytes: a changed file is a changed drawing.
      const sourceHash = createHash('sha256').update(JSON.stringify(entry)).update(fileHash).digest('hex');
      return {
        filePath: entry.file,
        bytes,
        row: {
          id: entry.id,
          slug: entry.slug,
          title: entry.title,
          category_slug: entry.category,
          tags: [...new Set(entry.tags)].join(','),
          description: entry.description.replace(/\r\n/g, '\n'),
          format: entry.format,
          version: entry.version,
          size_bytes: bytes.length,
          preview: `/content/${entry.preview}`,
          file_key: storageKeyOf(entry.file),
          member_only: entry.member_only ? 1 : 0,
          published_at: shanghaiDateToEpoch(entry.date),
          credit: entry.credit,
          source_path: SOURCE_PATH,
          source_hash: sourceHash,
        },
      };
    }),
  );
  const categories = library.categories.map((category, position) => ({
    slug: category.slug,
    name: category.name,
    description: category.description ?? '',
    position,
  }));
  return { categories, drawings };
}

export interface DrawingImportSummary {
  drawings: number;
  written: number;
  unchanged: number;
  deleted: number;
  categoriesWritten: number;
  filesStored: number;
}

/** Makes sure storage holds every drawing's file as authored (the CLI's asset sync usually did). */
async function storeDrawingFiles(storage: Storage, drawings: readonly CheckedDrawing[]): Promise<number> {
  let stored = 0;
  for (const drawing of drawings) {
    const current = await storage.stat(drawing.row.file_key);
    if (current !== undefined && current.size === drawing.bytes.length) {
      const bytes = await storage.read(drawing.row.file_key);
      if (bytes !== undefined && bytes.equals(drawing.bytes)) continue;
    }
    await storage.put(drawing.row.file_key, drawing.bytes);
    stored += 1;
  }
  return stored;
}

/** Writes a checked library in `db` (a transaction the caller owns). */
async function writeDrawingLibrary(db: Executor, library: DrawingLibrary): Promise<Omit<DrawingImportSummary, 'filesStored'>> {
  const existing = new Map((await listImportedDrawings(db)).map((row) => [Number(row.id), row]));
  const wanted = new Set(library.drawings.map((drawing) => drawing.row.id));
  const removed = [...existing.keys()].filter((id) => !wanted.has(id));
  await deleteDrawings(db, removed);

  let categoriesWritten = 0;
  const currentCategories = new Map((await listAllCategories(db)).map((category) => [category.slug, category]));
  for (const category of library.categories) {
    const before = currentCategories.get(category.slug);
    if (before === undefined) await insertCategory(db, category);
    else if (before.name !== category.name || before.description !== category.description || Number(before.position) !== category.position)
      await updateCategory(db, category);
    else continue;
    categoriesWritten += 1;
  }

  const changed = library.drawings.filter((drawing) => existing.get(drawing.row.id)?.source_hash !== drawing.row.source_hash);
  await parkSlugs(
    db,
    changed.filter((drawing) => existing.has(drawing.row.id)).map((drawing) => drawing.row.id),
  );
  for (const drawing of changed) {
    if (existing.has(drawing.row.id)) await updateDrawing(db, drawing.row);
    else await insertDrawing(db, drawing.row);
  }

  const listed = new Set(library.categories.map((category) => category.slug));
  const dropped = [...currentCategories.keys()].filter((slug) => !listed.has(slug));
  await deleteCategories(db, dropped);
  categoriesWritten += dropped.length;

  return {
    drawings: library.drawings.length,
    written: changed.length,
    unchanged: library.drawings.length - changed.length,
    deleted: removed.length,
    categoriesWritten,
  };
}

/** Reads, checks and imports the library: files into storage, rows in one transaction. */
export async function importDrawings(db: Kysely<Database>, contentDir: string, storage: Storage): Promise<DrawingImportSummary> {
  const library = await readDrawingLibrary(contentDir);
  const filesStored = await storeDrawingFiles(storage, library.drawings);
  const written = await db.transaction().execute((trx) => writeDrawingLibrary(trx, library));
  return { ...written, filesStored };
}

function formatDrawingSummary(summary: DrawingImportSummary): string | undefined {
  const isChanged = summary.written > 0 || summary.deleted > 0 || summary.categoriesWritten > 0 || summary.filesStored > 0;
  if (!isChanged) return undefined;
  const categories = summary.categoriesWritten > 0 ? `, ${summary.categoriesWritten} categories written` : '';
  const files = summary.filesStored > 0 ? `, ${summary.filesStored} file(s) stored` : '';
  return `${summary.drawings} drawings, ${summary.written} written, ${summary.unchanged} unchanged, ${summary.deleted} deleted${categories}${files}`;
}

export const drawingsImporter: SiteImporter = {
  name: 'drawings',
  run: async (db, contentDir, storage) => formatDrawingSummary(await importDrawings(db, contentDir, storage)),
};
