import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import { buildScenes } from './builder';
import { lookupPattern, patternNames } from '../geom/hatch-patterns';
import { build, modelList, subpaths } from './test-helpers';
import type { DisplayList, PathPrimitive } from './types';

type G = [number, string | number][];

/** A closed polyline boundary path (flag 2 + `flags`). */
function polyPath(pts: [number, number][], flags = 1): G {
  const g: G = [
    [92, 2 | flags],
    [72, 0],
    [73, 1],
    [93, pts.length],
  ];
  for (const [x, y] of pts) g.push([10, x], [20, y]);
  g.push([97, 0]);
  return g;
}

function square(x0: number, y0: number, x1: number, y1: number, flags = 1): G {
  return polyPath(
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ],
    flags,
  );
}

interface HatchSpec {
  paths: G[];
  solid?: boolean;
  pattern?: string;
  style?: number;
  scale?: number;
  angle?: number;
  /** [angle, baseX, baseY, offsetX, offsetY, ...dashes] */
  lines?: number[][];
  tail?: G;
  color?: number;
}

function hatch(h: HatchSpec): G {
  const g: G = [
    [0, 'HATCH'],
    [100, 'AcDbEntity'],
    [8, '0'],
    [62, h.color ?? 1],
    [100, 'AcDbHatch'],
    [10, 0],
    [20, 0],
    [30, 0],
    [210, 0],
    [220, 0],
    [230, 1],
  ];
  g.push([2, h.pattern ?? (h.solid ? 'SOLID' : 'ANSI31')], [70, h.solid ? 1 : 0], [71, 0], [91, h.paths.length]);
  for (const p of h.paths) g.push(...p);
  g.push([75, h.style ?? 0], [76, 1]);
  if (!h.solid) {
    g.push([52, h.angle ?? 0], [41, h.scale ?? 1], [77, 0]);
    const lines = h.lines ?? [];
    g.push([78, lines.length]);
    for (const l of lines) {
      const [a, bx, by, ox, oy, ...dashes] = l as [number, number, number, number, number, ...number[]];
      g.push([53, a], [43, bx], [44, by], [45, ox], [46, oy], [79, dashes.length]);
      for (const d of dashes) g.push([49, d]);
    }
  }
  g.push([98, 0], ...(h.tail ?? []));
  return g;
}

function fills(list: DisplayList): PathPrimitive[] {
  return list.primitives.filter((p): p is PathPrimitive => p.kind === 'path' && p.mode === 'fill');
}

function ringsOf(p: PathPrimitive): [number, number][][] {
  const out: [number, number][][] = [];
  const n = p.coords.length / 2;
  for (let i = 0; i < p.starts.length; i++) {
    const s = p.starts[i] as number,
      e = i + 1 < p.starts.length ? (p.starts[i + 1] as number) : n;
    const r: [number, number][] = [];
    for (let j = s; j < e; j++) r.push([p.coords[2 * j] as number, p.coords[2 * j + 1] as number]);
    out.push(r);
  }
  return out;
}

const segments = (list: DisplayList): [number, number, number, number][] =>
  subpaths(list).map((s) => {
    expect(s.points).toHaveLength(2);
    const [a, b] = s.points as [[number, number], [number, number]];
    return [a[0], a[1], b[0], b[1]];
  });

describe('HATCH', () => {
  it('fills a solid square with a square island as one even-odd area of two rings', () => {
    const list = modelList({ entities: hatch({ solid: true, paths: [square(0, 0, 10, 10), square(3, 3, 7, 7, 0)] }) });
    const [f, ...more] = fills(list);
    expect(more).toHaveLength(0);
    expect(f!.rule).toBeUndefined(); // even-odd
    const rings = ringsOf(f!);
    expect(rings).toHaveLength(2);
    expect(rings[0]).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
    ]);
    expect(rings[1]).toEqual([
      [3, 3],
      [7, 3],
      [7, 7],
      [3, 7],
    ]);
    expect(list.styles[f!.style]!.color).toBe(0xff0000);
    // The boundary itself is not stroked.
    expect(subpaths(list)).toHaveLength(0);
  });

  it('island styles: outermost keeps external and outermost paths, ignore keeps the external one', () => {
    const paths = [square(0, 0, 10, 10, 1), square(2, 2, 8, 8, 16), square(4, 4, 6, 6, 0)];
    const ringCount = (style: number): number => ringsOf(fills(modelList({ entities: hatch({ solid: true, style, paths }) }))[0]!).length;
    expect(ringCount(0)).toBe(3);
    expect(ringCount(1)).toBe(2);
    expect(ringCount(2)).toBe(1);
  });

  it('ANSI31 pattern lines from the entity: 45° segments inside the square, 0.25 apart', () => {
    // 45° lines, offset (-0.25·sin45, 0.25·cos45): spacing 0.25 across the lines.
    const o = 0.25 * Math.SQRT1_2;
    const list = modelList({ entities: hatch({ paths: [square(0, 0, 10, 10)], lines: [[45, 0, 0, -o, o]] }) });
    const segs = segments(list);
    expect(segs).toHaveLength(57);
    const offsets = new Set<number>();
    for (const [x0, y0, x1, y1] of segs) {
      for (const v of [x0, y0, x1, y1]) {
        expect(v).toBeGreaterThanOrEqual(-1e-9);
        expect(v).toBeLessThanOrEqual(10 + 1e-9);
      }
      expect(Math.atan2(y1 - y0, x1 - x0)).toBeCloseTo(Math.PI / 4, 9);
      // Ends on the boundary: each end touches a side of the square.
      const onSide = (x: number, y: number): boolean => [x, y].some((v) => Math.abs(v) < 1e-9 || Math.abs(v - 10) < 1e-9);
      expect(onSide(x0, y0) && onSide(x1, y1)).toBe(true);
      offsets.add(Math.round(((y0 - x0) * Math.SQRT1_2) / 0.25));
      expect(Math.abs(((y0 - x0) * Math.SQRT1_2) / 0.25 - Math.round(((y0 - x0) * Math.SQRT1_2) / 0.25))).toBeLessThan(1e-6);
    }
    // Every line across the square is there once: offsets -28..28 (the diagonal 5·√2 / 0.25 = 28.3 each way).
    expect(offsets.size).toBe(segs.length);
    expect(Math.min(...offsets)).toBe(-28);
    expect(Math.max(...offsets)).toBe(28);
  });

  it('pattern lines skip islands and follow the dash list', () => {
    // Horizontal lines 1 apart, dash 1 / gap 1, around a hole.
    const list = modelList({
      entities: hatch({ paths: [square(0, 0, 10, 10), square(4, 4, 6, 6, 0)], lines: [[0, 0, 0.5, 0, 1, 1, -1]] }),
    });
    const segs = segments(list);
    for (const [x0, y0, x1, y1] of segs) {
      expect(y0).toBeCloseTo(y1, 12);
      expect(x1 - x0).toBeCloseTo(1, 9);
      // Dashes start on even x; none inside the hole.
      expect(Math.abs(x0 / 2 - Math.round(x0 / 2))).toBeLessThan(1e-9);
      if (y0 > 4 && y0 < 6) expect(x1 <= 4 + 1e-9 || x0 >= 6 - 1e-9).toBe(true);
    }
    // 10 lines, 5 dashes each, minus the dash at x 4..5 on the two lines through the hole.
    expect(segs).toHaveLength(48);
  });

  it('looks up a pattern by name when the entity has no lines: ANSI31 × scale, metric ×25.4', () => {
    const spacingOf = (list: DisplayList): number => {
      const cs = [...new Set(segments(list).map(([x0, y0]) => Math.round((y0 - x0) * Math.SQRT1_2 * 1e6) / 1e6))].sort((a, b) => a - b);
      return cs[1]! - cs[0]!;
    };
    const imperial = modelList({ entities: hatch({ paths: [square(0, 0, 10, 10)], pattern: 'ANSI31', scale: 8 }) });
    expect(spacingOf(imperial)).toBeCloseTo(1, 6);
    const metric = modelList({
      header: [
        [9, '$MEASUREMENT'],
        [70, 1],
      ],
      entities: hatch({ paths: [square(0, 0, 100, 100)], pattern: 'ansi31', scale: 2 }),
    });
    expect(spacingOf(metric)).toBeCloseTo(2 * 3.175, 6);
    // Pattern angle turns the pattern: ANSI31 at 45° gives vertical lines.
    const turned = modelList({ entities: hatch({ paths: [square(0, 0, 10, 10)], pattern: 'ANSI31', scale: 8, angle: 45 }) });
    for (const [x0, , x1] of segments(turned)) expect(x1 - x0).toBeCloseTo(0, 9);
    expect(patternNames()).toEqual(
      expect.arrayContaining(['ANSI31', 'ANSI37', 'AR-B816', 'AR-CONC', 'BRICK', 'HEX', 'NET', 'STARS', 'TRIANG']),
    );
    expect(lookupPattern('NOPE', 1, 0, false)).toBeUndefined();
  });

  it('guards the pattern size: too dense becomes a solid fill, too many dashes the outline, with a warning', () => {
    const dense = build({ entities: hatch({ paths: [square(0, 0, 1000, 1000)], pattern: 'ANSI31', scale: 0.001 }) });
    const denseList = dense.scenes[0]!.list;
    expect(fills(denseList)).toHaveLength(1);
    expect(subpaths(denseList)).toHaveLength(0);
    expect(dense.warnings.some((w) => w.code === 'limit')).toBe(true);

    const dashed = build({ entities: hatch({ paths: [square(0, 0, 1000, 1000)], lines: [[0, 0, 0, 0, 1, 0.01, -0.01]] }) });
    const dashedList = dashed.scenes[0]!.list;
    expect(fills(dashedList)).toHaveLength(0);
    const outline = subpaths(dashedList);
    expect(outline).toHaveLength(1);
    expect(outline[0]!.points).toHaveLength(5);
    expect(dashed.warnings.find((w) => w.code === 'limit')?.message).toMatch(/segments/);
  });

  it('tessellates arc and elliptic-arc edges (counter-clockwise and clockwise)', () => {
    const edgePath: G = [
      [92, 1],
      [93, 4],
      [72, 1],
      [10, 0],
      [20, 0],
      [11, 10],
      [21, 0],
      [72, 2],
      [10, 10],
      [20, 5],
      [40, 5],
      [50, 270],
      [51, 90],
      [73, 1],
      [72, 1],
      [10, 10],
      [20, 10],
      [11, 0],
      [21, 10],
      // Clockwise arc from (0, 10) down to (0, 0) bulging into the square: angles stored as 360 − angle.
      [72, 2],
      [10, 0],
      [20, 5],
      [40, 5],
      [50, 270],
      [51, 90],
      [73, 0],
      [97, 0],
    ];
    const list = modelList({ entities: hatch({ solid: true, paths: [edgePath] }) });
    const [ring] = ringsOf(fills(list)[0]!);
    expect(ring!.length).toBeGreaterThan(20);
    const xs = ring!.map((p) => p[0]);
    expect(Math.max(...xs)).toBeCloseTo(15, 6);
    expect(Math.min(...xs)).toBeCloseTo(0, 9);
    let onLeftArc = 0;
    for (const [x, y] of ring!) {
      if (x > 10 + 1e-9) expect(Math.hypot(x - 10, y - 5)).toBeCloseTo(5, 9);
      if (x > 1e-9 && x < 10 - 1e-9 && y > 1e-9 && y < 10 - 1e-9) {
        expect(Math.hypot(x, y - 5)).toBeCloseTo(5, 9);
        onLeftArc++;
      }
    }
    expect(onLeftArc).toBeGreaterThan(8);
    expect(Math.max(...ring!.filter((p) => p[0] < 10).map((p) => p[0]))).toBeCloseTo(5, 6);

    const ellipse: G = [
      [92, 1],
      [93, 1],
      [72, 3],
      [10, 1],
      [20, 2],
      [11, 4],
      [21, 0],
      [40, 0.5],
      [50, 0],
      [51, 360],
      [73, 1],
      [97, 0],
    ];
    const [eRing] = ringsOf(fills(modelList({ entities: hatch({ solid: true, paths: [ellipse] }) }))[0]!);
    expect(eRing!.length).toBeGreaterThan(16);
    for (const [x, y] of eRing!) expect(((x - 1) / 4) ** 2 + ((y - 2) / 2) ** 2).toBeCloseTo(1, 9);
  });

  it('joins polyline bulges and out-of-order edges into closed rings', () => {
    // A half-disc from a bulged polyline: 0,0 → 10,0 with bulge 1 (a semicircle below).
    const bulged: G = [
      [92, 3],
      [72, 1],
      [73, 1],
      [93, 2],
      [10, 0],
      [20, 0],
      [42, 1],
      [10, 10],
      [20, 0],
      [42, 0],
      [97, 0],
    ];
    const [ring] = ringsOf(fills(modelList({ entities: hatch({ solid: true, paths: [bulged] }) }))[0]!);
    expect(Math.min(...ring!.map((p) => p[1]))).toBeCloseTo(-5, 1);
    for (const [x, y] of ring!) if (y < -1e-9) expect(Math.hypot(x - 5, y)).toBeCloseTo(5, 9);
    // Edges given shuffled and one reversed still make one square ring.
    const shuffled: G = [
      [92, 1],
      [93, 4],
      [72, 1],
      [10, 0],
      [20, 0],
      [11, 10],
      [21, 0],
      [72, 1],
      [10, 0],
      [20, 10],
      [11, 0],
      [21, 0],
      [72, 1],
      [10, 0],
      [20, 10],
      [11, 10],
      [21, 10],
      [72, 1],
      [10, 10],
      [20, 0],
      [11, 10],
      [21, 10],
      [97, 0],
    ];
    const rings = ringsOf(fills(modelList({ entities: hatch({ solid: true, paths: [shuffled] }) }))[0]!);
    expect(rings).toHaveLength(1);
    expect(rings[0]).toHaveLength(4);
  });

  it('a gradient hatch carries its gradient: two colours, name and angle', () => {
    const tail: G = [
      [450, 1],
      [451, 0],
      [452, 0],
      [453, 2],
      [460, 0.5],
      [461, 0],
      [462, 0],
      [463, 0],
      [63, 5],
      [421, 0x0000ff],
      [463, 1],
      [63, 2],
      [421, 0xffff00],
      [470, 'LINEAR'],
    ];
    const list = modelList({ entities: hatch({ solid: true, paths: [square(0, 0, 10, 10)], tail }) });
    const [f] = fills(list);
    expect(f!.gradient).toEqual({ name: 'LINEAR', colors: [0x0000ff, 0xffff00], angle: 0.5 });
    expect(list.styles[f!.style]!.color).toBe(0x0000ff);
    // One-colour gradients run to the shade or tint given by the tint value.
    const single: G = [
      [450, 1],
      [451, 0],
      [452, 1],
      [453, 1],
      [460, 0],
      [461, 0],
      [462, 1],
      [463, 0],
      [63, 1],
      [421, 0xff0000],
      [470, 'CYLINDER'],
    ];
    const [s] = fills(modelList({ entities: hatch({ solid: true, paths: [square(0, 0, 10, 10)], tail: single }) }));
    expect(s!.gradient).toEqual({ name: 'CYLINDER', colors: [0xff0000, 0xffffff], angle: 0 });
  });

  it('a hatch in a rotated, scaled block turns and scales its pattern with the block', () => {
    const o = 0.25 * Math.SQRT1_2;
    const list = modelList({
      blocks: [{ name: 'H', entities: hatch({ paths: [square(0, 0, 10, 10)], lines: [[45, 0, 0, -o, o]] }) }],
      entities: [
        [0, 'INSERT'],
        [2, 'H'],
        [10, 100],
        [20, 0],
        [30, 0],
        [41, 2],
        [42, 2],
        [50, 45],
      ],
    });
    const segs = segments(list);
    expect(segs).toHaveLength(57);
    // 45° + 45° = vertical lines, 0.5 apart.
    const xs = [...new Set(segs.map(([x0, , x1]) => (expect(x1).toBeCloseTo(x0, 9), Math.round(x0 * 1e6) / 1e6)))].sort((a, b) => a - b);
    expect(xs[1]! - xs[0]!).toBeCloseTo(0.5, 6);
  });
});

const CORPUS = '/work/shared/corpus/dxf/';

describe.runIf(existsSync(CORPUS))('annotation entities across corpus files', () => {
  const files = [
    'ezdxf_hatches_1.dxf',
    'ezdxf_hatches_2.dxf',
    'ezdxf_transform_hatch_pattern.dxf',
    'lc_dim_sample.dxf',
    'ezdxf_dimension_in_nested_blocks.dxf',
    'ezdxf_acad_table_with_blk_ref.dxf',
    'ezdxf_wipeout_door.dxf',
    'acs_sample_AC1032_ascii.dxf',
    'skydxf_floorplan.dxf',
  ];
  it.each(files)('%s: every hatch, dimension, leader, table, image and wipeout is drawn', (f) => {
    const { drawing } = readDxf(readFileSync(CORPUS + f));
    const r = buildScenes(drawing);
    const mine = ['HATCH', 'DIMENSION', 'LEADER', 'MULTILEADER', 'ACAD_TABLE', 'IMAGE', 'WIPEOUT'];
    expect(r.warnings.filter((w) => w.code === 'unsupported-entity' && mine.includes(w.subject))).toEqual([]);
    for (const t of mine) expect(r.counts.skipped[t] ?? 0).toBe(0);
    expect(mine.some((t) => (r.counts.drawn[t] ?? 0) > 0)).toBe(true);
  });
});
