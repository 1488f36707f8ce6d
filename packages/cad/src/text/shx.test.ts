import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFontProvider } from './node-fonts';
import { loadShx, shxKind } from './shx';
import { makeBigFont, makeShapesFont, makeUnifont, sb, TEST_CJK_BYTES, TEST_GLYPHS, vec } from './shx-fixture';
import { buildText, strokes, text, texts } from './test-helpers';

const dir = mkdtempSync(join(tmpdir(), 'shx-test-'));
writeFileSync(join(dir, 'testfont.shx'), makeShapesFont({ name: 'Test font', above: 6, below: 2, glyphs: TEST_GLYPHS }));
writeFileSync(join(dir, 'testuni.shx'), makeUnifont({ name: 'Test unifont', above: 6, below: 2, glyphs: [...TEST_GLYPHS, { code: 0x4e2d, bytes: TEST_CJK_BYTES }] }));
writeFileSync(join(dir, 'testbig.shx'), makeBigFont({ name: 'Test big font', height: 6, width: 6, ranges: [[0x81, 0xfe]], glyphs: [{ code: 0xd6d0, bytes: TEST_CJK_BYTES }] }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fonts = () => nodeFontProvider({ fontDirs: [dir], systemFonts: false });

describe('SHX reader', () => {
  it('reads the three file kinds', () => {
    const shapes = loadShx(makeShapesFont({ name: 'n', above: 6, below: 2, glyphs: TEST_GLYPHS }));
    expect([shapes.kind, shapes.name, shapes.above, shapes.below]).toEqual(['shapes', 'n', 6, 2]);
    expect(shxKind(makeUnifont({ name: 'u', above: 6, below: 2, glyphs: TEST_GLYPHS }))).toBe('unifont');
    const big = loadShx(makeBigFont({ name: 'b', height: 6, width: 6, ranges: [[0x81, 0xfe]], glyphs: [{ code: 0xd6d0, bytes: TEST_CJK_BYTES }] }));
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

describe('SHX text in the display list', () => {
  it('a style with an SHX font found in the font folder draws strokes, not text', () => {
    const { list, missing } = buildText({ styles: [{ name: 'STANDARD', font: 'testfont.shx' }], entities: text('IL', { x: 10, y: 20, height: 3 }) }, fonts());
    expect(texts(list)).toHaveLength(0);
    const s = strokes(list);
    // I: from the baseline to the cap height (3 units).
    expect(s[0]!.points).toEqual([
      [10, 20],
      [10, 23],
    ]);
    // L starts after the I's advance (2/6 of the height = 1 unit).
    expect(s[1]!.points[0]).toEqual([11, 23]);
    expect(missing).toEqual([]);
  });

  it('width factor, rotation and right alignment apply to SHX glyphs', () => {
    const { list } = buildText(
      { styles: [{ name: 'STANDARD', font: 'testfont.shx' }], entities: text('L', { height: 6, widthFactor: 2, rotation: 90, halign: 2, align: [0, 0] }) },
      fonts(),
    );
    const pts = strokes(list)[0]!.points;
    // L is 6 wide (advance) at height 6, doubled by the width factor: the text ends at the point.
    // Rotated 90°: the foot of the L (4 units, ×2) runs up; it starts 12 below the alignment point.
    expect(pts[1]![0]).toBeCloseTo(0, 9);
    expect(pts[1]![1]).toBeCloseTo(-12, 9);
    expect(pts[2]![1]).toBeCloseTo(-4, 9);
  });

  it('Chinese with a big font found is stroked from the big font (GBK codes)', () => {
    const { list, missing } = buildText({ styles: [{ name: 'STANDARD', font: 'testfont.shx', bigFont: 'testbig.shx' }], entities: text('I中', { height: 6 }) }, fonts());
    expect(texts(list)).toHaveLength(0);
    const s = strokes(list);
    // I, then the box of 中 from x = 2 (6 high) and its bar.
    expect(s).toHaveLength(3);
    expect(s[1]!.points[0]).toEqual([2, 0]);
    expect(s[1]!.points[2]).toEqual([8, 6]);
    expect(missing).toEqual([]);
  });

  it('a unifont with its own CJK glyphs needs no big font', () => {
    const { list } = buildText({ styles: [{ name: 'STANDARD', font: 'testuni.shx' }], entities: text('中', { height: 6 }) }, fonts());
    expect(texts(list)).toHaveLength(0);
    expect(strokes(list)).toHaveLength(2);
  });

  it('a missing SHX font is reported and the text falls back to TrueType', () => {
    const { list, missing, substituted } = buildText({ styles: [{ name: 'STANDARD', font: 'nosuch.shx', bigFont: 'nosuchbig.shx' }], entities: text('AB中', { height: 2 }) }, fonts());
    expect(substituted).toEqual(['nosuch.shx', 'nosuchbig.shx']);
    // An unknown text font looks different in the sans substitute; a big font's Chinese in the CJK face is the usual stand-in.
    expect(missing).toEqual(['nosuch.shx']);
    expect(texts(list).map((t) => t.text)).toEqual(['AB', '中']);
    expect(list.fonts.map((f) => f.substituted)).toEqual([true, true]);
  });

  it('MTEXT \\F switches to an SHX font for a run', () => {
    const { list } = buildText(
      { styles: [{ name: 'STANDARD', font: 'arial.ttf' }], entities: [[0, 'MTEXT'], [8, '0'], [10, 0], [20, 0], [30, 0], [40, 3], [41, 0], [71, 1], [1, 'ab{\\Ftestfont.shx;I}'], [7, 'STANDARD']] },
      fonts(),
    );
    expect(texts(list).map((t) => t.text)).toEqual(['ab']);
    const [bar] = strokes(list);
    expect(bar!.points[1]![1] - bar!.points[0]![1]).toBeCloseTo(3, 9);
  });
});
