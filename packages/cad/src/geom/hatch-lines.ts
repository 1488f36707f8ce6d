/**
 * Hatch pattern lines clipped to an area: a DXF pattern line becomes a family of parallel lines
 * (`lineFamily`), clipped scanline style to the even-odd area of a set of rings (`clipFamily`).
 * Shared by the display list (drawn dashes) and the R12 writer (pattern expanded to LINEs).
 */
import type { HatchPatternLine } from './hatch-patterns';

const DEG = Math.PI / 180;

/** A pattern line family ready to clip: unit direction u, normal n, spacing s > 0 along n. */
export interface LineFamily {
  ux: number;
  uy: number;
  nx: number;
  ny: number;
  bx: number;
  by: number;
  /** Distance between neighbouring lines (> 0). */
  spacing: number;
  /** Shift of a line's pattern start along u, per line. */
  shift: number;
  dashes: number[];
  /** Sum of |dashes|; 0 = continuous. */
  period: number;
}

/** Prepares a DXF pattern line; null when its lines would coincide (zero spacing). */
export function lineFamily(l: HatchPatternLine, minSpacing: number): LineFamily | null {
  const a = l.angle * DEG;
  const ux = Math.cos(a),
    uy = Math.sin(a);
  let nx = -uy,
    ny = ux;
  let s = l.offset[0] * nx + l.offset[1] * ny;
  let shift = l.offset[0] * ux + l.offset[1] * uy;
  if (!Number.isFinite(s) || !Number.isFinite(shift) || Math.abs(s) <= minSpacing) return null;
  if (s < 0) {
    // The same set of lines counted the other way: line k is base − k·offset.
    nx = -nx;
    ny = -ny;
    s = -s;
    shift = -shift;
  }
  const dashes = l.dashes.filter((d) => Number.isFinite(d));
  const period = dashes.reduce((t, d) => t + Math.abs(d), 0);
  // Only gaps: nothing to draw. No length at all: a continuous line.
  if (period > 0 && !dashes.some((d) => d >= 0)) return null;
  const usable = period > 0;
  return { ux, uy, nx, ny, bx: l.base[0], by: l.base[1], spacing: s, shift, dashes: usable ? dashes : [], period: usable ? period : 0 };
}

/** Boundary edges of the rings as x0, y0, x1, y1 quadruples. */
export function ringEdges(rings: number[][]): Float64Array {
  let n = 0;
  for (const r of rings) n += r.length >> 1;
  const out = new Float64Array(n * 4);
  let k = 0;
  for (const r of rings) {
    const m = r.length >> 1;
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % m;
      out[k++] = r[2 * i] as number;
      out[k++] = r[2 * i + 1] as number;
      out[k++] = r[2 * j] as number;
      out[k++] = r[2 * j + 1] as number;
    }
  }
  return out;
}

/** Rough count of the segments a family yields over the rings (lines + dashes). */
export function estimateSegments(rings: number[][], f: LineFamily, area: number): number {
  let hMin = Infinity,
    hMax = -Infinity,
    tMin = Infinity,
    tMax = -Infinity;
  for (const r of rings)
    for (let i = 0; i < r.length; i += 2) {
      const x = (r[i] as number) - f.bx,
        y = (r[i + 1] as number) - f.by;
      const h = x * f.nx + y * f.ny,
        t = x * f.ux + y * f.uy;
      if (h < hMin) hMin = h;
      if (h > hMax) hMax = h;
      if (t < tMin) tMin = t;
      if (t > tMax) tMax = t;
    }
  const lines = (hMax - hMin) / f.spacing + 1;
  if (!f.period) return lines;
  const length = Math.min(lines * (tMax - tMin), area / f.spacing);
  const pens = f.dashes.filter((d) => d >= 0).length;
  return lines + (length / f.period) * pens;
}

/**
 * Clips the lines of one family to the even-odd area bounded by `edges` and calls `emit` with the
 * dashes (x0, y0, x1, y1 in the same coordinates). Scanline style: the edges are sorted by their
 * extent across the lines, each line intersects only the edges it crosses, the crossings are
 * sorted and paired. Returns the number of segments emitted; stops after `limit`.
 */
export function clipFamily(
  edges: Float64Array,
  f: LineFamily,
  dot: number,
  emit: (x0: number, y0: number, x1: number, y1: number) => void,
  limit = Infinity,
): number {
  const E = edges.length >> 2;
  if (!E) return 0;
  const h0 = new Float64Array(E),
    h1 = new Float64Array(E),
    t0 = new Float64Array(E),
    t1 = new Float64Array(E),
    lo = new Float64Array(E),
    hi = new Float64Array(E);
  let hMin = Infinity,
    hMax = -Infinity;
  for (let i = 0; i < E; i++) {
    const x0 = (edges[4 * i] as number) - f.bx,
      y0 = (edges[4 * i + 1] as number) - f.by;
    const x1 = (edges[4 * i + 2] as number) - f.bx,
      y1 = (edges[4 * i + 3] as number) - f.by;
    const a = x0 * f.nx + y0 * f.ny,
      b = x1 * f.nx + y1 * f.ny;
    h0[i] = a;
    h1[i] = b;
    t0[i] = x0 * f.ux + y0 * f.uy;
    t1[i] = x1 * f.ux + y1 * f.uy;
    lo[i] = Math.min(a, b);
    hi[i] = Math.max(a, b);
    if (lo[i]! < hMin) hMin = lo[i]!;
    if (hi[i]! > hMax) hMax = hi[i]!;
  }
  if (!Number.isFinite(hMin) || !Number.isFinite(hMax)) return 0;
  const order = new Int32Array(E);
  for (let i = 0; i < E; i++) order[i] = i;
  order.sort((a, b) => (lo[a] as number) - (lo[b] as number));
  const active = new Int32Array(E);
  const xs = new Float64Array(E);
  let nActive = 0,
    ptr = 0,
    count = 0;
  const s = f.spacing;
  const kStart = Math.ceil(hMin / s),
    kEnd = Math.floor(hMax / s);
  const { ux, uy, nx, ny, bx, by, dashes, period } = f;
  const nd = dashes.length;
  let h = 0;
  const out = (a: number, b: number): void => {
    count++;
    emit(bx + a * ux + h * nx, by + a * uy + h * ny, bx + b * ux + h * nx, by + b * uy + h * ny);
  };
  for (let k = kStart; k <= kEnd && count < limit; k++) {
    h = k * s;
    while (ptr < E && (lo[order[ptr] as number] as number) <= h) active[nActive++] = order[ptr++] as number;
    let w = 0,
      nxs = 0;
    for (let j = 0; j < nActive; j++) {
      const a = active[j] as number;
      if ((hi[a] as number) <= h) continue;
      active[w++] = a;
      const ha = h0[a] as number,
        hb = h1[a] as number;
      if ((ha <= h && h < hb) || (hb <= h && h < ha))
        xs[nxs++] = (t0[a] as number) + ((h - ha) * ((t1[a] as number) - (t0[a] as number))) / (hb - ha);
    }
    nActive = w;
    if (nxs < 2) continue;
    const cross = xs.subarray(0, nxs).sort();
    const origin = k * f.shift;
    for (let i = 0; i + 1 < nxs; i += 2) {
      const ta = cross[i] as number,
        tb = cross[i + 1] as number;
      if (!(tb > ta)) continue;
      if (!period) {
        out(ta, tb);
        continue;
      }
      // Where in the dash pattern the interval starts.
      let r = (ta - origin) % period;
      if (r < 0) r += period;
      let idx = 0,
        acc = 0;
      while (idx < nd && acc + Math.abs(dashes[idx] as number) <= r) acc += Math.abs(dashes[idx++] as number);
      if (idx >= nd) {
        idx = 0;
        acc = 0;
      }
      let t = ta - (r - acc);
      let guard = 0;
      while (t <= tb && guard++ < 1_000_000) {
        const d = dashes[idx] as number;
        const len = Math.abs(d);
        if (d > 0) {
          const a = Math.max(t, ta),
            b = Math.min(t + len, tb);
          if (b > a) out(a, b);
        } else if (d === 0 && t >= ta && t <= tb) out(Math.max(ta, t - dot / 2), Math.min(tb, t + dot / 2));
        t += len;
        idx = idx + 1 === nd ? 0 : idx + 1;
        if (count >= limit) break;
      }
    }
  }
  return count;
}
