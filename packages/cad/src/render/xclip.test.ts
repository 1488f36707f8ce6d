import { describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import type { InsertEntity } from '../model';
import { renderScenes } from './index';
import { decode, type Pixels } from './test-scenes';
import { drawList, type Sink } from './walk';
import { buildScenes } from '../display/builder';
import type { DisplayList } from '../display/types';
import { xclipDxf } from '../display/xclip-fixture';

const insertOf = (bytes: Uint8Array): InsertEntity => {
  const e = readDxf(bytes).drawing.modelSpace.find((x): x is InsertEntity => x.type === 'INSERT');
  if (!e) throw new Error('no INSERT');
  return e;
};
const modelOf = (bytes: Uint8Array): DisplayList => {
  const s = buildScenes(readDxf(bytes).drawing, { layouts: 'model' }).scenes[0];
  if (!s) throw new Error('no model scene');
  return s.list;
};

/** The picture at 400 px wide: the frame spans 90..130 × -10..30, so 10 px per unit. */
async function picture(bytes: Uint8Array): Promise<{ img: Pixels; ink: (x: number, y: number) => boolean }> {
  const scenes = buildScenes(readDxf(bytes).drawing, { layouts: 'model' }).scenes;
  const img = await decode(await renderScenes(scenes, { format: 'png', width: 400 }));
  const px = (x: number): number => ((x - 90) / 40) * (img.width - 1);
  const py = (y: number): number => ((30 - y) / 40) * (img.height - 1);
  // Any dark pixel within 1 px of the point (antialiased thin lines straddle pixels).
  const ink = (x: number, y: number): boolean => {
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const [r, g, b] = img.at(px(x) + dx, py(y) + dy);
        if (r + g + b < 600) return true;
      }
    return false;
  };
  return { img, ink };
}

describe('XCLIP (SPATIAL_FILTER) of block references', () => {
  it('reads the clip rectangle into block coordinates through the inverse insert matrix', () => {
    expect(insertOf(xclipDxf()).clip).toEqual({
      boundary: [
        [2, 2],
        [12, 2],
        [12, 12],
        [2, 12],
      ],
      inverted: false,
    });
    expect(insertOf(xclipDxf({ noFilter: true })).clip).toBeUndefined();
    // XCLIP OFF (71 = 0): the whole block shows.
    expect(insertOf(xclipDxf({ enabled: false })).clip).toBeUndefined();
  });

  it('builds a rectangle from two points in the WCS of the clip, then maps its corners (rotated reference)', () => {
    const e = insertOf(xclipDxf({ rotation: 45 }));
    const list = modelOf(xclipDxf({ rotation: 45 }));
    // Back in the world through the INSERT: the rectangle as picked, with axis-parallel sides.
    const ring = Array.from(list.clips?.[0]?.polygon ?? []);
    const expected = [95, 2, 105, 2, 105, 12, 95, 12];
    expect(ring.length).toBe(8);
    ring.forEach((v, i) => expect(v).toBeCloseTo(expected[i] as number, 9));
    // In block coordinates it is a rotated square (4 corners, side 10).
    expect(e.clip?.boundary.length).toBe(4);
    const [p, q] = e.clip!.boundary as [[number, number], [number, number]];
    expect(Math.hypot(q[0] - p[0], q[1] - p[1])).toBeCloseTo(10, 9);
    expect(Math.abs(q[0] - p[0])).toBeCloseTo(10 * Math.SQRT1_2, 9);
  });

  it('marks everything the block draws (nested blocks and fills too) as one clipped run; the extents stop at the clip', () => {
    const list = modelOf(xclipDxf());
    expect(list.clips).toHaveLength(1);
    const run = list.clips![0]!;
    expect(Array.from(run.polygon)).toEqual([102, 2, 112, 2, 112, 12, 102, 12]);
    // The run covers the block's strokes and the SOLID fill; the frame polyline comes after it.
    const kinds = list.primitives.slice(run.from, run.to).map((p) => (p.kind === 'path' ? p.mode : p.kind));
    expect(kinds).toContain('fill');
    expect(run.from).toBe(0);
    expect(run.to).toBe(list.primitives.length - 1);
    // Extents of the block alone: only what the clip shows.
    expect(modelOf(xclipDxf({ noFrame: true })).bounds).toEqual({ minX: 102, minY: 2, maxX: 112, maxY: 12 });
    const plain = modelOf(xclipDxf({ noFrame: true, noFilter: true }));
    expect(plain.bounds).toEqual({ minX: 100, minY: 0, maxX: 120, maxY: 20 });
    expect(plain.clips).toBeUndefined();
  });

  it('the drawn lines stop at the clip boundary; without the filter they do not', async () => {
    const clipped = await picture(xclipDxf());
    // The line y = 5 runs from x = 100 to 120 in the world: only 102..112 shows.
    expect(clipped.ink(103, 5)).toBe(true);
    expect(clipped.ink(111, 5)).toBe(true);
    expect(clipped.ink(101, 5)).toBe(false);
    expect(clipped.ink(114, 5)).toBe(false);
    expect(clipped.ink(119, 5)).toBe(false);
    // The vertical line x = 110 from y = 0 to 20: only 2..12 shows.
    expect(clipped.ink(110, 11)).toBe(true);
    expect(clipped.ink(110, 14)).toBe(false);
    expect(clipped.ink(110, 19)).toBe(false);
    // The nested diagonal (100, 0)–(120, 20) inside the clip only; the SOLID (114..118) is gone.
    expect(clipped.ink(107, 7)).toBe(true);
    expect(clipped.ink(116, 16)).toBe(false);
    expect(clipped.ink(116, 15)).toBe(false);

    const plain = await picture(xclipDxf({ noFilter: true }));
    expect(plain.ink(101, 5)).toBe(true);
    expect(plain.ink(119, 5)).toBe(true);
    expect(plain.ink(110, 19)).toBe(true);
    expect(plain.ink(116, 16)).toBe(true);
    expect(plain.ink(107, 7)).toBe(true);
  });

  it('an inverted clip hides the block inside the boundary and shows it outside', async () => {
    const e = insertOf(xclipDxf({ inverted: true }));
    expect(e.clip?.inverted).toBe(true);
    expect(e.clip?.boundary).toEqual([
      [2, 2],
      [12, 2],
      [12, 12],
      [2, 12],
    ]);
    const { ink } = await picture(xclipDxf({ inverted: true }));
    expect(ink(105, 5)).toBe(false);
    expect(ink(110, 9)).toBe(false);
    expect(ink(101, 5)).toBe(true);
    expect(ink(117, 5)).toBe(true);
    expect(ink(110, 17)).toBe(true);
    expect(ink(116, 16)).toBe(true);
  });

  it('$XCLIPFRAME 1 plots the clip frame; 2 (displayed, not plotted) does not', async () => {
    const framed = await picture(xclipDxf({ frame: 1 }));
    // The top side of the clip rectangle, y = 12, away from the block's lines.
    expect(framed.ink(104, 12)).toBe(true);
    expect(framed.ink(108, 2)).toBe(true);
    const unframed = await picture(xclipDxf({ frame: 2 }));
    expect(unframed.ink(104, 12)).toBe(false);
  });

  it('the back ends get nested clips for a clipped block inside a clipped block', () => {
    const list: DisplayList = {
      styles: [{ color: 0, lineweight: 0, layer: 0 }],
      layers: [{ name: '0', color: 0, visible: true }],
      fonts: [],
      bounds: null,
      primitives: [0, 1, 2, 3].map(() => ({
        kind: 'path',
        mode: 'stroke',
        style: 0,
        coords: Float64Array.from([0, 0, 1, 1]),
        starts: Uint32Array.from([0]),
      })),
      clips: [
        { from: 1, to: 4, polygon: Float64Array.from([0, 0, 10, 0, 10, 10]) },
        { from: 2, to: 3, polygon: Float64Array.from([0, 0, 5, 0, 5, 5]) },
      ],
    };
    const calls: string[] = [];
    const sink: Sink = {
      path: () => calls.push('path'),
      text: () => calls.push('text'),
      image: () => calls.push('image'),
      beginClip: (p) => calls.push(`clip ${p[2]}`),
      endClip: () => calls.push('end'),
    };
    drawList(list, [2, 0, 0, 2, 0, 0], sink);
    expect(calls).toEqual(['path', 'clip 20', 'path', 'clip 10', 'path', 'end', 'path', 'end']);
  });
});
