/**
 * PNG and JPG with @napi-rs/canvas (Skia): antialiased, white or black background.
 *
 * Size: `width` px with the extents filling it edge to edge (no margin), or `dpi` on the page the
 * PDF would use (a layout's paper; model space as if plotted to fit A3 or the chosen paper).
 * Without either: model space 2000 px wide, layouts at 150 dpi. At most 100 megapixels.
 *
 * Lines: with dpi (or lineweights: true) each lineweight is drawn at its size on paper, at least
 * 1 px; with a width (lineweights not set) lines are 1 px unless their weight is above the 0.25 mm
 * default; lineweights: false draws every line 1 px.
 *
 * Fonts: text in a TrueType font (outlines in a 'glyf' table: Liberation, DejaVu, most fonts a
 * drawing names) whose every character the font has is drawn as the glyphs' outlines, read here
 * (text/sfnt.ts), filled like any path. The canvas' own text is the fallback, and sets CJK text:
 * Skia's glyph cache draws a CJK glyph (a hundred curves) several times faster than a path fill,
 * and a drawing's Chinese is mostly the same few hundred characters. Its first text or font
 * registered makes it read the names of every installed font (~0.1 s, once per process: the
 * resident engine and the conversion workers pay it once). For the fallback, an installed
 * TrueType/OpenType font a FontRef names is used by its family name and style (the canvas finds
 * installed fonts by name); any other file (a drawing's font folder, the fonts the engine ships)
 * is registered by path once per process, when a text first uses it (a face of a collection is
 * cut out first and cached as a file: the canvas loads only the first face of a .ttc). The CJK
 * fallback (text/node-fonts.ts: installed, else the shipped Noto Sans SC) backs up every text with
 * CJK characters so Chinese never shows as boxes; it is not touched for a drawing without them.
 *
 * PNG: encoded by codec/png.ts (RGB, fast deflate) rather than the canvas' slower encoder.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { ImagePrimitive, ListImage, PathPrimitive, Scene, Style, TextPrimitive } from '../display/types';
import { DeviceTransformer } from './device';
import { GlobalFonts, Path2D, createCanvas, loadImage, type CanvasImage } from './node-canvas';
import { readGlyphOutlines, type GlyphOutlines } from '../text/sfnt';
import { cjkFont, faceBytes, faceFile, facesOf, fontBytes, installedFace, needsCjk, pickFace, refFont, type FontFile } from './node-fonts';
import { shippedFontFile } from '../text/node-fonts';
import { encodeOpaquePng } from '../codec/png';
import { CadLimitError } from '../errors';
import { limitsOf } from '../limits';
import { RASTER_DEFAULT_DPI, RASTER_DEFAULT_WIDTH, RASTER_MAX_SIDE, type RenderOptions } from './options';
import {
  gradientSpan,
  DEFAULT_LINEWEIGHT_MM,
  MM_PER_INCH,
  backgroundRgb,
  cssColor,
  displayRgb,
  lineweightMm,
  scenePage,
  type Background,
  type ColorMode,
  type Page,
} from './paper';
import { drawScene, sceneImages, textFrame, withoutControls, type Sink } from './walk';
import type { FontRef } from '../text/fonts';
import { affineMultiply, type Affine2D } from '../geom/matrix';

/** Device coordinates beyond this are clipped away (Skia works in 32-bit floats). */
const LIMIT = 1e7;
/** Consecutive points closer than this (px) are merged. */
const MIN_STEP = 0.15;

// ---- fonts --------------------------------------------------------------------------------------

/** How the canvas names a font: a CSS style prefix ('' or 'bold ', 'italic ', 'italic bold ') and a family. */
interface CanvasFont {
  style: string;
  family: string;
}

const canvasFonts = new Map<string, CanvasFont | null>();
let aliasCount = 0;

/**
 * How the canvas draws with a font file, or null when it cannot load it. An installed font is
 * named by its family and style (the canvas finds installed fonts by name: nothing to load); any
 * other file is registered by path under an alias of its own, on first use (registering costs
 * ~30 ms, once per process: the canvas then reads the installed fonts' names).
 */
function canvasFont(f: FontFile): CanvasFont | null {
  const key = `${f.file}|${f.face ?? ''}`;
  let font = canvasFonts.get(key);
  if (font !== undefined) return font;
  const installed = installedFace(f);
  if (installed) {
    font = {
      style: `${installed.italic ? 'italic ' : ''}${installed.bold ? 'bold ' : ''}`,
      family: `"${installed.family.replace(/"/g, '')}"`,
    };
  } else {
    const alias = `XcadFont${++aliasCount}`;
    try {
      const path = faceFile(f);
      const ok: unknown = path ? GlobalFonts.registerFromPath(path, alias) : GlobalFonts.register(Buffer.from(faceBytes(f)), alias);
      font = ok ? { style: '', family: alias } : null;
    } catch {
      font = null;
    }
  }
  canvasFonts.set(key, font);
  return font;
}

interface CssFont {
  /** '' or 'bold ', 'italic ', 'italic bold ': goes before the size. */
  style: string;
  /** The family list: goes after the size. */
  families: string;
}

/** The CSS font of each FontRef: [for text without CJK, for text with CJK]. */
const cssCache = new Map<FontRef, [CssFont | undefined, CssFont | undefined]>();

/**
 * The CSS font for a FontRef: its own file, else its family by name, then the CJK fallback for
 * text with CJK characters, then sans-serif.
 */
function cssFont(ref: FontRef | undefined, cjk: boolean): CssFont {
  const slot = cjk ? 1 : 0;
  const cached = ref ? cssCache.get(ref) : undefined;
  const hit = cached?.[slot];
  if (hit) return hit;
  const list: string[] = [];
  const resolved = refFont(ref);
  const own = resolved ? canvasFont(resolved) : null;
  if (own) list.push(own.family);
  else if (ref?.family) list.push(`"${ref.family.replace(/"/g, '')}"`);
  const cjkFile = cjk ? cjkFont() : null;
  const fallback = cjkFile ? canvasFont(cjkFile) : null;
  if (fallback && !list.includes(fallback.family)) list.push(fallback.family);
  list.push('sans-serif');
  const css: CssFont = { style: own?.style ?? '', families: list.join(', ') };
  if (ref) {
    const entry = cached ?? [undefined, undefined];
    entry[slot] = css;
    cssCache.set(ref, entry);
  }
  return css;
}

const shippedCjk = new Set<string>();

/** The shipped CJK faces (10-15 MB each): drawn by the canvas, never read whole here. */
function isShippedCjk(file: string | undefined): boolean {
  if (!file) return false;
  if (!shippedCjk.size) for (const key of ['cjkSans', 'cjkSerif'] as const) shippedCjk.add(shippedFontFile(key) ?? '');
  return shippedCjk.has(file);
}

/** A font's glyph outlines, each glyph made into a canvas path (in font units, y down) on first use. */
interface GlyphPaths {
  outlines: GlyphOutlines;
  paths: Map<number, InstanceType<typeof Path2D>>;
}

const outlineCache = new Map<string, GlyphPaths | null>();

/** The glyph outlines of the font a FontRef points at, or null when the canvas must draw its text. */
function outlinesOf(ref: FontRef | undefined): GlyphPaths | null {
  if (!ref?.file) return null;
  const key = `${ref.file}|${ref.face ?? ''}`;
  let o = outlineCache.get(key);
  if (o === undefined) {
    o = null;
    const f = refFont(ref);
    if (f) {
      try {
        const face = pickFace(facesOf(f.file), f.face);
        // CFF fonts (Noto Sans CJK: 19 MB) are never read whole here.
        const outlines = face?.glyf ? readGlyphOutlines(fontBytes(f.file), face.offset) : null;
        if (outlines) o = { outlines, paths: new Map() };
      } catch {
        o = null;
      }
    }
    outlineCache.set(key, o);
  }
  return o;
}

function glyphPath(font: GlyphPaths, glyph: number): InstanceType<typeof Path2D> {
  let path = font.paths.get(glyph);
  if (!path) {
    path = new Path2D();
    font.outlines.outline(glyph, path, 1, 0, 0);
    font.paths.set(glyph, path);
  }
  return path;
}

/** The glyphs of a text in a font, or null when the font lacks one of its characters. */
function glyphsOf(outlines: GlyphOutlines, text: string): number[] | null {
  const glyphs: number[] = [];
  for (const ch of text) {
    const g = outlines.glyphOf(ch.codePointAt(0) as number);
    if (!g) return null;
    glyphs.push(g);
  }
  return glyphs;
}

// ---- drawing ------------------------------------------------------------------------------------

type WeightPolicy = 'physical' | 'thin' | 'off';

class CanvasSink implements Sink {
  private strokeCss = '';
  private fillCss = '';
  private width = -1;
  private transformed = false;
  private font = '';
  private readonly measured = new Map<string, number>();
  private readonly colors = new Map<number, string>();
  private readonly dev = new DeviceTransformer(LIMIT);

  constructor(
    private readonly ctx: SKRSContext2D,
    private readonly mode: ColorMode,
    private readonly background: Background,
    private readonly policy: WeightPolicy,
    private readonly pxPerMm: number,
    private readonly pictures: ReadonlyMap<ListImage, CanvasImage> = new Map(),
  ) {}

  /** Every colour drawn so far is grey (antialiasing then blends only greys: the PNG can be grey). */
  grey = true;

  private css(color: number): string {
    let s = this.colors.get(color);
    if (s === undefined) {
      const rgb = displayRgb(color, this.mode, this.background);
      if (((rgb >> 16) & 255) !== (rgb & 255) || ((rgb >> 8) & 255) !== (rgb & 255)) this.grey = false;
      s = cssColor(rgb);
      this.colors.set(color, s);
    }
    return s;
  }

  private lineWidth(style: Style): number {
    if (this.policy === 'off') return 1;
    if (this.policy === 'thin' && !(style.lineweight > DEFAULT_LINEWEIGHT_MM)) return 1;
    return Math.max(1, lineweightMm(style.lineweight, true) * this.pxPerMm);
  }

  private reset(): void {
    this.font = '';
    this.strokeCss = '';
    this.fillCss = '';
    this.width = -1;
  }

  path(p: PathPrimitive, m: Affine2D, style: Style): void {
    const d = this.dev.transform(p, m);
    if (!d.subpaths) return;
    this.identity();
    const ctx = this.ctx;
    const { xy, starts, count, subpaths } = d;
    const stroke = p.mode === 'stroke';
    ctx.beginPath();
    for (let k = 0; k < subpaths; k++) {
      const i0 = starts[k] as number;
      const i1 = k + 1 < subpaths ? (starts[k + 1] as number) : count;
      if (i1 <= i0) continue;
      let px = xy[2 * i0] as number,
        py = xy[2 * i0 + 1] as number;
      ctx.moveTo(px, py);
      let segs = 0;
      for (let i = i0 + 1; i < i1; i++) {
        const x = xy[2 * i] as number,
          y = xy[2 * i + 1] as number;
        if (i < i1 - 1 && Math.abs(x - px) < MIN_STEP && Math.abs(y - py) < MIN_STEP) continue;
        if (x === px && y === py) continue;
        ctx.lineTo(x, y);
        px = x;
        py = y;
        segs++;
      }
      // A single point: a dot (a zero-length segment is not stroked by the canvas).
      if (!segs && stroke) ctx.lineTo(px + 0.01, py);
    }
    if (stroke) {
      const css = this.css(style.color);
      if (css !== this.strokeCss) ctx.strokeStyle = this.strokeCss = css;
      const w = this.lineWidth(style);
      if (w !== this.width) ctx.lineWidth = this.width = w;
      ctx.stroke();
      return;
    }
    let css: string;
    if (p.mode === 'wipeout') css = cssColor(backgroundRgb(this.background));
    else if (p.gradient && this.mode !== 'mono') {
      this.fillGradient(p, m, d.xy, d.count);
      return;
    } else css = this.css(style.color);
    if (css !== this.fillCss) ctx.fillStyle = this.fillCss = css;
    ctx.fill(p.rule === 'nonzero' ? 'nonzero' : 'evenodd');
  }

  private fillGradient(p: PathPrimitive, m: Affine2D, xy: Float64Array, count: number): void {
    const g = p.gradient;
    if (!g) return;
    // The gradient axis: the hatch angle carried to the device, spanning the path's extent along it.
    const { dx, dy, lo, hi, minX, minY, maxX, maxY } = gradientSpan(g.angle, m, xy, count);
    const name = g.name.toUpperCase();
    const inv = name.startsWith('INV');
    const c0 = this.css(g.colors[inv ? 1 : 0]),
      c1 = this.css(g.colors[inv ? 0 : 1]);
    const cx = (minX + maxX) / 2,
      cy = (minY + maxY) / 2;
    const ctx = this.ctx;
    if (!(hi > lo)) {
      ctx.fillStyle = c0;
    } else if (/SPHER|CURVED/.test(name)) {
      const grad = ctx.createRadialGradient(cx, cy, 0, cx, cy, Math.hypot(maxX - minX, maxY - minY) / 2);
      grad.addColorStop(0, c0);
      grad.addColorStop(1, c1);
      ctx.fillStyle = grad;
    } else {
      const base = cx * dx + cy * dy;
      const grad = ctx.createLinearGradient(cx + (lo - base) * dx, cy + (lo - base) * dy, cx + (hi - base) * dx, cy + (hi - base) * dy);
      grad.addColorStop(0, c0);
      if (name.includes('CYLINDER')) {
        grad.addColorStop(0.5, c1);
        grad.addColorStop(1, c0);
      } else grad.addColorStop(1, c1);
      ctx.fillStyle = grad;
    }
    this.fillCss = '';
    ctx.fill(p.rule === 'nonzero' ? 'nonzero' : 'evenodd');
  }

  text(t: TextPrimitive, m: Affine2D, style: Style, font: FontRef | undefined): void {
    const text = withoutControls(t.text);
    if (!text.trim()) return;
    const frame = textFrame(t, m);
    // Below half a pixel text is unreadable; far beyond the image it is not drawn.
    if (!frame || frame.fontSize < 0.5 || frame.fontSize > 1e5) return;
    const [a, b, c, d, e, f] = frame.matrix;
    if (Math.abs(e) > LIMIT || Math.abs(f) > LIMIT) return;
    const ctx = this.ctx;
    // CJK text, and the digits and Latin letters of a run in a shipped CJK face (dimensions in a
    // 宋体 style), go to the canvas: its glyph cache beats filling the outlines.
    const outlines = needsCjk(text) || isShippedCjk(font?.file) ? null : outlinesOf(font);
    const glyphs = outlines ? glyphsOf(outlines.outlines, text) : null;
    if (outlines && glyphs) {
      this.glyphText(outlines, glyphs, frame, style);
      return;
    }
    const { style: fontStyle, families } = cssFont(font, needsCjk(text));
    const css = `${fontStyle}${frame.fontSize}px ${families}`;
    if (css !== this.font) ctx.font = this.font = css;
    let stretch = 1;
    if (frame.width > 0) {
      const key = css + '\u0000' + text;
      let natural = this.measured.get(key);
      if (natural === undefined) {
        natural = ctx.measureText(text).width;
        if (this.measured.size < 100_000) this.measured.set(key, natural);
      }
      if (natural > 0) stretch = frame.width / natural;
      if (!(stretch > 0.2 && stretch < 5)) stretch = 1;
    }
    const fill = this.css(style.color);
    if (fill !== this.fillCss) ctx.fillStyle = this.fillCss = fill;
    ctx.setTransform(a * stretch, b * stretch, c, d, e, f);
    this.transformed = true;
    ctx.fillText(text, 0, 0);
  }

  /** Text as its glyphs' outlines, set at the font's advances and stretched to the frame's width. */
  private glyphText(font: GlyphPaths, glyphs: number[], frame: NonNullable<ReturnType<typeof textFrame>>, style: Style): void {
    const { outlines } = font;
    const scale = frame.fontSize / outlines.unitsPerEm;
    let natural = 0;
    for (const g of glyphs) natural += outlines.advanceOf(g);
    natural *= scale;
    let stretch = 1;
    if (frame.width > 0 && natural > 0) {
      stretch = frame.width / natural;
      if (!(stretch > 0.2 && stretch < 5)) stretch = 1;
    }
    const fill = this.css(style.color);
    if (fill !== this.fillCss) this.ctx.fillStyle = this.fillCss = fill;
    // Each glyph's path (font units) drawn through text space → device, at its pen position.
    const [a, b, c, d, e, f] = frame.matrix;
    const xa = a * stretch * scale,
      xb = b * stretch * scale,
      yc = c * scale,
      yd = d * scale;
    const ctx = this.ctx;
    this.transformed = true;
    let x = 0;
    for (const g of glyphs) {
      ctx.setTransform(xa, xb, yc, yd, e + xa * x, f + xb * x);
      ctx.fill(glyphPath(font, g), 'nonzero');
      x += outlines.advanceOf(g);
    }
  }

  /** Paths are given in device pixels: undo a text transform first. */
  private identity(): void {
    if (this.transformed) {
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      this.transformed = false;
    }
  }

  image(p: ImagePrimitive, m: Affine2D, _style: Style, picture: ListImage): void {
    const img = this.pictures.get(picture);
    if (!img) return;
    const [a, b, c, d, e, f] = affineMultiply(m, p.matrix);
    if (![a, b, c, d, e, f].every(Number.isFinite)) return;
    this.identity();
    const ctx = this.ctx;
    ctx.save();
    // The picture's pixels onto its unit square, then the square onto the device.
    ctx.setTransform(a / img.width, b / img.width, c / img.height, d / img.height, e, f);
    ctx.drawImage(img, 0, 0);
    ctx.restore();
    this.transformed = false;
    this.reset();
    this.grey = false;
  }

  beginClip(polygon: Float64Array): void {
    this.identity();
    const ctx = this.ctx;
    ctx.save();
    ctx.beginPath();
    for (let i = 0; i < polygon.length; i += 2) {
      if (i) ctx.lineTo(polygon[i] as number, polygon[i + 1] as number);
      else ctx.moveTo(polygon[i] as number, polygon[i + 1] as number);
    }
    ctx.closePath();
    ctx.clip();
  }

  endClip(): void {
    this.ctx.restore();
    // restore() brings back the transform of save() time: the identity.
    this.transformed = false;
    this.reset();
  }
}

export interface RasterLayout {
  page: Page;
  /** Page mm → pixels. */
  matrix: Affine2D;
  pxPerMm: number;
  width: number;
  height: number;
  policy: WeightPolicy;
}

/** The image size and page for a scene (exported for tests and the CLI's messages). */
export function rasterLayout(scene: Scene | undefined, options: Omit<RenderOptions, 'format'>): RasterLayout {
  const byWidth = options.width !== undefined || (options.dpi === undefined && (!scene || scene.isModel));
  let page: Page;
  let pxPerMm: number;
  let width: number, height: number;
  if (byWidth) {
    const px = options.width ?? RASTER_DEFAULT_WIDTH;
    if (!(px >= 1) || !Number.isFinite(px)) throw new Error(`Invalid width ${px}: give a positive number of pixels`);
    width = Math.round(px);
    page = scene
      ? scenePage(scene, { paper: 'fit', margin: 0, extents: true })
      : { width: 297, height: 210, matrix: [1, 0, 0, 1, 0, 0], scale: 1 };
    height = Math.max(1, Math.round((page.height * width) / page.width));
    // The extents' edges go through the centres of the edge pixels, so lines along them are
    // drawn whole and the ink touches both sides of the image.
    if (width >= 2 && height >= 2) {
      pxPerMm = (width - 1) / page.width;
      const ox = 0.5 + (width - 1 - pxPerMm * page.width) / 2,
        oy = 0.5 + (height - 1 - pxPerMm * page.height) / 2;
      return { page, matrix: [pxPerMm, 0, 0, pxPerMm, ox, oy], pxPerMm, width, height, policy: weightPolicy(options, true) };
    }
    pxPerMm = width / page.width;
  } else {
    const dpi = options.dpi ?? RASTER_DEFAULT_DPI;
    if (!(dpi > 0) || !Number.isFinite(dpi)) throw new Error(`Invalid dpi ${dpi}: give a positive number`);
    page = scene
      ? scenePage(scene, {
          ...(options.paper ? { paper: options.paper } : {}),
          ...(options.orientation ? { orientation: options.orientation } : {}),
        })
      : { width: 210, height: 297, matrix: [1, 0, 0, 1, 0, 0], scale: 1 };
    pxPerMm = dpi / MM_PER_INCH;
    width = Math.max(1, Math.round(page.width * pxPerMm));
    height = Math.max(1, Math.round(page.height * pxPerMm));
  }
  return { page, matrix: [pxPerMm, 0, 0, pxPerMm, 0, 0], pxPerMm, width, height, policy: weightPolicy(options, byWidth) };
}

function weightPolicy(options: Omit<RenderOptions, 'format'>, byWidth: boolean): WeightPolicy {
  return options.lineweights === false ? 'off' : options.lineweights === true || !byWidth ? 'physical' : 'thin';
}

/**
 * Does now what the first text of a drawing would otherwise wait for: the canvas reading the
 * installed fonts' names (~25 ms). For a caller with time to spare (while a DWG is being read by
 * its own process).
 */
export function warmUpRaster(): void {
  const ctx = createCanvas(1, 1).getContext('2d');
  ctx.font = '10px sans-serif';
  ctx.measureText('x');
}

export async function renderRaster(scene: Scene | undefined, options: RenderOptions): Promise<Uint8Array> {
  const r = rasterLayout(scene, options);
  const mp = (r.width * r.height) / 1e6;
  const maxPixels = limitsOf(options.limits).pixels;
  if (r.width * r.height > maxPixels || r.width > RASTER_MAX_SIDE || r.height > RASTER_MAX_SIDE) {
    throw new CadLimitError(
      'pixels',
      maxPixels,
      `the image would be ${r.width}×${r.height} px (${mp.toFixed(0)} megapixels); the limit is ${maxPixels / 1e6} megapixels and ${RASTER_MAX_SIDE} px a side: use a smaller width or dpi`,
    );
  }
  const canvas = createCanvas(r.width, r.height);
  const ctx = canvas.getContext('2d');
  const background = options.background ?? 'white';
  ctx.fillStyle = cssColor(backgroundRgb(background));
  ctx.fillRect(0, 0, r.width, r.height);
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  let grey = true;
  if (scene) {
    const sink = new CanvasSink(ctx, options.color ?? 'color', background, r.policy, r.pxPerMm, await decodePictures(sceneImages(scene)));
    const m = affineMultiply(r.matrix, r.page.matrix);
    const pad = 16;
    drawScene(scene, m, sink, { minX: -pad, minY: -pad, maxX: r.width + pad, maxY: r.height + pad });
    grey = sink.grey;
  }
  if (options.format === 'jpg') {
    const q = Math.round(Math.min(100, Math.max(0, options.quality ?? 90)));
    return canvas.encode('jpeg', q);
  }
  return encodeOpaquePng({ width: r.width, height: r.height, rows: (y, count) => ctx.getImageData(0, y, r.width, count).data }, { grey });
}

/** The scene's pictures decoded for the canvas; one that does not decode is left out (its frame is drawn). */
async function decodePictures(images: ListImage[]): Promise<Map<ListImage, CanvasImage>> {
  const out = new Map<ListImage, CanvasImage>();
  for (const picture of images) {
    try {
      out.set(picture, await loadImage(Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength)));
    } catch {
      // A picture that does not decode: the frame around it says where it would be.
    }
  }
  return out;
}
