import { BACKGROUNDS, SURROUNDS, type BackgroundName } from './colors';
import { insideRing } from './clips';
import { loadCjkFonts } from './cjk-fonts';
import { buildGlyphs, type GlyphSet } from './glyphs';
import { angleAt, distance, polygonArea, type MeasureMode, type Point } from './measure';
import { drawOverlay, planOverlay } from './overlay';
import { Renderer, type FrameStats, type RendererProblem } from './renderer';
import { snapInList, type SnapHit } from './snap';
import type { Box, ListTexts, PackedDrawing, PackedScene } from './types';
import {
  apply,
  fitView,
  invert,
  panBy,
  pinchView,
  resizeView,
  toScene,
  toScreen,
  wheelFactor,
  windowZoom,
  zoomAt,
  type Affine,
  type Touch2,
  type View,
} from './view';

// The viewer's canvas, imperatively: the view, the renderer, the overlays and the pointer. React
// (components/viewer) owns the chrome around it and hears back through callbacks; nothing here
// re-renders React on a frame, so panning a large drawing costs only the frame itself.

export type Tool = 'pan' | 'window' | 'measure';

export interface MeasureState {
  mode: MeasureMode;
  /** Points picked, in the measured space. */
  points: Point[];
  /** Where the measurement is taken: model space directly, through a viewport, or a layout's paper. */
  space: 'model' | 'viewport' | 'paper';
  /** The numbers, once there are enough points. */
  result: MeasureResult | null;
}

type MeasureResult =
  | { mode: 'distance'; length: number; dx: number; dy: number; angle: number }
  | { mode: 'area'; area: number; perimeter: number; count: number }
  | { mode: 'angle'; degrees: number }
  | { mode: 'point'; x: number; y: number };

export interface ControllerCallbacks {
  /** The pointer's drawing coordinates (null when it leaves the canvas). */
  onCursor(point: Point | null): void;
  onMeasure(state: MeasureState): void;
  /** A window zoom finished: the page puts the tool back to pan. */
  onToolDone(): void;
  /** The first complete frame of a drawing is on screen. */
  onFirstFrame(ms: number): void;
}

interface PointerInfo {
  x: number;
  y: number;
  type: string;
}

const CLICK_SLOP = 5;
const DOUBLE_MS = 320;
const SNAP_PX = 12;

export interface Canvases {
  gl: HTMLCanvasElement;
  text: HTMLCanvasElement;
  ui: HTMLCanvasElement;
}

export class ViewerController {
  private renderer: Renderer;
  private drawing: PackedDrawing | null = null;
  private glyphs: GlyphSet | null = null;
  private prepared: { glyphs: GlyphSet; ms: number } | null = null;
  /** The CJK faces the texts sent ahead need, while they load (cjk-fonts.ts). */
  private fontsLoading: Promise<void> | null = null;
  /** Counts atlases asked for: a drawing replaced meanwhile is not shown when its fonts arrive. */
  private glyphToken = 0;
  private sceneIndex = 0;
  private views = new Map<number, View>();
  private fitScales = new Map<number, number>();
  private background: BackgroundName = 'dark';
  private lineweights = true;
  private layerOn: Uint8Array[] = [];
  private tool: Tool = 'pan';
  private measure: MeasureState = { mode: 'distance', points: [], space: 'model', result: null };
  private measureSpace: { kind: 'model' | 'viewport' | 'paper'; toScene: Affine } = { kind: 'model', toScene: [1, 0, 0, 1, 0, 0] };
  private hover: SnapHit | null = null;
  private hoverRaw: Point | null = null;
  private frameRequested = false;
  private uiRequested = false;
  private pointers = new Map<number, PointerInfo>();
  private gesture: {
    kind: 'pan' | 'pinch' | 'window' | 'none';
    startView: View;
    start: PointerInfo;
    startPinch?: Touch2;
    moved: boolean;
  } | null = null;
  private windowRect: [number, number, number, number] | null = null;
  private uiDirty = false;
  private lastTap: { x: number; y: number; time: number } | null = null;
  private firstFramePending: number | null = null;
  private dpr = 1;
  private readonly textContext: CanvasRenderingContext2D;
  private readonly uiContext: CanvasRenderingContext2D;
  private readonly resizeObserver: ResizeObserver;
  readonly frames: FrameStats[] = [];
  frameCount = 0;

  private constructor(
    private readonly canvases: Canvases,
    private readonly container: HTMLElement,
    private readonly callbacks: ControllerCallbacks,
    renderer: Renderer,
  ) {
    this.renderer = renderer;
    const text = canvases.text.getContext('2d');
    const ui = canvases.ui.getContext('2d');
    if (!text || !ui) throw new Error('2D canvas unavailable');
    this.textContext = text;
    this.uiContext = ui;
    // Shown only while they hold something (drawOverlay, drawUi).
    canvases.text.style.visibility = 'hidden';
    canvases.ui.style.visibility = 'hidden';
    this.resizeObserver = new ResizeObserver(() => this.invalidate());
    this.resizeObserver.observe(container);
    // The stage takes the pointer (the canvases let it through): an empty overlay canvas can then be
    // hidden, and a software compositor has one layer less to blend per frame.
    const target = container;
    target.addEventListener('pointerdown', this.onPointerDown);
    target.addEventListener('pointermove', this.onPointerMove);
    target.addEventListener('pointerup', this.onPointerUp);
    target.addEventListener('pointercancel', this.onPointerCancel);
    target.addEventListener('pointerleave', this.onPointerLeave);
    target.addEventListener('wheel', this.onWheel, { passive: false });
    target.addEventListener('dblclick', this.onDoubleClick);
    target.addEventListener('contextmenu', (event) => {
      if (this.onDrawing(event)) event.preventDefault();
    });
  }

  static create(canvases: Canvases, container: HTMLElement, callbacks: ControllerCallbacks): ViewerController | RendererProblem {
    let controller: ViewerController | null = null;
    const renderer = Renderer.create(canvases.gl, () => controller?.invalidate());
    if (typeof renderer === 'string') return renderer;
    controller = new ViewerController(canvases, container, callbacks, renderer);
    const warm = controller;
    // Safari has no requestIdleCallback.
    const idle = (window as Window & { requestIdleCallback?: (fn: () => void, options: { timeout: number }) => number })
      .requestIdleCallback;
    if (idle) idle.call(window, () => warm.warmUp(), { timeout: 2000 });
    else window.setTimeout(() => warm.warmUp(), 200);
    return controller;
  }

  /** Shader compilation ahead of the first drawing (see Renderer.warmUp). */
  private warmUp(): void {
    if (this.drawing) return;
    const atlas = document.createElement('canvas');
    atlas.width = 64;
    atlas.height = 64;
    const gl = this.canvases.gl;
    if (gl.width < 2 || gl.height < 2) {
      gl.width = 64;
      gl.height = 64;
    }
    this.renderer.warmUp({ cx: 0, cy: 0, scale: 1, width: gl.width, height: gl.height }, atlas);
  }

  get api(): 'webgl2' | 'webgl1' {
    return this.renderer.api;
  }

  dispose(): void {
    this.resizeObserver.disconnect();
    this.renderer.dispose();
    this.drawing = null;
    this.glyphs = null;
  }

  // ---- the drawing -----------------------------------------------------------------------------

  /**
   * Draws the glyph atlas from the texts the worker sent ahead, while it still packs the geometry;
   * the shipped CJK faces the texts need are fetched first (cjk-fonts.ts).
   */
  prepareGlyphs(lists: ListTexts[]): void {
    const token = ++this.glyphToken;
    this.prepared = null;
    const build = (): void => {
      if (token !== this.glyphToken) return;
      const t0 = performance.now();
      this.prepared = { glyphs: buildGlyphs(lists, canvasOf), ms: performance.now() - t0 };
    };
    const fonts = loadCjkFonts(lists);
    this.fontsLoading = fonts;
    if (fonts) void fonts.then(build);
    else build();
  }

  /**
   * Shows a drawing: glyph atlas, GPU upload, the first scene fitted; the first frame is timed
   * from `chosenAt`. Waits for the CJK faces its texts need, if any are still loading.
   */
  setDrawing(drawing: PackedDrawing, chosenAt: number): void {
    const token = ++this.glyphToken;
    const waiting = this.fontsLoading;
    this.fontsLoading = null;
    const fonts = waiting ?? loadCjkFonts(drawing.lists);
    if (!fonts) return this.show(drawing, chosenAt);
    // The atlas drawn ahead was dropped by the token: it is drawn again with the faces loaded.
    const prepared = this.prepared;
    void fonts.then(() => {
      if (token !== this.glyphToken) return;
      this.prepared = prepared;
      this.show(drawing, chosenAt);
    });
  }

  private show(drawing: PackedDrawing, chosenAt: number): void {
    const t0 = performance.now();
    const prepared = this.prepared;
    this.prepared = null;
    // The atlas drawn ahead serves if it covers the same lists (it was built from the same texts).
    this.glyphs =
      prepared && prepared.glyphs.lists.length === drawing.lists.length ? prepared.glyphs : buildGlyphs(drawing.lists, canvasOf);
    const ahead = prepared && this.glyphs === prepared.glyphs ? prepared.ms : 0;
    this.drawing = drawing;
    const t1 = performance.now();
    this.renderer.load(drawing, this.glyphs);
    const t2 = performance.now();
    const layers = Math.max(0, ...drawing.lists.map((l) => l.layers.length));
    const shared = new Uint8Array(layers);
    const first = drawing.lists.find((l) => l.layers.length === layers);
    first?.layers.forEach((layer, i) => {
      shared[i] = layer.visible ? 1 : 0;
    });
    // The lists share the drawing's layer table: one visibility array serves them all.
    this.layerOn = drawing.lists.map(() => shared);
    this.views.clear();
    this.fitScales.clear();
    this.sceneIndex = 0;
    this.clearMeasure();
    this.firstFramePending = chosenAt;
    this.renderNow();
    // Where the time to the first frame went (the page's status, the benchmark's breakdown).
    this.container.dataset.timings = JSON.stringify({
      ...drawing.timings,
      glyphs: Math.round(t1 - t0 + ahead),
      glyphsAhead: Math.round(ahead),
      upload: Math.round(t2 - t1),
      frame: Math.round(performance.now() - t2),
      bytes: drawing.bytes,
    });
  }

  get scenes(): readonly PackedScene[] {
    return this.drawing?.scenes ?? [];
  }

  get scene(): PackedScene | null {
    return this.drawing?.scenes[this.sceneIndex] ?? null;
  }

  setScene(index: number): void {
    if (!this.drawing || index < 0 || index >= this.drawing.scenes.length) return;
    this.sceneIndex = index;
    this.clearMeasure();
    this.invalidate();
  }

  setBackground(name: BackgroundName): void {
    this.background = name;
    this.invalidate();
  }

  setLineweights(on: boolean): void {
    this.lineweights = on;
    this.invalidate();
  }

  /** Layer visibility by index in the drawing's layer table. */
  setLayers(visible: readonly boolean[]): void {
    const shared = this.layerOn[0];
    if (!shared) return;
    visible.forEach((v, i) => {
      if (i < shared.length) shared[i] = v ? 1 : 0;
    });
    // A new array identity is not needed: the renderer keys its colour upload on the content.
    this.invalidate();
  }

  // ---- view ------------------------------------------------------------------------------------

  private canvasSize(): { width: number; height: number } {
    this.dpr = Math.min(2, window.devicePixelRatio || 1);
    const rect = this.container.getBoundingClientRect();
    return { width: Math.max(1, Math.round(rect.width * this.dpr)), height: Math.max(1, Math.round(rect.height * this.dpr)) };
  }

  /** The scene's extents: a layout's sheet when it has one, else what it draws. */
  private sceneBox(scene: PackedScene): Box | null {
    return scene.bounds;
  }

  private currentView(): View {
    const { width, height } = this.canvasSize();
    let v = this.views.get(this.sceneIndex);
    const scene = this.scene;
    if (!v) {
      v = fitView(scene ? this.sceneBox(scene) : null, width, height);
      this.fitScales.set(this.sceneIndex, v.scale);
    } else if (v.width !== width || v.height !== height) {
      v = resizeView(v, width, height);
    }
    this.views.set(this.sceneIndex, v);
    return v;
  }

  private setView(v: View): void {
    this.views.set(this.sceneIndex, v);
    this.invalidate();
  }

  private get fitScale(): number {
    return this.fitScales.get(this.sceneIndex) ?? this.currentView().scale;
  }

  zoomExtents(): void {
    const scene = this.scene;
    const { width, height } = this.canvasSize();
    const v = fitView(scene ? this.sceneBox(scene) : null, width, height);
    this.fitScales.set(this.sceneIndex, v.scale);
    this.setView(v);
  }

  zoomBy(factor: number): void {
    const v = this.currentView();
    this.setView(zoomAt(v, factor, v.width / 2, v.height / 2, this.fitScale));
  }

  panByCss(dx: number, dy: number): void {
    this.setView(panBy(this.currentView(), dx * this.dpr, dy * this.dpr));
  }

  setTool(tool: Tool): void {
    this.tool = tool;
    this.windowRect = null;
    this.hover = null;
    this.invalidateUi();
  }

  setMeasureMode(mode: MeasureMode): void {
    this.measure = { mode, points: [], space: 'model', result: null };
    this.callbacks.onMeasure(this.measure);
    this.invalidateUi();
  }

  clearMeasure(): void {
    this.measure = { mode: this.measure.mode, points: [], space: 'model', result: null };
    this.callbacks.onMeasure(this.measure);
    this.invalidateUi();
  }

  // ---- frames ----------------------------------------------------------------------------------

  invalidate(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.renderNow();
    });
  }

  private invalidateUi(): void {
    if (this.uiRequested || this.frameRequested) return;
    this.uiRequested = true;
    requestAnimationFrame(() => {
      this.uiRequested = false;
      this.drawUi();
    });
  }

  /** Renders at once (the first frame, benchmarks). Returns the frame's statistics. */
  renderNow(): FrameStats | null {
    const { gl, text, ui } = this.canvases;
    // A hidden stage (another file loading) has no size: keep the views as they are.
    const rect = this.container.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2) return null;
    const view = this.currentView();
    for (const c of [gl, text, ui]) {
      if (c.width !== view.width || c.height !== view.height) {
        // Resizing clears the canvas.
        c.width = view.width;
        c.height = view.height;
      }
    }
    const scene = this.scene;
    if (!this.drawing || !this.glyphs || !scene) {
      this.drawUi();
      return null;
    }
    const background = BACKGROUNDS[this.background];
    const plan = planOverlay(this.drawing, this.glyphs, scene, view, this.layerOn);
    const stats = this.renderer.render({
      scene,
      view,
      background,
      surround: SURROUNDS[this.background],
      lineweights: this.lineweights,
      layerOn: this.layerOn,
      dpr: this.dpr,
      maxEmPx: plan.maxEmPx,
    });
    drawOverlay(this.textContext, this.drawing, this.glyphs, plan, background);
    text.style.visibility = plan.texts.length ? 'visible' : 'hidden';
    this.drawUi();
    this.frameCount++;
    this.frames.push(stats);
    if (this.frames.length > 240) this.frames.shift();
    this.container.dataset.frames = String(this.frameCount);
    if (this.firstFramePending !== null) {
      this.renderer.finish();
      const ms = performance.now() - this.firstFramePending;
      this.firstFramePending = null;
      performance.mark('xcad-viewer-first-frame');
      this.callbacks.onFirstFrame(ms);
    }
    return stats;
  }

  /** Waits for the GPU (benchmarks measure whole frames with it). */
  finish(): void {
    this.renderer.finish();
  }

  // ---- measuring -------------------------------------------------------------------------------

  /** Where a scene point lies for measuring: the model (model tab), a viewport's model, or the layout's paper. */
  private spaceAt(x: number, y: number): { kind: 'model' | 'viewport' | 'paper'; toScene: Affine } {
    const scene = this.scene;
    if (!scene || scene.isModel) return { kind: 'model', toScene: [1, 0, 0, 1, 0, 0] };
    for (let i = scene.viewports.length - 1; i >= 0; i--) {
      const vp = scene.viewports[i];
      if (vp && insideRing(vp.clip, x, y)) return { kind: 'viewport', toScene: vp.matrix };
    }
    return { kind: 'paper', toScene: [1, 0, 0, 1, 0, 0] };
  }

  /** The point to measure at: a snapped end or middle point near (x, y) scene, else (x, y) itself. */
  private snapAt(x: number, y: number): SnapHit | null {
    const drawing = this.drawing;
    const scene = this.scene;
    if (!drawing || !scene) return null;
    const view = this.currentView();
    const tolerance = (SNAP_PX * this.dpr) / view.scale;
    const candidates: { list: number; toScene: Affine; frozen: readonly number[] }[] = [];
    if (scene.isModel) candidates.push({ list: scene.list, toScene: [1, 0, 0, 1, 0, 0], frozen: [] });
    else {
      candidates.push({ list: scene.list, toScene: [1, 0, 0, 1, 0, 0], frozen: [] });
      for (const vp of scene.viewports)
        if (insideRing(vp.clip, x, y)) candidates.push({ list: vp.list, toScene: vp.matrix, frozen: vp.frozenLayers });
    }
    let best: SnapHit | null = null;
    for (const c of candidates) {
      const list = drawing.lists[c.list];
      if (!list) continue;
      const hidden = new Uint8Array(list.styles.length);
      const on = this.layerOn[c.list];
      const frozen = new Set(c.frozen);
      list.styles.forEach((s, i) => {
        if ((on && on[s.layer] === 0) || frozen.has(s.layer)) hidden[i] = 1;
      });
      const hit = snapInList(list, c.toScene, hidden, x, y, tolerance);
      if (hit && (!best || hit.distance < best.distance)) best = hit;
    }
    return best;
  }

  private addMeasurePoint(sx: number, sy: number): void {
    const view = this.currentView();
    const [x, y] = toScene(view, sx, sy);
    const snapped = this.snapAt(x, y);
    const px = snapped ? snapped.x : x,
      py = snapped ? snapped.y : y;
    const m = this.measure;
    const limit = m.mode === 'point' ? 1 : m.mode === 'distance' ? 2 : m.mode === 'angle' ? 3 : Infinity;
    let points = m.points;
    if (points.length >= limit) points = [];
    if (points.length === 0) this.measureSpace = this.spaceAt(px, py);
    const inv = invert(this.measureSpace.toScene);
    const local = inv ? apply(inv, px, py) : ([px, py] as [number, number]);
    points = [...points, local];
    this.measure = { mode: m.mode, points, space: this.measureSpace.kind, result: resultOf(m.mode, points) };
    this.callbacks.onMeasure(this.measure);
    this.invalidateUi();
  }

  // ---- overlay of the tools ----------------------------------------------------------------------

  private drawUi(): void {
    const ctx = this.uiContext;
    const wanted = this.windowRect !== null || this.tool === 'measure';
    // Nothing to show and nothing shown: leave the canvas alone (panning costs one canvas less).
    if (!wanted && !this.uiDirty) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    this.uiDirty = wanted;
    this.canvases.ui.style.visibility = wanted ? 'visible' : 'hidden';
    const view = this.views.get(this.sceneIndex);
    if (!view || !wanted) return;
    const dpr = this.dpr;
    const accent = this.background === 'dark' ? '#ffd24a' : '#d0021b';
    if (this.windowRect) {
      const [x0, y0, x1, y1] = this.windowRect;
      ctx.strokeStyle = accent;
      ctx.lineWidth = dpr;
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.fillStyle = 'rgba(80, 150, 255, 0.12)';
      ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      ctx.setLineDash([]);
    }
    if (this.tool !== 'measure') return;
    const toScr = (p: Point): [number, number] => {
      const [x, y] = apply(this.measureSpace.toScene, p[0], p[1]);
      return toScreen(view, x, y);
    };
    const pts = this.measure.points.map(toScr);
    const hover = this.hover
      ? toScreen(view, this.hover.x, this.hover.y)
      : this.hoverRaw
        ? toScreen(view, this.hoverRaw[0], this.hoverRaw[1])
        : null;
    const limit = this.measure.mode === 'point' ? 1 : this.measure.mode === 'distance' ? 2 : this.measure.mode === 'angle' ? 3 : Infinity;
    const chain = hover && pts.length > 0 && pts.length < limit ? [...pts, hover] : pts;
    ctx.lineWidth = 1.5 * dpr;
    ctx.strokeStyle = accent;
    ctx.fillStyle = 'rgba(255, 210, 74, 0.18)';
    if (chain.length > 1) {
      ctx.beginPath();
      chain.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      if (this.measure.mode === 'area' && chain.length > 2) {
        ctx.closePath();
        ctx.fill();
      }
      ctx.stroke();
    }
    for (const [x, y] of pts) {
      ctx.beginPath();
      ctx.arc(x, y, 3.5 * dpr, 0, Math.PI * 2);
      ctx.fillStyle = accent;
      ctx.fill();
    }
    if (this.hover) {
      const [x, y] = toScreen(view, this.hover.x, this.hover.y);
      const r = 6 * dpr;
      ctx.strokeStyle = '#2ecc71';
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      if (this.hover.kind === 'end') ctx.rect(x - r, y - r, 2 * r, 2 * r);
      else {
        ctx.moveTo(x, y - r);
        ctx.lineTo(x + r, y + r);
        ctx.lineTo(x - r, y + r);
        ctx.closePath();
      }
      ctx.stroke();
    }
  }

  // ---- pointer ----------------------------------------------------------------------------------

  private local(event: PointerEvent | WheelEvent | MouseEvent): [number, number] {
    const rect = this.container.getBoundingClientRect();
    return [(event.clientX - rect.left) * this.dpr, (event.clientY - rect.top) * this.dpr];
  }

  /** Events on the panels laid over the canvas (the measure panel) are theirs, not the drawing's. */
  private onDrawing(event: Event): boolean {
    return event.target === this.container || event.target instanceof HTMLCanvasElement;
  }

  private readonly onPointerDown = (event: PointerEvent) => {
    if (!this.onDrawing(event)) return;
    if (event.pointerType === 'mouse' && event.button !== 0 && event.button !== 1) return;
    try {
      this.container.setPointerCapture(event.pointerId);
    } catch {
      // A pointer the browser no longer tracks: the gesture still works while it stays over the stage.
    }
    const [x, y] = this.local(event);
    this.pointers.set(event.pointerId, { x, y, type: event.pointerType });
    const view = this.currentView();
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()] as [PointerInfo, PointerInfo];
      this.gesture = { kind: 'pinch', startView: view, start: a, startPinch: { ax: a.x, ay: a.y, bx: b.x, by: b.y }, moved: true };
      this.windowRect = null;
      return;
    }
    if (this.pointers.size > 2) return;
    const windowing = this.tool === 'window' && event.button === 0;
    this.gesture = { kind: windowing ? 'window' : 'pan', startView: view, start: { x, y, type: event.pointerType }, moved: false };
  };

  private readonly onPointerMove = (event: PointerEvent) => {
    const [x, y] = this.local(event);
    const known = this.pointers.get(event.pointerId);
    if (known) {
      known.x = x;
      known.y = y;
    }
    const g = this.gesture;
    if (g && known) {
      if (g.kind === 'pinch' && this.pointers.size >= 2 && g.startPinch) {
        const [a, b] = [...this.pointers.values()] as [PointerInfo, PointerInfo];
        this.setView(pinchView(g.startView, g.startPinch, { ax: a.x, ay: a.y, bx: b.x, by: b.y }, this.fitScale));
        return;
      }
      const dx = x - g.start.x,
        dy = y - g.start.y;
      if (!g.moved && Math.hypot(dx, dy) > CLICK_SLOP * this.dpr) g.moved = true;
      if (g.moved) {
        if (g.kind === 'window') {
          this.windowRect = [g.start.x, g.start.y, x, y];
          this.invalidateUi();
        } else if (g.kind === 'pan') {
          this.setView(panBy(g.startView, dx, dy));
        }
        return;
      }
    }
    if (event.pointerType === 'mouse') {
      const [wx, wy] = toScene(this.currentView(), x, y);
      this.callbacks.onCursor([wx, wy]);
      if (this.tool === 'measure') {
        this.hover = this.snapAt(wx, wy);
        this.hoverRaw = [wx, wy];
        this.invalidateUi();
      }
    }
  };

  private readonly onPointerUp = (event: PointerEvent) => {
    const [x, y] = this.local(event);
    const g = this.gesture;
    this.pointers.delete(event.pointerId);
    if (!g) return;
    if (g.kind === 'pinch') {
      // One finger stays: it pans from here on, without a jump.
      const rest = [...this.pointers.values()][0];
      this.gesture = rest ? { kind: 'pan', startView: this.currentView(), start: { ...rest }, moved: true } : null;
      return;
    }
    this.gesture = null;
    if (g.kind === 'window') {
      this.windowRect = null;
      if (g.moved && Math.abs(x - g.start.x) > 4 && Math.abs(y - g.start.y) > 4) {
        this.setView(windowZoom(this.currentView(), g.start.x, g.start.y, x, y, this.fitScale));
        this.callbacks.onToolDone();
      } else this.invalidateUi();
      return;
    }
    if (g.moved) return;
    // A tap or click.
    if (this.tool === 'measure') {
      this.addMeasurePoint(x, y);
      return;
    }
    if (event.pointerType !== 'mouse') {
      const now = performance.now();
      const last = this.lastTap;
      if (last && now - last.time < DOUBLE_MS && Math.hypot(x - last.x, y - last.y) < 30 * this.dpr) {
        this.lastTap = null;
        this.setView(zoomAt(this.currentView(), 2, x, y, this.fitScale));
      } else this.lastTap = { x, y, time: now };
    }
  };

  private readonly onPointerCancel = (event: PointerEvent) => {
    this.pointers.delete(event.pointerId);
    this.gesture = null;
    this.windowRect = null;
    this.invalidateUi();
  };

  private readonly onPointerLeave = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    this.callbacks.onCursor(null);
    if (this.hover || this.hoverRaw) {
      this.hover = null;
      this.hoverRaw = null;
      this.invalidateUi();
    }
  };

  private readonly onWheel = (event: WheelEvent) => {
    if (!this.onDrawing(event)) return;
    event.preventDefault();
    const [x, y] = this.local(event);
    const factor = wheelFactor(event.deltaY, event.deltaMode);
    this.setView(zoomAt(this.currentView(), factor, x, y, this.fitScale));
  };

  private readonly onDoubleClick = (event: MouseEvent) => {
    if (this.tool === 'measure' || !this.onDrawing(event)) return;
    const [x, y] = this.local(event);
    this.setView(zoomAt(this.currentView(), 2, x, y, this.fitScale));
  };

  /** Keyboard on the canvas: + and - zoom, arrows pan, E or Home fits, Escape ends the tool. */
  handleKey(key: string): boolean {
    const step = 80;
    switch (key) {
      case '+':
      case '=':
        this.zoomBy(1.5);
        return true;
      case '-':
      case '_':
        this.zoomBy(1 / 1.5);
        return true;
      case 'ArrowLeft':
        this.panByCss(step, 0);
        return true;
      case 'ArrowRight':
        this.panByCss(-step, 0);
        return true;
      case 'ArrowUp':
        this.panByCss(0, step);
        return true;
      case 'ArrowDown':
        this.panByCss(0, -step);
        return true;
      case 'Home':
      case 'e':
      case 'E':
        this.zoomExtents();
        return true;
      case 'Escape':
        if (this.measure.points.length) this.clearMeasure();
        return true;
      default:
        return false;
    }
  }
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
}

function resultOf(mode: MeasureMode, points: readonly Point[]): MeasureResult | null {
  const [a, b, c] = points;
  switch (mode) {
    case 'point':
      return a ? { mode, x: a[0], y: a[1] } : null;
    case 'distance': {
      if (!a || !b) return null;
      const d = distance(a, b);
      const angle = (Math.atan2(d.dy, d.dx) * 180) / Math.PI;
      return { mode, length: d.length, dx: d.dx, dy: d.dy, angle: angle < 0 ? angle + 360 : angle };
    }
    case 'angle':
      return a && b && c ? { mode, degrees: angleAt(a, b, c) } : null;
    case 'area': {
      if (points.length < 3) return null;
      const { area, perimeter } = polygonArea(points);
      return { mode, area, perimeter, count: points.length };
    }
  }
}
