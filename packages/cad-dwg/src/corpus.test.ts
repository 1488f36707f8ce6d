/**
 * Every DWG of the corpus (or, without it, the committed DWG fixtures) is read into a drawing with
 * entities, or refused with a CadReadError and a reason: never another exception, a hang or an
 * empty drawing from a file that has entities. One process, one LibreDWG instance per file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Drawing } from '@xcad/cad/model';
import { describe, expect, it } from 'vitest';
import { readDwgBytes } from './read';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');
const fixtures = path.resolve(here, '../../cad/test-fixtures');

/** Corpus drawings with no entity at all (checked with LibreDWG's object list: only objects). */
const NO_ENTITIES = new Set(['acs_geoloc.dwg']);

function files(): string[] {
  const dir = path.join(corpus, 'dwg');
  // The two generated 5-7 MB drawings are timed by the benchmark, not swept here (10 s budget).
  if (existsSync(dir)) {
    const all = readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.dwg') && !f.startsWith('gen_large_'));
    if (all.length) return all.map((f) => path.join(dir, f));
  }
  return readdirSync(fixtures)
    .filter((f) => f.toLowerCase().endsWith('.dwg'))
    .map((f) => path.join(fixtures, f));
}

function entityCount(d: Drawing): number {
  return (
    d.modelSpace.length +
    Object.values(d.blocks).reduce((n, b) => n + b.entities.length, 0) +
    d.layouts.reduce((n, l) => n + (l.entities?.length ?? 0), 0)
  );
}

describe('DWG corpus sweep', () => {
  const list = files();

  it('finds files to sweep', () => {
    expect(list.length).toBeGreaterThan(0);
  });

  it('reads every file or refuses it with a CadReadError', { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    let read = 0;
    for (const file of list) {
      const name = path.basename(file);
      try {
        const { drawing } = await readDwgBytes(readFileSync(file));
        if (entityCount(drawing) === 0 && !NO_ENTITIES.has(name)) failures.push(`${name}: no entities`);
        if (!drawing.layouts.some((l) => l.isModel)) failures.push(`${name}: no model layout`);
        if (!Object.keys(drawing.layers).length) failures.push(`${name}: no layers`);
        read++;
      } catch (e) {
        const err = e as Error & { reason?: string };
        if (err.name !== 'CadReadError' || !err.reason || err.message.includes('\n')) failures.push(`${name}: ${err.stack ?? String(e)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(read).toBe(list.length);
  });
});
