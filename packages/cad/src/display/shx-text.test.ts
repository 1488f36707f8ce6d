import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFontProvider } from '../text/node-fonts';
import { makeBigFont, makeShapesFont, makeUnifont, TEST_CJK_BYTES, TEST_GLYPHS } from '../text/shx-fixture';
import { buildText, strokes, text, texts } from './text-test-helpers';

const dir = mkdtempSync(join(tmpdir(), 'shx-test-'));
writeFileSync(join(dir, 'testfont.shx'), makeShapesFont({ name: 'Test font', above: 6, below: 2, glyphs: TEST_GLYPHS }));
writeFileSync(
  join(dir, 'testuni.shx'),
  makeUnifont({ name: 'Test unifont', above: 6, below: 2, glyphs: [...TEST_GLYPHS, { code: 0x4e2d, bytes: TEST_CJK_BYTES }] }),
);
writeFileSync(
  join(dir, 'testbig.shx'),
  makeBigFont({ name: 'Test big font', height: 6, width: 6, ranges: [[0x81, 0xfe]], glyphs: [{ code: 0xd6d0, bytes: TEST_CJK_BYTES }] }),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fonts = () => nodeFontProvider({ fontDirs: [dir], systemFonts: false });

describe('SHX text in the display list', () => {
  it('a style with an SHX font found in the font folder draws strokes, not text', () => {
    const { list, missing } = buildText(
      { styles: [{ name: 'STANDARD', font: 'testfont.shx' }], entities: text('IL', { x: 10, y: 20, height: 3 }) },
      fonts(),
    );
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
      {
        styles: [{ name: 'STANDARD', font: 'testfont.shx' }],
        entities: text('L', { height: 6, widthFactor: 2, rotation: 90, halign: 2, align: [0, 0] }),
      },
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
    const { list, missing } = buildText(
      { styles: [{ name: 'STANDARD', font: 'testfont.shx', bigFont: 'testbig.shx' }], entities: text('I中', { height: 6 }) },
      fonts(),
    );
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
    const { list, missing, substituted } = buildText(
      { styles: [{ name: 'STANDARD', font: 'nosuch.shx', bigFont: 'nosuchbig.shx' }], entities: text('AB中', { height: 2 }) },
      fonts(),
    );
    expect(substituted).toEqual(['nosuch.shx', 'nosuchbig.shx']);
    // An unknown text font looks different in the sans substitute; a big font's Chinese in the CJK face is the usual stand-in.
    expect(missing).toEqual(['nosuch.shx']);
    expect(texts(list).map((t) => t.text)).toEqual(['AB', '中']);
    expect(list.fonts.map((f) => f.substituted)).toEqual([true, true]);
  });

  it('MTEXT \\F switches to an SHX font for a run', () => {
    const { list } = buildText(
      {
        styles: [{ name: 'STANDARD', font: 'arial.ttf' }],
        entities: [
          [0, 'MTEXT'],
          [8, '0'],
          [10, 0],
          [20, 0],
          [30, 0],
          [40, 3],
          [41, 0],
          [71, 1],
          [1, 'ab{\\Ftestfont.shx;I}'],
          [7, 'STANDARD'],
        ],
      },
      fonts(),
    );
    expect(texts(list).map((t) => t.text)).toEqual(['ab']);
    const [bar] = strokes(list);
    expect(bar!.points[1]![1] - bar!.points[0]![1]).toBeCloseTo(3, 9);
  });
});
