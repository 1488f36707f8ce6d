import { describe, expect, it } from 'vitest';
import { buildGlyphs, cssFamilies, FONT_PX, GLYPH_FLOATS, isCjkCode } from './glyphs';
import type { PackedList } from './types';

/** A 2D canvas stand-in: every character is half an em wide, except CJK (one em); drawing records calls. */
function fakeCanvas(drawn: string[]) {
  return (width: number, height: number) => {
    const ctx = {
      font: '',
      fillStyle: '',
      textBaseline: '',
      measureText: (ch: string) => ({ width: ([...ch].every((c) => isCjkCode(c.codePointAt(0) as number)) ? 1 : 0.5) * FONT_PX }),
      fillText: (ch: string) => drawn.push(ch),
    };
    return { width, height, getContext: () => ctx } as unknown as HTMLCanvasElement;
  };
}

function listWithText(text: string, width: number, matrix: number[]): PackedList {
  return {
    id: 0,
    styles: [{ color: -1, lineweight: 0.25, layer: 0 }],
    layers: [{ name: '0', color: -1, visible: true }],
    fonts: [{ requested: 'txt.shx', family: 'DejaVu Sans', substituted: true }],
    buckets: [],
    clips: [],
    texts: {
      count: 1,
      chars: text,
      offsets: Uint32Array.from([0, text.length]),
      matrices: Float64Array.from(matrix),
      sizes: Float32Array.from([10]),
      widths: Float32Array.from([width]),
      styles: Uint32Array.from([0]),
      fonts: Uint16Array.from([0]),
      orders: Float32Array.from([7]),
      clips: Int32Array.from([-1]),
    },
    primitiveCount: 8,
    bounds: { minX: 0, minY: 0, maxX: 100, maxY: 100 },
    segmentCount: 0,
    triangleCount: 0,
    coarseTolerance: 0,
  };
}

describe('glyph atlas and quads', () => {
  it('draws each distinct character once and one quad per visible character', () => {
    const drawn: string[] = [];
    const set = buildGlyphs([listWithText('AB A', 20, [1, 0, 0, 1, 0, 0])], fakeCanvas(drawn));
    expect(drawn.sort()).toEqual(['A', 'B']);
    expect(set.lists[0]?.glyphCount).toBe(3);
    expect(set.pages).toHaveLength(1);
  });

  it('fits the line to the width the engine measured and places glyphs along the text matrix', () => {
    // 'AAAA' measures 2 em in the fake font; the engine measured 30 units at size 10 (3 em): fit 1.5.
    const set = buildGlyphs([listWithText('AAAA', 30, [0, 1, -1, 0, 50, 60])], fakeCanvas([]));
    const info = set.lists[0]?.info;
    expect(info?.fits[0]).toBeCloseTo(1.5, 6);
    // Each glyph: two triangles; the first vertex is the cell's lower left corner.
    const data = set.lists[0]?.buckets.flatMap((b) => {
      const out: number[][] = [];
      for (let o = 0; o < b.data.length; o += 6 * GLYPH_FLOATS)
        out.push([
          (b.data[o] as number) + b.origin[0],
          (b.data[o + 1] as number) + b.origin[1],
          b.data[o + 4] as number,
          b.data[o + 5] as number,
        ]);
      return out;
    });
    expect(data).toHaveLength(4);
    // Rotated 90°: the baseline runs up the y axis; each glyph 0.5 em × 10 × 1.5 = 7.5 further.
    const ys = (data ?? []).map((d) => d[1] as number).sort((a, b) => a - b);
    expect((ys[1] as number) - (ys[0] as number)).toBeCloseTo(7.5, 4);
    expect((ys[3] as number) - (ys[0] as number)).toBeCloseTo(22.5, 4);
    expect((data ?? []).every((d) => d[2] === 7 && d[3] === 0)).toBe(true);
    // The text box covers the rotated line.
    expect(info?.boxes[1]).toBeLessThanOrEqual(60);
    expect(info?.boxes[3]).toBeGreaterThanOrEqual(60 + 30 - 1e-9);
    expect(info?.ems[0]).toBeCloseTo(10, 6);
  });

  it('sets CJK characters in a CJK font whatever the drawing asked for', () => {
    // The face the engine ships first (loaded by cjk-fonts.ts), then installed CJK fonts.
    expect(cssFamilies('DejaVu Sans', true)).toMatch(/^"Xcad Noto Sans SC", "Noto Sans CJK SC"/);
    expect(cssFamilies('Noto Serif SC', true)).toMatch(/^"Xcad Noto Serif SC", /);
    expect(cssFamilies('Noto Sans SC', false)).toMatch(/^"Xcad Noto Sans SC", /);
    expect(cssFamilies('Liberation Serif', false)).toMatch(/^"Liberation Serif", .*serif$/);
    const drawn: string[] = [];
    const set = buildGlyphs([listWithText('图纸A', 25, [1, 0, 0, 1, 0, 0])], fakeCanvas(drawn));
    expect(set.lists[0]?.glyphCount).toBe(3);
    expect(drawn).toHaveLength(3);
  });
});
