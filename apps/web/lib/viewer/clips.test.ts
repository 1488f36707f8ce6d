import { buildScenes, type DisplayList, type Primitive } from '@xcad/cad/display';
import { xclipDxf } from '@xcad/cad/testing';
import { readDxf } from '@xcad/cad/dxf';
import { describe, expect, it } from 'vitest';
import { clipChain, insideClip, insideRing, polygonThrough } from './clips';
import type { GlyphSet } from './glyphs';
import { planOverlay } from './overlay';
import { clipsOf, packList, packScenes, packTexts, transferablesOf } from './pack';
import { snapInList } from './snap';
import { LINE_FLOATS, WIDE_FLOATS, type Bucket, type PackedDrawing, type PackedList } from './types';
import { viewMatrix } from './view';

// XCLIPped block references in the viewer: the packed list keeps each clipped run's geometry
// apart with its polygon, so the renderer can draw it through a stencil; snapping skips what the
// clip hides. The browser test (e2e/tests/viewer.spec.ts) checks the pixels.

/** The fixture's block B in red, clipped to WCS (102, 2)-(112, 12); a frame (90, -10)-(130, 30) outside it. */
function xclipModel(): PackedList {
  const { drawing } = readDxf(xclipDxf({ color: 1 }));
  const scenes = buildScenes(drawing, { layouts: 'model' }).scenes;
  return packScenes(scenes).lists[0] as PackedList;
}

/** World segments of some buckets: [x0, y0, x1, y1] (origins added back). */
function segments(buckets: readonly Bucket[]): number[][] {
  const out: number[][] = [];
  for (const b of buckets) {
    const [ox, oy] = b.origin;
    for (let o = 0; o < b.lines.length; o += 2 * LINE_FLOATS)
      out.push([
        (b.lines[o] as number) + ox,
        (b.lines[o + 1] as number) + oy,
        (b.lines[o + LINE_FLOATS] as number) + ox,
        (b.lines[o + LINE_FLOATS + 1] as number) + oy,
      ]);
    for (let o = 0; o < b.wide.length; o += 6 * WIDE_FLOATS)
      out.push([
        (b.wide[o] as number) + ox,
        (b.wide[o + 1] as number) + oy,
        (b.wide[o + 2] as number) + ox,
        (b.wide[o + 3] as number) + oy,
      ]);
  }
  return out.map((s) => s.map((v) => Math.round(v * 1000) / 1000));
}

const SQUARE = Float64Array.from([0, 0, 10, 0, 10, 10, 0, 10]);

function stroke(x0: number, y0: number, x1: number, y1: number): Primitive {
  return {
    kind: 'path',
    mode: 'stroke',
    style: 0,
    coords: Float64Array.from([x0, y0, x1, y1]),
    starts: Uint32Array.from([0]),
  } as Primitive;
}

function syntheticList(clips: DisplayList['clips']): DisplayList {
  return {
    styles: [{ color: 0xff0000, lineweight: 0, layer: 0 }],
    layers: [{ name: '0', color: 0xff0000, visible: true }],
    fonts: [{ requested: 'txt.shx', family: 'DejaVu Sans', substituted: true }],
    primitives: [
      stroke(1, 1, 2, 2),
      { kind: 'text', text: 'A-1', style: 0, font: 0, size: 1, width: 2, matrix: [1, 0, 0, 1, 3, 3] } as Primitive,
      stroke(4, 4, 5, 5),
      stroke(20, 20, 30, 30),
    ],
    bounds: { minX: 0, minY: 0, maxX: 30, maxY: 30 },
    ...(clips ? { clips } : {}),
  } as DisplayList;
}

describe('XCLIP in the viewer', () => {
  it('packs what the clipped block draws apart from the rest, with its polygon', () => {
    const model = xclipModel();
    expect(model.clips).toHaveLength(1);
    const clip = model.clips[0]!;
    expect(clip.parent).toBe(-1);
    const xs = [...clip.polygon].filter((_, i) => i % 2 === 0);
    const ys = [...clip.polygon].filter((_, i) => i % 2 === 1);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)].map((v) => Math.round(v * 1e6) / 1e6)).toEqual([
      102, 112, 2, 12,
    ]);
    // Outside the clip: the frame only.
    const frame = segments(model.buckets);
    expect(frame).toHaveLength(4);
    expect(frame.flat().every((v) => v === 90 || v === 130 || v === -10 || v === 30)).toBe(true);
    // In the clip: block B's lines (whole: the stencil cuts them) and the nested block's diagonal.
    const inside = segments(clip.buckets);
    expect(inside).toEqual(
      expect.arrayContaining([
        [100, 5, 120, 5],
        [110, 0, 110, 20],
        [100, 0, 120, 20],
      ]),
    );
    expect(clip.buckets.some((b) => b.fills.length > 0)).toBe(true);
    expect(model.buckets.every((b) => b.fills.length === 0)).toBe(true);
    expect(transferablesOf([model])).toContain(clip.polygon.buffer);
  });

  it('knows the innermost clip of each primitive and nests clips in clips', () => {
    const list = syntheticList([
      { from: 0, to: 3, polygon: SQUARE },
      { from: 1, to: 2, polygon: Float64Array.from([2, 2, 8, 2, 8, 8, 2, 8]) },
    ]);
    const { of, parents } = clipsOf(list);
    expect([...of]).toEqual([0, 1, 0, -1]);
    expect([...parents]).toEqual([-1, 0]);
    const packed = packList(list, 0);
    expect(packed.clips.map((c) => c.parent)).toEqual([-1, 0]);
    expect(segments(packed.buckets)).toEqual([[20, 20, 30, 30]]);
    expect(segments(packed.clips[0]!.buckets).sort()).toEqual([
      [1, 1, 2, 2],
      [4, 4, 5, 5],
    ]);
    // The text is in the inner clip: its glyphs go through both stencils.
    expect([...packTexts(list).clips]).toEqual([1]);
    expect(clipChain(packed, 1)).toEqual([0, 1]);
    expect(insideClip(packed, 1, 5, 5)).toBe(true);
    expect(insideClip(packed, 1, 1, 1)).toBe(false);
    expect(insideClip(packed, 0, 1, 1)).toBe(true);
  });

  it('counts inside a ring by even-odd, as the stencil does (an inverted clip: a frame bridged to its hole)', () => {
    expect(insideRing(SQUARE, 5, 5)).toBe(true);
    expect(insideRing(SQUARE, 15, 5)).toBe(false);
    // Frame 0..30 with a hole 10..20 reached by a bridge along y = 10.
    const inverted = Float64Array.from([0, 0, 30, 0, 30, 30, 0, 30, 0, 10, 10, 10, 10, 20, 20, 20, 20, 10, 10, 10, 0, 10]);
    expect(insideRing(inverted, 15, 15)).toBe(false);
    expect(insideRing(inverted, 5, 25)).toBe(true);
    expect(insideRing(inverted, 25, 5)).toBe(true);
  });

  it('snaps only to points the clip shows', () => {
    const model = xclipModel();
    const hidden = new Uint8Array(model.styles.length);
    const identity: [number, number, number, number, number, number] = [1, 0, 0, 1, 0, 0];
    // The horizontal line y = 5 runs 100..120; its ends lie outside the clip 102..112, its middle inside.
    expect(snapInList(model, identity, hidden, 119.8, 5.1, 1)).toBeNull();
    expect(snapInList(model, identity, hidden, 110.3, 5.2, 1)).toMatchObject({ x: 110, y: 5 });
    // The frame outside every clip snaps as before.
    expect(snapInList(model, identity, hidden, 90.2, -9.8, 1)).toMatchObject({ x: 90, y: -10, kind: 'end' });
  });

  it('clips a large text of a clipped block on the 2D overlay too, by its clips outermost first', () => {
    const list = packList(
      syntheticList([
        { from: 0, to: 3, polygon: SQUARE },
        { from: 1, to: 2, polygon: Float64Array.from([2, 2, 8, 2, 8, 8, 2, 8]) },
      ]),
      0,
    );
    const drawing = {
      lists: [list],
      scenes: [{ name: 'Model', isModel: true, tabOrder: 0, list: 0, viewports: [], bounds: list.bounds }],
    } as unknown as PackedDrawing;
    // The text 'A-1' at (3, 3), one unit high, two wide.
    const glyphs: GlyphSet = {
      pages: [],
      lists: [
        {
          buckets: [],
          info: { boxes: Float64Array.from([3, 2.7, 5, 4.1]), ems: Float32Array.from([1]), fits: Float32Array.from([1]) },
          glyphCount: 3,
        },
      ],
      css: [['sans-serif']],
    };
    // 100 device pixels per unit: the text is 100 px high, above the overlay's threshold.
    const view = { cx: 5, cy: 5, scale: 100, width: 1000, height: 1000 };
    const plan = planOverlay(drawing, glyphs, drawing.scenes[0]!, view, [Uint8Array.of(1)]);
    expect(plan.texts).toHaveLength(1);
    const m = viewMatrix(view);
    expect(plan.texts[0]?.clips).toEqual([polygonThrough(list.clips[0]!.polygon, m), polygonThrough(list.clips[1]!.polygon, m)]);
  });
});
