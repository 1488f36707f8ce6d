/**
 * Corpus sweep of the DWG writer: every corpus DXF and DWG (the committed fixtures when
 * ../shared/corpus is absent; the gen_large_* benchmark files are left out) is read once and
 * written as DWG in each supported release, each written file read back by LibreDWG. The read-back
 * drawing must have, per entity type, the counts of the source after the lowering the writer
 * applies (computed here from the source with `DwgLowering`, not hard-coded). Sources the readers
 * refuse are listed, not failed. Two long-lived reader children (serve mode), one per worker.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isDwg, openDwgReader, type DwgReader } from '../dwg-client';
import type { Drawing, Entity } from '../model';
import { openDrawing } from '../open';
import { DwgLowering, writeDwg, type DwgVersion } from './writer';
import { DWG_WRITE_VERSIONS } from './constants';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = process.env.CAD_CORPUS ?? resolve(here, '../../../../../shared/corpus');
const FIXTURES = resolve(here, '../../test-fixtures');
const hasCorpus = existsSync(join(CORPUS, 'dxf'));

function drawings(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => ext.test(f) && !f.startsWith('gen_large_'))
    .sort()
    .map((f) => join(dir, f));
}

const files = hasCorpus
  ? [...drawings(join(CORPUS, 'dxf'), /\.dxf$/i), ...drawings(join(CORPUS, 'dwg'), /\.dwg$/i)]
  : drawings(FIXTURES, /\.(dxf|dwg)$/i);
const label = (f: string): string => f.slice(f.lastIndexOf('/', f.lastIndexOf('/') - 1) + 1);
const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;

type Counts = Record<string, number>;
const add = (c: Counts, t: string, n = 1): void => {
  c[t] = (c[t] ?? 0) + n;
};

/** Every entity list of a drawing: model space, paper layouts, and the blocks that are not layouts. */
function lists(d: Drawing): Entity[][] {
  return [
    d.modelSpace,
    ...d.layouts.filter((l) => !l.isModel).map((l) => l.entities ?? []),
    ...Object.values(d.blocks)
      .filter((b) => !LAYOUT_BLOCK.test(b.name))
      .map((b) => b.entities),
  ];
}

/** Entity counts after the writer's lowering for `version`, INSERTs of missing blocks dropped as the writer drops them. */
function expectedCounts(d: Drawing, version: DwgVersion): Counts {
  const lowering = new DwgLowering(d, version, () => {});
  const blocks = new Set(
    Object.keys(d.blocks)
      .filter((n) => !LAYOUT_BLOCK.test(n))
      .map((n) => n.toUpperCase()),
  );
  const c: Counts = {};
  for (const list of lists(d))
    for (const e of list)
      for (const x of lowering.lower(e)) {
        if (x.type === 'INSERT' && !blocks.has(x.name.toUpperCase())) continue;
        add(c, x.type);
      }
  return c;
}

function actualCounts(d: Drawing): Counts {
  const c: Counts = {};
  for (const list of lists(d))
    for (const e of list) add(c, e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? `UNKNOWN:${e.dxfType}` : e.type);
  return c;
}

/** Runs `f` over `items` with `n` workers (each given its index), one item at a time per worker. */
async function pool<T>(items: T[], n: number, f: (t: T, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async (_, worker) => {
      while (next < items.length) await f(items[next++] as T, worker);
    }),
  );
}

describe(`DWG writer sweep over ${hasCorpus ? 'the corpus' : 'the committed fixtures'}`, () => {
  it('has files to sweep', () => {
    expect(files.length).toBeGreaterThan(hasCorpus ? 100 : 5);
  });

  it('writes every readable drawing in every supported release, read back with the same entities', { timeout: 900_000 }, async () => {
    const started = Date.now();
    const failures: string[] = [];
    const refused: string[] = [];
    let written = 0;
    let entities = 0;
    const readers: DwgReader[] = [openDwgReader({ timeoutMs: 60_000 }), openDwgReader({ timeoutMs: 60_000 })];
    // Reads the source once, then writes it in each release and reads that back, all in the worker's reader.
    const sweepFile = async (file: string, reader: DwgReader): Promise<void> => {
      const name = label(file);
      let source: Drawing;
      try {
        const bytes = readFileSync(file);
        source = isDwg(bytes) ? (await reader.read(bytes)).drawing : (await openDrawing(bytes, name)).drawing;
      } catch (e) {
        if ((e as Error).name !== 'CadReadError') failures.push(`${name}: reading the source: ${(e as Error).stack ?? String(e)}`);
        else refused.push(name);
        return;
      }
      for (const version of DWG_WRITE_VERSIONS as DwgVersion[]) {
        try {
          const { bytes } = writeDwg(source, { version });
          const back = await reader.read(bytes);
          const want = expectedCounts(source, version);
          const got = actualCounts(back.drawing);
          if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want)))
            failures.push(`${name} → DWG ${version}: counts ${diff(want, got)}`);
          // LibreDWG flags most R2004+ files with code 64 (a section it looks for is absent), AutoCAD's own included.
          const problems = back.warnings.filter((w) => /recoverable problems/.test(w) && !(version !== '2000' && /\(code 64\)/.test(w)));
          if (problems.length) failures.push(`${name} → DWG ${version}: ${problems.join('; ')}`);
          written++;
          entities += Object.values(got).reduce((a, b) => a + b, 0);
        } catch (e) {
          failures.push(`${name} → DWG ${version}: ${(e as Error).message}`);
        }
      }
    };
    try {
      await pool(files, readers.length, (file, worker) => sweepFile(file, readers[worker] as DwgReader));
    } finally {
      await Promise.all(readers.map((r) => r.close()));
    }
    console.info(
      `dwg sweep: ${files.length} files, versions ${DWG_WRITE_VERSIONS.join('/')}, ${written} written and read back, ${entities} entities, ${refused.length} sources refused by the readers${refused.length ? ` (${refused.join(', ')})` : ''}, ${failures.length} failures, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(failures).toEqual([]);
    expect(written).toBe((files.length - refused.length) * DWG_WRITE_VERSIONS.length);
  });
});

const sorted = (c: Counts): [string, number][] => Object.entries(c).sort((a, b) => (a[0] < b[0] ? -1 : 1));
function diff(want: Counts, got: Counts): string {
  const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])].sort();
  return keys
    .filter((k) => (want[k] ?? 0) !== (got[k] ?? 0))
    .map((k) => `${k} ${want[k] ?? 0}→${got[k] ?? 0}`)
    .join(', ');
}
