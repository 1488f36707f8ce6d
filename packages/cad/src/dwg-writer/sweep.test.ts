/**
 * Corpus sweep of the DWG writer: every corpus DXF and DWG (the committed fixtures when
 * ../shared/corpus is absent; the gen_large_* benchmark files are left out) is written as DWG in
 * each supported release and read back by LibreDWG. The read-back drawing must have, per entity
 * type, the counts of the source after the same lowering the writer applies (computed here from
 * the source with the DXF writer's `Lowering`, not hard-coded). Sources the readers refuse are
 * listed, not failed. One reader child per written file, at most two at a time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDwg } from '../dwg-client';
import { Lowering } from '../dxf-writer/lower';
import { chordTolerance } from '../dxf-writer/writer';
import type { Drawing, Entity } from '../model';
import { openDrawing } from '../open';
import { NATIVE_TYPES } from './entities';
import { DWG_WRITE_VERSIONS, writeDwg, type DwgVersion } from './writer';

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

const files = hasCorpus ? [...drawings(join(CORPUS, 'dxf'), /\.dxf$/i), ...drawings(join(CORPUS, 'dwg'), /\.dwg$/i)] : drawings(FIXTURES, /\.(dxf|dwg)$/i);
const label = (f: string): string => f.slice(f.lastIndexOf('/', f.lastIndexOf('/') - 1) + 1);
const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;

type Counts = Record<string, number>;
const add = (c: Counts, t: string, n = 1): void => {
  c[t] = (c[t] ?? 0) + n;
};

/** Every entity list of a drawing: model space, paper layouts, and the blocks that are not layouts. */
function lists(d: Drawing): Entity[][] {
  return [d.modelSpace, ...d.layouts.filter((l) => !l.isModel).map((l) => l.entities ?? []), ...Object.values(d.blocks).filter((b) => !LAYOUT_BLOCK.test(b.name)).map((b) => b.entities)];
}

/** Entity counts after the writer's lowering for `year`, INSERTs of missing blocks dropped as the writer drops them. */
function expectedCounts(d: Drawing, year: number): Counts {
  const lowering = new Lowering(d, year, chordTolerance(d), () => {});
  const blocks = new Set(Object.keys(d.blocks).filter((n) => !LAYOUT_BLOCK.test(n)).map((n) => n.toUpperCase()));
  const c: Counts = {};
  for (const list of lists(d))
    for (const e of list)
      for (const x of lowering.lower(e)) {
        if (!NATIVE_TYPES.has(x.type)) continue;
        if (x.type === 'INSERT' && !blocks.has(x.name.toUpperCase())) continue;
        add(c, x.type);
      }
  return c;
}

function actualCounts(d: Drawing): Counts {
  const c: Counts = {};
  for (const list of lists(d)) for (const e of list) add(c, e.type === 'UNKNOWN' ? `UNKNOWN:${e.dxfType}` : e.type);
  return c;
}

/** Runs `f` over `items`, at most `n` at a time. */
async function pool<T>(items: T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) await f(items[next++] as T);
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
    await pool(files, 2, async (file) => {
      const name = label(file);
      let source: Drawing;
      try {
        source = (await openDrawing(readFileSync(file), name, { dwgTimeoutMs: 60_000 })).drawing;
      } catch (e) {
        if ((e as Error).name !== 'CadReadError') failures.push(`${name}: reading the source: ${(e as Error).stack ?? String(e)}`);
        else refused.push(name);
        return;
      }
      for (const version of DWG_WRITE_VERSIONS as DwgVersion[]) {
        try {
          const { bytes } = writeDwg(source, { version });
          const back = await readDwg(bytes, { timeoutMs: 60_000 });
          const want = expectedCounts(source, Number(version));
          const got = actualCounts(back.drawing);
          if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want))) failures.push(`${name} → DWG ${version}: counts ${diff(want, got)}`);
          // LibreDWG flags R2004+ files without FileDepList and Security sections (code 64), AutoCAD's own included.
          const problems = back.warnings.filter((w) => /recoverable problems/.test(w) && !(version !== '2000' && /\(code 64\)/.test(w)));
          if (problems.length) failures.push(`${name} → DWG ${version}: ${problems.join('; ')}`);
          written++;
          entities += Object.values(got).reduce((a, b) => a + b, 0);
        } catch (e) {
          failures.push(`${name} → DWG ${version}: ${(e as Error).message}`);
        }
      }
    });
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
