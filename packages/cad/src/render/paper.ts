/**
 * Pages and colours shared by every back end (PDF, PNG/JPG, SVG) and by the browser viewer:
 * ISO paper sizes, the orientation rule, the scene → page transform and the colour modes.
 * Browser-safe: plain arithmetic, no Node imports.
 *
 * Page units are millimetres with the origin at the top-left corner and y pointing down (the way
 * PDF viewers, canvases and SVG lay out a page); scene units are drawing units (model space) or
 * paper-space units (layouts, taken as millimetres when the layout has a page setup).
 */
import { type Bounds, type Paper, type Scene } from '../display/types';
import { FOREGROUND } from '../geom/color';
import type { Affine2D } from '../geom/matrix';

export type PaperName = 'A0' | 'A1' | 'A2' | 'A3' | 'A4';
export type Orientation = 'auto' | 'portrait' | 'landscape';
export type ColorMode = 'color' | 'gray' | 'mono';
export type Background = 'white' | 'black';
/** [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (the display list's convention). */
/** ISO 216 sizes in millimetres, portrait (width, height). */
export const PAPER_SIZES: Readonly<Record<PaperName, readonly [number, number]>> = {
  A0: [841, 1189],
  A1: [594, 841],
  A2: [420, 594],
  A3: [297, 420],
  A4: [210, 297],
};

export const MM_PER_INCH = 25.4;
export const PT_PER_MM = 72 / MM_PER_INCH;
/** Margin around the drawing when it is fitted to a page, mm. */
export const DEFAULT_MARGIN_MM = 5;
/** A model scene plotted "to fit" lands on a page whose long side is A3's (420 mm). */
export const FIT_LONG_SIDE_MM = 420;

export interface PageOptions {
  /** A named paper, 'fit' (a page the size of the drawing), or undefined (the layout's own page setup, else 'fit'). */
  paper?: PaperName | 'fit';
  orientation?: Orientation;
  /** Margin around fitted extents, mm (default 5). Not applied when a layout's paper is placed as a whole. */
  margin?: number;
  /** Fit the scene's extents even when the layout has a paper (raster output with a width in pixels). */
  extents?: boolean;
}

export interface Page {
  /** Page size, mm. */
  width: number;
  height: number;
  /** Scene → page mm (y down, origin top-left). */
  matrix: Affine2D;
  /** Page mm per scene unit. */
  scale: number;
}

/** The paper of a layout as displayed (rotation applied) and where it lies in paper-space coordinates. */
export interface LayoutSheet {
  width: number;
  height: number;
  /** The sheet's rectangle in paper-space units. */
  box: Bounds;
}

/**
 * The sheet of a layout: the page setup's paper turned by its plot rotation, placed so that the
 * paper-space origin is the lower-left corner of the printable area (inside the margins).
 */
export function layoutSheet(paper: Paper | undefined): LayoutSheet | null {
  if (!paper || !(paper.width > 0) || !(paper.height > 0) || !Number.isFinite(paper.width) || !Number.isFinite(paper.height)) return null;
  const rot = ((Math.round(paper.rotation / 90) % 4) + 4) % 4;
  const [l, b, r, t] = paper.margins.map((m) => (Number.isFinite(m) && m > 0 ? m : 0)) as [number, number, number, number];
  const turned = rot === 1 || rot === 3;
  const width = turned ? paper.height : paper.width;
  const height = turned ? paper.width : paper.height;
  // Margins as seen on the displayed (upright) sheet: [left, bottom].
  const shown: [number, number] = rot === 0 ? [l, b] : rot === 1 ? [b, r] : rot === 2 ? [r, t] : [t, l];
  const box = { minX: -shown[0], minY: -shown[1], maxX: width - shown[0], maxY: height - shown[1] };
  return { width, height, box };
}

function validBounds(b: Bounds | null | undefined): Bounds | null {
  if (!b) return null;
  const ok = [b.minX, b.minY, b.maxX, b.maxY].every((v) => Number.isFinite(v) && Math.abs(v) < 1e300);
  if (!ok || b.maxX < b.minX || b.maxY < b.minY) return null;
  return b;
}

/** A box with a non-zero width and height (a horizontal line gets a sliver of height). */
function nonDegenerate(b: Bounds): Bounds {
  let { minX, minY, maxX, maxY } = b;
  const w = maxX - minX,
    h = maxY - minY;
  const size = Math.max(w, h);
  const floor = size > 0 ? size * 1e-3 : Math.max(1, Math.abs(minX) * 1e-9, Math.abs(minY) * 1e-9);
  if (!(w >= floor)) {
    const c = (minX + maxX) / 2;
    minX = c - floor / 2;
    maxX = c + floor / 2;
  }
  if (!(h >= floor)) {
    const c = (minY + maxY) / 2;
    minY = c - floor / 2;
    maxY = c + floor / 2;
  }
  return { minX, minY, maxX, maxY };
}

function overlapArea(a: Bounds, b: Bounds): number {
  const w = Math.min(a.maxX, b.maxX) - Math.max(a.minX, b.minX);
  const h = Math.min(a.maxY, b.maxY) - Math.max(a.minY, b.minY);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Landscape for a box wider than tall (auto), or as forced. */
export function isLandscape(orientation: Orientation | undefined, contentWidth: number, contentHeight: number): boolean {
  if (orientation === 'landscape') return true;
  if (orientation === 'portrait') return false;
  return contentWidth > contentHeight;
}

/** Page size (mm) of a named paper in an orientation. */
export function paperSize(name: PaperName, landscape: boolean): [number, number] {
  const [w, h] = PAPER_SIZES[name];
  return landscape ? [h, w] : [w, h];
}

/** The transform placing `box` centred on a `width`×`height` page, scaled by `s`, y flipped. */
export function placeBox(box: Bounds, width: number, height: number, s: number): Affine2D {
  const cx = (box.minX + box.maxX) / 2,
    cy = (box.minY + box.maxY) / 2;
  return [s, 0, 0, -s, width / 2 - s * cx, height / 2 + s * cy];
}

/**
 * Where a scene goes on a page:
 * - a layout with a page setup, paper not chosen (or 'fit'): its own sheet, its plot rotation
 *   applied, at 1:1 (paper units in mm, or in inches when the drawing is evidently in inches: see
 *   `placeSheet`); a forced orientation that disagrees turns the page and fits the sheet onto it;
 * - a named paper: the layout's sheet (or the scene's extents plus the margin) fitted and centred,
 *   landscape when the content is wider than tall unless forced;
 * - 'fit' (model space by default): a page the shape of the extents plus the margin; model
 *   space as if plotted to fit A3 (the long side 420 mm), a layout without a page setup at 1:1.
 * A scene with nothing drawn gets an empty A4-sized page.
 */
export function scenePage(scene: Scene, options: PageOptions = {}): Page {
  const margin = options.margin !== undefined && options.margin >= 0 ? options.margin : DEFAULT_MARGIN_MM;
  const bounds = validBounds(scene.bounds);
  const paper = scene.isModel || options.extents ? null : layoutSheet(scene.paper);
  const { sheet, sheetPage } = placeSheet(paper, bounds);
  const content = sheet ? sheet.box : nonDegenerate(bounds ?? { minX: 0, minY: 0, maxX: 297, maxY: 210 });
  const pad = sheet ? 0 : margin;
  const cw = content.maxX - content.minX,
    ch = content.maxY - content.minY;

  let width: number, height: number;
  if (options.paper && options.paper !== 'fit') {
    [width, height] = paperSize(options.paper, isLandscape(options.orientation, cw, ch));
  } else if (sheetPage) {
    // The layout's own sheet (also for 'fit': the sheet is the layout's page).
    width = sheetPage.width;
    height = sheetPage.height;
    const wantLandscape = isLandscape(options.orientation, width, height);
    if (wantLandscape !== width > height && width !== height) [width, height] = [height, width];
  } else {
    // Fit: the content's own shape. Model space (and absurd paper sizes) scaled to A3's long side.
    let s = 1;
    const long = Math.max(cw, ch);
    if (scene.isModel || !bounds || long < 20 || long > 5000) s = (FIT_LONG_SIDE_MM - 2 * pad) / long;
    width = cw * s + 2 * pad;
    height = ch * s + 2 * pad;
    if (options.orientation && options.orientation !== 'auto' && isLandscape(options.orientation, width, height) !== width > height) {
      [width, height] = [height, width];
    }
  }
  const s = Math.min(Math.max(width - 2 * pad, 1e-9) / cw, Math.max(height - 2 * pad, 1e-9) / ch);
  const scale = Number.isFinite(s) && s > 0 ? s : 1;
  return { width, height, matrix: placeBox(content, width, height, scale), scale };
}

/**
 * Where a layout's drawing sits on its sheet. The page setup gives the paper in mm, but paper
 * space may be drawn in inches (the plot's paper units) or at a plot scale, which the scene does
 * not carry. So: a drawing that lies on the sheet taken in inches and would be tiny in mm is in
 * inches; a drawing that lies on the sheet in mm uses it 1:1; anything else (another scale) is
 * fitted onto a page the size of the sheet.
 */
function placeSheet(paper: LayoutSheet | null, bounds: Bounds | null): { sheet: LayoutSheet | null; sheetPage: LayoutSheet | null } {
  if (!paper) return { sheet: null, sheetPage: null };
  if (!bounds) return { sheet: paper, sheetPage: paper };
  const b = nonDegenerate(bounds);
  const bw = b.maxX - b.minX,
    bh = b.maxY - b.minY;
  const sw = paper.box.maxX - paper.box.minX,
    sh = paper.box.maxY - paper.box.minY;
  const tiny = bw < sw / 5 && bh < sh / 5;
  if (tiny) {
    const k = 1 / MM_PER_INCH;
    const box = { minX: paper.box.minX * k, minY: paper.box.minY * k, maxX: paper.box.maxX * k, maxY: paper.box.maxY * k };
    const tol = 0.1 * Math.max(box.maxX - box.minX, box.maxY - box.minY);
    if (b.minX >= box.minX - tol && b.maxX <= box.maxX + tol && b.minY >= box.minY - tol && b.maxY <= box.maxY + tol) {
      const inches = { width: paper.width, height: paper.height, box };
      return { sheet: inches, sheetPage: inches };
    }
    return { sheet: null, sheetPage: paper };
  }
  const inside = overlapArea(b, paper.box);
  if (inside < 0.25 * Math.min(bw * bh, sw * sh) || bw > 2 * sw || bh > 2 * sh) return { sheet: null, sheetPage: paper };
  return { sheet: paper, sheetPage: paper };
}

// ---- affine helpers ---------------------------------------------------------------------------

export function affineInverse(m: Affine2D): Affine2D | null {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c;
  if (!det || !Number.isFinite(det)) return null;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

export function scaleAffine(k: number, m: Affine2D): Affine2D {
  return [k * m[0], k * m[1], k * m[2], k * m[3], k * m[4], k * m[5]];
}

/**
 * Where a gradient runs on the device: the hatch's gradient angle carried through `m` (world ->
 * device) as the unit axis (dx, dy), the path's extent along it (lo..hi) and the path's box.
 * `xy` holds `count` device points.
 */
export function gradientSpan(
  angle: number,
  m: Affine2D,
  xy: ArrayLike<number>,
  count: number,
): { dx: number; dy: number; lo: number; hi: number; minX: number; minY: number; maxX: number; maxY: number } {
  let dx = m[0] * Math.cos(angle) + m[2] * Math.sin(angle);
  let dy = m[1] * Math.cos(angle) + m[3] * Math.sin(angle);
  const len = Math.hypot(dx, dy) || 1;
  dx /= len;
  dy /= len;
  let lo = Infinity,
    hi = -Infinity,
    minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < 2 * count; i += 2) {
    const x = xy[i] as number,
      y = xy[i + 1] as number;
    const t = x * dx + y * dy;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { dx, dy, lo, hi, minX, minY, maxX, maxY };
}

/** The bounding box of `b` transformed by `m`. */
export function transformBox(b: Bounds, m: Affine2D): Bounds {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const x of [b.minX, b.maxX])
    for (const y of [b.minY, b.maxY]) {
      const tx = m[0] * x + m[2] * y + m[4],
        ty = m[1] * x + m[3] * y + m[5];
      if (tx < minX) minX = tx;
      if (tx > maxX) maxX = tx;
      if (ty < minY) minY = ty;
      if (ty > maxY) maxY = ty;
    }
  return { minX, minY, maxX, maxY };
}

// ---- colours ----------------------------------------------------------------------------------

/** The page colour as 0xRRGGBB. */
export function backgroundRgb(background: Background | undefined): number {
  return background === 'black' ? 0x000000 : 0xffffff;
}

function foregroundRgb(background: Background | undefined): number {
  return background === 'black' ? 0xffffff : 0x000000;
}

/** Colours closer than this (per channel) to the page colour are drawn in the foreground colour. */
const NEAR_BACKGROUND = 0x12;

/**
 * A style colour (0xRRGGBB or FOREGROUND) as it appears on the page, 0xRRGGBB:
 * - 'color': as is, FOREGROUND black on white and white on black;
 * - 'gray': the luminance (Rec. 601) of the colour as a grey;
 * - 'mono': everything in the foreground colour.
 * A colour that would vanish into the page (white on white, black on black) becomes the foreground colour.
 */
export function displayRgb(color: number, mode: ColorMode = 'color', background: Background = 'white'): number {
  const fg = foregroundRgb(background);
  if (color === FOREGROUND || color < 0 || mode === 'mono') return fg;
  let rgb = color & 0xffffff;
  if (mode === 'gray') {
    const l = Math.round(0.299 * ((rgb >> 16) & 255) + 0.587 * ((rgb >> 8) & 255) + 0.114 * (rgb & 255));
    rgb = (l << 16) | (l << 8) | l;
  }
  const bg = backgroundRgb(background);
  if (
    Math.abs(((rgb >> 16) & 255) - ((bg >> 16) & 255)) < NEAR_BACKGROUND &&
    Math.abs(((rgb >> 8) & 255) - ((bg >> 8) & 255)) < NEAR_BACKGROUND &&
    Math.abs((rgb & 255) - (bg & 255)) < NEAR_BACKGROUND
  )
    return fg;
  return rgb;
}

export function cssColor(rgb: number): string {
  return '#' + (rgb & 0xffffff).toString(16).padStart(6, '0');
}

/** `displayRgb` as a CSS colour ('#rrggbb'). */
export function displayColor(color: number, mode: ColorMode = 'color', background: Background = 'white'): string {
  return cssColor(displayRgb(color, mode, background));
}

// ---- lineweights ------------------------------------------------------------------------------

/** The thinnest line drawn, mm (lineweight 0 and "lineweights off"). */
export const MIN_LINEWEIGHT_MM = 0.1;
/** Lineweights at or below this (the CAD default, 0.25 mm) count as thin lines. */
export const DEFAULT_LINEWEIGHT_MM = 0.25;

/** A style's lineweight on paper, mm: at least MIN_LINEWEIGHT_MM; MIN_LINEWEIGHT_MM when lineweights are off. */
export function lineweightMm(weight: number, enabled: boolean): number {
  if (!enabled || !(weight > MIN_LINEWEIGHT_MM) || !Number.isFinite(weight)) return MIN_LINEWEIGHT_MM;
  return Math.min(weight, 10);
}
