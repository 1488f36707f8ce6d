import { describe, expect, it } from 'vitest';
import type { TextStyle } from '../model';
import { createFontProvider, defaultFontProvider, fontRuns, hasCjk, type FontHost } from './fonts';
import { FONT_METRICS } from './metrics-table';
import { makeBigFont, makeShapesFont, TEST_CJK_BYTES, TEST_GLYPHS } from './shx-fixture';

function style(font: string, bigFont = '', fontFamily?: string): TextStyle {
  return {
    name: 'S',
    flags: 0,
    font,
    bigFont,
    fixedHeight: 0,
    widthFactor: 1,
    oblique: 0,
    generation: 0,
    ...(fontFamily ? { fontFamily } : {}),
  };
}

/** A host with in-memory files (what a browser would fetch). */
function memoryHost(files: Record<string, Uint8Array>): FontHost {
  const byName = new Map(Object.entries(files).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    findFile: (name) => (byName.has(name.toLowerCase()) ? name.toLowerCase() : undefined),
    read: (file) => byName.get(file),
  };
}

describe('font resolution', () => {
  it('CJK text resolves to the shipped CJK faces (宋体 to the serif one); Latin text of an SHX style to a sans substitute', () => {
    const p = defaultFontProvider();
    expect(p.resolve(style('txt.shx', 'gbcbig.shx'), '建筑设计').ref.family).toBe('Noto Sans SC');
    expect(p.resolve(style('txt.shx'), 'ABC').ref.family).toBe('DejaVu Sans');
    expect(p.resolve(style('simsun.ttc'), 'abc').ref.family).toBe('Noto Serif SC');
    expect(p.resolve(style('', '', '仿宋_GB2312'), '说明').ref.family).toBe('Noto Serif SC');
    expect(p.resolve(style('', '', '黑体'), '说明').ref.family).toBe('Noto Sans SC');
    // Big fonts are strokes of even width: their Chinese is closest to the sans face, whatever they are called.
    expect(p.resolve(style('txt.shx', 'hzfs.shx'), '说明').ref.family).toBe('Noto Sans SC');
    expect(hasCjk('图层 0')).toBe(true);
  });

  it('a Latin TrueType style never sets Chinese in the Latin font: the run is split by script', () => {
    const p = defaultFontProvider();
    const runs = fontRuns(p, style('arial.ttf', '', 'Arial'), 'Room 客厅 12');
    expect(runs.map((r) => [r.text, r.font.ref.family])).toEqual([
      ['Room ', 'Liberation Sans'],
      ['客厅 ', 'Noto Sans SC'],
      ['12', 'Liberation Sans'],
    ]);
    // The fallback CJK font is set at the em size of the Latin font.
    expect(runs[1]!.font.capHeight).toBeCloseTo(runs[0]!.font.capHeight, 9);
  });

  it('Arial, Times and Courier map to their metric-compatible substitutes; unknown fonts to DejaVu Sans', () => {
    const p = defaultFontProvider();
    expect(p.resolve(style('', '', 'Times New Roman'), 'x').ref.family).toBe('Liberation Serif');
    expect(p.resolve(style('cour.ttf'), 'x').ref.family).toBe('Liberation Mono');
    expect(p.resolve(style('SomeFancy.ttf'), 'x').ref.family).toBe('DejaVu Sans');
    expect(p.resolve(style('romans'), 'x').ref.requested).toBe('romans.shx');
  });

  it('every font not found is reported once; only substitutes that look different are notices', () => {
    const p = defaultFontProvider();
    for (let i = 0; i < 3; i++) {
      p.resolve(style('simplex.shx', 'gbcbig.shx'), 'a中');
      fontRuns(p, style('SIMPLEX.SHX', 'GBCBIG.SHX'), 'b文');
      p.resolve(style('arial.ttf', '', 'Arial'), 'x');
      p.resolve(style('simsun.ttc'), '宋体字');
      p.resolve(style('', '', '楷体_GB2312'), '楷体字');
      p.resolve(style('fancy.shx'), 'x');
      p.resolve(style('OpenSansCondensed-Light.ttf'), 'x');
    }
    expect(p.substitutions()).toEqual([
      { requested: 'simplex.shx', family: 'DejaVu Sans', alike: true },
      { requested: 'gbcbig.shx', family: 'Noto Sans SC', alike: true },
      { requested: 'arial.ttf', family: 'Liberation Sans', alike: true },
      { requested: 'simsun.ttc', family: 'Noto Serif SC', alike: true },
      { requested: '楷体_GB2312', family: 'Noto Serif SC', alike: false },
      { requested: 'fancy.shx', family: 'DejaVu Sans', alike: false },
      { requested: 'OpenSansCondensed-Light.ttf', family: 'DejaVu Sans', alike: false },
    ]);
    expect(p.missing()).toEqual(['楷体_GB2312', 'fancy.shx', 'OpenSansCondensed-Light.ttf']);
  });

  it('reports each character no font has, once', () => {
    const p = defaultFontProvider();
    // Hangul: the shipped Chinese faces do not have it (no Korean font installed here).
    fontRuns(p, style('txt.shx', 'gbcbig.shx'), '한국 中文 ABC');
    fontRuns(p, style('', '', 'Arial'), '한 x');
    expect(p.missingCharacters()).toEqual(['한', '국']);
  });

  it('measure() follows the real advance widths of the font drawn (generated table)', () => {
    const p = defaultFontProvider();
    const dv = p.resolve(style('txt.shx'), 'W');
    const table = FONT_METRICS['DejaVu Sans'];
    if (!table) return; // the table was generated without DejaVu
    // 'W' and 'i' in DejaVu Sans: 989 and 278 per mille.
    expect(dv.measure('W')).toBeCloseTo(0.989, 3);
    expect(dv.measure('i')).toBeCloseTo(0.278, 3);
    expect(dv.capHeight).toBeCloseTo(0.729, 3);
    const cjk = p.resolve(style('simsun.ttc'), '中');
    expect(cjk.measure('中文')).toBeCloseTo(2, 9);
  });

  it('a ⌀ the Latin font lacks takes a font that has it', () => {
    const p = defaultFontProvider();
    const runs = fontRuns(p, style('arial.ttf', '', 'Arial'), '\u230050');
    expect(runs[0]!.text).toBe('\u2300');
    expect(runs[0]!.font.covers?.('\u2300')).toBe(true);
    expect(runs[0]!.font.ref.family).toBe('DejaVu Sans');
  });

  it('SHX fonts a host provides are stroke fonts, with the big font for Chinese', () => {
    const host = memoryHost({
      'test.shx': makeShapesFont({ name: 'test', above: 6, below: 2, glyphs: TEST_GLYPHS }),
      'testbig.shx': makeBigFont({
        name: 'big',
        height: 6,
        width: 6,
        ranges: [[0x81, 0xfe]],
        glyphs: [{ code: 0xd6d0, bytes: TEST_CJK_BYTES }],
      }),
    });
    const p = createFontProvider({ host });
    const runs = fontRuns(p, style('test.shx', 'testbig.shx'), 'IL中');
    expect(runs.map((r) => r.text)).toEqual(['IL', '中']);
    expect(runs[0]!.font.glyph).toBeDefined();
    expect(runs[0]!.font.capHeight).toBe(1);
    // I advances 2/6, L 6/6 of the height.
    expect(runs[0]!.font.measure('IL')).toBeCloseTo(8 / 6, 9);
    expect(runs[1]!.font.glyph?.('中')?.strokes.length).toBe(2);
    expect(p.substitutions()).toEqual([]);
    // A character neither SHX font has goes to TrueType.
    const mixed = fontRuns(p, style('test.shx', 'testbig.shx'), 'IZ文');
    expect(mixed.map((r) => [r.text, !!r.font.glyph])).toEqual([
      ['I', true],
      ['Z', false],
      ['文', false],
    ]);
  });
});
