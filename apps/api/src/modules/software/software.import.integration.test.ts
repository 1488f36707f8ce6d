import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../storage';
import { importSoftware, softwareImporter } from './software.import';
import { countDownload } from './software.repository';
import { ImportError } from '../../lib/import-error';

// content/software/*.yml -> the download pages' tables, checked first, one transaction,
// idempotent, counters never reset.

let database: TestDatabaseHandle;
let contentDir: string;
// The importer stores no files; the interface hands it a storage all the same.
let storage: LocalDiskStorage;

function softwareFile(name: string): string {
  return path.join(contentDir, 'software', name);
}

function edit(name: string, change: (text: string) => string): void {
  const file = softwareFile(name);
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

async function snapshot() {
  const db = database.db;
  return {
    products: await db.selectFrom('software_product').selectAll().orderBy('key').execute(),
    releases: await db.selectFrom('software_release').selectAll().orderBy('product_key').orderBy('version').execute(),
    files: await db.selectFrom('software_file').selectAll().orderBy('product_key').orderBy('platform').execute(),
    counters: await db.selectFrom('software_download').selectAll().orderBy('product_key').orderBy('platform').execute(),
  };
}

async function countOne(productKey: string, client: string): Promise<void> {
  await countDownload(database.db, { productKey, platform: 'windows', client, now: 1_800_000_000, windowSeconds: 60 });
}

beforeEach(async () => {
  database = await createTestDatabase();
  contentDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-software-'));
  cpSync(path.join(repositoryRoot, 'content', 'software'), path.join(contentDir, 'software'), { recursive: true });
  storage = new LocalDiskStorage(path.join(contentDir, 'storage'));
});

afterEach(async () => {
  await database.destroy();
  rmSync(contentDir, { recursive: true, force: true });
});

describe('softwareImporter', () => {
  it('imports the nine download pages once, then reports nothing on an unchanged run', async () => {
    expect(await softwareImporter.run(database.db, contentDir, storage)).toBe('9 product(s) written, 0 unchanged, 0 removed');
    const first = await snapshot();
    expect(first.products.map((row) => row.key)).toEqual([
      'download',
      'download-cadapp',
      'download-cadkantuapp',
      'download-converter',
      'download-converter-app',
      'download-holdall',
      'download-lookchart',
      'download-major',
      'download-mobile-lookchart',
    ]);
    expect(first.products.find((row) => row.key === 'download')).toMatchObject({ name: '迅捷CAD编辑器', product_id: 211, version: '5.0' });
    expect(first.counters.every((row) => Number(row.count) === 0)).toBe(true);
    expect(first.counters).toHaveLength(first.files.length);

    expect(await softwareImporter.run(database.db, contentDir, storage)).toBeUndefined();
    expect(await snapshot()).toEqual(first);
  });

  it('rewrites a changed page and keeps its download count', async () => {
    await importSoftware(database.db, contentDir);
    await countOne('download-holdall', 'a');
    await countOne('download-holdall', 'b');
    edit('download-holdall.yml', (text) =>
      text.replace(
        'releases:\n',
        'releases:\n  - version: "2.7"\n    date: 2026-11-20\n    fixed:\n      - 修复批量替换文字时跳过只读图纸的问题\n',
      ),
    );
    expect(await importSoftware(database.db, contentDir)).toEqual({ files: 9, written: 1, unchanged: 8, removed: 0 });
    const after = await snapshot();
    expect(after.products.find((row) => row.key === 'download-holdall')).toMatchObject({ version: '2.7', released_on: '2026-11-20' });
    expect(after.releases.filter((row) => row.product_key === 'download-holdall')).toHaveLength(5);
    expect(after.counters.find((row) => row.product_key === 'download-holdall' && row.platform === 'windows')?.count).toBe(2);
  });

  it('removes a page whose file is gone but keeps its count for its return', async () => {
    await importSoftware(database.db, contentDir);
    await countOne('download-major', 'a');
    const saved = readFileSync(softwareFile('download-major.yml'));
    unlinkSync(softwareFile('download-major.yml'));
    expect(await softwareImporter.run(database.db, contentDir, storage)).toBe('0 product(s) written, 8 unchanged, 1 removed');
    const after = await snapshot();
    expect(after.products.map((row) => row.key)).not.toContain('download-major');
    expect(after.files.filter((row) => row.product_key === 'download-major')).toEqual([]);
    writeFileSync(softwareFile('download-major.yml'), saved);
    await importSoftware(database.db, contentDir);
    expect((await snapshot()).counters.find((row) => row.product_key === 'download-major')?.count).toBe(1);
  });

  it('refuses a run with a bad file and leaves the database as it was', async () => {
    await importSoftware(database.db, contentDir);
    const before = await snapshot();
    // A good change in one file and mistakes in two others: none of it may be written.
    edit('download-holdall.yml', (text) => text.replace('name: 迅捷CAD工具箱', 'name: 迅捷CAD工具箱（新版）'));
    edit('download-converter.yml', (text) =>
      text
        .replace('version: "4.2"', 'version: 4.3')
        .replace('size: 58741209', 'size: 56 MB')
        .replace('  mac:\n', '  linux:\n    file: xunjiecadconverter_4.2.deb\n    size: 41234567\n  mac:\n'),
    );
    edit('download.yml', (text) =>
      text
        .replace('version: "5.0"', 'version: "5.1"')
        .replace('version: "4.2"\n    date: 2023-06-20', 'version: "4.2"\n    date: 2026-06-20'),
    );
    const error = await importSoftware(database.db, contentDir).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ImportError);
    const problems = (error as ImportError).problems.map((problem) => `${problem.file} ${problem.field}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        'content/software/download-converter.yml releases.0.version',
        'content/software/download-converter.yml platforms.mac.size',
        'content/software/download.yml releases.0.version',
        'content/software/download.yml releases.5.date',
      ]),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('imports nothing and removes nothing when there is no software folder', async () => {
    await importSoftware(database.db, contentDir);
    rmSync(path.join(contentDir, 'software'), { recursive: true });
    expect(await importSoftware(database.db, contentDir)).toEqual({ files: 0, written: 0, unchanged: 0, removed: 0 });
    expect((await snapshot()).products).toHaveLength(9);
  });
});
