import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { clipLine } from '../geom/clip';
import { buildScenes } from './builder';
import { aciColor } from '../geom/color';
import { allPoints, build, modelList, subpaths } from './test-helpers';
import { FOREGROUND } from '../geom/color';

type G = [number, string | number][];
const close = (a: number, b: number, eps = 1e-6): boolean => Math.abs(a - b) <= eps;
const dist = (p: [number, number], q: [number, number]): number => Math.hypot(p[0] - q[0], p[1] - q[1]);

describe('display list: geometric entities', () => {
  it('LINE is one stroke from start to end, in the layer colour', () => {
    const list = modelList({
      layers: [['Walls', 1]],
      entities: [
        [0, 'LINE'],
        [8, 'Walls'],
        [10, 1],
        [20, 2],
        [30, 0],
        [11, 5],
        [21, 7],
        [31, 0],
      ],
    });
    const [s] = subpaths(list);
    expect(s?.points).toEqual([
      [1, 2],
      [5, 7],
    ]);
    expect(list.styles[s!.style]?.color).toBe(0xff0000);
    expect(list.layers[list.styles[s!.style]!.layer]?.name).toBe('Walls');
    expect(list.bounds).toEqual({ minX: 1, minY: 2, maxX: 5, maxY: 7 });
  });

  it('CIRCLE points all lie on the circle, closed, smooth enough', () => {
    const list = modelList({
      entities: [
        [0, 'CIRCLE'],
        [10, 10],
        [20, -5],
        [40, 3],
      ],
    });
    const [s] = subpaths(list);
    expect(s!.points.length).toBeGreaterThan(32);
    for (const p of s!.points) expect(close(dist(p, [10, -5]), 3, 1e-9)).toBe(true);
    expect(dist(s!.points[0]!, s!.points.at(-1)!)).toBeLessThan(1e-9);
  });

  it('ARC runs counter-clockwise from the start angle to the end angle, also across 0°', () => {
    const list = modelList({
      entities: [
        [0, 'ARC'],
        [10, 0],
        [20, 0],
        [40, 2],
        [50, 350],
        [51, 10],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    expect(pts[0]![0]).toBeCloseTo(2 * Math.cos((-10 * Math.PI) / 180), 9);
    expect(pts[0]![1]).toBeCloseTo(2 * Math.sin((-10 * Math.PI) / 180), 9);
    expect(pts.at(-1)![1]).toBeCloseTo(2 * Math.sin((10 * Math.PI) / 180), 9);
    // Only 20° of arc: every point has x > 1.9.
    for (const p of pts) expect(p[0]).toBeGreaterThan(1.9);
  });

  it('ARC with a -Z extrusion is mirrored in x (OCS)', () => {
    const list = modelList({
      entities: [
        [0, 'ARC'],
        [10, 5],
        [20, 0],
        [40, 1],
        [50, 0],
        [51, 90],
        [210, 0],
        [220, 0],
        [230, -1],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    // OCS (5,0) with N = -Z maps to WCS (-5, 0).
    expect(pts[0]![0]).toBeCloseTo(-6, 9);
    expect(pts.at(-1)![0]).toBeCloseTo(-5, 9);
    expect(pts.at(-1)![1]).toBeCloseTo(1, 9);
  });

  it('ELLIPSE: a half ellipse with ratio 0.5 between parameters 0 and π', () => {
    const list = modelList({
      entities: [
        [0, 'ELLIPSE'],
        [10, 0],
        [20, 0],
        [30, 0],
        [11, 4],
        [21, 0],
        [31, 0],
        [40, 0.5],
        [41, 0],
        [42, Math.PI],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    expect(pts[0]![0]).toBeCloseTo(4, 9);
    expect(pts.at(-1)![0]).toBeCloseTo(-4, 9);
    for (const [x, y] of pts) {
      expect((x / 4) ** 2 + (y / 2) ** 2).toBeCloseTo(1, 9);
      expect(y).toBeGreaterThanOrEqual(-1e-9);
    }
  });

  it('LWPOLYLINE with a bulge of 1 draws a half circle between its vertices', () => {
    const list = modelList({
      entities: [
        [0, 'LWPOLYLINE'],
        [90, 2],
        [70, 0],
        [10, 0],
        [20, 0],
        [42, 1],
        [10, 2],
        [20, 0],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    expect(pts[0]).toEqual([0, 0]);
    expect(pts.at(-1)).toEqual([2, 0]);
    // Positive bulge: counter-clockwise from (0,0) to (2,0) around (1,0) passes below the chord.
    for (const p of pts) expect(dist(p, [1, 0])).toBeCloseTo(1, 9);
    expect(Math.min(...pts.map((p) => p[1]))).toBeCloseTo(-1, 2);
  });

  it('a closed LWPOLYLINE returns to its first vertex', () => {
    const list = modelList({
      entities: [
        [0, 'LWPOLYLINE'],
        [90, 3],
        [70, 1],
        [10, 0],
        [20, 0],
        [10, 4],
        [20, 0],
        [10, 4],
        [20, 3],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    expect(pts).toEqual([
      [0, 0],
      [4, 0],
      [4, 3],
      [0, 0],
    ]);
  });

  it('a wide LWPOLYLINE becomes a filled band of that width, non-zero rule', () => {
    const list = modelList({
      entities: [
        [0, 'LWPOLYLINE'],
        [90, 2],
        [70, 0],
        [43, 2],
        [10, 0],
        [20, 0],
        [10, 10],
        [20, 0],
      ],
    });
    const fill = list.primitives.find((p) => p.kind === 'path' && p.mode === 'fill');
    expect(fill && fill.kind === 'path' && fill.rule).toBe('nonzero');
    const pts = allPoints(list, 'fill');
    expect(Math.min(...pts.map((p) => p[1]))).toBeCloseTo(-1, 9);
    expect(Math.max(...pts.map((p) => p[1]))).toBeCloseTo(1, 9);
    expect(Math.max(...pts.map((p) => p[0]))).toBeCloseTo(10, 9);
  });

  it('POLYLINE 3D keeps its vertices, a polygon mesh draws rows and columns, a polyface skips hidden edges', () => {
    const v = (x: number, y: number, z: number, flags: number): G => [
      [0, 'VERTEX'],
      [10, x],
      [20, y],
      [30, z],
      [70, flags],
    ];
    const p3d = modelList({
      entities: [[0, 'POLYLINE'], [66, 1], [70, 8], ...v(0, 0, 0, 32), ...v(1, 0, 5, 32), ...v(1, 1, 9, 32), [0, 'SEQEND']],
    });
    expect(subpaths(p3d)[0]?.points).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    const mesh = modelList({
      entities: [
        [0, 'POLYLINE'],
        [66, 1],
        [70, 16],
        [71, 2],
        [72, 3],
        ...v(0, 0, 0, 64),
        ...v(1, 0, 0, 64),
        ...v(2, 0, 0, 64),
        ...v(0, 1, 0, 64),
        ...v(1, 1, 0, 64),
        ...v(2, 1, 0, 64),
        [0, 'SEQEND'],
      ],
    });
    expect(subpaths(mesh)).toHaveLength(2 + 3);
    const face = (a: number, b: number, c: number, d: number): G => [
      [0, 'VERTEX'],
      [10, 0],
      [20, 0],
      [30, 0],
      [70, 128],
      [71, a],
      [72, b],
      [73, c],
      [74, d],
    ];
    const pf = modelList({
      entities: [
        [0, 'POLYLINE'],
        [66, 1],
        [70, 64],
        [71, 4],
        [72, 1],
        ...v(0, 0, 0, 192),
        ...v(1, 0, 0, 192),
        ...v(1, 1, 0, 192),
        ...v(0, 1, 0, 192),
        ...face(1, 2, 3, -4),
        [0, 'SEQEND'],
      ],
    });
    // Edges 1-2, 2-3, 3-4 visible; 4-1 starts at a negative (hidden) index.
    expect(subpaths(pf)).toHaveLength(3);
  });

  it('SPLINE: a clamped cubic passes through its end control points and stays in their hull', () => {
    const list = modelList({
      entities: [
        [0, 'SPLINE'],
        [70, 8],
        [71, 3],
        [72, 8],
        [73, 4],
        [40, 0],
        [40, 0],
        [40, 0],
        [40, 0],
        [40, 1],
        [40, 1],
        [40, 1],
        [40, 1],
        [10, 0],
        [20, 0],
        [30, 0],
        [10, 1],
        [20, 2],
        [30, 0],
        [10, 3],
        [20, 2],
        [30, 0],
        [10, 4],
        [20, 0],
        [30, 0],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    expect(pts[0]![0]).toBeCloseTo(0, 9);
    expect(pts.at(-1)![0]).toBeCloseTo(4, 9);
    // A Bezier: at t = 0.5 the curve is at (2, 1.5).
    const mid = pts.reduce((b, p) => (Math.abs(p[0] - 2) < Math.abs(b[0] - 2) ? p : b));
    expect(mid[1]).toBeCloseTo(1.5, 2);
    for (const p of pts) expect(p[1]).toBeLessThanOrEqual(2);
  });

  it('SPLINE with fit points only passes through every fit point', () => {
    const list = modelList({
      entities: [
        [0, 'SPLINE'],
        [70, 8],
        [71, 3],
        [74, 3],
        [11, 0],
        [21, 0],
        [31, 0],
        [11, 5],
        [21, 5],
        [31, 0],
        [11, 10],
        [21, 0],
        [31, 0],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    for (const f of [
      [0, 0],
      [5, 5],
      [10, 0],
    ] as [number, number][])
      expect(Math.min(...pts.map((p) => dist(p, f)))).toBeLessThan(1e-9);
  });

  it('SOLID fills corners in the 1-2-4-3 order; 3DFACE draws only visible edges', () => {
    const list = modelList({
      entities: [
        [0, 'SOLID'],
        [10, 0],
        [20, 0],
        [11, 2],
        [21, 0],
        [12, 0],
        [22, 1],
        [13, 2],
        [23, 1],
      ],
    });
    expect(subpaths(list, 'fill')[0]?.points).toEqual([
      [0, 0],
      [2, 0],
      [2, 1],
      [0, 1],
    ]);
    const face = modelList({
      entities: [
        [0, '3DFACE'],
        [10, 0],
        [20, 0],
        [30, 0],
        [11, 1],
        [21, 0],
        [31, 0],
        [12, 1],
        [22, 1],
        [32, 0],
        [13, 0],
        [23, 1],
        [33, 0],
        [70, 5],
      ],
    });
    expect(subpaths(face)).toHaveLength(2);
  });

  it('XLINE and RAY are clipped to the extents of the other entities', () => {
    const list = modelList({
      entities: [
        [0, 'LINE'],
        [10, 0],
        [20, 0],
        [11, 10],
        [21, 10],
        [0, 'XLINE'],
        [10, 5],
        [20, 5],
        [11, 1],
        [21, 0],
        [0, 'RAY'],
        [10, 5],
        [20, 2],
        [11, 0],
        [21, 1],
      ],
    });
    const paths = subpaths(list);
    expect(paths[1]?.points).toEqual([
      [0, 5],
      [10, 5],
    ]);
    expect(paths[2]?.points).toEqual([
      [5, 2],
      [5, 10],
    ]);
    expect(clipLine([0, 0], [1, 0], false, { minX: 5, minY: 5, maxX: 6, maxY: 6 })).toBeNull();
  });
});

describe('display list: blocks, layers, colours, linetypes', () => {
  const square: G = [
    [0, 'LWPOLYLINE'],
    [8, '0'],
    [62, 0],
    [90, 4],
    [70, 1],
    [10, 0],
    [20, 0],
    [10, 1],
    [20, 0],
    [10, 1],
    [20, 1],
    [10, 0],
    [20, 1],
  ];

  it('INSERT places, scales, rotates and mirrors its block around the base point', () => {
    const list = modelList({
      blocks: [{ name: 'SQ', base: [1, 1], entities: square }],
      entities: [
        [0, 'INSERT'],
        [2, 'SQ'],
        [10, 10],
        [20, 20],
        [41, -2],
        [42, 3],
        [50, 90],
      ],
    });
    const pts = subpaths(list)[0]!.points;
    // Block (0,0) - base (1,1) = (-1,-1); scaled (2,-3); rotated 90°: (3, 2); placed: (13, 22).
    expect(pts[0]![0]).toBeCloseTo(13, 9);
    expect(pts[0]![1]).toBeCloseTo(22, 9);
    expect(list.bounds!.maxX - list.bounds!.minX).toBeCloseTo(3, 9);
    expect(list.bounds!.maxY - list.bounds!.minY).toBeCloseTo(2, 9);
  });

  it('nested INSERTs compose, MINSERT repeats in rows and columns, an extruded INSERT is mirrored', () => {
    const list = modelList({
      blocks: [
        { name: 'SQ', entities: square },
        {
          name: 'TWO',
          entities: [
            [0, 'INSERT'],
            [8, '0'],
            [2, 'SQ'],
            [10, 0],
            [20, 0],
            [0, 'INSERT'],
            [8, '0'],
            [2, 'SQ'],
            [10, 5],
            [20, 0],
          ],
        },
      ],
      entities: [
        [0, 'INSERT'],
        [2, 'TWO'],
        [10, 100],
        [20, 0],
        [41, 2],
        [42, 2],
        [0, 'INSERT'],
        [2, 'SQ'],
        [10, 0],
        [20, 50],
        [70, 3],
        [71, 2],
        [44, 10],
        [45, 20],
        [0, 'INSERT'],
        [2, 'SQ'],
        [10, 0],
        [20, -50],
        [210, 0],
        [220, 0],
        [230, -1],
      ],
    });
    const paths = subpaths(list);
    expect(paths).toHaveLength(2 + 6 + 1);
    expect(paths[1]!.points[0]![0]).toBeCloseTo(110, 9);
    const minsertOrigins = paths.slice(2, 8).map((p) => p.points[0]!);
    expect(minsertOrigins).toContainEqual([20, 70]);
    const mirrored = paths[8]!.points;
    expect(Math.min(...mirrored.map((p) => p[0]))).toBeCloseTo(-1, 9);
  });

  it('ByBlock colour takes the INSERT colour; layer-0 entities take the INSERT layer; frozen layers hide', () => {
    const list = modelList({
      layers: [
        ['A', 3],
        ['F', 5, 1],
      ],
      blocks: [{ name: 'SQ', entities: [...square, [0, 'LINE'], [8, '0'], [10, 0], [20, 0], [11, 2], [21, 2]] }],
      entities: [
        [0, 'INSERT'],
        [8, 'A'],
        [62, 1],
        [2, 'SQ'],
        [10, 0],
        [20, 0],
        [0, 'LINE'],
        [8, 'F'],
        [10, 0],
        [20, 0],
        [11, 9],
        [21, 9],
        [0, 'INSERT'],
        [8, 'F'],
        [2, 'SQ'],
        [10, 50],
        [20, 0],
      ],
    });
    const paths = subpaths(list);
    expect(paths).toHaveLength(2);
    // The square: ByBlock -> the INSERT's red; the line: ByLayer on layer 0 -> layer A's green.
    expect(list.styles[paths[0]!.style]!.color).toBe(0xff0000);
    expect(list.styles[paths[1]!.style]!.color).toBe(aciColor(3));
    expect(list.layers[list.styles[paths[1]!.style]!.layer]!.name).toBe('A');
  });

  it('an INSERT on an OFF layer still shows block entities on other layers; includeHiddenLayers draws everything', () => {
    const d = {
      layers: [
        ['OFF', -2],
        ['B', 4],
      ] as [string, number][],
      blocks: [
        {
          name: 'X',
          entities: [
            [0, 'LINE'],
            [8, '0'],
            [10, 0],
            [20, 0],
            [11, 1],
            [21, 0],
            [0, 'LINE'],
            [8, 'B'],
            [10, 0],
            [20, 1],
            [11, 1],
            [21, 1],
          ] as G,
        },
      ],
      entities: [
        [0, 'INSERT'],
        [8, 'OFF'],
        [2, 'X'],
        [10, 0],
        [20, 0],
      ] as G,
    };
    expect(subpaths(modelList(d))).toHaveLength(1);
    expect(subpaths(modelList(d, { includeHiddenLayers: true }))).toHaveLength(2);
    const layers = modelList(d).layers;
    expect(layers.find((l) => l.name === 'OFF')?.visible).toBe(false);
  });

  it('ACI 7 is the foreground colour; true colour wins; ByLayer lineweight and the default lineweight', () => {
    const list = modelList({
      layers: [['W', 7, 0, 'CONTINUOUS', 50]],
      entities: [
        [0, 'LINE'],
        [8, 'W'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 0],
        [0, 'LINE'],
        [8, 'W'],
        [62, 1],
        [420, 0x123456],
        [370, 18],
        [10, 0],
        [20, 1],
        [11, 1],
        [21, 1],
        [0, 'LINE'],
        [8, '0'],
        [10, 0],
        [20, 2],
        [11, 1],
        [21, 2],
      ],
    });
    const s = subpaths(list).map((p) => list.styles[p.style]!);
    expect(s[0]).toMatchObject({ color: FOREGROUND, lineweight: 0.5 });
    expect(s[1]).toMatchObject({ color: 0x123456, lineweight: 0.18 });
    expect(s[2]!.lineweight).toBe(0.25);
  });

  it('a dashed linetype splits a line into dashes scaled by LTSCALE and the entity scale', () => {
    const base = {
      linetypes: [['DASHED', [2, -1]]] as [string, number[]][],
      header: [
        [9, '$LTSCALE'],
        [40, 2],
      ] as G,
      entities: [
        [0, 'LINE'],
        [6, 'DASHED'],
        [48, 0.5],
        [10, 0],
        [20, 0],
        [11, 30],
        [21, 0],
      ] as G,
    };
    const dashes = subpaths(modelList(base));
    // Pattern 2/-1 scaled by 2 × 0.5 = 1: dashes of 2 every 3 units over 30 units.
    expect(dashes).toHaveLength(10);
    expect(dashes[0]!.points).toEqual([
      [0, 0],
      [2, 0],
    ]);
    expect(dashes[1]!.points[0]![0]).toBeCloseTo(3, 9);
    // A ByLayer linetype comes from the layer; CONTINUOUS is one stroke.
    const bylayer = modelList({
      ...base,
      layers: [['L', 1, 0, 'DASHED']],
      entities: [
        [0, 'LINE'],
        [8, 'L'],
        [10, 0],
        [20, 0],
        [11, 30],
        [21, 0],
      ],
    });
    expect(subpaths(bylayer).length).toBeGreaterThan(1);
    expect(
      subpaths(
        modelList({
          ...base,
          entities: [
            [0, 'LINE'],
            [10, 0],
            [20, 0],
            [11, 30],
            [21, 0],
          ],
        }),
      ),
    ).toHaveLength(1);
  });

  it('a block that inserts itself is drawn once, not forever; a missing block is a warning', () => {
    const r = build({
      blocks: [
        {
          name: 'LOOP',
          entities: [
            [0, 'LINE'],
            [10, 0],
            [20, 0],
            [11, 1],
            [21, 1],
            [0, 'INSERT'],
            [2, 'LOOP'],
            [10, 1],
            [20, 1],
          ],
        },
      ],
      entities: [
        [0, 'INSERT'],
        [2, 'LOOP'],
        [10, 0],
        [20, 0],
        [0, 'INSERT'],
        [2, 'NOPE'],
        [10, 0],
        [20, 0],
      ],
    });
    expect(subpaths(r.scenes[0]!.list)).toHaveLength(1);
    expect(r.warnings.some((w) => w.code === 'missing-block' && w.subject === 'NOPE')).toBe(true);
  });

  it('unknown entity types are counted as skipped with a warning', () => {
    const r = build({
      entities: [
        [0, 'HELIX'],
        [10, 0],
        [0, 'LINE'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 1],
      ],
    });
    expect(r.counts.skipped['HELIX']).toBe(1);
    expect(r.counts.drawn['LINE']).toBe(1);
    expect(r.warnings.some((w) => w.code === 'unsupported-entity' && w.subject === 'HELIX')).toBe(true);
  });
});

describe('display list: layouts and viewports', () => {
  /** A drawing with a model line and a layout whose viewport shows the model at 1:2, turned 90°. */
  function layoutDxf(): Uint8Array {
    const g: G = [
      [0, 'SECTION'],
      [2, 'HEADER'],
      [9, '$ACADVER'],
      [1, 'AC1015'],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'TABLES'],
      [0, 'TABLE'],
      [2, 'LAYER'],
      [0, 'LAYER'],
      [5, '10'],
      [2, 'HIDE'],
      [70, 0],
      [62, 2],
      [6, 'CONTINUOUS'],
      [0, 'ENDTAB'],
      [0, 'TABLE'],
      [2, 'BLOCK_RECORD'],
      [0, 'BLOCK_RECORD'],
      [5, '1F'],
      [2, '*Model_Space'],
      [340, '22'],
      [0, 'BLOCK_RECORD'],
      [5, '1B'],
      [2, '*Paper_Space'],
      [340, '1E'],
      [0, 'ENDTAB'],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'ENTITIES'],
      [0, 'LINE'],
      [5, '30'],
      [330, '1F'],
      [100, 'AcDbEntity'],
      [8, '0'],
      [100, 'AcDbLine'],
      [10, 0],
      [20, 0],
      [11, 100],
      [21, 0],
      [0, 'LINE'],
      [5, '31'],
      [330, '1F'],
      [100, 'AcDbEntity'],
      [8, 'HIDE'],
      [100, 'AcDbLine'],
      [10, 0],
      [20, 10],
      [11, 100],
      [21, 10],
      [0, 'VIEWPORT'],
      [5, '40'],
      [330, '1B'],
      [100, 'AcDbEntity'],
      [67, 1],
      [8, '0'],
      [100, 'AcDbViewport'],
      [10, 150],
      [20, 100],
      [40, 400],
      [41, 300],
      [68, 1],
      [69, 1],
      [12, 0],
      [22, 0],
      [45, 300],
      [0, 'VIEWPORT'],
      [5, '41'],
      [330, '1B'],
      [100, 'AcDbEntity'],
      [67, 1],
      [8, '0'],
      [100, 'AcDbViewport'],
      [10, 100],
      [20, 100],
      [40, 80],
      [41, 120],
      [68, 2],
      [69, 2],
      [12, 50],
      [22, 0],
      [13, 0],
      [23, 0],
      [16, 0],
      [26, 0],
      [36, 1],
      [17, 0],
      [27, 0],
      [37, 0],
      [45, 240],
      [51, 90],
      [331, '10'],
      [0, 'LINE'],
      [5, '50'],
      [330, '1B'],
      [100, 'AcDbEntity'],
      [67, 1],
      [8, '0'],
      [100, 'AcDbLine'],
      [10, 0],
      [20, 0],
      [11, 297],
      [21, 0],
      [0, 'ENDSEC'],
      [0, 'SECTION'],
      [2, 'OBJECTS'],
      [0, 'LAYOUT'],
      [5, '22'],
      [100, 'AcDbPlotSettings'],
      [1, ''],
      [4, 'ISO_A4'],
      [44, 297],
      [45, 210],
      [73, 0],
      [100, 'AcDbLayout'],
      [1, 'Model'],
      [71, 0],
      [330, '1F'],
      [0, 'LAYOUT'],
      [5, '1E'],
      [100, 'AcDbPlotSettings'],
      [1, ''],
      [4, 'ISO_A4'],
      [44, 297],
      [45, 210],
      [73, 0],
      [100, 'AcDbLayout'],
      [1, 'Sheet 1'],
      [71, 1],
      [330, '1B'],
      [0, 'ENDSEC'],
      [0, 'EOF'],
    ];
    return new TextEncoder().encode(dxfText(g));
  }

  it('builds the model and each layout with its paper size and viewports', () => {
    const { scenes } = buildScenes(readDxf(layoutDxf()).drawing);
    expect(scenes.map((s) => s.name)).toEqual(['Model', 'Sheet 1']);
    const sheet = scenes[1]!;
    expect(sheet.paper).toMatchObject({ width: 297, height: 210 });
    expect(sheet.viewports).toHaveLength(1);
    const vp = sheet.viewports[0]!;
    // Model (50, 0) is the view centre -> paper (100, 100); scale 120/240 = 0.5; twist 90° turns model +x to paper -y.
    const [a, b, c, d, e, f] = vp.matrix;
    const at = (x: number, y: number): [number, number] => [a * x + c * y + e, b * x + d * y + f];
    expect(at(50, 0)[0]).toBeCloseTo(100, 9);
    expect(at(50, 0)[1]).toBeCloseTo(100, 9);
    expect(at(60, 0)[0]).toBeCloseTo(100, 9);
    expect(at(60, 0)[1]).toBeCloseTo(95, 9);
    expect(Array.from(vp.clip)).toEqual([60, 40, 140, 40, 140, 160, 60, 160]);
    // The layer frozen in this viewport (by handle) is listed.
    expect(vp.frozenLayers.map((i) => vp.list.layers[i]!.name)).toEqual(['HIDE']);
    // Paper-space line on the layout's own list.
    expect(subpaths(sheet.list)[0]?.points).toEqual([
      [0, 0],
      [297, 0],
    ]);
  });

  it('a viewport of a layout that is not current (status 0) still shows; flag 0x20000 turns it off', () => {
    const text = new TextDecoder().decode(layoutDxf()).replace('68\n2\n69\n2\n', '68\n0\n69\n2\n');
    const viewports = (t: string): number => buildScenes(readDxf(new TextEncoder().encode(t)).drawing).scenes[1]!.viewports.length;
    expect(viewports(text)).toBe(1);
    expect(viewports(text.replace('68\n0\n69\n2\n', '68\n0\n69\n2\n90\n131072\n'))).toBe(0);
  });

  it('layouts option chooses scenes by name', () => {
    const drawing = readDxf(layoutDxf()).drawing;
    expect(buildScenes(drawing, { layouts: ['sheet 1'] }).scenes.map((s) => s.name)).toEqual(['Sheet 1']);
    expect(buildScenes(drawing, { layouts: 'model' }).scenes.map((s) => s.name)).toEqual(['Model']);
  });
});

describe('display list: draw order', () => {
  it('follows SORTENTSTABLE: a wipeout moved behind is drawn first', () => {
    const drawing = readDxf(
      new TextEncoder().encode(
        dxfText([
          [0, 'SECTION'],
          [2, 'TABLES'],
          [0, 'TABLE'],
          [2, 'BLOCK_RECORD'],
          [0, 'BLOCK_RECORD'],
          [5, '1F'],
          [2, '*Model_Space'],
          [0, 'ENDTAB'],
          [0, 'ENDSEC'],
          [0, 'SECTION'],
          [2, 'ENTITIES'],
          [0, 'LINE'],
          [5, 'A1'],
          [8, '0'],
          [62, 1],
          [10, 0],
          [20, 0],
          [11, 1],
          [21, 0],
          [0, 'LINE'],
          [5, 'A2'],
          [8, '0'],
          [62, 3],
          [10, 0],
          [20, 1],
          [11, 1],
          [21, 1],
          [0, 'ENDSEC'],
          [0, 'SECTION'],
          [2, 'OBJECTS'],
          [0, 'SORTENTSTABLE'],
          [5, '90'],
          [330, '8F'],
          [100, 'AcDbSortentsTable'],
          [330, '1F'],
          [331, 'A2'],
          [5, '10'],
          [0, 'ENDSEC'],
          [0, 'EOF'],
        ]),
      ),
    ).drawing;
    const list = buildScenes(drawing, { layouts: 'model' }).scenes[0]!.list;
    expect(subpaths(list).map((s) => list.styles[s.style]!.color)).toEqual([aciColor(3), aciColor(1)]);
  });
});

describe('display list: plotting', () => {
  it('leaves out DEFPOINTS and no-plot layers when plotting, shows them on screen', () => {
    const d = {
      layers: [['Defpoints', 7]] as [string, number][],
      entities: [
        [0, 'LINE'],
        [8, 'Defpoints'],
        [10, 0],
        [20, 0],
        [11, 1],
        [21, 1],
        [0, 'LINE'],
        [8, '0'],
        [10, 0],
        [20, 0],
        [11, 2],
        [21, 0],
      ] as G,
    };
    expect(subpaths(modelList(d))).toHaveLength(1);
    expect(subpaths(modelList(d, { plot: false }))).toHaveLength(2);
  });
});

describe('display list: MLINE, MESH and other dimension kinds', () => {
  const file = (entities: G, objects: G = []): Uint8Array =>
    new TextEncoder().encode(
      dxfText([
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        ...entities,
        [0, 'ENDSEC'],
        [0, 'SECTION'],
        [2, 'OBJECTS'],
        ...objects,
        [0, 'ENDSEC'],
        [0, 'EOF'],
      ]),
    );

  it('MLINE draws each element of its style along the miters, in the element colour', () => {
    const style: G = [
      [0, 'MLINESTYLE'],
      [5, '18'],
      [100, 'AcDbMlineStyle'],
      [2, 'TWO'],
      [70, 0],
      [71, 2],
      [49, 0.5],
      [62, 1],
      [6, 'BYLAYER'],
      [49, -0.5],
      [62, 256],
      [6, 'BYLAYER'],
    ];
    const vertex = (x: number, y: number, mx: number, my: number, d: number): G => [
      [11, x],
      [21, y],
      [31, 0],
      [12, 1],
      [22, 0],
      [32, 0],
      [13, mx],
      [23, my],
      [33, 0],
      [74, 2],
      [41, d],
      [41, 0],
      [75, 0],
      [74, 2],
      [41, -d],
      [41, 0],
      [75, 0],
    ];
    const drawing = readDxf(
      file(
        [
          [0, 'MLINE'],
          [100, 'AcDbEntity'],
          [8, '0'],
          [100, 'AcDbMline'],
          [2, 'TWO'],
          [340, '18'],
          [40, 2],
          [70, 1],
          [71, 1],
          [72, 2],
          [73, 2],
          [10, 0],
          [20, 0],
          [30, 0],
          ...vertex(0, 0, 0, 1, 1),
          ...vertex(10, 0, 0, 1, 1),
        ],
        style,
      ),
    ).drawing;
    const list = buildScenes(drawing, { layouts: 'model' }).scenes[0]!.list;
    const paths = subpaths(list);
    expect(paths.map((p) => p.points)).toEqual([
      [
        [0, 1],
        [10, 1],
      ],
      [
        [0, -1],
        [10, -1],
      ],
    ]);
    expect(list.styles[paths[0]!.style]!.color).toBe(0xff0000);
  });

  it('MESH draws its edges; ARC_DIMENSION draws its block', () => {
    const drawing = readDxf(
      new TextEncoder().encode(
        dxfText([
          [0, 'SECTION'],
          [2, 'BLOCKS'],
          [0, 'BLOCK'],
          [8, '0'],
          [2, '*D1'],
          [70, 1],
          [10, 0],
          [20, 0],
          [30, 0],
          [3, '*D1'],
          [0, 'LINE'],
          [8, '0'],
          [10, 0],
          [20, 5],
          [11, 3],
          [21, 5],
          [0, 'ENDBLK'],
          [0, 'ENDSEC'],
          [0, 'SECTION'],
          [2, 'ENTITIES'],
          [0, 'MESH'],
          [100, 'AcDbEntity'],
          [8, '0'],
          [100, 'AcDbSubDMesh'],
          [71, 2],
          [72, 0],
          [91, 0],
          [92, 3],
          [10, 0],
          [20, 0],
          [30, 0],
          [10, 1],
          [20, 0],
          [30, 0],
          [10, 0],
          [20, 1],
          [30, 0],
          [93, 4],
          [90, 3],
          [90, 0],
          [90, 1],
          [90, 2],
          [94, 0],
          [0, 'ARC_DIMENSION'],
          [100, 'AcDbEntity'],
          [8, '0'],
          [100, 'AcDbDimension'],
          [2, '*D1'],
          [10, 0],
          [20, 0],
          [30, 0],
          [70, 5],
          [0, 'ENDSEC'],
          [0, 'EOF'],
        ]),
      ),
    ).drawing;
    const r = buildScenes(drawing, { layouts: 'model' });
    const paths = subpaths(r.scenes[0]!.list);
    expect(paths).toHaveLength(4);
    expect(paths[3]!.points).toEqual([
      [0, 5],
      [3, 5],
    ]);
    expect(r.counts.drawn['MESH']).toBe(1);
  });
});

describe('display list: attributes', () => {
  it('an ATTRIB on layer 0 follows its INSERT: hidden with an off layer, ByBlock colour from the insert', () => {
    const d = (layerAci: number): Parameters<typeof modelList>[0] => ({
      layers: [['T', layerAci]],
      blocks: [
        {
          name: 'B',
          entities: [
            [0, 'LINE'],
            [8, 'V'],
            [10, 0],
            [20, 0],
            [11, 1],
            [21, 0],
          ] as G,
        },
      ],
      entities: [
        [0, 'INSERT'],
        [8, 'T'],
        [62, 5],
        [66, 1],
        [2, 'B'],
        [10, 0],
        [20, 0],
        [0, 'ATTRIB'],
        [8, '0'],
        [62, 0],
        [10, 0],
        [20, 5],
        [40, 1],
        [1, 'A-1'],
        [2, 'TAG'],
        [70, 0],
        [0, 'SEQEND'],
      ] as G,
    });
    const shown = modelList(d(1));
    const text = shown.primitives.find((p) => p.kind === 'text');
    expect(text && shown.styles[text.style]!.color).toBe(aciColor(5));
    expect(shown.primitives.some((p) => p.kind === 'text')).toBe(true);
    const hidden = modelList(d(-1));
    expect(hidden.primitives.some((p) => p.kind === 'text')).toBe(false);
    expect(subpaths(hidden)).toHaveLength(1);
  });
});

describe('display list: wide polyline joints', () => {
  it('mitres the outer corner where two wide segments meet', () => {
    const list = modelList({
      entities: [
        [0, 'LWPOLYLINE'],
        [90, 3],
        [70, 0],
        [43, 2],
        [10, 0],
        [20, 0],
        [10, 10],
        [20, 0],
        [10, 10],
        [20, 10],
      ],
    });
    const pts = allPoints(list, 'fill');
    // The outer corner of the bend at (10, 0) is (11, -1): both edges extended to meet.
    expect(pts.some(([x, y]) => Math.abs(x - 11) < 1e-9 && Math.abs(y + 1) < 1e-9)).toBe(true);
    expect(list.bounds).toMatchObject({ maxX: 11, minY: -1 });
  });
});

describe('display list: proxy graphics', () => {
  it('draws a custom object (a TArch wall saved as ACAD_PROXY_ENTITY) from its proxy graphics', () => {
    const buf = Buffer.alloc(68);
    buf.writeInt32LE(68, 0);
    buf.writeInt32LE(1, 4);
    buf.writeInt32LE(60, 8);
    buf.writeInt32LE(6, 12);
    buf.writeInt32LE(2, 16);
    [0, 0, 0, 120, 0, 0].forEach((v, i) => buf.writeDoubleLE(v, 20 + 8 * i));
    const hex = buf.toString('hex').toUpperCase();
    const r = build({
      entities: [
        [0, 'ACAD_PROXY_ENTITY'],
        [100, 'AcDbEntity'],
        [8, 'WALL'],
        [100, 'AcDbProxyEntity'],
        [90, 498],
        [92, 68],
        [310, hex.slice(0, 80)],
        [310, hex.slice(80)],
      ],
    });
    expect(subpaths(r.scenes[0]!.list).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [120, 0],
      ],
    ]);
    expect(r.counts.drawn['ACAD_PROXY_ENTITY']).toBe(1);
  });
});
