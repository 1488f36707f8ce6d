import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TextStyle } from '../model';
import { fontRuns } from './fonts';
import { nodeFontProvider, shippedFontFile } from './node-fonts';
import { readSfnt } from './sfnt';
import { makeShapesFont, TEST_GLYPHS } from './shx-fixture';
import { fontCollection } from './test-helpers';

const SANS_SC = shippedFontFile('cjkSans') as string;
const SERIF_SC = shippedFontFile('cjkSerif') as string;
const DEJAVU = shippedFontFile('sans') as string;

/** Runs `f` with environment variables set (undefined: removed), then puts them back. */
function withEnv<T>(vars: Record<string, string | undefined>, f: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>): void => {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    }
  };
  apply(vars);
  try {
    return f();
  } finally {
    apply(saved);
  }
}

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

const dir = mkdtempSync(join(tmpdir(), 'fonts-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('node font provider', () => {
  it('with installed fonts hidden, Chinese resolves to the shipped Noto Sans SC, 宋体 to Noto Serif SC', () => {
    withEnv({ CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: undefined }, () => {
      const p = nodeFontProvider();
      const big = p.resolve(style('txt', 'hztxt.shx'), '天正建筑');
      expect(big.ref).toMatchObject({ file: SANS_SC, family: 'Noto Sans SC', substituted: true });
      // A big font's cell is the text height square: the em is the height, raised onto the cell.
      expect(big.capHeight).toBe(1);
      expect(big.rise).toBeCloseTo(0.12, 9);
      expect(p.resolve(style('simsun.ttc'), '宋体').ref).toMatchObject({ file: SERIF_SC, family: 'Noto Serif SC' });
      // The Latin substitute comes with npm too.
      expect(p.resolve(style('txt'), 'ABC').ref.file).toBe(DEJAVU);
      expect(p.missing()).toEqual([]);
    });
  });

  it('an installed CJK font of any name comes before the shipped one, $XCAD_CJK_FONT before both', () => {
    const fonts = join(dir, 'cjk-any');
    mkdirSync(fonts, { recursive: true });
    // A Chinese sans (GB2312 code page) under a name no list knows.
    symlinkSync(SANS_SC, join(fonts, 'corporate-hei.ttf'));
    withEnv({ CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: undefined }, () => {
      const p = nodeFontProvider({ fontDirs: [fonts] });
      expect(p.resolve(style('txt', 'gbcbig.shx'), '说明').ref.file).toBe(join(fonts, 'corporate-hei.ttf'));
      // A serif request does not take a sans font: the shipped serif is the closer match.
      expect(p.resolve(style('simsun.ttc'), '说明').ref.file).toBe(SERIF_SC);
    });
    withEnv({ CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: SERIF_SC }, () => {
      expect(nodeFontProvider({ fontDirs: [fonts] }).resolve(style('txt', 'gbcbig.shx'), '说明').ref.file).toBe(SERIF_SC);
    });
  });

  it('SHX fonts not found fall back to DejaVu Sans from its file; each missing font reported once', () => {
    const p = nodeFontProvider({ fontDirs: [dir] });
    const runs = fontRuns(p, style('simplex.shx', 'gbcbig.shx'), 'A1 中');
    expect(runs[0]!.font.ref.file).toMatch(/DejaVuSans\.ttf$/);
    fontRuns(p, style('simplex.shx', 'gbcbig.shx'), 'B2 文');
    expect(p.substitutions().map((x) => x.requested)).toEqual(['simplex.shx', 'gbcbig.shx']);
  });

  it('$CAD_FONT_DIR folders are searched for SHX fonts', () => {
    mkdirSync(join(dir, 'nested'), { recursive: true });
    // Sub-folders are searched too.
    writeFileSync(join(dir, 'nested', 'envfont.shx'), makeShapesFont({ name: 'env', above: 6, below: 2, glyphs: TEST_GLYPHS }));
    const saved = process.env.CAD_FONT_DIR;
    process.env.CAD_FONT_DIR = `/nonexistent:${dir}`;
    try {
      const p = nodeFontProvider({ systemFonts: false });
      const f = p.resolve(style('EnvFont.SHX'), 'IL');
      expect(f.glyph).toBeDefined();
      expect(f.ref.file).toBe(join(dir, 'nested', 'envfont.shx'));
      expect(p.missing()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.CAD_FONT_DIR;
      else process.env.CAD_FONT_DIR = saved;
    }
  });

  it('a TrueType file the drawing names is used and measured from the file itself', () => {
    copyFileSync(DEJAVU, join(dir, 'MyFont.ttf'));
    const p = nodeFontProvider({ fontDirs: [dir], systemFonts: false });
    const f = p.resolve(style('myfont.ttf'), 'Wi');
    expect(f.ref).toMatchObject({ file: join(dir, 'MyFont.ttf'), family: 'DejaVu Sans', substituted: false });
    expect(f.measure('W')).toBeCloseTo(0.989, 3);
    expect(f.capHeight).toBeCloseTo(0.729, 3);
    expect(p.missing()).toEqual([]);
  });

  it('a style naming an installed family finds it by its name table', () => {
    const p = nodeFontProvider();
    const f = p.resolve(style('', '', 'DejaVu Sans'), 'x');
    expect(f.ref.substituted).toBe(false);
    expect(f.ref.file).toMatch(/DejaVuSans\.ttf$/);
  });

  it('the sfnt reader lists the faces of a collection with their metrics', () => {
    const faces = readSfnt(fontCollection([readFileSync(DEJAVU), readFileSync(SANS_SC)]));
    expect(faces.map((f) => f.family)).toEqual(['DejaVu Sans', 'Noto Sans SC']);
    const sc = faces[1]!;
    expect(sc.advance(0x4e2d)).toBe(1);
    expect(sc.capHeight).toBeCloseTo(0.733, 3);
    expect(faces[0]!.advance(0x4e2d)).toBeUndefined();
  });
});
