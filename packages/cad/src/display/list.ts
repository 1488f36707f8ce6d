/**
 * Accumulates primitives into a DisplayList: consecutive strokes of one style are merged into one
 * path primitive (one beginPath/stroke in the back ends), bounds are tracked as points arrive.
 */
import type { Bounds, DisplayList, FontRef, Gradient, LayerInfo, Primitive, Style, TextPrimitive } from './types';

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
      const x = xy[i] as number, y = xy[i + 1] as number;
      c.push(x, y);
      if (x < this.minX) this.minX = x;
      if (x > this.maxX) this.maxX = x;
      if (y < this.minY) this.minY = y;
      if (y > this.maxY) this.maxY = y;
    }
  }

  fillWorld(style: number, rings: number[][], mode: 'fill' | 'wipeout', gradient?: Gradient, rule: 'evenodd' | 'nonzero' = 'evenodd'): void {
    const coords: number[] = [];
    const starts: number[] = [];
    for (const r of rings) {
      if (r.length < 6) continue;
      starts.push(coords.length / 2);
      for (let i = 0; i < r.length; i += 2) {
        const x = r[i] as number, y = r[i + 1] as number;
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

  bounds(): Bounds | null {
    return this.minX <= this.maxX ? { minX: this.minX, minY: this.minY, maxX: this.maxX, maxY: this.maxY } : null;
  }

  finish(): DisplayList {
    this.flush();
    return { styles: this.styles, layers: this.layers, fonts: this.fonts, primitives: this.primitives, bounds: this.bounds() };
  }
}
