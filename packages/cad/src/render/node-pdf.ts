/**
 * Vector PDF with pdfkit: one page per scene. Paths are written as raw content-stream operators
 * (integers in 1/100 pt, one path per primitive, consecutive duplicate points dropped) because
 * pdfkit's per-call API is far too slow for drawings with millions of points; pdfkit provides the
 * document structure, the fonts (subset embedding with ToUnicode maps, so `pdftotext` reads the
 * text back, Chinese included) and the gradients.
 *
 * Text: WinAnsi text in substituted fonts is set in Helvetica (a standard font: nothing embedded);
 * the TrueType/OpenType file the FontRef names (the drawing's own font, or the substitute the
 * provider found: installed, else shipped) is embedded as a subset; what it cannot show falls
 * back to the CJK font (text/node-fonts.ts). Each string is stretched horizontally to the width
 * the builder measured, so alignment survives font substitution.
 */
import { statSync } from 'node:fs';
import { createDeflate } from 'node:zlib';
import PDFDocument from 'pdfkit';
import type { Gradient, ImagePrimitive, ListImage, PathPrimitive, Scene, Style, TextPrimitive } from '../display/types';
import { DeviceTransformer, type DevicePath } from './device';
import { cjkFont, faceBytes, faceFile, needsCjk, refFont, type FontFile } from './node-fonts';
import type { RenderOptions } from './options';
import {
  PT_PER_MM,
  backgroundRgb,
  gradientSpan,
  displayRgb,
  lineweightMm,
  scaleAffine,
  scenePage,
  type Background,
  type ColorMode,
} from './paper';
import { drawScene, isWinAnsi, textFrame, withoutControls, type Sink } from './walk';
import type { FontRef } from '../text/fonts';
import { affineMultiply, type Affine2D } from '../geom/matrix';

/** Device units per point: coordinates are written as integers in 1/100 pt. */
const UNITS_PER_PT = 100;
const UNITS_PER_MM = UNITS_PER_PT * PT_PER_MM;
/** Device coordinates beyond this (1e6 pt) are clipped away. */
const LIMIT = 1e8;
const CHUNK = 1 << 20;
const M = 109; // 'm'
const L = 108; // 'l'

// pdfkit internals used here (not in its type declarations).
interface PdfFontInternal {
  id: string;
  ref(): unknown;
  encode(text: string, features?: unknown): [string[], { advanceWidth: number; xAdvance: number }[]];
  /** The fontkit font (embedded fonts only). */
  font?: { hasGlyphForCodePoint?(codePoint: number): boolean; layout?: unknown };
}

/**
 * Fonts as fontkit parsed them, kept between documents in a long-lived process (the resident
 * engine of the `cad` command, the conversion workers): pdfkit would read and parse the file for
 * every PDF, ~60 ms for the 16 MB Chinese face, more than the rest of a small drawing's PDF.
 * Each document still makes its own subset. Keyed by file, face, size and modification time; the
 * most recently used few are kept (a parsed font holds its whole file).
 */
const parsedFonts = new Map<string, NonNullable<PdfFontInternal['font']>>();
const PARSED_FONTS_KEPT = 6;

function parsedFontKey(f: FontFile, path: string | null): string | null {
  try {
    const st = statSync(path ?? f.file);
    return `${path ?? f.file}|${f.face ?? ''}|${st.size}|${st.mtimeMs}`;
  } catch {
    return null;
  }
}
interface PdfFont {
  internal: PdfFontInternal;
  /** Hex glyph codes and advance (em) per string already encoded. */
  encoded: Map<string, { hex: string; advance: number }>;
}
interface PdfDocInternal {
  _font: PdfFontInternal;
  page: { fonts: Record<string, unknown> };
}

function rgbOperands(rgb: number): string {
  const f = (v: number): string => {
    const x = Math.round((v / 255) * 1000) / 1000;
    return String(x);
  };
  return `${f((rgb >> 16) & 255)} ${f((rgb >> 8) & 255)} ${f(rgb & 255)}`;
}

class PdfSink implements Sink {
  private buf = '';
  private strokeRgb = -1;
  private fillRgb = -1;
  private width = -1;
  private readonly ops = new Map<number, string>();
  private readonly dev = new DeviceTransformer(LIMIT);
  private readonly fonts = new Map<string, PdfFont>();
  private readonly choices = new Map<FontRef, Map<string, FontFile | 'Helvetica'>>();
  private readonly broken = new Set<string>();
  /** The font of the open text object ('' = none open). */
  private textFont = '';

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly mode: ColorMode,
    private readonly background: Background,
    private readonly lineweights: boolean,
  ) {}

  // ---- content ---------------------------------------------------------------------------------
  // Operators go into a byte buffer (integers formatted by hand: no string per number), handed
  // to pdfkit in 1 MB chunks.

  private bytes = Buffer.allocUnsafe(CHUNK);
  private pos = 0;

  write(s: string): void {
    if (this.pos + s.length > this.bytes.length) {
      this.flush();
      if (s.length > this.bytes.length) this.bytes = Buffer.allocUnsafe(s.length);
    }
    this.pos += this.bytes.write(s, this.pos, 'latin1');
  }

  /** Writes "x y op\n" for integers |x|, |y| < 2^31. */
  private point(x: number, y: number, op: number): void {
    if (this.pos + 32 > this.bytes.length) this.flush();
    const b = this.bytes;
    let p = this.pos;
    for (let k = 0; k < 2; k++) {
      let v = k ? y : x;
      if (v < 0) {
        b[p++] = 45;
        v = -v;
      }
      const start = p;
      do {
        b[p++] = 48 + (v % 10);
        v = (v / 10) | 0;
      } while (v > 0);
      for (let i = start, j = p - 1; i < j; i++, j--) {
        const t = b[i] as number;
        b[i] = b[j] as number;
        b[j] = t;
      }
      b[p++] = 32;
    }
    b[p++] = op;
    b[p++] = 10;
    this.pos = p;
  }

  flush(): void {
    if (!this.pos) return;
    this.doc.addContent(this.bytes.subarray(0, this.pos));
    this.bytes = Buffer.allocUnsafe(CHUNK);
    this.pos = 0;
  }

  /** Forget the graphics state (after Q or a pdfkit call that changed colours). */
  resetState(): void {
    this.strokeRgb = -1;
    this.fillRgb = -1;
    this.width = -1;
  }

  private rgb(rgb: number): string {
    let s = this.ops.get(rgb);
    if (s === undefined) {
      s = rgbOperands(rgb);
      this.ops.set(rgb, s);
    }
    return s;
  }

  private setStroke(rgb: number): void {
    if (rgb !== this.strokeRgb) {
      this.write(this.rgb(rgb) + ' RG\n');
      this.strokeRgb = rgb;
    }
  }

  private setFill(rgb: number): void {
    if (rgb !== this.fillRgb) {
      this.write(this.rgb(rgb) + ' rg\n');
      this.fillRgb = rgb;
    }
  }

  private setWidth(style: Style): void {
    const w = Math.max(1, Math.round(lineweightMm(style.lineweight, this.lineweights) * UNITS_PER_MM));
    if (w !== this.width) {
      this.write(w + ' w\n');
      this.width = w;
    }
  }

  /** moveto/lineto for every subpath; a subpath that collapses to one point becomes a dot (round caps). */
  private pathOps(d: DevicePath, stroke: boolean): boolean {
    const { xy, starts, count, subpaths } = d;
    let any = false;
    for (let k = 0; k < subpaths; k++) {
      const i0 = starts[k] as number;
      const i1 = k + 1 < subpaths ? (starts[k + 1] as number) : count;
      if (i1 <= i0) continue;
      let px = Math.round(xy[2 * i0] as number),
        py = Math.round(xy[2 * i0 + 1] as number);
      this.point(px, py, M);
      let segs = 0;
      for (let i = i0 + 1; i < i1; i++) {
        const qx = Math.round(xy[2 * i] as number),
          qy = Math.round(xy[2 * i + 1] as number);
        if (qx === px && qy === py) continue;
        this.point(qx, qy, L);
        px = qx;
        py = qy;
        segs++;
      }
      if (!segs && stroke) this.point(px, py, L);
      any = true;
    }
    return any;
  }

  path(p: PathPrimitive, m: Affine2D, style: Style): void {
    if (!p.starts.length) return;
    this.endText();
    const d = this.dev.transform(p, m);
    if (!d.subpaths) return;
    if (p.mode === 'stroke') {
      this.setStroke(displayRgb(style.color, this.mode, this.background));
      this.setWidth(style);
      if (this.pathOps(d, true)) this.write('S\n');
      return;
    }
    const evenOdd = p.rule !== 'nonzero';
    if (p.gradient && p.mode === 'fill' && this.mode !== 'mono') {
      this.gradientFill(p.gradient, d, m, evenOdd);
      return;
    }
    if (p.mode === 'wipeout') this.setFill(backgroundRgb(this.background));
    else this.setFill(displayRgb(style.color, this.mode, this.background));
    if (this.pathOps(d, false)) this.write(evenOdd ? 'f*\n' : 'f\n');
  }

  /**
   * A gradient fill is painted in points, not hundredths (viewers refuse shading fills under a
   * near-singular matrix), between q/Q so the scale does not leak.
   */
  private gradientFill(g: Gradient, d: DevicePath, m: Affine2D, evenOdd: boolean): void {
    this.flush();
    this.doc.save();
    this.doc.transform(UNITS_PER_PT, 0, 0, UNITS_PER_PT, 0, 0);
    const k = 1 / UNITS_PER_PT;
    const scaled: DevicePath = { ...d, xy: d.xy.slice(0, 2 * d.count).map((v) => v * k) };
    this.setGradient(g, scaled, m);
    const r = (v: number): string => String(Math.round(v * 100) / 100);
    let s = '';
    for (let i = 0; i < scaled.subpaths; i++) {
      const i0 = scaled.starts[i] as number,
        i1 = i + 1 < scaled.subpaths ? (scaled.starts[i + 1] as number) : scaled.count;
      for (let j = i0; j < i1; j++) s += `${r(scaled.xy[2 * j] as number)} ${r(scaled.xy[2 * j + 1] as number)} ${j === i0 ? 'm' : 'l'}\n`;
    }
    this.write(s + (evenOdd ? 'f*\n' : 'f\n'));
    this.flush();
    this.doc.restore();
    this.resetState();
  }

  private setGradient(g: Gradient, d: DevicePath, m: Affine2D): void {
    // The gradient axis: the hatch angle carried to the device, spanning the path's extent along it.
    const { dx, dy, lo, hi, minX, minY, maxX, maxY } = gradientSpan(g.angle, m, d.xy, d.count);
    if (!(hi > lo)) {
      this.setFill(displayRgb(g.colors[0], this.mode, this.background));
      return;
    }
    const name = g.name.toUpperCase();
    const inv = name.startsWith('INV');
    const c0 =
      '#' +
      displayRgb(g.colors[inv ? 1 : 0], this.mode, this.background)
        .toString(16)
        .padStart(6, '0');
    const c1 =
      '#' +
      displayRgb(g.colors[inv ? 0 : 1], this.mode, this.background)
        .toString(16)
        .padStart(6, '0');
    this.flush();
    const cx = (minX + maxX) / 2,
      cy = (minY + maxY) / 2;
    const base = cx * dx + cy * dy;
    const x0 = cx + (lo - base) * dx,
      y0 = cy + (lo - base) * dy;
    const x1 = cx + (hi - base) * dx,
      y1 = cy + (hi - base) * dy;
    let grad: PDFKit.PDFGradient;
    if (/SPHER|CURVED/.test(name)) {
      grad = this.doc.radialGradient(cx, cy, 0, cx, cy, Math.hypot(maxX - minX, maxY - minY) / 2);
      grad.stop(0, c0).stop(1, c1);
    } else if (name.includes('CYLINDER')) {
      grad = this.doc.linearGradient(x0, y0, x1, y1);
      grad.stop(0, c0).stop(0.5, c1).stop(1, c0);
    } else {
      grad = this.doc.linearGradient(x0, y0, x1, y1);
      grad.stop(0, c0).stop(1, c1);
    }
    this.doc.fillColor(grad);
    this.fillRgb = -1;
  }

  /** Each picture embedded once per document, however often it is shown. */
  private readonly pictures = new Map<ListImage, PdfImage | null>();

  image(p: ImagePrimitive, m: Affine2D, _style: Style, picture: ListImage): void {
    const t = affineMultiply(m, p.matrix);
    if (!t.every(Number.isFinite)) return;
    let embedded = this.pictures.get(picture);
    if (embedded === undefined) {
      try {
        embedded = (this.doc as unknown as { openImage(src: Buffer): PdfImage }).openImage(
          Buffer.from(picture.bytes.buffer, picture.bytes.byteOffset, picture.bytes.byteLength),
        );
      } catch {
        // A picture pdfkit cannot read: its frame is drawn all the same.
        embedded = null;
      }
      this.pictures.set(picture, embedded);
    }
    if (!embedded) return;
    this.endText();
    this.flush();
    // Device units are y-down like pdfkit's user space: its image() fills the unit square top-down.
    this.doc.save();
    this.doc.transform(...t);
    this.doc.image(embedded as unknown as Buffer, 0, 0, { width: 1, height: 1 });
    this.doc.restore();
    this.resetState();
  }

  beginClip(polygon: Float64Array): void {
    this.endText();
    let s = 'q\n';
    for (let i = 0; i < polygon.length; i += 2)
      s += Math.round(polygon[i] as number) + ' ' + Math.round(polygon[i + 1] as number) + (i ? ' l\n' : ' m\n');
    this.write(s + 'h W n\n');
  }

  endClip(): void {
    this.endText();
    this.write('Q\n');
    this.resetState();
  }

  // ---- text -------------------------------------------------------------------------------------

  /** Close an open text object (paths, clips and pdfkit calls cannot go inside one). */
  endText(): void {
    if (this.textFont) {
      this.write('ET\n');
      this.textFont = '';
    }
  }

  /** Select a font in pdfkit and make sure the current page lists it. */
  private useFont(f: FontFile | 'Helvetica'): PdfFont {
    const key = f === 'Helvetica' ? f : `${f.file}|${f.face ?? ''}`;
    let font = this.fonts.get(key);
    if (!font) {
      const name = f === 'Helvetica' ? f : `XF${this.fonts.size + 1}`;
      // By path (pdfkit reads the file): a face of a collection from its cached cut-out; the
      // font parsed for an earlier document when there was one.
      let cacheKey: string | null = null;
      if (f !== 'Helvetica') {
        const path = faceFile(f);
        cacheKey = parsedFontKey(f, path);
        const parsed = cacheKey ? parsedFonts.get(cacheKey) : undefined;
        if (parsed && cacheKey) {
          parsedFonts.delete(cacheKey);
          parsedFonts.set(cacheKey, parsed);
        }
        this.doc.registerFont(name, (parsed as never) ?? path ?? Buffer.from(faceBytes(f)), '');
      }
      this.doc.font(name);
      font = { internal: (this.doc as unknown as PdfDocInternal)._font, encoded: new Map() };
      this.fonts.set(key, font);
      const parsed = font.internal.font;
      if (cacheKey && parsed?.layout && !parsedFonts.has(cacheKey)) {
        parsedFonts.set(cacheKey, parsed);
        for (const old of parsedFonts.keys()) {
          if (parsedFonts.size <= PARSED_FONTS_KEPT) break;
          parsedFonts.delete(old);
        }
      }
    }
    const pageFonts = (this.doc as unknown as PdfDocInternal).page.fonts;
    if (pageFonts[font.internal.id] === undefined) pageFonts[font.internal.id] = font.internal.ref();
    return font;
  }

  /** A font file pdfkit can load, or null (an unreadable file is tried once). */
  private loadable(f: FontFile | null | undefined): PdfFont | null {
    if (!f) return null;
    const key = `${f.file}|${f.face ?? ''}`;
    if (this.broken.has(key)) return null;
    try {
      return this.useFont(f);
    } catch {
      this.broken.add(key);
      return null;
    }
  }

  private chooseFont(ref: FontRef | undefined, text: string): { font: PdfFont; text: string } {
    const ansi = isWinAnsi(text);
    const cjkText = !ansi && needsCjk(text);
    const key = ansi ? 'ansi' : cjkText ? 'cjk' : 'other';
    let perRef = this.choices.get(ref ?? NO_REF);
    if (!perRef) this.choices.set(ref ?? NO_REF, (perRef = new Map()));
    const known = perRef.get(key);
    if (known) return { font: this.useFont(known), text };
    const own = refFont(ref);
    let choice: FontFile | 'Helvetica' | null = null;
    if (ansi && (!own || ref?.substituted)) choice = 'Helvetica';
    else {
      const ownFont = this.loadable(own);
      if (own && ownFont && (ansi || covers(ownFont.internal, text))) choice = own;
      else {
        // The CJK fallback (installed or shipped, text/node-fonts.ts), looked up only for text the
        // font of its run cannot show: in the serif face for a Song/Ming run.
        const cjk = cjkFont(/serif|song|ming/i.test(ref?.family ?? ''));
        const fallback = this.loadable(cjk);
        if (cjk && fallback && covers(fallback.internal, text)) choice = cjk;
        else if (own && ownFont) choice = own;
        else if (cjk && fallback) choice = cjk;
        else if (ansi) choice = 'Helvetica';
      }
    }
    if (!choice) {
      // No font at all for these characters (not even the shipped ones): keep what Helvetica can show.
      return { font: this.useFont('Helvetica'), text: Array.from(text, (ch) => (isWinAnsi(ch) ? ch : '?')).join('') };
    }
    // Coverage of 'other' text depends on the string: only cache the answers that do not.
    if (key !== 'other') perRef.set(key, choice);
    return { font: this.useFont(choice), text };
  }

  text(t: TextPrimitive, m: Affine2D, style: Style, ref: FontRef | undefined): void {
    const text = withoutControls(t.text);
    if (!text.trim()) return;
    const frame = textFrame(t, m);
    if (!frame || frame.fontSize < 1 || frame.fontSize > 1e7) return;
    const [a, b, c, d, ex, ey] = frame.matrix;
    if (Math.abs(ex) > LIMIT || Math.abs(ey) > LIMIT) return;
    const { font, text: shown } = this.chooseFont(ref, text);
    let enc = font.encoded.get(shown);
    if (!enc) {
      const [hex, positions] = font.internal.encode(shown);
      let advance = 0;
      for (const p of positions) advance += p.advanceWidth;
      enc = { hex: hex.join(''), advance: advance / 1000 };
      if (font.encoded.size < 100_000) font.encoded.set(shown, enc);
    }
    const natural = enc.advance * frame.fontSize;
    let stretch = frame.width > 0 && natural > 0 ? frame.width / natural : 1;
    if (!(stretch > 0.2 && stretch < 5)) stretch = 1;
    const sx = frame.fontSize * stretch,
      sy = -frame.fontSize;
    const n = (v: number): string => String(Math.round(v * 100) / 100);
    this.setFill(displayRgb(style.color, this.mode, this.background));
    let s = '';
    if (!this.textFont) s += 'BT\n';
    if (this.textFont !== font.internal.id) s += `/${font.internal.id} 1 Tf\n`;
    this.textFont = font.internal.id;
    this.write(s + `${n(a * sx)} ${n(b * sx)} ${n(c * sy)} ${n(d * sy)} ${Math.round(ex)} ${Math.round(ey)} Tm\n<${enc.hex}> Tj\n`);
  }
}

const NO_REF: FontRef = { requested: '', family: '', substituted: true };

function covers(font: PdfFontInternal, text: string): boolean {
  const has = font.font?.hasGlyphForCodePoint?.bind(font.font);
  if (!has) return true;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp > 0x20 && !has(cp)) return false;
  }
  return true;
}

// pdfkit's content stream object (internal).
interface PdfContentRef {
  write(chunk: Uint8Array | string): void;
  buffer: Uint8Array[];
  compress: boolean;
  data: { Filter?: string; Length?: number };
}

/**
 * Compress the current page's content on the thread pool while it is being written (pdfkit would
 * deflate it in one synchronous call at the end, at level 6). Returns the function that waits for
 * the compressor and hands the compressed stream to pdfkit; null when pdfkit's internals are not
 * what this expects (pdfkit then compresses as usual).
 */
function deflateContent(doc: PDFKit.PDFDocument, level: number): (() => Promise<void>) | null {
  const content = (doc as unknown as { page?: { content?: PdfContentRef } }).page?.content;
  if (!content || typeof content.write !== 'function' || !Array.isArray(content.buffer) || typeof content.data !== 'object') return null;
  const z = createDeflate({ level });
  const out: Buffer[] = [];
  z.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    z.on('end', resolve);
    z.on('error', reject);
  });
  // What pdfkit already wrote (its y-flip) goes first.
  for (const c of content.buffer) z.write(c);
  content.buffer = [];
  content.write = (chunk: Uint8Array | string): void => {
    z.write(typeof chunk === 'string' ? Buffer.from(chunk + '\n', 'latin1') : chunk);
  };
  return async () => {
    z.end();
    await ended;
    delete (content as Partial<PdfContentRef>).write;
    const data = Buffer.concat(out);
    content.buffer = [data];
    content.compress = false;
    content.data.Filter = 'FlateDecode';
    content.data.Length = data.length;
  };
}

/** Points drawn for a scene (its lists, each viewport's list), to pick a compression level. */
function scenePoints(scene: Scene): number {
  let n = 0;
  const lists = new Set([scene.list, ...scene.viewports.map((v) => v.list)]);
  for (const l of lists) for (const p of l.primitives) if (p.kind === 'path') n += p.coords.length >> 1;
  return n;
}

export async function renderPdf(scenes: Scene[], options: RenderOptions): Promise<Uint8Array> {
  const compress = options.compress ?? true;
  const doc = new PDFDocument({
    autoFirstPage: false,
    compress,
    info: { Producer: 'xcad', Creator: 'xcad', ...(scenes.length === 1 && scenes[0] ? { Title: scenes[0].name } : {}) },
  });
  const chunks: Uint8Array[] = [];
  doc.on('data', (c: Uint8Array) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  const background = options.background ?? 'white';
  const sink = new PdfSink(doc, options.color ?? 'color', background, options.lineweights ?? true);
  const list = scenes.length ? scenes : [];
  if (!list.length) {
    doc.addPage({ size: 'A4', margin: 0 });
  }
  for (const scene of list) {
    const page = scenePage(scene, {
      ...(options.paper ? { paper: options.paper } : {}),
      ...(options.orientation ? { orientation: options.orientation } : {}),
    });
    const w = page.width * PT_PER_MM,
      h = page.height * PT_PER_MM;
    doc.addPage({ size: [w, h], margin: 0 });
    const finish = compress ? deflateContent(doc, scenePoints(scene) > 1_000_000 ? 1 : 6) : null;
    sink.resetState();
    if (background === 'black') sink.write(`0 0 0 rg\n0 0 ${w} ${h} re\nf\n`);
    sink.flush();
    doc.save();
    doc.transform(1 / UNITS_PER_PT, 0, 0, 1 / UNITS_PER_PT, 0, 0);
    sink.write('1 J\n1 j\n');
    const m = scaleAffine(UNITS_PER_MM, page.matrix);
    const pad = 10 * UNITS_PER_MM;
    drawScene(scene, m, sink, { minX: -pad, minY: -pad, maxX: page.width * UNITS_PER_MM + pad, maxY: page.height * UNITS_PER_MM + pad });
    sink.endText();
    sink.flush();
    doc.restore();
    if (finish) await finish();
  }
  doc.end();
  await done;
  const total = chunks.reduce((s, c) => s + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** pdfkit's opened image (its `openImage`), passed back to `image()`. */
interface PdfImage {
  width: number;
  height: number;
}
