/**
 * The save-as sweep's per-file check (decision 0038) on committed fixtures, so `npm test` guards it
 * without the corpus: three MIT drawings (packages/cad/test-fixtures, credited in its CREDITS.md)
 * converted to every version the tools offer, as the workers convert, must keep their drawing: ink
 * F1 >= 0.97 in the original's view, no entity lost that the writer did not report, a DWG read back
 * by LibreDWG without error codes (64 accepted from 2004), a DXF read by ezdxf with its counts equal
 * to ours. And the check itself must see a loss: a copy missing entities, reported as nothing, fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepDwgReader, releaseDwgReader } from '@xcad/cad/dwg-client';
import { convertToDwg, type DwgVersion } from '@xcad/cad/dwg-writer';
import { convertToDxf, writeDxf, type DxfVersion } from '@xcad/cad/dxf-writer';
import { openDrawing } from '@xcad/cad/open';
import { cadVersionsFor } from '@xcad/protocol';
import { checkResult, original, type Converted } from './saveas-check';
import {
  countsDisagree,
  lostUnreported,
  readbackProblems,
  reportedByType,
  type Counts,
  type Target,
  type TargetRow,
} from './saveas-shared';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = resolve(here, '../packages/cad/test-fixtures');
const EZDXF_CHECK = join(here, 'saveas-ezdxf.py');
/** Hatches (pattern lines and solid fills in R12), dimensions in nested blocks (block references in R12), MINSERTs with attributes. */
const FILES = ['ezdxf_hatches_1.dxf', 'ezdxf_dimension_in_nested_blocks.dxf', 'ezdxf_multi_insert_with_attribs.dxf'];
const TARGETS: Target[] = [
  ...cadVersionsFor('dwg').map((version): Target => ({ format: 'dwg', version })),
  ...cadVersionsFor('dxf').map((version): Target => ({ format: 'dxf', version })),
];

interface Ezdxf {
  ok: boolean;
  error?: string;
  counts?: Counts;
  auditErrors?: number;
}

/** ezdxf's reading of DXF files (bench/saveas-ezdxf.py), one answer per file, in order. */
function ezdxfRead(files: string[]): Ezdxf[] {
  const r = spawnSync('/usr/bin/python3', [EZDXF_CHECK], { input: files.join('\n') + '\n', encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`saveas-ezdxf.py failed: ${r.stderr}`);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Ezdxf);
}

const convert = (bytes: Uint8Array, name: string, t: Target): Promise<Converted> =>
  t.format === 'dwg'
    ? convertToDwg(bytes, name, { version: t.version as DwgVersion })
    : convertToDxf(bytes, name, { version: t.version as DxfVersion });

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'xcad-saveas-'));
  keepDwgReader(10_000);
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await releaseDwgReader();
});

describe('the save-as check on committed fixtures', () => {
  for (const file of FILES)
    it(`${file}: every offered version keeps the drawing`, { timeout: 180_000 }, async () => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, file)));
      const orig = await original((await openDrawing(bytes, file)).drawing, file);
      expect(orig.scenes.length).toBeGreaterThan(0);
      const problems: string[] = [];
      const dxfs: { target: Target; path: string; counts: Counts }[] = [];
      for (const target of TARGETS) {
        const where = `${target.format.toUpperCase()} ${target.version}`;
        const out = await convert(bytes, file, target);
        const row = await checkResult(orig, target, out);
        if (row.status !== 'ok') {
          problems.push(`${where}: ${row.error}`);
          continue;
        }
        if (row.f1 === null || row.f1 === undefined || row.f1 < 0.97) problems.push(`${where}: ink F1 ${row.f1}`);
        for (const l of lostUnreported(row, reportedByType(row)))
          problems.push(`${where}: ${l.type} ${l.in} -> ${l.out}, reported ${l.reported}`);
        for (const p of readbackProblems(row)) problems.push(`${where}: LibreDWG: ${p}`);
        if (target.format === 'dxf') {
          const path = join(scratch, `${file}.${target.version}.dxf`);
          writeFileSync(path, out.bytes);
          dxfs.push({ target, path, counts: row.countsAll ?? {} });
        }
      }
      const read = ezdxfRead(dxfs.map((d) => d.path));
      for (const [i, d] of dxfs.entries()) {
        const ez = read[i];
        const where = `DXF ${d.target.version}: ezdxf`;
        if (!ez?.ok) problems.push(`${where}: ${ez?.error}`);
        else if (ez.auditErrors) problems.push(`${where}: ${ez.auditErrors} audit errors`);
        else if (countsDisagree(d.counts, ez.counts ?? {})) problems.push(`${where}: ${countsDisagree(d.counts, ez.counts ?? {})}`);
      }
      expect(problems).toEqual([]);
    });

  it('sees a loss: a copy without its hatches, reported as nothing, has them lost and a lower F1', { timeout: 60_000 }, async () => {
    const file = 'ezdxf_hatches_1.dxf';
    const drawing = (await openDrawing(new Uint8Array(readFileSync(join(FIXTURES, file))), file)).drawing;
    const orig = await original(drawing, file);
    const hatches = drawing.modelSpace.filter((e) => e.type === 'HATCH').length;
    expect(hatches).toBeGreaterThan(2);
    const lossy = writeDxf({ ...drawing, modelSpace: drawing.modelSpace.filter((e) => e.type !== 'HATCH') }, { version: '2018' });
    const target: Target = { format: 'dxf', version: '2018' };
    const row = await checkResult(orig, target, { bytes: lossy.bytes, notes: [] });
    expect(row.status).toBe('ok');
    expect(row.f1).toBeLessThan(0.9);
    expect(lostUnreported(row, reportedByType(row))).toEqual([{ type: 'HATCH', in: hatches, out: 0, reported: 0 }]);
    // The same loss reported (as the engine's change report would) is no longer "lost unreported".
    const reported = { ...row, changes: [{ type: 'HATCH', count: hatches, outcome: 'dropped', how: 'not-in-version' }] };
    expect(lostUnreported(reported, reportedByType(reported))).toEqual([]);
  });

  it('a paper layout left out is not counted twice: its report does not also cover a loss elsewhere', () => {
    // R12 left out a layout with 2 LINEs (reported 'not-in-version'; the original's count already
    // leaves that layout out), and 2 more LINEs went missing elsewhere without a word.
    const row: TargetRow = {
      kind: 'row',
      target: { format: 'dxf', version: 'R12' },
      status: 'ok',
      notes: [],
      readback: [],
      countsIn: { LINE: 10 },
      countsOut: { LINE: 8 },
      countsLeftOut: { LINE: 2 },
      changes: [{ type: 'LINE', count: 2, outcome: 'dropped', how: 'not-in-version' }],
    };
    expect(lostUnreported(row, reportedByType(row))).toEqual([{ type: 'LINE', in: 10, out: 8, reported: 0 }]);
    // The same 2 dropped from the model (no layout left out) are reported, not lost.
    const inModel: TargetRow = { ...row, countsLeftOut: {} };
    expect(lostUnreported(inModel, reportedByType(inModel))).toEqual([]);
  });
});
