/**
 * Chinese right on a machine with no CJK font installed (docs/decisions/0025-shipped-cad-fonts.md).
 * The installed fonts are hidden from the engine ($CAD_SYSTEM_FONTS=0), so these hold whether or
 * not fonts-noto-cjk is there: the `cad` command (a child process, as a person runs it) turns the
 * corpus' Chinese drawings (GBK, UTF-8, MTEXT, TArch DXF and DWG) into PDFs whose text pdftotext
 * reads back, and PNGs whose Chinese is the shipped font's glyphs, not boxes.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScenes } from './display/builder';
import type { TextPrimitive } from './display/types';
import { readDxf } from './dxf/index';
import { compareInk, type RgbaImage } from './ink-compare';
import { rasterLayout } from './render/node-raster';
import { decode } from './render/test-scenes';
import { nodeFontProvider, shippedFontFile } from './text/node-fonts';
import { readGlyphOutlines, type GlyphOutlines } from './text/sfnt';
import { affineMultiply, type Affine2D } from './geom/matrix';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../../cad-cli/bin/cad.cjs');
const FIX = resolve(here, '../test-fixtures');
const CORPUS = '/work/shared/corpus';
const tmp = mkdtempSync(join(tmpdir(), 'cad-cjk-'));
const HIDDEN = { CAD_SYSTEM_FONTS: '0', XCAD_CJK_FONT: '' };

/** Drawing, and Chinese strings its PDF must hold. The GPL TArch drawings are read from the corpus, never committed. */
const DRAWINGS: [string, string[]][] = [
  [join(FIX, 'gen_zh_r2000_gbk.dxf'), ['卧室（主）', '客厅 Living room', '设计说明：', '混凝土强度等级', '红色文字']],
  [join(FIX, 'gen_zh_r2018_utf8.dxf'), ['卧室（主）', '设计说明：', '本图尺寸单位为毫米']],
  [join(FIX, 'mlcad_block-color.dxf'), ['图层：', '颜色：黄色', '颜色：白色']],
];
for (const [file, strings] of [
  ['dwg/ldwg_2013_gh109_1_zh_tarch.dwg', ['房间', '天正单行文字输入', '隔日']],
  ['dwg/lc_tarch_t1.dwg', ['厦门大学建筑设计研究院有限公司', '校对']],
] as const) {
  if (existsSync(join(CORPUS, file))) DRAWINGS.push([join(CORPUS, file), [...strings]]);
}

interface Run {
  code: number;
  stderr: string;
}

function cad(args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { encoding: 'utf8', timeout: 120_000, env: { ...process.env, ...HIDDEN, CAD_DEBUG: '' } },
      (err, _stdout, stderr) => {
        done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr });
      },
    );
  });
}

const outOf = (file: string, ext: string): string => join(tmp, `${file.split('/').pop()}.${ext}`);
const runs = new Map<string, Run>();

beforeAll(async () => {
  // Every command once, two at a time (the machine's two cores).
  const jobs = DRAWINGS.flatMap(([file]) => [
    [file, 'pdf'],
    [file, 'png'],
  ]);
  for (let i = 0; i < jobs.length; i += 2) {
    await Promise.all(
      jobs.slice(i, i + 2).map(async ([file, ext]) => {
        const out = outOf(file as string, ext as string);
        runs.set(out, await cad(['convert', file as string, out, ...(ext === 'png' ? ['--width', '1600'] : [])]));
      }),
    );
  }
}, 240_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A glyph run drawn from the shipped font's own outlines, black on white, `px` per em. */
function referenceRun(font: GlyphOutlines, text: string, px: number): RgbaImage {
  const chars = [...text];
  const canvas = createCanvas(Math.ceil(px * chars.length + 2 * px), Math.ceil(2 * px));
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#000000';
  let x = px / 2;
  for (const ch of chars) {
    const glyph = font.glyphOf(ch.codePointAt(0) as number);
    const scale = px / font.unitsPerEm;
    g.beginPath();
    font.outline(glyph, g, scale, x, 1.5 * px);
    g.fill('nonzero');
    x += font.advanceOf(glyph) * scale;
  }
  return { width: canvas.width, height: canvas.height, data: g.getImageData(0, 0, canvas.width, canvas.height).data };
}

/** The pixels of a PNG inside a text primitive's box (its em box along its baseline), in a white image. */
function textRegion(img: Awaited<ReturnType<typeof decode>>, t: TextPrimitive, toPixels: Affine2D): RgbaImage {
  const m = affineMultiply(toPixels, t.matrix);
  const applyAffine = (a: Affine2D, x: number, y: number): [number, number] => [a[0] * x + a[2] * y + a[4], a[1] * x + a[3] * y + a[5]];
  const corners = [
    [0, -0.25 * t.size],
    [t.width, -0.25 * t.size],
    [0, 1.1 * t.size],
    [t.width, 1.1 * t.size],
  ].map(([x, y]) => applyAffine(m, x as number, y as number));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[0])))),
    x1 = Math.min(img.width, Math.ceil(Math.max(...corners.map((c) => c[0]))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((c) => c[1])))),
    y1 = Math.min(img.height, Math.ceil(Math.max(...corners.map((c) => c[1]))));
  const w = x1 - x0,
    h = y1 - y0;
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x1) * 4), y * w * 4);
  return { width: w, height: h, data };
}

describe('Chinese with no CJK font installed ($CAD_SYSTEM_FONTS=0: the shipped fonts only)', () => {
  it.each(DRAWINGS)(
    'cad convert %s to PDF: pdftotext reads the Chinese back, from embedded subsets of the shipped fonts',
    (file, strings) => {
      const out = outOf(file, 'pdf');
      expect(runs.get(out)?.code, runs.get(out)?.stderr).toBe(0);
      const text = execFileSync('/usr/bin/pdftotext', [out, '-'], { encoding: 'utf8' });
      for (const s of strings) expect(text).toContain(s);
      expect(text).not.toContain('?');
      const fonts = execFileSync('/usr/bin/pdffonts', [out], { encoding: 'utf8' });
      // "emb sub uni": embedded, subset, with a ToUnicode map.
      expect(fonts).toMatch(/[A-Z]{6}\+NotoSans(SC|SerifSC)?-Regular\s+CID TrueType\s+Identity-H\s+yes yes yes/);
      // A one-page drawing with a few hundred characters stays small.
      expect(readFileSync(out).length).toBeLessThan(200_000);
    },
  );

  it.each(DRAWINGS)('cad convert %s to PNG: no note of characters without a font', (file) => {
    const out = outOf(file, 'png');
    expect(runs.get(out)?.code, runs.get(out)?.stderr).toBe(0);
    expect(runs.get(out)?.stderr).not.toMatch(/no font has/);
    expect(readFileSync(out).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it("the GBK drawing's PNG draws its Chinese with the shipped font's glyphs, not boxes", async () => {
    const saved = process.env['CAD_SYSTEM_FONTS'];
    process.env['CAD_SYSTEM_FONTS'] = '0';
    try {
      const file = DRAWINGS[0]?.[0] as string;
      const scene = buildScenes(readDxf(readFileSync(file)).drawing, { layouts: 'model', fonts: nodeFontProvider() }).scenes[0];
      if (!scene) throw new Error('no model');
      const layout = rasterLayout(scene, { width: 1600 });
      const toPixels = affineMultiply(layout.matrix, layout.page.matrix);
      const img = await decode(readFileSync(outOf(file, 'png')));
      const sans = readGlyphOutlines(readFileSync(shippedFontFile('cjkSans') as string)) as GlyphOutlines;
      const texts = scene.list.primitives.filter((p): p is TextPrimitive => p.kind === 'text');
      for (const label of ['卧室（主）', '客厅']) {
        const t = texts.find((p) => p.text.trim() === label);
        expect(t, label).toBeDefined();
        const drawn = textRegion(img, t as TextPrimitive, toPixels);
        const score = compareInk(drawn, referenceRun(sans, label, 96), { width: 256, tolerance: 2 });
        // The font's own glyphs match closely (0.96-0.97); boxes do not, nor another CJK font's
        // glyphs (Droid Sans Fallback, which the canvas fell back to here before: 0.68-0.93).
        expect(score?.f1, label).toBeGreaterThan(0.95);
      }
    } finally {
      if (saved === undefined) delete process.env['CAD_SYSTEM_FONTS'];
      else process.env['CAD_SYSTEM_FONTS'] = saved;
    }
  });
});
