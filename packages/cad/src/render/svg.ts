/**
 * SVG: a standalone document, one `<path>` per primitive. User units are model units for a model
 * scene fitted to its own page (y flipped, origin at the page corner), millimetres otherwise; the
 * `width`/`height` attributes give the page size in mm. Coordinates are rounded on a grid of about
 * 1/100 000 of the page and written as relative moves, which keeps big drawings compact.
 * Browser-safe (a string builder).
 */
import type { Gradient, ImagePrimitive, ListImage, PathPrimitive, Scene, Style, TextPrimitive } from '../display/types';
import { DeviceTransformer, type DevicePath } from './device';
import type { RenderOptions } from './options';
import {
  backgroundRgb,
  gradientSpan,
  cssColor,
  displayRgb,
  lineweightMm,
  scaleAffine,
  scenePage,
  type Background,
  type ColorMode,
} from './paper';
import { drawScene, textFrame, withoutControls, type Sink } from './walk';
import type { FontRef } from '../text/fonts';
import { affineMultiply, type Affine2D } from '../geom/matrix';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 (browser-safe: no Buffer). */
function base64(bytes: Uint8Array): string {
  const out: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number,
      b = bytes[i + 1],
      c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    chunk +=
      BASE64[(n >> 18) & 63]! +
      BASE64[(n >> 12) & 63]! +
      (b === undefined ? '=' : BASE64[(n >> 6) & 63]!) +
      (c === undefined ? '=' : BASE64[n & 63]!);
    if (chunk.length >= 8192) {
      out.push(chunk);
      chunk = '';
    }
  }
  out.push(chunk);
  return out.join('');
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** XML 1.0 forbids most control characters and lone surrogates. */
function cleanText(s: string): string {
  return withoutControls(s)
    .replace(/[\ufffe\uffff]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

class SvgSink implements Sink {
  readonly parts: string[] = [];
  private ids = 0;
  private readonly dev: DeviceTransformer;
  /** Grid factor: coordinates are rounded to multiples of 1/grid. */
  private readonly grid: number;

  constructor(
    private readonly mode: ColorMode,
    private readonly background: Background,
    private readonly lineweights: boolean,
    /** User units per mm on the page. */
    private readonly unitsPerMm: number,
    extent: number,
  ) {
    const decimals = Math.max(0, Math.min(8, Math.ceil(-Math.log10(extent / 1e5))));
    this.grid = 10 ** decimals;
    this.dev = new DeviceTransformer(extent * 1e4);
  }

  num(v: number): string {
    return String(Math.round(v * this.grid) / this.grid);
  }

  private d(path: DevicePath, stroke: boolean): string {
    const { xy, starts, count, subpaths } = path;
    const g = this.grid;
    let s = '';
    let cx = 0,
      cy = 0;
    for (let k = 0; k < subpaths; k++) {
      const i0 = starts[k] as number;
      const i1 = k + 1 < subpaths ? (starts[k + 1] as number) : count;
      if (i1 <= i0) continue;
      let px = Math.round((xy[2 * i0] as number) * g),
        py = Math.round((xy[2 * i0 + 1] as number) * g);
      if (s) s += 'm' + (px - cx) / g + ' ' + (py - cy) / g;
      else s += 'M' + px / g + ' ' + py / g;
      let first = true;
      for (let i = i0 + 1; i < i1; i++) {
        const qx = Math.round((xy[2 * i] as number) * g),
          qy = Math.round((xy[2 * i + 1] as number) * g);
        if (qx === px && qy === py) continue;
        s += (first ? 'l' : ' ') + (qx - px) / g + ' ' + (qy - py) / g;
        first = false;
        px = qx;
        py = qy;
      }
      if (first && stroke) s += 'l0 0';
      cx = px;
      cy = py;
    }
    return s;
  }

  private color(c: number): string {
    return cssColor(displayRgb(c, this.mode, this.background));
  }

  path(p: PathPrimitive, m: Affine2D, style: Style): void {
    const dp = this.dev.transform(p, m);
    if (!dp.subpaths) return;
    const d = this.d(dp, p.mode === 'stroke');
    if (!d) return;
    if (p.mode === 'stroke') {
      const w = lineweightMm(style.lineweight, this.lineweights) * this.unitsPerMm;
      this.parts.push(
        `<path d="${d}" stroke="${this.color(style.color)}" stroke-width="${this.num(w) === '0' ? String(w) : this.num(w)}"/>\n`,
      );
      return;
    }
    const rule = p.rule === 'nonzero' ? '' : ' fill-rule="evenodd"';
    let fill: string;
    if (p.mode === 'wipeout') fill = cssColor(backgroundRgb(this.background));
    else if (p.gradient && this.mode !== 'mono') fill = this.gradient(p.gradient, dp, m);
    else fill = this.color(style.color);
    this.parts.push(`<path d="${d}" fill="${fill}"${rule}/>\n`);
  }

  private gradient(g: Gradient, d: DevicePath, m: Affine2D): string {
    // The gradient axis: the hatch angle carried to the device, spanning the path's extent along it.
    const { dx, dy, lo, hi, minX, minY, maxX, maxY } = gradientSpan(g.angle, m, d.xy, d.count);
    const name = g.name.toUpperCase();
    const inv = name.startsWith('INV');
    const c0 = this.color(g.colors[inv ? 1 : 0]),
      c1 = this.color(g.colors[inv ? 0 : 1]);
    if (!(hi > lo)) return c0;
    const id = `g${++this.ids}`;
    const cx = (minX + maxX) / 2,
      cy = (minY + maxY) / 2;
    const stops = name.includes('CYLINDER')
      ? `<stop offset="0" stop-color="${c0}"/><stop offset="0.5" stop-color="${c1}"/><stop offset="1" stop-color="${c0}"/>`
      : `<stop offset="0" stop-color="${c0}"/><stop offset="1" stop-color="${c1}"/>`;
    if (/SPHER|CURVED/.test(name)) {
      const r = Math.hypot(maxX - minX, maxY - minY) / 2;
      this.parts.push(
        `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${this.num(cx)}" cy="${this.num(cy)}" r="${this.num(r)}">${stops}</radialGradient>\n`,
      );
    } else {
      const base = cx * dx + cy * dy;
      const x0 = cx + (lo - base) * dx,
        y0 = cy + (lo - base) * dy,
        x1 = cx + (hi - base) * dx,
        y1 = cy + (hi - base) * dy;
      this.parts.push(
        `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${this.num(x0)}" y1="${this.num(y0)}" x2="${this.num(x1)}" y2="${this.num(y1)}">${stops}</linearGradient>\n`,
      );
    }
    return `url(#${id})`;
  }

  text(t: TextPrimitive, m: Affine2D, style: Style, font: FontRef | undefined): void {
    const text = cleanText(t.text);
    if (!text.trim()) return;
    const frame = textFrame(t, m);
    if (!frame || !(frame.fontSize > 0)) return;
    const [a, b, c, d, e, f] = frame.matrix;
    const r = (v: number): string => String(Math.round(v * 1e5) / 1e5);
    const family = font?.family && font.family !== 'Noto Sans CJK SC' ? `'${escapeXml(font.family.replace(/'/g, ''))}', ` : '';
    const length = frame.width > 0 ? ` textLength="${this.num(frame.width)}" lengthAdjust="spacingAndGlyphs"` : '';
    this.parts.push(
      `<text transform="matrix(${r(a)} ${r(b)} ${r(c)} ${r(d)} ${this.num(e)} ${this.num(f)})" font-size="${r(frame.fontSize)}" font-family="${family}'Noto Sans CJK SC', sans-serif" fill="${this.color(style.color)}"${length}>${escapeXml(text)}</text>\n`,
    );
  }

  /** Each picture written once, in a <defs>, and shown by <use>. */
  private readonly pictures = new Map<ListImage, string>();

  image(p: ImagePrimitive, m: Affine2D, _style: Style, picture: ListImage): void {
    const t = affineMultiply(m, p.matrix);
    if (!t.every(Number.isFinite)) return;
    let id = this.pictures.get(picture);
    if (!id) {
      id = `i${++this.ids}`;
      this.pictures.set(picture, id);
      this.parts.push(
        `<defs><image id="${id}" x="0" y="0" width="1" height="1" preserveAspectRatio="none" href="data:${picture.mime};base64,${base64(picture.bytes)}"/></defs>\n`,
      );
    }
    const r = (v: number): string => String(Math.round(v * 1e6) / 1e6);
    this.parts.push(`<use href="#${id}" transform="matrix(${t.slice(0, 4).map(r).join(' ')} ${this.num(t[4])} ${this.num(t[5])})"/>\n`);
  }

  beginClip(polygon: Float64Array): void {
    const id = `c${++this.ids}`;
    let d = '';
    for (let i = 0; i < polygon.length; i += 2)
      d += (i ? 'L' : 'M') + this.num(polygon[i] as number) + ' ' + this.num(polygon[i + 1] as number);
    this.parts.push(`<clipPath id="${id}"><path d="${d}Z"/></clipPath>\n<g clip-path="url(#${id})">\n`);
  }

  endClip(): void {
    this.parts.push('</g>\n');
  }
}

export function svgString(scene: Scene | undefined, options: Omit<RenderOptions, 'format'> = {}): string {
  const background = options.background ?? 'white';
  const fitModel = !!scene?.isModel && (options.paper === undefined || options.paper === 'fit');
  const page = scene
    ? scenePage(scene, {
        ...(options.paper ? { paper: options.paper } : {}),
        ...(options.orientation ? { orientation: options.orientation } : {}),
      })
    : { width: 210, height: 297, matrix: [1, 0, 0, 1, 0, 0] as Affine2D, scale: 1 };
  // User units: model units for a model scene on its own page, else millimetres.
  const unitsPerMm = fitModel ? 1 / page.scale : 1;
  const w = page.width * unitsPerMm,
    h = page.height * unitsPerMm;
  const sink = new SvgSink(options.color ?? 'color', background, options.lineweights ?? true, unitsPerMm, Math.max(w, h));
  const mm = (v: number): string => String(Math.round(v * 1000) / 1000);
  const head =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${mm(page.width)}mm" height="${mm(page.height)}mm" viewBox="0 0 ${sink.num(w)} ${sink.num(h)}">\n` +
    (scene ? `<title>${escapeXml(cleanText(scene.name))}</title>\n` : '') +
    `<rect x="0" y="0" width="${sink.num(w)}" height="${sink.num(h)}" fill="${cssColor(backgroundRgb(background))}"/>\n` +
    `<g fill="none" stroke-linecap="round" stroke-linejoin="round">\n`;
  if (scene) {
    const m = scaleAffine(unitsPerMm, page.matrix);
    const pad = 0.05 * Math.max(w, h);
    drawScene(scene, m, sink, { minX: -pad, minY: -pad, maxX: w + pad, maxY: h + pad });
  }
  return head + sink.parts.join('') + '</g>\n</svg>\n';
}

export function renderSvg(scene: Scene | undefined, options: Omit<RenderOptions, 'format'> = {}): Uint8Array {
  return new TextEncoder().encode(svgString(scene, options));
}
