import { clipChain, polygonThrough } from './clips';
import { displayColor, cssHex } from './colors';
import type { GlyphSet } from './glyphs';
import type { PackedDrawing, PackedScene } from './types';
import { apply, boxesOverlap, compose, transformBox, viewMatrix, type Affine, type View } from './view';

// Text that is large on screen is drawn by Canvas 2D over the WebGL canvas, crisp at any zoom
// (the atlas glyphs are drawn at 40 px and would blur). Only texts in view and above the size
// threshold are drawn, so it stays cheap; when too many qualify (a zoomed-in title block full of
// notes), the atlas draws them all instead to keep frames smooth.

/** Glyphs taller than this on screen (device px) go to the overlay. */
const OVERLAY_EM_PX = 48;
/** More large texts than this in view: the atlas draws everything. */
const OVERLAY_MAX_TEXTS = 300;

interface OverlayText {
  list: number;
  index: number;
  toDevice: Affine;
  /** Device polygons the text shows inside (all of them): its viewport's, then its XCLIPs' outermost first. */
  clips: Float32Array[];
}

export interface OverlayPlan {
  /** The maxEmPx the WebGL pass should use. */
  maxEmPx: number;
  texts: OverlayText[];
}

interface Pass {
  list: number;
  toDevice: Affine;
  clip: Float32Array | null;
  frozen: ReadonlySet<number>;
}

function passesOf(scene: PackedScene, view: View): Pass[] {
  const toDevice = viewMatrix(view);
  const passes: Pass[] = [];
  for (const vp of scene.viewports) {
    const clip = new Float32Array(vp.clip.length);
    for (let i = 0; i < vp.clip.length; i += 2) {
      const [x, y] = apply(toDevice, vp.clip[i] as number, vp.clip[i + 1] as number);
      clip[i] = x;
      clip[i + 1] = y;
    }
    passes.push({ list: vp.list, toDevice: compose(toDevice, vp.matrix), clip, frozen: new Set(vp.frozenLayers) });
  }
  passes.push({ list: scene.list, toDevice, clip: null, frozen: new Set() });
  return passes;
}

/** Which texts the overlay draws this frame. */
export function planOverlay(
  drawing: PackedDrawing,
  glyphs: GlyphSet,
  scene: PackedScene,
  view: View,
  layerOn: readonly Uint8Array[],
): OverlayPlan {
  const screen = { minX: 0, minY: 0, maxX: view.width, maxY: view.height };
  const texts: OverlayText[] = [];
  for (const pass of passesOf(scene, view)) {
    const list = drawing.lists[pass.list];
    const info = glyphs.lists[pass.list]?.info;
    if (!list || !info) continue;
    const m = pass.toDevice;
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    const on = layerOn[pass.list];
    let area = screen;
    if (pass.clip) {
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let i = 0; i < pass.clip.length; i += 2) {
        minX = Math.min(minX, pass.clip[i] as number);
        maxX = Math.max(maxX, pass.clip[i] as number);
        minY = Math.min(minY, pass.clip[i + 1] as number);
        maxY = Math.max(maxY, pass.clip[i + 1] as number);
      }
      area = { minX: Math.max(0, minX), minY: Math.max(0, minY), maxX: Math.min(view.width, maxX), maxY: Math.min(view.height, maxY) };
    }
    for (let k = 0; k < list.texts.count; k++) {
      if ((info.ems[k] as number) * scale <= OVERLAY_EM_PX) continue;
      const style = list.styles[list.texts.styles[k] as number];
      if (!style || (on && on[style.layer] === 0) || pass.frozen.has(style.layer)) continue;
      const box = {
        minX: info.boxes[4 * k] as number,
        minY: info.boxes[4 * k + 1] as number,
        maxX: info.boxes[4 * k + 2] as number,
        maxY: info.boxes[4 * k + 3] as number,
      };
      if (!boxesOverlap(transformBox(box, m), area)) continue;
      const clip = list.texts.clips[k] ?? -1;
      const clips = clip < 0 ? [] : clipChain(list, clip).map((i) => polygonThrough(list.clips[i]?.polygon ?? new Float64Array(0), m));
      texts.push({ list: pass.list, index: k, toDevice: m, clips: pass.clip ? [pass.clip, ...clips] : clips });
      if (texts.length > OVERLAY_MAX_TEXTS) return { maxEmPx: Infinity, texts: [] };
    }
  }
  return { maxEmPx: OVERLAY_EM_PX, texts };
}

/** Draws the planned texts. The canvas has the WebGL canvas's size in device pixels. */
/** Canvases the overlay has drawn on and not cleared since: an empty overlay costs nothing per frame. */
const dirty = new WeakSet<CanvasRenderingContext2D>();

export function drawOverlay(
  ctx: CanvasRenderingContext2D,
  drawing: PackedDrawing,
  glyphs: GlyphSet,
  plan: OverlayPlan,
  background: number,
): void {
  if (dirty.has(ctx)) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    dirty.delete(ctx);
  }
  if (plan.texts.length) dirty.add(ctx);
  for (const t of plan.texts) {
    const list = drawing.lists[t.list];
    const info = glyphs.lists[t.list]?.info;
    if (!list || !info) continue;
    const tx = list.texts;
    const text = tx.chars.slice(tx.offsets[t.index] as number, tx.offsets[t.index + 1] as number);
    const m = tx.matrices.subarray(t.index * 6, t.index * 6 + 6);
    const g = compose(t.toDevice, m);
    const sigma = Math.sqrt(Math.abs(g[0] * g[3] - g[1] * g[2]));
    if (!(sigma > 0) || !Number.isFinite(sigma)) continue;
    const size = (tx.sizes[t.index] as number) * sigma;
    const fit = info.fits[t.index] as number;
    const style = list.styles[tx.styles[t.index] as number];
    const css = glyphs.css[t.list]?.[tx.fonts[t.index] as number] ?? 'sans-serif';
    ctx.save();
    for (const clip of t.clips) {
      ctx.beginPath();
      ctx.moveTo(clip[0] as number, clip[1] as number);
      for (let i = 2; i < clip.length; i += 2) ctx.lineTo(clip[i] as number, clip[i + 1] as number);
      ctx.closePath();
      ctx.clip('evenodd');
    }
    // Text space is y up; the canvas draws glyphs y down: flip the second axis.
    ctx.setTransform((g[0] / sigma) * fit, (g[1] / sigma) * fit, -g[2] / sigma, -g[3] / sigma, g[4], g[5]);
    ctx.font = `${size}px ${css}`;
    ctx.fillStyle = cssHex(displayColor(style ? style.color : -1, background));
    ctx.textBaseline = 'alphabetic';
    ctx.fillText(text, 0, 0);
    ctx.restore();
  }
}
