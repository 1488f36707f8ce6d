import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { buildScenes } from './builder';
import { dimVars, formatLength } from './dimension';
import { subpaths } from './test-helpers';
import type { BuildResult, DisplayList, PathPrimitive } from './types';

type G = [number, string | number][];

interface Doc {
  header?: G;
  dimstyles?: { name: string; vars: G }[];
  blocks?: { name: string; entities: G }[];
  entities: G;
}

function build(d: Doc): BuildResult {
  const g: G = [];
  if (d.header) g.push([0, 'SECTION'], [2, 'HEADER'], ...d.header, [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'TABLES'], [0, 'TABLE'], [2, 'DIMSTYLE']);
  for (const s of d.dimstyles ?? []) g.push([0, 'DIMSTYLE'], [105, '1A'], [2, s.name], [70, 0], ...s.vars);
  g.push([0, 'ENDTAB'], [0, 'ENDSEC'], [0, 'SECTION'], [2, 'BLOCKS']);
  for (const b of d.blocks ?? [])
    g.push([0, 'BLOCK'], [8, '0'], [2, b.name], [70, 1], [10, 0], [20, 0], [30, 0], [3, b.name], ...b.entities, [0, 'ENDBLK']);
  g.push([0, 'ENDSEC'], [0, 'SECTION'], [2, 'ENTITIES'], ...d.entities, [0, 'ENDSEC'], [0, 'EOF']);
  return buildScenes(readDxf(new TextEncoder().encode(dxfText(g))).drawing, { layouts: 'model' });
}

const listOf = (r: BuildResult): DisplayList => r.scenes[0]!.list;
const texts = (l: DisplayList): string[] => l.primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
const fills = (l: DisplayList): PathPrimitive[] => l.primitives.filter((p): p is PathPrimitive => p.kind === 'path' && p.mode === 'fill');
const fillPoints = (p: PathPrimitive): [number, number][] =>
  Array.from({ length: p.coords.length / 2 }, (_, i) => [p.coords[2 * i] as number, p.coords[2 * i + 1] as number]);

/** A rotated linear DIMENSION measuring p13 → p14 with its dimension line through `def`. */
function linear(o: {
  block?: string;
  p13: [number, number];
  p14: [number, number];
  def: [number, number];
  text?: string;
  mid?: [number, number];
  angle?: number;
  style?: string;
  p12?: [number, number];
  type?: number;
}): G {
  const g: G = [
    [0, 'DIMENSION'],
    [100, 'AcDbEntity'],
    [8, '0'],
    [100, 'AcDbDimension'],
  ];
  if (o.block) g.push([2, o.block]);
  g.push([10, o.def[0]], [20, o.def[1]], [30, 0]);
  if (o.mid) g.push([11, o.mid[0]], [21, o.mid[1]], [31, 0]);
  if (o.p12) g.push([12, o.p12[0]], [22, o.p12[1]], [32, 0]);
  g.push([70, 32 + (o.type ?? 0)], [1, o.text ?? ''], [3, o.style ?? 'STANDARD'], [100, 'AcDbAlignedDimension']);
  g.push(
    [13, o.p13[0]],
    [23, o.p13[1]],
    [33, 0],
    [14, o.p14[0]],
    [24, o.p14[1]],
    [34, 0],
    [50, o.angle ?? 0],
    [100, 'AcDbRotatedDimension'],
  );
  return g;
}

describe('DIMENSION', () => {
  it('draws its block: the block lines, at the clone insertion point (group 12) when given', () => {
    const r = build({
      blocks: [
        {
          name: '*D1',
          entities: [
            [0, 'LINE'],
            [8, '0'],
            [10, 0],
            [20, 0],
            [30, 0],
            [11, 10],
            [21, 0],
            [31, 0],
          ],
        },
      ],
      entities: [
        ...linear({ block: '*D1', p13: [0, 0], p14: [10, 0], def: [10, 5] }),
        ...linear({ block: '*D1', p13: [0, 0], p14: [10, 0], def: [10, 5], p12: [5, 5] }),
      ],
    });
    const segs = subpaths(listOf(r)).map((s) => s.points);
    expect(segs).toEqual([
      [
        [0, 0],
        [10, 0],
      ],
      [
        [5, 5],
        [15, 5],
      ],
    ]);
    // Drawn from the block only: nothing synthesised on top.
    expect(texts(listOf(r))).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('synthesises a linear dimension without a block: extension lines, dimension line, arrows, measured text', () => {
    const r = build({ entities: linear({ p13: [0, 0], p14: [10, 0], def: [10, 5], mid: [5, 6] }) });
    const list = listOf(r);
    const segs = subpaths(list).map((s) => s.points);
    // Imperial defaults: DIMEXO 0.0625, DIMEXE 0.18.
    expect(segs).toContainEqual([
      [0, 0.0625],
      [0, 5.18],
    ]);
    expect(segs).toContainEqual([
      [10, 0.0625],
      [10, 5.18],
    ]);
    expect(segs).toContainEqual([
      [0, 5],
      [10, 5],
    ]);
    // Two closed filled arrowheads (DIMASZ 0.18) with their tips on the extension lines.
    const arrows = fills(list).map(fillPoints);
    expect(arrows).toHaveLength(2);
    expect(arrows[0]![0]).toEqual([0, 5]);
    expect(arrows[1]![0]).toEqual([10, 5]);
    for (const a of arrows) for (const p of a.slice(1)) expect(Math.abs(p[0] - a[0]![0])).toBeCloseTo(0.18, 9);
    expect(texts(list).join('')).toContain('10.0000');
    expect(r.warnings.filter((w) => w.code === 'missing-block')).toEqual([]);
  });

  it('uses the dimension style (DIMTXT, DIMASZ, DIMDEC, DIMPOST, DIMSCALE, DIMTSZ) and the <> placeholder', () => {
    const r = build({
      dimstyles: [
        {
          name: 'ARCH',
          vars: [
            [3, '<> mm'],
            [40, 2],
            [41, 1],
            [140, 2.5],
            [142, 0],
            [271, 1],
          ],
        },
      ],
      entities: linear({ p13: [0, 0], p14: [0, 7.25], def: [-4, 0], angle: 90, style: 'ARCH', text: 'L=<>' }),
    });
    const list = listOf(r);
    expect(texts(list).join('').replace(/\s/g, '')).toContain('L=7.3mm');
    const arrows = fills(list).map(fillPoints);
    expect(arrows).toHaveLength(2);
    // Arrow length DIMASZ × DIMSCALE = 2, along the vertical dimension line at x = -4.
    expect(arrows[0]![0]![0]).toBeCloseTo(-4, 9);
    expect(arrows[0]![0]![1]).toBeCloseTo(0, 9);
    expect(Math.abs(arrows[0]![1]![1] - arrows[0]![0]![1])).toBeCloseTo(2, 9);
    // Ticks instead of arrows when DIMTSZ > 0.
    const ticks = build({
      dimstyles: [{ name: 'T', vars: [[142, 0.5]] }],
      entities: linear({ p13: [0, 0], p14: [10, 0], def: [10, 3], style: 'T' }),
    });
    expect(fills(listOf(ticks))).toHaveLength(0);
    const oblique = subpaths(listOf(ticks)).filter(
      (s) => Math.abs(s.points[1]![0] - s.points[0]![0]) > 1e-9 && Math.abs(s.points[1]![1] - s.points[0]![1]) > 1e-9,
    );
    expect(oblique).toHaveLength(2);
  });

  it('formats metric measurements with the ISO defaults: comma, trailing zeros suppressed', () => {
    const r = build({
      header: [
        [9, '$MEASUREMENT'],
        [70, 1],
      ],
      entities: linear({ p13: [0, 0], p14: [7.5, 0], def: [0, -10] }),
    });
    expect(texts(listOf(r)).join('')).toContain('7,5');
    const d = readDxf(
      new TextEncoder().encode(
        dxfText([
          [0, 'SECTION'],
          [2, 'ENTITIES'],
          [0, 'ENDSEC'],
          [0, 'EOF'],
        ]),
      ),
    ).drawing;
    const v = dimVars(d, 'STANDARD');
    expect(formatLength(3.14159, v)).toBe('3.1416');
    d.dimStyles.F = { name: 'F', vars: { 277: 5, 271: 3 } };
    expect(formatLength(2.375, dimVars(d, 'F'))).toBe('2 3/8');
    d.dimStyles.A = { name: 'A', vars: { 277: 4, 271: 4 } };
    expect(formatLength(30.5, dimVars(d, 'A'))).toBe('2\'-6 1/2"');
  });

  it('synthesises radius, diameter and angular dimensions', () => {
    const radius: G = [
      [0, 'DIMENSION'],
      [8, '0'],
      [100, 'AcDbDimension'],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, 8],
      [21, 0],
      [31, 0],
      [70, 36],
      [1, ''],
      [100, 'AcDbRadialDimension'],
      [15, 5],
      [25, 0],
      [35, 0],
    ];
    const diameter: G = [
      [0, 'DIMENSION'],
      [8, '0'],
      [100, 'AcDbDimension'],
      [10, 20],
      [20, 0],
      [30, 0],
      [11, 30],
      [21, 0],
      [31, 0],
      [70, 35],
      [1, ''],
      [100, 'AcDbDiametricDimension'],
      [15, 26],
      [25, 0],
      [35, 0],
    ];
    // Three-point angular: vertex (0, 30), legs to (10, 30) and (0, 40), arc through (5, 35).
    const angular: G = [
      [0, 'DIMENSION'],
      [8, '0'],
      [100, 'AcDbDimension'],
      [10, 5],
      [20, 35],
      [30, 0],
      [70, 37],
      [1, ''],
      [100, 'AcDb3PointAngularDimension'],
      [13, 10],
      [23, 30],
      [33, 0],
      [14, 0],
      [24, 40],
      [34, 0],
      [15, 0],
      [25, 30],
      [35, 0],
    ];
    const list = listOf(build({ entities: [...radius, ...diameter, ...angular] }));
    const t = texts(list).join('|');
    expect(t).toContain('R5.0000');
    expect(t).toContain('\u00d86.0000');
    expect(t).toMatch(/90°|90\u00b0/);
    // The angular arc: points at distance √50 from the vertex, between 0° and 90°.
    const arc = subpaths(list).find((s) => s.points.length > 8)!;
    for (const [x, y] of arc.points) {
      expect(Math.hypot(x, y - 30)).toBeCloseTo(Math.sqrt(50), 9);
      expect(x).toBeGreaterThanOrEqual(-1e-9);
      expect(y).toBeGreaterThanOrEqual(30 - 1e-9);
    }
    // Radius: a leader from the arc point out to the text, arrow tip on the circle.
    expect(
      fills(list)
        .map(fillPoints)
        .some((a) => a[0]![0] === 5 && a[0]![1] === 0),
    ).toBe(true);
  });
});
