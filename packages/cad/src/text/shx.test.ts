import { describe, expect, it } from 'vitest';
import { loadShx, shxKind } from './shx';
import { makeBigFont, makeShapesFont, makeUnifont, sb, TEST_CJK_BYTES, TEST_GLYPHS, vec } from './shx-fixture';

describe('SHX reader', () => {
  it('reads the three file kinds', () => {
    const shapes = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs: TEST_GLYPHS }));
    expect([shapes.kind, shapes.name, shapes.above, shapes.below]).toEqual(['shapes', 'n', 6, 2]);
    expect(shxKind(makeUnifont({ name: 'u', above: 6, below: 2, glyphs: TEST_GLYPHS }))).toBe('unifont');
    const big = loadShx(
      makeBigFont({ name: 'b', height: 6, width: 6, ranges: [[0x81, 0xfe]], glyphs: [{ code: 0xd6d0, bytes: TEST_CJK_BYTES }] }),
    );
    expect([big.kind, big.has(0xd6d0), big.ranges]).toEqual(['bigfont', true, [[0x81, 0xfe]]]);
    expect(() => loadShx(new TextEncoder().encode('not a font'))).toThrow();
  });

  it('vectors, pen up/down and displacements give the glyph strokes in height units', () => {
    const f = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs: TEST_GLYPHS }));
    const i = f.glyph(0x49)!;
    expect(i.strokes).toEqual([[0, 0, 0, 1]]);
    expect(i.advance).toBeCloseTo(2 / 6, 12);
    const l = f.glyph(0x4c)!;
    expect(l.strokes).toEqual([[0, 1, 0, 0, 4 / 6, 0]]);
    expect(f.glyph(0x20)!.strokes).toEqual([]);
  });

  it('an octant arc draws a full circle', () => {
    const f = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs: TEST_GLYPHS }));
    const o = f.glyph(0x4f)!;
    expect(o.strokes).toHaveLength(1);
    const pts = o.strokes[0]!;
    for (let k = 0; k < pts.length; k += 2) expect(Math.hypot(pts[k]! - 0.5, pts[k + 1]! - 0.5)).toBeCloseTo(0.5, 9);
    expect(o.advance).toBeCloseTo(7 / 6, 12);
  });

  it('bulge arcs: a half circle bulging the right way', () => {
    // Code 12: to (6, 0) with bulge 127 (a half circle, counter-clockwise: below the chord).
    const f = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs: [{ code: 0x41, bytes: [1, 12, sb(6), sb(0), sb(127)] }] }));
    const pts = f.glyph(0x41)!.strokes[0]!;
    const ys = pts.filter((_, k) => k % 2 === 1);
    expect(Math.min(...ys)).toBeCloseTo(-0.5, 2);
    expect(pts.at(-2)).toBeCloseTo(1, 9);
  });

  it('subshapes and push/pop', () => {
    const glyphs = [
      { code: 0x31, bytes: [1, vec(6, 4)] },
      // 5 push, draw the subshape 1 (a vertical bar), 6 pop, move right 3.
      { code: 0x41, bytes: [5, 7, 0x31, 6, 2, vec(3, 0)] },
    ];
    const f = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs }));
    const a = f.glyph(0x41)!;
    expect(a.strokes).toEqual([[0, 0, 0, 1]]);
    expect(a.advance).toBeCloseTo(0.5, 12);
  });
});
