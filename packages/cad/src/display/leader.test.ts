import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { buildScenes } from './builder';
import { subpaths } from './test-helpers';
import type { DisplayList, PathPrimitive } from './types';

type G = [number, string | number][];

function list(entities: G, dimstyles: G = [], blocks: G = [], recordTable: G = []): DisplayList {
  const g: G = [[0, 'SECTION'], [2, 'TABLES'], [0, 'TABLE'], [2, 'BLOCK_RECORD'], ...recordTable, [0, 'ENDTAB'], [0, 'TABLE'], [2, 'DIMSTYLE'], ...dimstyles, [0, 'ENDTAB'], [0, 'ENDSEC']];
  g.push([0, 'SECTION'], [2, 'BLOCKS'], ...blocks, [0, 'ENDSEC'], [0, 'SECTION'], [2, 'ENTITIES'], ...entities, [0, 'ENDSEC'], [0, 'EOF']);
  return buildScenes(readDxf(new TextEncoder().encode(dxfText(g))).drawing, { layouts: 'model' }).scenes[0]!.list;
}

const fills = (l: DisplayList): [number, number][][] =>
  l.primitives
    .filter((p): p is PathPrimitive => p.kind === 'path' && p.mode === 'fill')
    .map((p) => Array.from({ length: p.coords.length / 2 }, (_, i): [number, number] => [p.coords[2 * i] as number, p.coords[2 * i + 1] as number]));
const texts = (l: DisplayList): string => l.primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : [])).join(' ');

function leader(vertices: [number, number][], o: { arrow?: boolean; path?: number; style?: string } = {}): G {
  const g: G = [[0, 'LEADER'], [100, 'AcDbEntity'], [8, '0'], [100, 'AcDbLeader'], [3, o.style ?? 'STANDARD'], [71, o.arrow === false ? 0 : 1], [72, o.path ?? 0], [73, 3], [74, 0], [75, 0], [76, vertices.length]];
  for (const [x, y] of vertices) g.push([10, x], [20, y], [30, 0]);
  return g;
}

describe('LEADER', () => {
  it('draws its path and a closed filled arrowhead at the first vertex, DIMASZ × DIMSCALE long', () => {
    const styles: G = [[0, 'DIMSTYLE'], [105, '30'], [2, 'BIG'], [70, 0], [40, 1.5], [41, 2]];
    const l = list(
      leader(
        [
          [0, 0],
          [10, 10],
          [20, 10],
        ],
        { style: 'BIG' },
      ),
      styles,
    );
    expect(subpaths(l).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [10, 10],
        [20, 10],
      ],
    ]);
    const [arrow, ...more] = fills(l);
    expect(more).toHaveLength(0);
    expect(arrow![0]).toEqual([0, 0]);
    // The base of the arrowhead is 3 units back along the first segment, 1/3 of that wide.
    const base = arrow!.slice(1);
    const mid = [(base[0]![0] + base[1]![0]) / 2, (base[0]![1] + base[1]![1]) / 2];
    expect(Math.hypot(mid[0]!, mid[1]!)).toBeCloseTo(3, 9);
    expect(mid[0]).toBeCloseTo(mid[1]!, 9);
    expect(Math.hypot(base[0]![0] - base[1]![0], base[0]![1] - base[1]![1])).toBeCloseTo(1, 9);
  });

  it('no arrowhead when the flag is off; a spline path runs smoothly through the vertices', () => {
    const pts: [number, number][] = [
      [0, 0],
      [10, 10],
      [20, 0],
    ];
    const l = list(leader(pts, { arrow: false, path: 1 }));
    expect(fills(l)).toHaveLength(0);
    const [curve] = subpaths(l);
    expect(curve!.points.length).toBeGreaterThan(8);
    for (const p of pts) expect(curve!.points.some((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) < 1e-9)).toBe(true);
  });
});

describe('MULTILEADER', () => {
  const mleader = (extra: G = []): G => [
    [0, 'MULTILEADER'], [100, 'AcDbEntity'], [8, '0'], [100, 'AcDbMLeader'], [270, 2],
    [300, 'CONTEXT_DATA{'], [40, 1], [10, 20], [20, 10], [30, 0], [41, 2.5], [140, 1.5], [145, 0.5], [290, 1],
    [304, 'Note text'], [11, 0], [21, 0], [31, 1], [12, 21], [22, 11], [32, 0], [13, 1], [23, 0], [33, 0], [42, 0], [43, 0],
    ...extra,
    [302, 'LEADER{'], [290, 1], [291, 1], [10, 18], [20, 10], [30, 0], [11, 1], [21, 0], [31, 0], [40, 2],
    [304, 'LEADER_LINE{'], [10, 0], [20, 0], [30, 0], [91, 0], [305, '}'],
    [303, '}'],
    [301, '}'],
  ];

  it('draws the leader line to the landing point, the dogleg, the arrowhead and the MTEXT content', () => {
    const l = list(mleader());
    const lines = subpaths(l).map((s) => s.points);
    expect(lines).toContainEqual([
      [0, 0],
      [18, 10],
    ]);
    expect(lines).toContainEqual([
      [18, 10],
      [20, 10],
    ]);
    const [arrow] = fills(l);
    expect(arrow![0]).toEqual([0, 0]);
    expect(texts(l)).toContain('Note');
    expect(texts(l)).toContain('text');
    // The text sits at its stored position (top-left attachment): it starts at x = 21, below y = 11.
    const t = l.primitives.find((p) => p.kind === 'text');
    expect(t && t.kind === 'text' ? t.matrix[4] : NaN).toBeCloseTo(21, 6);
    expect(t && t.kind === 'text' ? t.matrix[5] : NaN).toBeLessThan(11);
  });

  it('draws block content through its block record', () => {
    const records: G = [[0, 'BLOCK_RECORD'], [5, '7A'], [2, 'TAG']];
    const blocks: G = [[0, 'BLOCK'], [8, '0'], [2, 'TAG'], [70, 0], [10, 0], [20, 0], [30, 0], [3, 'TAG'], [0, 'LINE'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 1], [21, 0], [31, 0], [0, 'ENDBLK']];
    const l = list(mleader([[341, '7A'], [15, 30], [25, 5], [35, 0]]), [], blocks, records);
    expect(subpaths(l).map((s) => s.points)).toContainEqual([
      [30, 5],
      [31, 5],
    ]);
  });
});
