/**
 * Walks a scene in draw order for a back end: the viewports (each clipped, its model list seen
 * through its matrix, layers frozen in it skipped), then the layout's own paper-space list on top.
 * Primitives outside the visible area are culled using per-primitive boxes cached per list, so a
 * viewport looking at a corner of a big model only pays for what it shows. Browser-safe.
 */
import type {
  Bounds,
  DisplayList,
  ImagePrimitive,
  ListImage,
  PathPrimitive,
  Primitive,
  Scene,
  Style,
  TextPrimitive,
} from '../display/types';
import { affineInverse, transformBox } from './paper';
import type { FontRef } from '../text/fonts';
import { affineMultiply, type Affine2D } from '../geom/matrix';

export interface Sink {
  /** `m` maps the primitive's coordinates to device coordinates. */
  path(p: PathPrimitive, m: Affine2D, style: Style): void;
  text(t: TextPrimitive, m: Affine2D, style: Style, font: FontRef | undefined): void;
  /** A picture: `affineMultiply(m, p.matrix)` maps its unit square (y down from its top-left corner) to the device. */
  image(p: ImagePrimitive, m: Affine2D, style: Style, picture: ListImage): void;
  /**
   * Start clipping to a polygon (x, y pairs, device coordinates, nonzero rule); a nested call
   * clips to the intersection with the clips already open (an XCLIPped block in a viewport).
   */
  beginClip(polygon: Float64Array): void;
  endClip(): void;
}

const boxCache = new WeakMap<Primitive[], Float64Array>();

/** minX, minY, maxX, maxY per primitive (list coordinates). */
function primitiveBoxes(list: DisplayList): Float64Array {
  let boxes = boxCache.get(list.primitives);
  if (boxes && boxes.length === list.primitives.length * 4) return boxes;
  const prims = list.primitives;
  boxes = new Float64Array(prims.length * 4);
  for (let i = 0; i < prims.length; i++) {
    const p = prims[i] as Primitive;
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    if (p.kind === 'path') {
      const c = p.coords;
      for (let j = 0; j < c.length; j += 2) {
        const x = c[j] as number,
          y = c[j + 1] as number;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    } else {
      const [a, b, c, d, e, f] = p.matrix;
      const text = p.kind === 'text';
      const w = !text ? 1 : p.width > 0 ? p.width : p.size * p.text.length;
      for (const x of [0, w])
        for (const y of text ? [-0.3 * p.size, 1.1 * p.size] : [0, 1]) {
          const tx = a * x + c * y + e,
            ty = b * x + d * y + f;
          if (tx < minX) minX = tx;
          if (tx > maxX) maxX = tx;
          if (ty < minY) minY = ty;
          if (ty > maxY) maxY = ty;
        }
    }
    boxes[4 * i] = minX;
    boxes[4 * i + 1] = minY;
    boxes[4 * i + 2] = maxX;
    boxes[4 * i + 3] = maxY;
  }
  boxCache.set(list.primitives, boxes);
  return boxes;
}

/** Styles not to draw: layers hidden in the list (off/frozen) or frozen in the viewport. */
function hiddenStyles(list: DisplayList, frozen: readonly number[]): Uint8Array {
  const hiddenLayer = new Uint8Array(list.layers.length);
  for (let i = 0; i < list.layers.length; i++) if (list.layers[i]?.visible === false) hiddenLayer[i] = 1;
  for (const i of frozen) if (i >= 0 && i < hiddenLayer.length) hiddenLayer[i] = 1;
  const out = new Uint8Array(list.styles.length);
  for (let i = 0; i < list.styles.length; i++) {
    const l = list.styles[i]?.layer ?? -1;
    if (l >= 0 && l < hiddenLayer.length && hiddenLayer[l]) out[i] = 1;
  }
  return out;
}

/**
 * Draws one display list through `m` (list → device), skipping primitives outside `view`
 * (device coordinates; undefined = draw everything).
 */
export function drawList(list: DisplayList, m: Affine2D, sink: Sink, view?: Bounds, frozen: readonly number[] = []): void {
  const hidden = hiddenStyles(list, frozen);
  const inv = view ? affineInverse(m) : null;
  const cull = inv && view ? transformBox(view, inv) : null;
  const boxes = cull ? primitiveBoxes(list) : null;
  const prims = list.primitives;
  // Clipped runs (XCLIP): clipped as viewports are, nested runs inside their parents.
  const clips = list.clips ?? [];
  let nextClip = 0;
  const openEnds: number[] = [];
  for (let i = 0; i < prims.length; i++) {
    while (openEnds.length && (openEnds[openEnds.length - 1] as number) <= i) {
      openEnds.pop();
      sink.endClip();
    }
    while (nextClip < clips.length && (clips[nextClip]?.from ?? Infinity) <= i) {
      const run = clips[nextClip++] as NonNullable<DisplayList['clips']>[number];
      if (run.to <= i || run.polygon.length < 6) continue;
      sink.beginClip(devicePolygon(run.polygon, m));
      openEnds.push(run.to);
    }
    const p = prims[i] as Primitive;
    if (hidden[p.style]) continue;
    if (boxes && cull) {
      const o = 4 * i;
      if (
        (boxes[o] as number) > cull.maxX ||
        (boxes[o + 2] as number) < cull.minX ||
        (boxes[o + 1] as number) > cull.maxY ||
        (boxes[o + 3] as number) < cull.minY
      )
        continue;
    }
    const style = list.styles[p.style];
    if (!style) continue;
    if (p.kind === 'path') sink.path(p, m, style);
    else if (p.kind === 'text') sink.text(p, m, style, list.fonts[p.font]);
    else {
      const picture = list.images?.[p.image];
      if (picture) sink.image(p, m, style, picture);
    }
  }
  while (openEnds.pop() !== undefined) sink.endClip();
}

/** A polygon (x, y pairs) through `m`. */
function devicePolygon(poly: Float64Array, m: Affine2D): Float64Array {
  const out = new Float64Array(poly.length);
  for (let i = 0; i < poly.length; i += 2) {
    const x = poly[i] as number,
      y = poly[i + 1] as number;
    out[i] = m[0] * x + m[2] * y + m[4];
    out[i + 1] = m[1] * x + m[3] * y + m[5];
  }
  return out;
}

/** Draws a scene: viewports first (clipped), then the paper-space list. `m` maps scene units to device units. */
export function drawScene(scene: Scene, m: Affine2D, sink: Sink, view?: Bounds): void {
  for (const vp of scene.viewports) {
    const clip = vp.clip;
    if (clip.length < 6) continue;
    const dev = new Float64Array(clip.length);
    let minX = Infinity,
      minY = Infinity,
      maxX = -Infinity,
      maxY = -Infinity;
    for (let i = 0; i < clip.length; i += 2) {
      const x = clip[i] as number,
        y = clip[i + 1] as number;
      const tx = m[0] * x + m[2] * y + m[4],
        ty = m[1] * x + m[3] * y + m[5];
      dev[i] = tx;
      dev[i + 1] = ty;
      if (tx < minX) minX = tx;
      if (tx > maxX) maxX = tx;
      if (ty < minY) minY = ty;
      if (ty > maxY) maxY = ty;
    }
    let vpView: Bounds = { minX, minY, maxX, maxY };
    if (view) {
      vpView = {
        minX: Math.max(minX, view.minX),
        minY: Math.max(minY, view.minY),
        maxX: Math.min(maxX, view.maxX),
        maxY: Math.min(maxY, view.maxY),
      };
      if (vpView.minX >= vpView.maxX || vpView.minY >= vpView.maxY) continue;
    }
    sink.beginClip(dev);
    drawList(vp.list, affineMultiply(m, vp.matrix), sink, vpView, vp.frozenLayers);
    sink.endClip();
  }
  drawList(scene.list, m, sink, view);
}

// ---- text helpers shared by the back ends ------------------------------------------------------

/** Characters a standard PDF font (WinAnsiEncoding) can show. */
const WIN_ANSI_EXTRA = new Set([
  0x20ac, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x017d, 0x2018, 0x2019, 0x201c, 0x201d,
  0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x017e, 0x0178,
]);

export function isWinAnsi(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) return false;
    if (c < 0x7f || (c >= 0xa0 && c <= 0xff)) continue;
    if (!WIN_ANSI_EXTRA.has(c)) return false;
  }
  return true;
}

/**
 * The text primitive's frame on the device: `matrix` maps glyph space (x right along the baseline,
 * y DOWN, 1 unit = 1 device unit at font size `fontSize`) to device coordinates with y down.
 * Normalised so the matrix has unit scale on average and the size is in device units.
 */
export function textFrame(t: TextPrimitive, m: Affine2D): { matrix: Affine2D; fontSize: number; width: number } | null {
  // text space (y up, world units) → device, then flip glyph y (device y down).
  const a = affineMultiply(m, t.matrix);
  const g: Affine2D = [a[0], a[1], -a[2], -a[3], a[4], a[5]];
  const det = Math.abs(g[0] * g[3] - g[1] * g[2]);
  const sigma = Math.sqrt(det);
  if (!(sigma > 0) || !Number.isFinite(sigma)) return null;
  return {
    matrix: [g[0] / sigma, g[1] / sigma, g[2] / sigma, g[3] / sigma, g[4], g[5]],
    fontSize: t.size * sigma,
    width: t.width * sigma,
  };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_ALL = /[\u0000-\u001f]/g;

/** Control characters (tabs, stray line breaks) shown as spaces. */
export function withoutControls(s: string): string {
  return CONTROL.test(s) ? s.replace(CONTROL_ALL, ' ') : s;
}

/** The pictures a scene shows (each once, however many lists show it). */
export function sceneImages(scene: Scene): ListImage[] {
  const out = new Set<ListImage>();
  for (const list of [scene.list, ...scene.viewports.map((v) => v.list)]) for (const img of list.images ?? []) out.add(img);
  return [...out];
}
