import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { buildScenes } from './builder';
import { subpaths } from './test-helpers';
import type { BuildResult, PathPrimitive } from './types';

type G = [number, string | number][];

function build(entities: G, objects: G = [], header: G = []): BuildResult {
  const g: G = [];
  if (header.length) g.push([0, 'SECTION'], [2, 'HEADER'], ...header, [0, 'ENDSEC']);
  g.push(
    [0, 'SECTION'],
    [2, 'ENTITIES'],
    ...entities,
    [0, 'ENDSEC'],
    [0, 'SECTION'],
    [2, 'OBJECTS'],
    ...objects,
    [0, 'ENDSEC'],
    [0, 'EOF'],
  );
  return buildScenes(readDxf(new TextEncoder().encode(dxfText(g))).drawing, { layouts: 'model' });
}

const paths = (r: BuildResult, mode: PathPrimitive['mode']): [number, number][][] =>
  r.scenes[0]!.list.primitives.filter((p): p is PathPrimitive => p.kind === 'path' && p.mode === mode).flatMap((p) => {
    const n = p.coords.length / 2;
    return Array.from(p.starts, (s, i) => {
      const e = i + 1 < p.starts.length ? (p.starts[i + 1] as number) : n;
      return Array.from({ length: e - s }, (_, k): [number, number] => [
        p.coords[2 * (s + k)] as number,
        p.coords[2 * (s + k) + 1] as number,
      ]);
    });
  });

/** A 4 × 2 wipeout at (10, 20): a one-pixel "image" whose clip polygon covers it. */
const wipeout: G = [
  [0, 'WIPEOUT'],
  [100, 'AcDbEntity'],
  [8, '0'],
  [100, 'AcDbWipeout'],
  [90, 0],
  [10, 10],
  [20, 20],
  [30, 0],
  [11, 4],
  [21, 0],
  [31, 0],
  [12, 0],
  [22, 2],
  [32, 0],
  [13, 1],
  [23, 1],
  [340, '0'],
  [70, 7],
  [280, 1],
  [281, 50],
  [282, 50],
  [283, 0],
  [360, '0'],
  [71, 2],
  [91, 5],
  [14, -0.5],
  [24, 0.5],
  [14, 0.5],
  [24, 0.5],
  [14, 0.5],
  [24, -0.5],
  [14, -0.5],
  [24, -0.5],
  [14, -0.5],
  [24, 0.5],
];

describe('WIPEOUT and IMAGE', () => {
  it('a wipeout is a background-coloured area over what was drawn before it, without a frame by default', () => {
    const r = build([[0, 'LINE'], [8, '0'], [10, 0], [20, 21], [30, 0], [11, 20], [21, 21], [31, 0], ...wipeout]);
    const prims = r.scenes[0]!.list.primitives;
    expect(prims.map((p) => (p.kind === 'path' ? p.mode : p.kind))).toEqual(['stroke', 'wipeout']);
    expect(paths(r, 'wipeout')).toEqual([
      [
        [10, 20],
        [14, 20],
        [14, 22],
        [10, 22],
      ],
    ]);
    expect(paths(r, 'stroke')).toHaveLength(1);
  });

  it('draws the wipeout frame when WIPEOUTFRAME is 1; a rectangle clip is given by two corners', () => {
    const rect = wipeout
      .slice(
        0,
        wipeout.findIndex(([c]) => c === 71),
      )
      .concat([
        [71, 1],
        [91, 2],
        [14, -0.5],
        [24, 0.5],
        [14, 0.5],
        [24, -0.5],
      ]);
    const r = build(
      rect,
      [],
      [
        [9, '$WIPEOUTFRAME'],
        [70, 1],
      ],
    );
    const [area] = paths(r, 'wipeout');
    expect(area).toEqual([
      [10, 20],
      [14, 20],
      [14, 22],
      [10, 22],
    ]);
    expect(paths(r, 'stroke')).toEqual([[...area!, area![0]!]]);
  });

  it('an image draws its frame (the clip polygon when clipping is on) and warns once that its pixels are not loaded', () => {
    const image = (clip: G): G => [
      [0, 'IMAGE'],
      [100, 'AcDbEntity'],
      [8, '0'],
      [100, 'AcDbRasterImage'],
      [90, 0],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, 0.1],
      [21, 0],
      [31, 0],
      [12, 0],
      [22, 0.1],
      [32, 0],
      [13, 200],
      [23, 100],
      [340, 'AB'],
      [70, 7],
      ...clip,
    ];
    const def: G = [
      [0, 'IMAGEDEF'],
      [5, 'AB'],
      [100, 'AcDbRasterImageDef'],
      [1, 'photo.png'],
      [10, 200],
      [20, 100],
    ];
    const full = build(
      [
        ...image([
          [280, 0],
          [71, 1],
          [91, 2],
          [14, -0.5],
          [24, -0.5],
          [14, 199.5],
          [24, 99.5],
        ]),
      ],
      def,
    );
    const [frame] = subpaths(full.scenes[0]!.list);
    const pts = frame!.points;
    expect(pts).toHaveLength(5);
    // Pixel (-0.5, -0.5) is the top-left corner of the image.
    const expected = [
      [0, 10],
      [20, 10],
      [20, 0],
      [0, 0],
      [0, 10],
    ];
    pts.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(expected[i]![0]!, 9);
      expect(p[1]).toBeCloseTo(expected[i]![1]!, 9);
    });
    expect(full.warnings.filter((w) => w.code === 'image')).toEqual([expect.objectContaining({ subject: 'photo.png' })]);

    // Clipped to a triangle in pixel coordinates (origin top-left, y down).
    const clipped = build(
      [
        ...image([
          [280, 1],
          [71, 2],
          [91, 3],
          [14, -0.5],
          [24, 99.5],
          [14, 199.5],
          [24, 99.5],
          [14, -0.5],
          [24, -0.5],
        ]),
      ],
      def,
    );
    const tri = subpaths(clipped.scenes[0]!.list)[0]!.points;
    expect(tri).toHaveLength(4);
    const want = [
      [0, 0],
      [20, 0],
      [0, 10],
    ];
    want.forEach((w, i) => {
      expect(tri[i]![0]).toBeCloseTo(w[0]!, 9);
      expect(tri[i]![1]).toBeCloseTo(w[1]!, 9);
    });
  });
});
