import type { BuildResult, DisplayList, Gradient, PathPrimitive, Scene } from '@xcad/cad/display';
import { Floats } from './floats';
import { triangulateRings } from './triangulate';
import {
  FILL_BACKGROUND,
  FILL_FLOATS,
  FILL_STYLE_COLOR,
  LINE_FLOATS,
  THIN_LINEWEIGHT_MM,
  WIDE_FLOATS,
  type Box,
  type Bucket,
  type DrawingNotices,
  type ListTexts,
  type PackedList,
  type PackedScene,
  type PackedTexts,
} from './types';

// Display lists (plain objects of the engine) → typed arrays for the GPU (types.ts). Runs in the
// build worker right after buildScenes; its output is transferred to the page.

/** Segments per bucket the grid aims at: buckets small enough to skip, few enough to draw in a handful of calls. */
const SEGMENTS_PER_BUCKET = 8192;
const MAX_GRID = 16;

interface Cell {
  ox: number;
  oy: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  lines: Floats | null;
  /** The thin lines with polylines simplified, for views where the difference is under a pixel. */
  coarse: Floats | null;
  wide: Floats | null;
  fills: Floats | null;
}

class Grid {
  readonly cells: Cell[] = [];
  private readonly n: number;
  private readonly minX: number;
  private readonly minY: number;
  private readonly stepX: number;
  private readonly stepY: number;

  constructor(bounds: Box, segmentCount: number) {
    this.n = Math.max(1, Math.min(MAX_GRID, Math.ceil(Math.sqrt(segmentCount / SEGMENTS_PER_BUCKET))));
    this.minX = bounds.minX;
    this.minY = bounds.minY;
    this.stepX = Math.max(bounds.maxX - bounds.minX, 1e-9) / this.n;
    this.stepY = Math.max(bounds.maxY - bounds.minY, 1e-9) / this.n;
    for (let j = 0; j < this.n; j++)
      for (let i = 0; i < this.n; i++)
        this.cells.push({
          ox: this.minX + (i + 0.5) * this.stepX,
          oy: this.minY + (j + 0.5) * this.stepY,
          minX: Infinity,
          minY: Infinity,
          maxX: -Infinity,
          maxY: -Infinity,
          lines: null,
          coarse: null,
          wide: null,
          fills: null,
        });
  }

  cellAt(x: number, y: number): Cell {
    const i = Math.min(this.n - 1, Math.max(0, Math.floor((x - this.minX) / this.stepX)));
    const j = Math.min(this.n - 1, Math.max(0, Math.floor((y - this.minY) / this.stepY)));
    return this.cells[j * this.n + i] as Cell;
  }
}

function grow(c: Cell, x: number, y: number): void {
  if (x < c.minX) c.minX = x;
  if (x > c.maxX) c.maxX = x;
  if (y < c.minY) c.minY = y;
  if (y > c.maxY) c.maxY = y;
}

/**
 * The clip of each primitive (the innermost clipped run holding it; -1: none) and the clip each
 * clip is nested in. Runs come by `from`, and a run inside another lies within its range and comes
 * after it (display/types.ts ClipRun).
 */
export function clipsOf(list: DisplayList): { of: Int32Array; parents: Int32Array } {
  const runs = list.clips ?? [];
  const of = new Int32Array(list.primitives.length).fill(-1);
  const parents = new Int32Array(runs.length).fill(-1);
  runs.forEach((run, i) => {
    for (let j = i - 1; j >= 0; j--) {
      const outer = runs[j];
      if (outer && outer.from <= run.from && run.to <= outer.to) {
        parents[i] = j;
        break;
      }
    }
    of.fill(i, Math.max(0, run.from), Math.min(run.to, of.length));
  });
  return { of, parents };
}

/** Points of the strokes of each group (0: outside every clip, i + 1: clip i): about their segment counts, to size the grids. */
function countSegments(list: DisplayList, clipOf: Int32Array, groups: number): number[] {
  const n = new Array<number>(groups).fill(0);
  list.primitives.forEach((p, order) => {
    if (p.kind === 'path' && p.mode === 'stroke') n[(clipOf[order] as number) + 1]! += p.coords.length >> 1;
  });
  return n;
}

function boundsOf(list: DisplayList): Box {
  if (list.bounds && [list.bounds.minX, list.bounds.minY, list.bounds.maxX, list.bounds.maxY].every(Number.isFinite))
    return { ...list.bounds };
  return { minX: -1, minY: -1, maxX: 1, maxY: 1 };
}

function addStroke(grid: Grid, p: PathPrimitive, order: number, thin: boolean, eps: number): number {
  const c = p.coords;
  const n = c.length >> 1;
  let added = 0;
  for (let k = 0; k < p.starts.length; k++) {
    const from = p.starts[k] as number;
    const to = k + 1 < p.starts.length ? (p.starts[k + 1] as number) : n;
    if (to - from === 1) {
      // A point: a segment of no length, drawn as a square dot.
      const x = c[2 * from] as number,
        y = c[2 * from + 1] as number;
      pushWide(grid, x, y, x, y, order, p.style);
      added++;
      continue;
    }
    for (let i = from; i + 1 < to; i++) {
      const x0 = c[2 * i] as number,
        y0 = c[2 * i + 1] as number;
      const x1 = c[2 * i + 2] as number,
        y1 = c[2 * i + 3] as number;
      const still = x0 === x1 && y0 === y1;
      if (still && to - from > 2) continue;
      if (thin && !still) {
        pushLine(grid, x0, y0, x1, y1, order, p.style, 'lines');
        if (to - from === 2) pushLine(grid, x0, y0, x1, y1, order, p.style, 'coarse');
      } else pushWide(grid, x0, y0, x1, y1, order, p.style);
      added++;
    }
    if (thin && to - from > 2) {
      // The coarse copy: vertices closer than eps to the last one kept are dropped (the last stays).
      let lx = c[2 * from] as number,
        ly = c[2 * from + 1] as number;
      for (let i = from + 1; i < to; i++) {
        const x = c[2 * i] as number,
          y = c[2 * i + 1] as number;
        if (i < to - 1 && Math.abs(x - lx) < eps && Math.abs(y - ly) < eps) continue;
        if (x !== lx || y !== ly) pushLine(grid, lx, ly, x, y, order, p.style, 'coarse');
        lx = x;
        ly = y;
      }
    }
  }
  return added;
}

function pushLine(
  grid: Grid,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  order: number,
  style: number,
  into: 'lines' | 'coarse',
): void {
  const cell = grid.cellAt((x0 + x1) / 2, (y0 + y1) / 2);
  const out = (cell[into] ??= new Floats(1024));
  out.reserve(2 * LINE_FLOATS);
  const d = out.data;
  const o = out.length;
  d[o] = x0 - cell.ox;
  d[o + 1] = y0 - cell.oy;
  d[o + 2] = order;
  d[o + 3] = style;
  d[o + 4] = x1 - cell.ox;
  d[o + 5] = y1 - cell.oy;
  d[o + 6] = order;
  d[o + 7] = style;
  out.length += 2 * LINE_FLOATS;
  grow(cell, x0, y0);
  grow(cell, x1, y1);
}

/** The two triangles of a wide segment: (along, across) at each of the six corners. */
const WIDE_CORNERS = [0, -1, 0, 1, 1, -1, 1, -1, 0, 1, 1, 1] as const;

function pushWide(grid: Grid, x0: number, y0: number, x1: number, y1: number, order: number, style: number): void {
  const cell = grid.cellAt((x0 + x1) / 2, (y0 + y1) / 2);
  const out = (cell.wide ??= new Floats(1024));
  out.reserve(6 * WIDE_FLOATS);
  const d = out.data;
  const ax = x0 - cell.ox,
    ay = y0 - cell.oy,
    bx = x1 - cell.ox,
    by = y1 - cell.oy;
  for (let k = 0; k < 6; k++) {
    const o = out.length;
    d[o] = ax;
    d[o + 1] = ay;
    d[o + 2] = bx;
    d[o + 3] = by;
    d[o + 4] = WIDE_CORNERS[2 * k] as number;
    d[o + 5] = WIDE_CORNERS[2 * k + 1] as number;
    d[o + 6] = order;
    d[o + 7] = style;
    out.length += WIDE_FLOATS;
  }
  grow(cell, x0, y0);
  grow(cell, x1, y1);
}

function lerpColor(a: number, b: number, t: number): number {
  const ch = (shift: number) => Math.round(((a >> shift) & 255) + (((b >> shift) & 255) - ((a >> shift) & 255)) * t);
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
}

/** Per-point colours of a gradient fill: a linear ramp along the gradient's angle across the fill's extent. */
function gradientColors(p: PathPrimitive, g: Gradient): Float64Array {
  const c = p.coords;
  const n = c.length >> 1;
  const dx = Math.cos(g.angle),
    dy = Math.sin(g.angle);
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = (c[2 * i] as number) * dx + (c[2 * i + 1] as number) * dy;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const [first, second] = /^INV/i.test(g.name) ? [g.colors[1], g.colors[0]] : g.colors;
  const span = hi - lo || 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = ((c[2 * i] as number) * dx + (c[2 * i + 1] as number) * dy - lo) / span;
    out[i] = lerpColor(first & 0xffffff, second & 0xffffff, Math.min(1, Math.max(0, t)));
  }
  return out;
}

function addFill(grid: Grid, p: PathPrimitive, order: number): number {
  const tri = triangulateRings(p.coords, p.starts, p.rule ?? 'evenodd');
  if (tri.length === 0) return 0;
  const c = p.coords;
  const colors = p.mode === 'fill' && p.gradient ? gradientColors(p, p.gradient) : null;
  const flat = p.mode === 'wipeout' ? FILL_BACKGROUND : FILL_STYLE_COLOR;
  for (let t = 0; t < tri.length; t += 3) {
    const a = tri[t] as number,
      b = tri[t + 1] as number,
      d = tri[t + 2] as number;
    const cx = ((c[2 * a] as number) + (c[2 * b] as number) + (c[2 * d] as number)) / 3;
    const cy = ((c[2 * a + 1] as number) + (c[2 * b + 1] as number) + (c[2 * d + 1] as number)) / 3;
    const cell = grid.cellAt(cx, cy);
    const out = (cell.fills ??= new Floats(1024));
    out.reserve(3 * FILL_FLOATS);
    for (const i of [a, b, d]) {
      const x = c[2 * i] as number,
        y = c[2 * i + 1] as number;
      const o = out.length;
      out.data[o] = x - cell.ox;
      out.data[o + 1] = y - cell.oy;
      out.data[o + 2] = order;
      out.data[o + 3] = p.style;
      out.data[o + 4] = colors ? (colors[i] as number) : flat;
      out.length += FILL_FLOATS;
      grow(cell, x, y);
    }
  }
  return tri.length / 3;
}

export function packTexts(list: DisplayList, clipOf: Int32Array = clipsOf(list).of): PackedTexts {
  let count = 0;
  for (const p of list.primitives) if (p.kind === 'text') count++;
  const offsets = new Uint32Array(count + 1);
  const matrices = new Float64Array(count * 6);
  const sizes = new Float32Array(count);
  const widths = new Float32Array(count);
  const styles = new Uint32Array(count);
  const fonts = new Uint16Array(count);
  const orders = new Float32Array(count);
  const clips = new Int32Array(count);
  const parts: string[] = [];
  let k = 0,
    length = 0;
  list.primitives.forEach((p, order) => {
    if (p.kind !== 'text') return;
    parts.push(p.text);
    offsets[k] = length;
    length += p.text.length;
    matrices.set(p.matrix, k * 6);
    sizes[k] = p.size;
    widths[k] = p.width;
    styles[k] = p.style;
    fonts[k] = p.font;
    orders[k] = order;
    clips[k] = clipOf[order] as number;
    k++;
  });
  offsets[count] = length;
  return { count, chars: parts.join(''), offsets, matrices, sizes, widths, styles, fonts, orders, clips };
}

/** The coarse lines' tolerance: a 4000th of the list's extents (under a pixel when the whole list is in view). */
const COARSE_FRACTION = 1 / 4000;

function bucketsOf(grid: Grid): Bucket[] {
  const buckets: Bucket[] = [];
  for (const cell of grid.cells) {
    if (!cell.lines && !cell.wide && !cell.fills) continue;
    buckets.push({
      origin: [cell.ox, cell.oy],
      bounds: { minX: cell.minX, minY: cell.minY, maxX: cell.maxX, maxY: cell.maxY },
      lines: cell.lines ? cell.lines.done() : new Float32Array(0),
      coarse: cell.coarse ? cell.coarse.done() : new Float32Array(0),
      wide: cell.wide ? cell.wide.done() : new Float32Array(0),
      fills: cell.fills ? cell.fills.done() : new Float32Array(0),
    });
  }
  return buckets;
}

export function packList(list: DisplayList, id: number, texts?: PackedTexts): PackedList {
  const bounds = boundsOf(list);
  // Geometry outside every clip in one grid, each clipped run's in one of its own (the renderer
  // draws a clip's buckets through a stencil of its polygon).
  const { of: clipOf, parents } = clipsOf(list);
  const groups = parents.length + 1;
  const grids = countSegments(list, clipOf, groups).map((segments) => new Grid(bounds, segments));
  const eps = Math.hypot(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY) * COARSE_FRACTION;
  let segmentCount = 0,
    triangleCount = 0;
  list.primitives.forEach((p, order) => {
    if (p.kind !== 'path') return;
    const grid = grids[(clipOf[order] as number) + 1] as Grid;
    if (p.mode === 'stroke')
      segmentCount += addStroke(grid, p, order, !((list.styles[p.style]?.lineweight ?? 0) > THIN_LINEWEIGHT_MM), eps);
    else triangleCount += addFill(grid, p, order);
  });
  return {
    id,
    styles: list.styles.map((s) => ({ color: s.color, lineweight: s.lineweight, layer: s.layer })),
    layers: list.layers.map((l) => ({ name: l.name, color: l.color, visible: l.visible })),
    fonts: list.fonts.map((f) => ({ requested: f.requested, family: f.family, substituted: f.substituted })),
    buckets: bucketsOf(grids[0] as Grid),
    clips: (list.clips ?? []).map((run, i) => ({
      polygon: Float64Array.from(run.polygon),
      parent: parents[i] as number,
      buckets: bucketsOf(grids[i + 1] as Grid),
    })),
    texts: texts ?? packTexts(list, clipOf),
    primitiveCount: list.primitives.length,
    bounds: list.bounds ? { ...list.bounds } : null,
    segmentCount,
    triangleCount,
    coarseTolerance: eps,
  };
}

/**
 * Every list the scenes use, each once (the model list is shared by the model tab and the
 * viewports). `onTexts` receives the lists' texts first, so the page can draw its glyph atlas while
 * the geometry is packed.
 */
export function packScenes(scenes: Scene[], onTexts?: (texts: ListTexts[]) => void): { lists: PackedList[]; scenes: PackedScene[] } {
  const ids = new Map<DisplayList, number>();
  const order: DisplayList[] = [];
  const idOf = (list: DisplayList): number => {
    let id = ids.get(list);
    if (id === undefined) {
      id = order.length;
      ids.set(list, id);
      order.push(list);
    }
    return id;
  };
  const packed = [...scenes]
    .sort((a, b) => (a.isModel === b.isModel ? a.tabOrder - b.tabOrder : a.isModel ? -1 : 1))
    .map((s): PackedScene => ({
      name: s.name,
      isModel: s.isModel,
      tabOrder: s.tabOrder,
      list: idOf(s.list),
      viewports: s.viewports.map((v) => ({
        clip: Float64Array.from(v.clip),
        matrix: [...v.matrix],
        list: idOf(v.list),
        frozenLayers: [...v.frozenLayers],
      })),
      ...(s.paper ? { paper: { ...s.paper, margins: [...s.paper.margins] } } : {}),
      bounds: s.bounds ? { ...s.bounds } : null,
    }));
  const texts = order.map((list) => packTexts(list));
  onTexts?.(
    order.map((list, id) => ({
      id,
      texts: texts[id] as PackedTexts,
      fonts: list.fonts.map((f) => ({ requested: f.requested, family: f.family, substituted: f.substituted })),
      bounds: list.bounds ? { ...list.bounds } : null,
    })),
  );
  return { lists: order.map((list, id) => packList(list, id, texts[id])), scenes: packed };
}

/** What the page should tell about the drawing: missing fonts, objects not drawn, xrefs, a cut-off drawing. */
export function noticesOf(result: BuildResult, readerWarnings: readonly string[]): DrawingNotices {
  const unsupported = new Map<string, number>();
  for (const [type, count] of Object.entries(result.counts.skipped)) unsupported.set(type, (unsupported.get(type) ?? 0) + count);
  const xrefs: string[] = [];
  const other: string[] = [];
  let truncated = false;
  for (const w of result.warnings) {
    if (w.code === 'xref') xrefs.push(w.subject);
    else if (w.code === 'limit') truncated = true;
    else if (w.code === 'unsupported-entity') {
      if (!unsupported.has(w.subject)) unsupported.set(w.subject, 1);
    } else if (w.code !== 'missing-font') other.push(w.message);
  }
  return {
    missingFonts: [...result.missingFonts],
    missingCharacters: [...result.missingCharacters],
    unsupported: [...unsupported.entries()].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count),
    tarch: [...unsupported.entries()].reduce((n, [type, count]) => (/^TCH_/i.test(type) ? n + count : n), 0),
    xrefs,
    truncated,
    other: [...other, ...readerWarnings].slice(0, 20),
  };
}

/** Every bucket of a list: outside the clips, then each clip's. */
function allBuckets(list: PackedList): Bucket[] {
  return list.clips.length ? [...list.buckets, ...list.clips.flatMap((c) => c.buckets)] : list.buckets;
}

/** The typed arrays of a list's texts. */
const textArrays = (t: PackedTexts): ArrayBufferView[] => [t.offsets, t.matrices, t.sizes, t.widths, t.styles, t.fonts, t.orders, t.clips];

/** The buffers of a packed drawing, to transfer them instead of copying. */
export function transferablesOf(lists: readonly PackedList[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (a: ArrayBufferView) => {
    if (a.buffer instanceof ArrayBuffer && a.buffer.byteLength > 0) out.add(a.buffer);
  };
  for (const l of lists) {
    for (const b of allBuckets(l)) {
      add(b.lines);
      add(b.coarse);
      add(b.wide);
      add(b.fills);
    }
    for (const c of l.clips) add(c.polygon);
    for (const a of textArrays(l.texts)) add(a);
  }
  return [...out];
}

export function byteSizeOf(lists: readonly PackedList[]): number {
  let n = 0;
  for (const l of lists) {
    for (const b of allBuckets(l)) n += b.lines.byteLength + b.coarse.byteLength + b.wide.byteLength + b.fills.byteLength;
    for (const c of l.clips) n += c.polygon.byteLength;
    n += l.texts.chars.length * 2;
    for (const a of textArrays(l.texts)) n += a.byteLength;
  }
  return n;
}
