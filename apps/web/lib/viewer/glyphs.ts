import { isCjk } from '@xcad/cad/text';
import { SERVED_FAMILIES, servedFaceOf } from './cjk-fonts';
import { Floats } from './floats';
import type { Box, ListTexts, PackedFont } from './types';

// Text on the GPU: every character the drawing uses is drawn once with Canvas 2D into an atlas
// (pages of 56 px cells), and each character of each text becomes one textured quad placed by the
// text's matrix. CJK characters take the CJK face the engine ships (cjk-fonts.ts loads the
// drawing's characters of it before the atlas is drawn), so Chinese never shows as boxes and
// looks as in the exports; installed CJK fonts are the fallback. Advances come from the browser's font, scaled so every line keeps the
// width the engine measured: centred and right-aligned text stays where the drawing put it.
// Text that is large on screen is drawn crisp by the 2D overlay instead (overlay.ts).

/**
 * Floats per glyph vertex (six vertices, two triangles, per glyph): x, y (list units relative to
 * the bucket's origin), u, v (atlas), order, style, and the glyph cell's vertical axis (V x, y:
 * its length on screen tells whether the 2D overlay draws this text instead).
 */
export const GLYPH_FLOATS = 8;

/** Atlas cell and the font size glyphs are drawn at (px). */
export const CELL = 56;
export const FONT_PX = 40;
/** Left padding and baseline of a glyph in its cell (px from the cell's left and top). */
const PAD_X = 4;
const BASELINE = 44;
const ATLAS_WIDTH = 2048;
const PER_ROW = Math.floor(ATLAS_WIDTH / CELL);
const MAX_PAGE_HEIGHT = 2048;
const PER_PAGE = PER_ROW * Math.floor(MAX_PAGE_HEIGHT / CELL);
const GLYPHS_PER_BUCKET = 4096;

const INSTALLED_CJK =
  '"Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC", "Hiragino Sans GB", "WenQuanYi Micro Hei", sans-serif';
const FALLBACKS: Readonly<Record<string, string>> = {
  sans: '"DejaVu Sans", "Liberation Sans", Arial, "Helvetica Neue", sans-serif',
  serif: '"Liberation Serif", "Times New Roman", "DejaVu Serif", serif',
  mono: '"Liberation Mono", "DejaVu Sans Mono", "Courier New", monospace',
};

/** Han, kana, hangul, CJK punctuation and full-width forms: the engine's own font split. */
export const isCjkCode = isCjk;

/** The CSS font family list for an engine font family, and for a CJK character in it (the served face of its style first). */
export function cssFamilies(family: string, cjk: boolean): string {
  if (cjk || /CJK|Noto (Sans|Serif) SC|Han Sans|YaHei|SimSun|SimHei|PingFang/i.test(family))
    return `"${SERVED_FAMILIES[servedFaceOf(family)]}", ${INSTALLED_CJK}`;
  const kind = /mono|courier/i.test(family) ? 'mono' : /serif|times|roman/i.test(family) && !/sans/i.test(family) ? 'serif' : 'sans';
  const quoted = `"${family.replace(/["\\]/g, '')}"`;
  return `${quoted}, ${FALLBACKS[kind]}`;
}

interface AtlasPage {
  canvas: HTMLCanvasElement | OffscreenCanvas;
  width: number;
  height: number;
}

interface GlyphCell {
  page: number;
  u0: number;
  v0: number;
  u1: number;
  v1: number;
  /** Advance in em. */
  advance: number;
}

/** Text measurements per list, for the overlay and culling. */
interface TextInfo {
  /** List-space box of each text (4 per text). */
  boxes: Float64Array;
  /** Em size of each text in list units (the length a 1-em vertical takes after the matrix). */
  ems: Float32Array;
  /** Horizontal scale that fits the browser's advances to the engine's width. */
  fits: Float32Array;
}

interface GlyphBucket {
  page: number;
  /** The clip (PackedList.clips) its texts lie in, -1 for none: drawn through that clip's stencil. */
  clip: number;
  origin: [number, number];
  bounds: Box;
  /** The tallest glyph cell in the bucket (list units): a bucket whose glyphs are all specks on screen is skipped. */
  maxCell: number;
  /** GLYPH_FLOATS per vertex, six vertices per glyph. */
  data: Float32Array;
  /** Glyphs. */
  count: number;
}

interface ListGlyphs {
  buckets: GlyphBucket[];
  info: TextInfo;
  glyphCount: number;
}

export interface GlyphSet {
  pages: AtlasPage[];
  lists: ListGlyphs[];
  /** CSS family list of each font index, per list (the overlay draws with them). */
  css: string[][];
}

type CanvasFactory = (width: number, height: number) => HTMLCanvasElement | OffscreenCanvas;

function context2d(canvas: HTMLCanvasElement | OffscreenCanvas): CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D {
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null;
  if (!ctx) throw new Error('2D canvas unavailable');
  return ctx;
}

class Atlas {
  readonly pages: AtlasPage[] = [];
  private readonly cells = new Map<string, GlyphCell>();
  /** Per font, per character: the hot path of a large drawing's texts without building keys. */
  private readonly byFont = new Map<string, Map<string, GlyphCell>>();
  private readonly pending: { key: string; ch: string; css: string; index: number }[] = [];
  private readonly measure: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
  private measureFont = '';

  constructor(private readonly create: CanvasFactory) {
    this.measure = context2d(create(8, 8));
  }

  private useFont(css: string): void {
    if (this.measureFont === css) return;
    this.measure.font = `${FONT_PX}px ${css}`;
    this.measureFont = css;
  }

  /** A character's advance in em, without giving it a cell. */
  advanceOf(ch: string, css: string): number {
    this.useFont(css);
    const w = this.measure.measureText(ch).width / FONT_PX;
    return Number.isFinite(w) && w > 0 ? w : 0.3;
  }

  /** The cell of a character in a font (allocated now, drawn by `draw`). */
  cell(ch: string, css: string): GlyphCell {
    let font = this.byFont.get(css);
    if (!font) {
      font = new Map();
      this.byFont.set(css, font);
    }
    const known = font.get(ch);
    if (known) return known;
    const key = `${css}\u0000${ch}`;
    let c = this.cells.get(key);
    if (c) {
      font.set(ch, c);
      return c;
    }
    const index = this.cells.size;
    this.useFont(css);
    const advance = this.measure.measureText(ch).width / FONT_PX;
    const page = Math.floor(index / PER_PAGE);
    const slot = index % PER_PAGE;
    const x = (slot % PER_ROW) * CELL,
      y = Math.floor(slot / PER_ROW) * CELL;
    // v is filled in once the page height is known (draw).
    c = { page, u0: x, v0: y, u1: x + CELL, v1: y + CELL, advance: Number.isFinite(advance) && advance > 0 ? advance : 0.6 };
    this.cells.set(key, c);
    font.set(ch, c);
    this.pending.push({ key, ch, css, index });
    return c;
  }

  /** Draws every allocated glyph and turns cell pixels into texture coordinates. */
  draw(): void {
    const count = this.cells.size;
    const pageCount = Math.ceil(count / PER_PAGE);
    for (let p = 0; p < pageCount; p++) {
      const inPage = Math.min(PER_PAGE, count - p * PER_PAGE);
      const rows = Math.ceil(inPage / PER_ROW);
      let height = 64;
      while (height < rows * CELL) height *= 2;
      const canvas = this.create(ATLAS_WIDTH, height);
      this.pages.push({ canvas, width: ATLAS_WIDTH, height });
    }
    const contexts = this.pages.map((page) => {
      const ctx = context2d(page.canvas);
      ctx.fillStyle = '#ffffff';
      ctx.textBaseline = 'alphabetic';
      return ctx;
    });
    let font = '';
    for (const g of this.pending) {
      const c = this.cells.get(g.key) as GlyphCell;
      const ctx = contexts[c.page] as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
      const want = `${FONT_PX}px ${g.css}`;
      if (want !== font) {
        for (const other of contexts) other.font = want;
        font = want;
      }
      ctx.fillText(g.ch, c.u0 + PAD_X, c.v0 + BASELINE);
    }
    for (const c of this.cells.values()) {
      const page = this.pages[c.page] as AtlasPage;
      c.u0 /= page.width;
      c.u1 /= page.width;
      c.v0 /= page.height;
      c.v1 /= page.height;
    }
    this.pending.length = 0;
  }
}

/** Glyph quads and text measurements for every list of a drawing. */
export function buildGlyphs(lists: readonly ListTexts[], create: CanvasFactory): GlyphSet {
  const atlas = new Atlas(create);
  const css = lists.map((l) => l.fonts.map((f: PackedFont) => cssFamilies(f.family, false)));
  const cjkCss = lists.map((l) => l.fonts.map((f: PackedFont) => cssFamilies(f.family, true)));
  // First pass: cells (and advances) for every character; second pass: quads once the atlas is drawn.
  const perList = lists.map((list, li) => {
    const t = list.texts;
    const cellsOf: Placed[][] = [];
    const fits = new Float32Array(t.count);
    for (let k = 0; k < t.count; k++) {
      const text = t.chars.slice(t.offsets[k] as number, t.offsets[k + 1] as number);
      const family = css[li]?.[t.fonts[k] as number] ?? cssFamilies('DejaVu Sans', false);
      const cjkFamily = cjkCss[li]?.[t.fonts[k] as number] ?? cssFamilies('', true);
      const cells: Placed[] = [];
      let em = 0;
      for (const ch of text) {
        const cp = ch.codePointAt(0) as number;
        if (cp <= 0x20 || cp === 0xa0 || cp === 0x3000) {
          // Spaces take room but draw nothing (an ideographic space is one em).
          const advance = cp === 0x3000 ? 1 : spaceAdvance(atlas, family);
          em += advance;
          cells.push({ cell: null, advance });
          continue;
        }
        const cell = atlas.cell(ch, isCjkCode(cp) ? cjkFamily : family);
        em += cell.advance;
        cells.push({ cell, advance: cell.advance });
      }
      const size = t.sizes[k] as number;
      const want = (t.widths[k] as number) / Math.max(size, 1e-12);
      const fit = em > 0 && want > 0 ? want / em : 1;
      fits[k] = Math.min(3, Math.max(0.3, fit));
      cellsOf.push(cells);
    }
    return { cellsOf, fits };
  });
  atlas.draw();
  const out: ListGlyphs[] = lists.map((list, li) => {
    const t = list.texts;
    const { cellsOf, fits } = perList[li] as { cellsOf: Placed[][]; fits: Float32Array };
    const boxes = new Float64Array(t.count * 4);
    const ems = new Float32Array(t.count);
    let glyphCount = 0;
    for (const cells of cellsOf) for (const c of cells) if (c.cell) glyphCount++;
    const grid = new GlyphGrid(list.bounds, glyphCount);
    for (let k = 0; k < t.count; k++) {
      const m = t.matrices.subarray(k * 6, k * 6 + 6);
      const a = m[0] as number,
        b = m[1] as number,
        c = m[2] as number,
        d = m[3] as number,
        e = m[4] as number,
        f = m[5] as number;
      const size = t.sizes[k] as number;
      const fit = fits[k] as number;
      const cells = cellsOf[k] as Placed[];
      const cellW = (size * fit * CELL) / FONT_PX,
        cellH = (size * CELL) / FONT_PX;
      const left = (-size * fit * PAD_X) / FONT_PX,
        bottom = (-size * (CELL - BASELINE)) / FONT_PX;
      // U and V: the cell's width and height through the matrix (list units).
      const ux = a * cellW,
        uy = b * cellW,
        vx = c * cellH,
        vy = d * cellH;
      ems[k] = Math.sqrt(Math.abs(a * d - b * c)) * size;
      let x = 0;
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      const order = t.orders[k] as number,
        style = t.styles[k] as number,
        clip = t.clips[k] ?? -1;
      for (const placed of cells) {
        if (placed.cell) {
          const gx = x + left,
            gy = bottom;
          const ox = a * gx + c * gy + e,
            oy = b * gx + d * gy + f;
          grid.push(placed.cell, clip, ox, oy, ux, uy, vx, vy, order, style);
        }
        x += placed.advance * size * fit;
      }
      // Box: the run's extent from the baseline's start, one em up and a quarter down.
      const w = Math.max(x, (t.widths[k] as number) || 0);
      for (const [px, py] of [
        [0, -0.3 * size],
        [w, -0.3 * size],
        [0, 1.1 * size],
        [w, 1.1 * size],
      ] as const) {
        const tx = a * px + c * py + e,
          ty = b * px + d * py + f;
        if (tx < minX) minX = tx;
        if (tx > maxX) maxX = tx;
        if (ty < minY) minY = ty;
        if (ty > maxY) maxY = ty;
      }
      boxes.set([minX, minY, maxX, maxY], k * 4);
    }
    return { buckets: grid.finish(), info: { boxes, ems, fits }, glyphCount };
  });
  return { pages: atlas.pages, lists: out, css };
}

interface Placed {
  cell: GlyphCell | null;
  /** Advance in em. */
  advance: number;
}

const spaceCache = new WeakMap<Atlas, Map<string, number>>();

/** The advance of a space in a font (measured once per font). */
function spaceAdvance(atlas: Atlas, css: string): number {
  let fonts = spaceCache.get(atlas);
  if (!fonts) {
    fonts = new Map();
    spaceCache.set(atlas, fonts);
  }
  let w = fonts.get(css);
  if (w === undefined) {
    w = atlas.advanceOf(' ', css);
    fonts.set(css, w);
  }
  return w;
}

class GlyphGrid {
  private readonly n: number;
  private readonly box: Box;
  private readonly cells = new Map<
    number,
    { page: number; clip: number; ox: number; oy: number; data: Floats; bounds: Box; maxCell: number }
  >();

  constructor(bounds: Box | null, glyphs: number) {
    this.box = bounds ?? { minX: -1, minY: -1, maxX: 1, maxY: 1 };
    this.n = Math.max(1, Math.min(16, Math.ceil(Math.sqrt(glyphs / GLYPHS_PER_BUCKET))));
  }

  push(
    cell: GlyphCell,
    clip: number,
    ox: number,
    oy: number,
    ux: number,
    uy: number,
    vx: number,
    vy: number,
    order: number,
    style: number,
  ): void {
    const w = Math.max(this.box.maxX - this.box.minX, 1e-9) / this.n,
      h = Math.max(this.box.maxY - this.box.minY, 1e-9) / this.n;
    const i = Math.min(this.n - 1, Math.max(0, Math.floor((ox - this.box.minX) / w)));
    const j = Math.min(this.n - 1, Math.max(0, Math.floor((oy - this.box.minY) / h)));
    // A bucket per clip, atlas page and grid cell.
    const key = (((clip + 1) * 65536 + cell.page) * this.n + j) * this.n + i;
    let b = this.cells.get(key);
    if (!b) {
      b = {
        page: cell.page,
        clip,
        ox: this.box.minX + (i + 0.5) * w,
        oy: this.box.minY + (j + 0.5) * h,
        data: new Floats(6 * GLYPH_FLOATS * 64),
        bounds: { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity },
        maxCell: 0,
      };
      this.cells.set(key, b);
    }
    b.maxCell = Math.max(b.maxCell, Math.hypot(vx, vy));
    const x = ox - b.ox,
      y = oy - b.oy;
    const out = b.data;
    out.reserve(6 * GLYPH_FLOATS);
    const d = out.data;
    const vertex = (px: number, py: number, u: number, v: number) => {
      const o = out.length;
      d[o] = px;
      d[o + 1] = py;
      d[o + 2] = u;
      d[o + 3] = v;
      d[o + 4] = order;
      d[o + 5] = style;
      d[o + 6] = vx;
      d[o + 7] = vy;
      out.length += GLYPH_FLOATS;
    };
    // Two triangles: lower left, upper left, lower right; lower right, upper left, upper right.
    vertex(x, y, cell.u0, cell.v1);
    vertex(x + vx, y + vy, cell.u0, cell.v0);
    vertex(x + ux, y + uy, cell.u1, cell.v1);
    vertex(x + ux, y + uy, cell.u1, cell.v1);
    vertex(x + vx, y + vy, cell.u0, cell.v0);
    vertex(x + ux + vx, y + uy + vy, cell.u1, cell.v0);
    for (const [x, y] of [
      [ox, oy],
      [ox + ux, oy + uy],
      [ox + vx, oy + vy],
      [ox + ux + vx, oy + uy + vy],
    ] as const) {
      if (x < b.bounds.minX) b.bounds.minX = x;
      if (x > b.bounds.maxX) b.bounds.maxX = x;
      if (y < b.bounds.minY) b.bounds.minY = y;
      if (y > b.bounds.maxY) b.bounds.maxY = y;
    }
  }

  finish(): GlyphBucket[] {
    return [...this.cells.values()].map((b) => ({
      page: b.page,
      clip: b.clip,
      origin: [b.ox, b.oy],
      bounds: b.bounds,
      maxCell: b.maxCell,
      data: b.data.done(),
      count: b.data.length / GLYPH_FLOATS / 6,
    }));
  }
}
