import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../storage';
import { drawingsImporter, importDrawings, readDrawingLibrary } from './drawings.import';
import { incrementDownloads } from './drawings.repository';
import { drawingBytes, entry, temporaryContentDir, writeLibrary, type EntrySeed } from './drawings.testing';
import { ImportError } from '../../lib/import-error';

// Decision 0012: content/drawings/library.yml -> drawing_category + drawing, files into storage; every
// entry checked before anything is written, one transaction, idempotent, counters kept.

let database: TestDatabaseHandle;
let contentDir: string;
let storage: LocalDiskStorage;

const LIBRARY: EntrySeed[] = [
  entry(7001, { title: '住宅一层平面图', tags: ['住宅', '车库'] }),
  entry(7002, { format: 'DWG', version: 'R2018', member_only: true, category: 'mechanical' }),
  entry(7003, { date: '2026-04-10' }),
];

async function snapshot() {
  return {
    categories: await database.db.selectFrom('drawing_category').selectAll().orderBy('position').execute(),
    drawings: await database.db.selectFrom('drawing').selectAll().orderBy('id').execute(),
  };
}

async function refused(entries: EntrySeed[], options?: Parameters<typeof writeLibrary>[2]): Promise<ImportError> {
  writeLibrary(contentDir, entries, options);
  const error = await importDrawings(database.db, contentDir, storage).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

beforeEach(async () => {
  database = await createTestDatabase();
  contentDir = temporaryContentDir();
  storage = new LocalDiskStorage(path.join(contentDir, '.storage'));
});

afterEach(async () => {
  await database.destroy();
  rmSync(contentDir, { recursive: true, force: true });
});

describe('drawingsImporter', () => {
  it('imports categories, drawings and files once, then says nothing on an unchanged run', async () => {
    writeLibrary(contentDir, LIBRARY);
    expect(await drawingsImporter.run(database.db, contentDir, storage)).toBe(
      '3 drawings, 3 written, 0 unchanged, 0 deleted, 2 categories written, 3 file(s) stored',
    );
    const first = await snapshot();
    expect(first.categories.map((row) => [row.slug, row.name, Number(row.position)])).toEqual([
      ['architecture', '建筑', 0],
      ['mechanical', '机械', 1],
    ]);
    const member = first.drawings.find((row) => Number(row.id) === 7002);
    expect(member).toMatchObject({
      format: 'DWG',
      version: 'R2018',
      category_slug: 'mechanical',
      file_key: 'private/drawings/7002-drawing-7002.dwg',
    });
    expect(Number(member?.member_only)).toBe(1);
    expect(Number(member?.size_bytes)).toBe(drawingBytes(7002, 'DWG').length);
    const free = first.drawings.find((row) => Number(row.id) === 7001);
    expect(free).toMatchObject({
      tags: '住宅,车库',
      file_key: 'content/files/drawings/7001-drawing-7001.dxf',
      preview: '/content/images/drawings/7001-drawing-7001.webp',
    });
    // 2026-03-01 09:00 in Beijing.
    expect(Number(free?.published_at)).toBe(Date.UTC(2026, 2, 1, 1) / 1000);
    expect((await storage.read('private/drawings/7002-drawing-7002.dwg'))?.equals(drawingBytes(7002, 'DWG'))).toBe(true);

    expect(await drawingsImporter.run(database.db, contentDir, storage)).toBeUndefined();
    expect(await snapshot()).toEqual(first);
  });

  it('rewrites a changed entry, deletes a removed one and keeps the counters', async () => {
    writeLibrary(contentDir, LIBRARY);
    await importDrawings(database.db, contentDir, storage);
    await incrementDownloads(database.db, 7001);
    await incrementDownloads(database.db, 7001);

    writeLibrary(contentDir, [entry(7001, { title: '住宅一层平面图（修订）' }), LIBRARY[1] as EntrySeed]);
    const summary = await importDrawings(database.db, contentDir, storage);
    expect(summary).toMatchObject({ drawings: 2, written: 1, unchanged: 1, deleted: 1 });
    const rows = (await snapshot()).drawings;
    expect(rows.map((row) => Number(row.id))).toEqual([7001, 7002]);
    expect(rows[0]?.title).toBe('住宅一层平面图（修订）');
    expect(Number(rows[0]?.downloads)).toBe(2);
  });

  it('lets two drawings swap slugs in one run', async () => {
    writeLibrary(contentDir, [entry(7001, { slug: 'plan-a' }), entry(7003, { slug: 'plan-b' })]);
    await importDrawings(database.db, contentDir, storage);
    writeLibrary(contentDir, [
      entry(7001, { slug: 'plan-b', file: 'files/drawings/7001-drawing-7001.dxf' }),
      entry(7003, { slug: 'plan-a', file: 'files/drawings/7003-drawing-7003.dxf' }),
    ]);
    await importDrawings(database.db, contentDir, storage);
    expect((await snapshot()).drawings.map((row) => [Number(row.id), row.slug])).toEqual([
      [7001, 'plan-b'],
      [7003, 'plan-a'],
    ]);
  });

  it('refuses a bad entry and leaves the database exactly as it was', async () => {
    writeLibrary(contentDir, LIBRARY);
    await importDrawings(database.db, contentDir, storage);
    const before = await snapshot();

    const error = await refused([entry(7001, { title: '改过的标题' }), entry(7004, { category: 'landscape' })]);
    expect(error.problems).toEqual([{ field: 'drawings.1.category', message: '"landscape" is not one of the categories listed above' }]);
    expect(error.message).toContain('nothing was written');
    expect(await snapshot()).toEqual(before);
  });

  it('names every problem of a library at once', async () => {
    const member = entry(7011, { member_only: true });
    const problems = (
      await refused(
        [
          entry(7010),
          entry(7010, { slug: 'other', file: 'files/drawings/7010-drawing-7010.dxf' }),
          { ...member, file: 'files/drawings/7011-drawing-7011.dxf' },
          entry(7012, { format: 'DWG', file: 'files/drawings/7012-drawing-7012.dxf' }),
          entry(7013),
        ],
        { withoutFiles: ['files/drawings/7013-drawing-7013.dxf'] },
      )
    ).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        { field: 'drawings.1.id', message: '7010 is also the id of drawings.0' },
        { field: 'drawings.1.file', message: 'is also the file of drawings.0' },
        { field: 'drawings.2.file', message: 'a member drawing must lie under private/drawings/ (never public)' },
        { field: 'drawings.3.file', message: 'must end in .dwg (format DWG)' },
        { field: 'drawings.4.file', message: 'content/files/drawings/7013-drawing-7013.dxf does not exist' },
      ]),
    );
  });

  it('checks the fields of an entry with readable messages', async () => {
    const problems = (
      await refused([
        { ...entry(7020), version: '2018', member_only: 'yes' as unknown as boolean, date: '2026-02-30', extra: 1 } as EntrySeed,
      ])
    ).problems;
    expect(problems.map((problem) => problem.field).sort()).toEqual([
      'drawings.0',
      'drawings.0.date',
      'drawings.0.member_only',
      'drawings.0.version',
    ]);
    expect(problems.find((problem) => problem.field === 'drawings.0')?.message).toBe('unknown field(s): extra');
  });

  it('accepts the repository library: 24+ drawings, about a third for members, every file present', async () => {
    const library = await readDrawingLibrary(path.join(repositoryRoot, 'content'));
    expect(library.drawings.length).toBeGreaterThanOrEqual(24);
    const members = library.drawings.filter((drawing) => drawing.row.member_only === 1).length;
    expect(members / library.drawings.length).toBeGreaterThan(0.25);
    expect(members / library.drawings.length).toBeLessThan(0.45);
    expect(new Set(library.drawings.map((drawing) => drawing.row.format))).toEqual(new Set(['DWG', 'DXF']));
    for (const drawing of library.drawings) {
      expect(drawing.bytes.length, drawing.filePath).toBeLessThanOrEqual(1_400_000);
      // A DWG begins with its version string (AC10xx); a DXF is text or binary DXF.
      const head = drawing.bytes.subarray(0, 22).toString('latin1');
      if (drawing.row.format === 'DWG') expect(head, drawing.filePath).toMatch(/^AC10\d\d/);
      else expect(head, drawing.filePath).toMatch(/^(?:AutoCAD Binary DXF|\s*0\r?\n)/);
    }
    const credits = readFileSync(path.join(repositoryRoot, 'content', 'credits', 'drawings.md'), 'utf8');
    for (const drawing of library.drawings) expect(credits, `credit of ${drawing.row.id}`).toContain(`| ${drawing.row.id} |`);
  });
});
