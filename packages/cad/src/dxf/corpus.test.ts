import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CadReadError } from '../errors';
import { readDxf } from './reader';

// The shared corpus is a sibling of the repository (../../../shared/corpus from the repo root).
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');
const fixtures = path.resolve(here, '../../test-fixtures');

function corpusFiles(): string[] {
  const manifest = path.join(corpus, 'MANIFEST.tsv');
  if (existsSync(manifest)) {
    const files = readFileSync(manifest, 'utf8')
      .split('\n')
      .map((l) => l.split('\t')[0] ?? '')
      .filter((f) => f.toLowerCase().endsWith('.dxf') && !path.basename(f).startsWith('gen_large_'))
      .map((f) => path.join(corpus, f))
      .filter((f) => existsSync(f));
    if (files.length) return files;
  }
  return readdirSync(fixtures)
    .filter((f) => f.toLowerCase().endsWith('.dxf'))
    .map((f) => path.join(fixtures, f));
}

describe('DXF corpus sweep', () => {
  const files = corpusFiles();

  it('finds files to sweep', () => {
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it('reads every file or refuses it with a CadReadError, never crashing', { timeout: 30_000 }, () => {
    const failures: string[] = [];
    let read = 0;
    for (const file of files) {
      try {
        const { drawing } = readDxf(readFileSync(file));
        const count =
          drawing.modelSpace.length +
          Object.values(drawing.blocks).reduce((n, b) => n + b.entities.length, 0) +
          drawing.layouts.reduce((n, l) => n + (l.entities?.length ?? 0), 0);
        // A drawing without a single entity is acceptable only when its source really has none.
        const source = readFileSync(file, 'latin1');
        if (count === 0 && /\n\s*0\r?\n(LINE|CIRCLE|ARC|TEXT|MTEXT|INSERT|LWPOLYLINE|POLYLINE)\r?\n/.test(source))
          failures.push(`${path.basename(file)}: no entities`);
        JSON.stringify(drawing);
        read++;
      } catch (e) {
        if (!(e instanceof CadReadError)) failures.push(`${path.basename(file)}: ${(e as Error).stack ?? String(e)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(read).toBeGreaterThan(0);
  });
});
