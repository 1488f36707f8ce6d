import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { convertDrawing, defaultFonts } from '../convert';
import { readDxf } from '../dxf/reader';
import { compareInk, type RgbaImage } from '../ink-compare';
import type { AcisEntity } from '../model';
import { acisEdges } from './acis';
import { parseSab } from './acis-data';
import { acisRecord, boxSat, cylinderSat, regionWithHoleSat, splineSat } from './acis-fixture';
import { build, subpaths, testDxf, type TestDrawing } from './test-helpers';

type G = [number, string | number][];

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN = resolve(here, '../../test-fixtures/golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function solid(d: TestDrawing): AcisEntity {
  const e = readDxf(testDxf(d)).drawing.modelSpace[0];
  if (e?.type !== 'ACIS') throw new Error('not read as ACIS');
  return e;
}

function extent(pts: [number, number][]): [number, number, number, number] {
  const xs = pts.map((q) => q[0]),
    ys = pts.map((q) => q[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

describe('ACIS modeler data', () => {
  it('reads an enciphered R2000 3DSOLID box: 12 edges, drawn in plan as its 40 × 20 outline', () => {
    const d: TestDrawing = { entities: acisRecord('3DSOLID', boxSat(400)) };
    const e = solid(d);
    expect(e.dxfType).toBe('3DSOLID');
    expect(e.sat?.startsWith('400 0 1 0')).toBe(true);
    const w = acisEdges(e);
    expect(typeof w === 'string' ? w : w.curves.length).toBe(12);
    const b = build(d);
    expect(b.counts.drawn['3DSOLID']).toBe(1);
    expect(b.counts.skipped['3DSOLID']).toBeUndefined();
    const scene = b.scenes[0];
    if (!scene) throw new Error('no scene');
    expect(extent(subpaths(scene.list).flatMap((s) => s.points))).toEqual([0, 0, 40, 20]);
  });

  it("applies the body's transform: a box turned 90° about x and moved stands 10 high and 20 deep", () => {
    const e = solid({ entities: acisRecord('3DSOLID', boxSat(700, 90, [100, 50, 0])) });
    const w = acisEdges(e);
    if (typeof w === 'string') throw new Error(w);
    const pts = w.curves.flatMap((c) => (c.kind === 'line' ? [c.a, c.b] : []));
    const xs = pts.map((q) => q[0]),
      ys = pts.map((q) => q[1]),
      zs = pts.map((q) => q[2]);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([100, 140]);
    // y' = y cos 90° − z sin 90° = −z (0 … −10); z' = y (0 … 20).
    expect(Math.min(...ys)).toBeCloseTo(40, 9);
    expect(Math.max(...ys)).toBeCloseTo(50, 9);
    expect(Math.max(...zs)).toBeCloseTo(20, 9);
  });

  it('draws a cylinder as its two circles, a region as its outline and hole, unfilled', () => {
    const cyl = solid({ entities: acisRecord('3DSOLID', cylinderSat()) });
    const wc = acisEdges(cyl);
    if (typeof wc === 'string') throw new Error(wc);
    expect(wc.curves.map((c) => c.kind)).toEqual(['ellipse', 'ellipse']);
    const d: TestDrawing = { entities: acisRecord('REGION', regionWithHoleSat()) };
    const b = build(d);
    expect(b.counts.drawn.REGION).toBe(1);
    const list = b.scenes[0]?.list;
    if (!list) throw new Error('no scene');
    expect(subpaths(list, 'fill')).toHaveLength(0);
    const strokes = subpaths(list);
    // 4 sides + the hole, which passes through (28, 20) and (12, 20).
    expect(strokes).toHaveLength(5);
    const hole = strokes.find((s) => s.points.length > 8);
    if (!hole) throw new Error('no hole');
    const [x0, y0, x1, y1] = extent(hole.points);
    expect(x0).toBeCloseTo(12, 1);
    expect(x1).toBeCloseTo(28, 1);
    expect(y0).toBeCloseTo(12, 1);
    expect(y1).toBeCloseTo(28, 1);
  });

  it("draws an exact intcurve's B-spline through its parameter range", () => {
    const e = solid({ entities: acisRecord('BODY', splineSat()) });
    const w = acisEdges(e);
    if (typeof w === 'string') throw new Error(w);
    const c = w.curves[0];
    expect(c?.kind).toBe('spline');
    const b = build({ entities: acisRecord('BODY', splineSat()) });
    const list = b.scenes[0]?.list;
    if (!list) throw new Error('no scene');
    const pts = subpaths(list).flatMap((s) => s.points);
    // Degree 2 with control points (0,0) (10,20) (20,0): its top is (10, 10).
    const top = pts.reduce((m, q) => (q[1] > m[1] ? q : m), [0, -1]);
    expect(top[0]).toBeCloseTo(10, 1);
    expect(top[1]).toBeCloseTo(10, 1);
    expect(extent(pts)[2]).toBeCloseTo(20, 6);
  });

  it('reports damaged or missing modeler data as not drawn, with the reason, and draws the rest', () => {
    const box = boxSat(400);
    const cases: [string, G][] = [
      ['truncated', acisRecord('3DSOLID', box.slice(0, 120))],
      ['garbage', acisRecord('3DSOLID', 'not acis at all\n$$$ # # #')],
      [
        'empty',
        [
          [0, '3DSOLID'],
          [8, '0'],
          [100, 'AcDbModelerGeometry'],
          [70, 1],
        ],
      ],
      ['bad spline', acisRecord('BODY', splineSat().replace('nubs 2 open 2', 'nubs 2 open 900'))],
    ];
    for (const [what, g] of cases) {
      const b = build({ entities: [...g, [0, 'LINE'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 5], [21, 5], [31, 0]] });
      expect(b.counts.drawn.LINE, what).toBe(1);
      const type = g[0]?.[1] as string;
      expect(b.counts.skipped[type], what).toBe(1);
      const warning = b.warnings.find((x) => x.subject === type);
      expect(warning?.message, what).toMatch(new RegExp(`^${type} not drawn: .+`));
    }
  });

  it('refuses SAB that is not SAB, and reads a SAB record stream', () => {
    expect(() => parseSab(new TextEncoder().encode('ACIS TextFile'))).toThrow(/not SAB/);
    // Header, then one body record: 0x0d "body", pointer -1, int -1, three pointers, 0x11.
    const parts: number[] = [...new TextEncoder().encode('ACIS BinaryFile')];
    const i32 = (v: number): number[] => [...new Uint8Array(new Int32Array([v]).buffer)];
    const f64 = (v: number): number[] => [...new Uint8Array(new Float64Array([v]).buffer)];
    const str = (s: string): number[] => [7, s.length, ...new TextEncoder().encode(s)];
    parts.push(...i32(700), ...i32(0), ...i32(1), ...i32(0), ...str('x'), ...str('ACIS 7.0'), ...str('date'));
    parts.push(6, ...f64(1), 6, ...f64(1e-6), 6, ...f64(1e-10));
    parts.push(0x0d, 4, ...new TextEncoder().encode('body'), 0x0c, ...i32(-1), 0x04, ...i32(-1), 0x0c, ...i32(-1), 0x0c, ...i32(-1));
    parts.push(0x0c, ...i32(-1), 0x0c, ...i32(-1), 0x11);
    const f = parseSab(new Uint8Array(parts));
    expect(f.version).toBe(700);
    expect(f.records.map((r) => r.name)).toEqual(['body']);
  });
});

async function decode(png: Uint8Array): Promise<RgbaImage> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

/** Golden images of the hand-made solids (see golden.test.ts for the match): UPDATE_GOLDEN=1 rewrites them. */
describe('ACIS golden images (512 px, ink F1 >= 0.97)', () => {
  const layer = (c: number): G => [[62, c]];
  const CASES: [string, G][] = [
    ['acis-box', acisRecord('3DSOLID', boxSat(700, 30), layer(1))],
    ['acis-cylinder', acisRecord('3DSOLID', cylinderSat(60), layer(5))],
    ['acis-region-hole', acisRecord('REGION', regionWithHoleSat(), layer(3))],
  ];
  it.each(CASES)(
    '%s',
    async (name, g) => {
      const fonts = await defaultFonts([]);
      const bytes = testDxf({ entities: g });
      const result = await convertDrawing(bytes, { format: 'png', width: 512, fonts, name: `${name}.dxf` });
      expect(result.skipped).toEqual({});
      const png = result.outputs[0]?.data as Uint8Array;
      const goldenFile = join(GOLDEN, `${name}.png`);
      if (UPDATE) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(goldenFile, png);
        return;
      }
      expect(existsSync(goldenFile)).toBe(true);
      const [ours, golden] = await Promise.all([decode(png), decode(readFileSync(goldenFile))]);
      const score = compareInk(ours, golden, { width: 512, tolerance: 1 });
      expect(score?.f1).toBeGreaterThanOrEqual(0.97);
    },
    30_000,
  );
});
