/**
 * DWG and DXF of the same drawing (the corpus keeps both for a dozen files) must give the same
 * entities by type and the same layers, whichever reader reads them. Without the corpus, the
 * committed R2000 sample is held to the counts its DXF twin gives.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Drawing, Entity } from '@xcad/cad/model';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDwgBytes } from './read';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');
const fixture = path.resolve(here, '../../cad/test-fixtures/acs_sample_AC1015.dwg');

/** DWG → its DXF twin in the corpus. */
const PAIRS: [string, string][] = [
  ['ldwg_example_2000', 'ldwg_example_2000'],
  ['ldwg_example_2018', 'ldwg_example_2018'],
  ['ldwg_example_r14', 'ldwg_example_r14'],
  ['ldwg_2000_TS1', 'ldwg_2000_TS1'],
  ['ldwg_2007_Text', 'ldwg_2007_Text'],
  ['ldwg_2013_gh109_1_zh_tarch', 'ldwg_2013_gh109_1_zh_tarch'],
  ['acs_sample_AC1015', 'acs_sample_AC1015_ascii'],
  ['acs_sample_AC1018', 'acs_sample_AC1018_ascii'],
  ['acs_sample_AC1021', 'acs_sample_AC1021_ascii'],
  ['acs_sample_AC1024', 'acs_sample_AC1024_binary'],
  ['acs_sample_AC1027', 'acs_sample_AC1027_ascii'],
  ['acs_sample_AC1032', 'acs_sample_AC1032_ascii'],
];

/**
 * Known differences that are not the readers': the R14 DXF twin was written by a program that
 * exploded what R14 DXF cannot hold (table, multileader, their blocks) into plain entities, and
 * LibreDWG drops the R2004 sample's MULTILEADER, ACAD_TABLE, IMAGE, WIPEOUT and the three
 * MESH and one proxy-like entity (it reports 'unhandled class').
 */
const EXPECTED_DIFFERENCES: Record<string, Record<string, [number, number]>> = {
  ldwg_example_r14: {
    ACAD_TABLE: [1, 0],
    ARC: [5, 7],
    DIMENSION: [10, 9],
    INSERT: [10, 12],
    LINE: [68, 70],
    MTEXT: [18, 19],
    MULTILEADER: [1, 0],
    POINT: [46, 50],
    SOLID: [15, 17],
    VIEWPORT: [2, 1],
  },
  acs_sample_AC1018: { ACAD_TABLE: [0, 2], IMAGE: [0, 1], MESH: [0, 2], MULTILEADER: [0, 15], UNDERLAY: [0, 1], WIPEOUT: [0, 1] },
};

/** acs_sample_AC1015_ascii.dxf as the DXF reader counts it (for runs without the corpus). */
const AC1015_DXF_COUNTS: Record<string, number> = {
  POINT: 40,
  LINE: 98,
  LWPOLYLINE: 23,
  CIRCLE: 13,
  ARC: 3,
  ELLIPSE: 1,
  '3DFACE': 1,
  MESH: 2,
  HATCH: 8,
  XLINE: 1,
  RAY: 1,
  MLINE: 3,
  TEXT: 29,
  MTEXT: 36,
  POLYLINE: 2,
  SOLID: 14,
  SPLINE: 2,
  WIPEOUT: 1,
  LEADER: 1,
  DIMENSION: 11,
  ACAD_TABLE: 2,
  INSERT: 14,
  ATTRIB: 4,
  MULTILEADER: 15,
  UNKNOWN: 8,
  IMAGE: 1,
  VIEWPORT: 6,
  ATTDEF: 5,
};

/** Entities by type over model space, every block and every layout, ATTRIBs included. */
export function countByType(d: Drawing, fromDxf = false): Record<string, number> {
  const c: Record<string, number> = {};
  const add = (e: Entity): void => {
    let k: string = e.type;
    // Proxy and custom classes are named differently by each writer; dimensions the DWG reader
    // draws from their blocks (arc, jogged radius) are UNKNOWN for the DXF reader.
    if (e.type === 'UNKNOWN')
      k = fromDxf && (e.dxfType === 'ARC_DIMENSION' || e.dxfType === 'LARGE_RADIAL_DIMENSION') ? 'DIMENSION' : 'UNKNOWN';
    c[k] = (c[k] ?? 0) + 1;
    if (e.type === 'INSERT') e.attributes.forEach(add);
  };
  const blockLists = new Set(Object.values(d.blocks).map((b) => b.entities));
  d.modelSpace.forEach(add);
  for (const b of Object.values(d.blocks)) b.entities.forEach(add);
  for (const l of d.layouts) if (!l.isModel && l.entities && !blockLists.has(l.entities)) l.entities.forEach(add);
  return c;
}

function byHandle(d: Drawing): Map<string, Entity> {
  const m = new Map<string, Entity>();
  const add = (e: Entity): void => {
    if (e.handle) m.set(e.handle, e);
    if (e.type === 'INSERT') e.attributes.forEach(add);
  };
  d.modelSpace.forEach(add);
  for (const b of Object.values(d.blocks)) b.entities.forEach(add);
  for (const l of d.layouts) (l.entities ?? []).forEach(add);
  return m;
}

function differences(a: Record<string, number>, b: Record<string, number>): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if ((a[k] ?? 0) !== (b[k] ?? 0)) out[k] = [a[k] ?? 0, b[k] ?? 0];
  return out;
}

const pairs = PAIRS.map(([g, x]) => [path.join(corpus, 'dwg', `${g}.dwg`), path.join(corpus, 'dxf', `${x}.dxf`), g] as const).filter(
  ([g, x]) => existsSync(g) && existsSync(x),
);

describe('DWG and its DXF twin', () => {
  if (pairs.length) {
    const read: { name: string; dwg: Drawing; dxf: Drawing }[] = [];
    beforeAll(async () => {
      const { readDxf } = await import('@xcad/cad/dxf');
      for (const [dwgFile, dxfFile, name] of pairs)
        read.push({ name, dwg: (await readDwgBytes(readFileSync(dwgFile))).drawing, dxf: readDxf(readFileSync(dxfFile)).drawing });
    }, 120_000);

    it('give the same entity counts by type and the same layers', () => {
      for (const { name, dwg, dxf } of read) {
        expect(differences(countByType(dwg), countByType(dxf, true)), name).toEqual(EXPECTED_DIFFERENCES[name] ?? {});
        expect(Object.keys(dwg.layers).sort(), name).toEqual(Object.keys(dxf.layers).sort());
        if (!(name in EXPECTED_DIFFERENCES)) expect(dwg.drawOrder ?? {}, `${name} draw order`).toEqual(dxf.drawOrder ?? {});
      }
    });

    it('give the same texts (Chinese included) and true colours, entity by entity', () => {
      const mismatches: string[] = [];
      let texts = 0;
      let colours = 0;
      let chinese = 0;
      for (const pair of read) {
        const name = pair.name;
        if (name in EXPECTED_DIFFERENCES) continue;
        const dwg = byHandle(pair.dwg);
        const dxf = byHandle(pair.dxf);
        for (const [h, e] of dwg) {
          const x = dxf.get(h);
          if (!x || x.type !== e.type) continue;
          if ((e.type === 'TEXT' || e.type === 'MTEXT' || e.type === 'ATTRIB' || e.type === 'ATTDEF') && 'text' in x) {
            texts++;
            if (/[\u4e00-\u9fff]/.test(e.text)) chinese++;
            // DXF writes control characters in caret notation (^J); DWG keeps them.
            if (e.text !== (x.text ?? '').replace(/\^J/g, '\n') && !(e.type !== 'MTEXT' && x.text === ''))
              mismatches.push(`${name} ${h}: ${e.text} / ${x.text}`);
          }
          if (x.color.rgb !== undefined || x.transparency !== undefined) {
            colours++;
            // A colour-book colour (DXF 430) keeps only its ACI in LibreDWG.
            if (e.color.rgb !== x.color.rgb && e.color.aci !== x.color.aci)
              mismatches.push(`${name} ${h}: colour ${JSON.stringify(e.color)} / ${JSON.stringify(x.color)}`);
            if (e.transparency !== x.transparency) mismatches.push(`${name} ${h}: transparency ${e.transparency} / ${x.transparency}`);
          }
        }
      }
      expect(mismatches).toEqual([]);
      expect(texts).toBeGreaterThan(100);
      expect(colours).toBeGreaterThan(10);
      expect(chinese).toBeGreaterThanOrEqual(3);
    });

    it('give the same LEADER arrowheads and hook-line sides (R2010+ included, where LibreDWG misplaces them)', () => {
      const seen: string[] = [];
      const mismatches: string[] = [];
      for (const pair of read) {
        const dxf = byHandle(pair.dxf);
        for (const [h, e] of byHandle(pair.dwg)) {
          const x = dxf.get(h);
          if (e.type !== 'LEADER' || x?.type !== 'LEADER') continue;
          seen.push(`${pair.name} ${h}`);
          const flags = (l: typeof e): string => `arrowhead ${l.arrowhead}, hook-line side ${l.hooklineDirection ?? 1}`;
          if (flags(e) !== flags(x)) mismatches.push(`${pair.name} ${h}: ${flags(e)} / ${flags(x)}`);
        }
      }
      expect(mismatches).toEqual([]);
      // The AutoCAD samples from R2000 to R2018 each hold one.
      expect(seen.filter((s) => s.startsWith('acs_sample_AC10')).length).toBeGreaterThanOrEqual(6);
    });
  } else {
    it('the committed R2000 sample gives the counts of its DXF twin', { timeout: 30_000 }, async () => {
      const dwg = (await readDwgBytes(readFileSync(fixture))).drawing;
      expect(countByType(dwg)).toEqual(AC1015_DXF_COUNTS);
      expect(Object.keys(dwg.layers)).toHaveLength(21);
    });
  }
});
