/**
 * Accumulates primitives into a DisplayList: consecutive strokes of one style are merged into one
 * path primitive (one beginPath/stroke in the back ends), bounds are tracked as points arrive.
 * Clipped runs (XCLIP) are marked with beginClip/endClip; the bounds take the clip into account.
 */
import type { AttachedImage } from '../model';
import type { Bounds, ClipRun, DisplayList, Gradient, LayerInfo, ListImage, Primitive, Style, TextPrimitive } from './types';
import type { FontRef } from '../text/fonts';

interface OpenClip {
  run: ClipRun;
  ring: number[];
  inverted: boolean;
  /** The bounds before the run: the run's own are tracked from scratch and merged back, clipped, at its end. */
  saved: [number, number, number, number];
}

const MAX_BATCH_POINTS = 1 << 16;

export class ListWriter {
  readonly styles: Style[] = [];
  readonly fonts: FontRef[] = [];
  readonly primitives: Primitive[] = [];
  private styleIndex = new Map<string, number>();
  private fontIndex = new Map<string, number>();
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  private clipRuns: ClipRun[] = [];
  private openClips: OpenClip[] = [];
  private readonly images: ListImage[] = [];
  private readonly imageIndex = new Map<AttachedImage, number>();

  // The open stroke batch.
  private batchStyle = -1;
  private coords: number[] = [];
  private starts: number[] = [];

  constructor(readonly layers: LayerInfo[]) {}

  style(color: number, lineweight: number, layer: number): number {
    const key = `${color}|${lineweight}|${layer}`;
    let i = this.styleIndex.get(key);
    if (i === undefined) {
      i = this.styles.length;
      this.styles.push({ color, lineweight, layer });
      this.styleIndex.set(key, i);
    }
    return i;
  }

  font(ref: FontRef): number {
    const key = `${ref.family}|${ref.file ?? ''}|${ref.face ?? ''}|${ref.requested}`;
    let i = this.fontIndex.get(key);
    if (i === undefined) {
      i = this.fonts.length;
      this.fonts.push(ref);
      this.fontIndex.set(key, i);
    }
    return i;
  }

  private grow(x: number, y: number): void {
    if (x < this.minX) this.minX = x;
    if (x > this.maxX) this.maxX = x;
    if (y < this.minY) this.minY = y;
    if (y > this.maxY) this.maxY = y;
  }

  /** Start a stroke subpath (x, y pairs, world coordinates, at least 2 points). */
  strokeWorld(style: number, xy: ArrayLike<number>, from = 0, to = xy.length): void {
    if (to - from < 4) return;
    if (style !== this.batchStyle || this.coords.length / 2 + (to - from) / 2 > MAX_BATCH_POINTS) {
      this.flush();
      this.batchStyle = style;
    }
    this.starts.push(this.coords.length / 2);
    const c = this.coords;
    for (let i = from; i < to; i += 2) {
      const x = xy[i] as number,
        y = xy[i + 1] as number;
      c.push(x, y);
      if (x < this.minX) this.minX = x;
      if (x > this.maxX) this.maxX = x;
      if (y < this.minY) this.minY = y;
      if (y > this.maxY) this.maxY = y;
    }
  }

  fillWorld(
    style: number,
    rings: number[][],
    mode: 'fill' | 'wipeout',
    gradient?: Gradient,
    rule: 'evenodd' | 'nonzero' = 'evenodd',
  ): void {
    const coords: number[] = [];
    const starts: number[] = [];
    for (const r of rings) {
      if (r.length < 6) continue;
      starts.push(coords.length / 2);
      for (let i = 0; i < r.length; i += 2) {
        const x = r[i] as number,
          y = r[i + 1] as number;
        coords.push(x, y);
        this.grow(x, y);
      }
    }
    if (!starts.length) return;
    this.flush();
    this.primitives.push({
      kind: 'path',
      mode,
      style,
      coords: Float64Array.from(coords),
      starts: Uint32Array.from(starts),
      ...(gradient ? { gradient } : {}),
      ...(rule === 'nonzero' ? { rule } : {}),
    });
  }

  text(t: TextPrimitive): void {
    this.flush();
    this.primitives.push(t);
    // Bounds: the text box corners (descent ~0.25 em, ascent ~1 em).
    const [a, b, c, d, e, f] = t.matrix;
    for (const [x, y] of [
      [0, -0.25 * t.size],
      [t.width, -0.25 * t.size],
      [0, t.size],
      [t.width, t.size],
    ] as const)
      this.grow(a * x + c * y + e, b * x + d * y + f);
  }

  /** A picture: `matrix` maps its unit square (y down from the top-left corner) to world coordinates. */
  image(style: number, picture: AttachedImage, matrix: [number, number, number, number, number, number]): void {
    this.flush();
    let index = this.imageIndex.get(picture);
    if (index === undefined) {
      index = this.images.length;
      this.images.push({ name: picture.file, mime: picture.mime, width: picture.width, height: picture.height, bytes: picture.bytes });
      this.imageIndex.set(picture, index);
    }
    this.primitives.push({ kind: 'image', style, image: index, matrix });
    const [a, b, c, d, e, f] = matrix;
    for (const [x, y] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ] as const)
      this.grow(a * x + c * y + e, b * x + d * y + f);
  }

  flush(): void {
    if (this.batchStyle >= 0 && this.starts.length) {
      this.primitives.push({
        kind: 'path',
        mode: 'stroke',
        style: this.batchStyle,
        coords: Float64Array.from(this.coords),
        starts: Uint32Array.from(this.starts),
      });
    }
    this.batchStyle = -1;
    this.coords = [];
    this.starts = [];
  }

  /**
   * Start a clipped run: what is added until the matching `endClip` shows only inside `ring` (x, y
   * pairs in world coordinates, at least 3 points), or only outside it when `inverted`.
   */
  beginClip(ring: number[], inverted: boolean): void {
    this.flush();
    const at = this.primitives.length;
    const run: ClipRun = { from: at, to: at, polygon: new Float64Array(0) };
    this.clipRuns.push(run);
    this.openClips.push({ run, ring, inverted, saved: [this.minX, this.minY, this.maxX, this.maxY] });
    this.minX = this.minY = Infinity;
    this.maxX = this.maxY = -Infinity;
  }

  endClip(): void {
    const open = this.openClips.pop();
    if (!open) return;
    this.flush();
    const { run, ring, inverted, saved } = open;
    run.to = this.primitives.length;
    let minX = this.minX,
      minY = this.minY,
      maxX = this.maxX,
      maxY = this.maxY;
    [this.minX, this.minY, this.maxX, this.maxY] = saved;
    if (run.to === run.from || !(minX <= maxX)) {
      // Nothing drawn (runs nested in it were empty too, and removed): no run.
      const i = this.clipRuns.indexOf(run);
      if (i >= 0) this.clipRuns.splice(i, 1);
      return;
    }
    let rx0 = Infinity,
      ry0 = Infinity,
      rx1 = -Infinity,
      ry1 = -Infinity;
    for (let i = 0; i < ring.length; i += 2) {
      const x = ring[i] as number,
        y = ring[i + 1] as number;
      if (x < rx0) rx0 = x;
      if (x > rx1) rx1 = x;
      if (y < ry0) ry0 = y;
      if (y > ry1) ry1 = y;
    }
    if (inverted) {
      run.polygon = Float64Array.from(
        invertedRing(ring, Math.min(minX, rx0), Math.min(minY, ry0), Math.max(maxX, rx1), Math.max(maxY, ry1)),
      );
    } else {
      run.polygon = Float64Array.from(ring);
      // Only what is inside the clip counts towards the extents.
      minX = Math.max(minX, rx0);
      minY = Math.max(minY, ry0);
      maxX = Math.min(maxX, rx1);
      maxY = Math.min(maxY, ry1);
      if (!(minX <= maxX && minY <= maxY)) return;
    }
    this.grow(minX, minY);
    this.grow(maxX, maxY);
  }

  bounds(): Bounds | null {
    return this.minX <= this.maxX ? { minX: this.minX, minY: this.minY, maxX: this.maxX, maxY: this.maxY } : null;
  }

  finish(): DisplayList {
    while (this.openClips.length) this.endClip();
    this.flush();
    const list: DisplayList = {
      styles: this.styles,
      layers: this.layers,
      fonts: this.fonts,
      primitives: this.primitives,
      bounds: this.bounds(),
    };
    if (this.clipRuns.length) list.clips = this.clipRuns;
    if (this.images.length) list.images = this.images;
    return list;
  }
}

/**
 * The region outside `hole` as one ring: the hole, a bridge to a frame around the box (grown a
 * little), the frame the other way round, and back along the bridge. Under the nonzero or the
 * even-odd rule the hole is then outside and everything else in the frame inside.
 */
function invertedRing(hole: number[], minX: number, minY: number, maxX: number, maxY: number): number[] {
  const n = hole.length >> 1;
  let area = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area += (hole[2 * i] as number) * (hole[2 * j + 1] as number) - (hole[2 * j] as number) * (hole[2 * i + 1] as number);
  }
  const pad = Math.max(maxX - minX, maxY - minY) * 0.05 + 1e-9;
  const x0 = minX - pad,
    y0 = minY - pad,
    x1 = maxX + pad,
    y1 = maxY + pad;
  // Counter-clockwise hole → clockwise frame, and the other way round.
  const frame = area > 0 ? [x0, y0, x0, y1, x1, y1, x1, y0] : [x0, y0, x1, y0, x1, y1, x0, y1];
  return [...hole, hole[0] as number, hole[1] as number, ...frame, x0, y0];
}
