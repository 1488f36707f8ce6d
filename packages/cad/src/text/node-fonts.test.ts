import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TextStyle } from '../model';
import { fontRuns } from './fonts';
import { nodeFontProvider } from './node-fonts';
import { readSfnt } from './sfnt';
import { makeShapesFont, TEST_GLYPHS } from './shx-fixture';

const CJK_TTC = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

function style(font: string, bigFont = '', fontFamily?: string): TextStyle {
  return { name: 'S', flags: 0, font, bigFont, fixedHeight: 0, widthFactor: 1, oblique: 0, generation: 0, ...(fontFamily ? { fontFamily } : {}) };
}

const dir = mkdtempSync(join(tmpdir(), 'fonts-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('node font provider', () => {
  it('Chinese resolves to the installed Noto Sans CJK collection, face SC', () => {
    const f = nodeFontProvider().resolve(style('txt', 'hztxt.shx'), '天正建筑');
    expect(f.ref.file).toBe(CJK_TTC);
    expect(f.ref.face).toBe('Noto Sans CJK SC');
    expect(f.ref.substituted).toBe(true);
  });

  it('SHX fonts not found fall back to DejaVu Sans from its file; each missing font reported once', () => {
    const p = nodeFontProvider({ fontDirs: [dir] });
    const runs = fontRuns(p, style('simplex.shx', 'gbcbig.shx'), 'A1 中');
    expect(runs[0]!.font.ref.file).toBe(DEJAVU);
    fontRuns(p, style('simplex.shx', 'gbcbig.shx'), 'B2 文');
    expect(p.missing()).toEqual(['simplex.shx', 'gbcbig.shx']);
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
    const faces = readSfnt(new Uint8Array(readFileSync(CJK_TTC)));
    const sc = faces.find((f) => f.family === 'Noto Sans CJK SC');
    expect(sc).toBeDefined();
    expect(sc!.advance(0x4e2d)).toBe(1);
    expect(sc!.capHeight).toBeCloseTo(0.733, 3);
  });
});
