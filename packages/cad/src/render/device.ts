/**
 * Path geometry in device coordinates for the back ends: a primitive's points transformed into a
 * reused buffer, and, when some point lies absurdly far outside the page (a viewport looking at a
 * corner of a huge model, a ray), strokes clipped segment by segment and fills clipped to a
 * large box so that no back end prints or rasterises numbers it cannot represent. Browser-safe.
 */
import type { PathPrimitive } from '../display/types';
import type { Affine2D } from '../geom/matrix';

export interface DevicePath {
  /** x, y pairs, device coordinates; only the first 2·count numbers are valid. */
  xy: Float64Array;
  /** Subpath start indices (in points); only the first `subpaths` are valid. */
  starts: Uint32Array;
  count: number;
  subpaths: number;
}

export class DeviceTransformer {
  private xy = new Float64Array(1024);
  private starts = new Uint32Array(64);
  /** Device coordinates beyond ±limit are clipped. */
  constructor(private readonly limit: number) {}

  /** The primitive's points through `m`, clipped when needed. Reuses its buffers: consume before the next call. */
  transform(p: PathPrimitive, m: Affine2D): DevicePath {
    const c = p.coords;
    const n = c.length >> 1;
    if (this.xy.length < 2 * n) this.xy = new Float64Array(Math.max(2 * n, this.xy.length * 2));
    const xy = this.xy;
    const a = m[0],
      b = m[1],
      cc = m[2],
      d = m[3],
      e = m[4],
      f = m[5];
    const L = this.limit;
    let out = false;
    for (let i = 0; i < 2 * n; i += 2) {
      const x = c[i] as number,
        y = c[i + 1] as number;
      const tx = a * x + cc * y + e,
        ty = b * x + d * y + f;
      xy[i] = tx;
      xy[i + 1] = ty;
      if (!(tx <= L && tx >= -L && ty <= L && ty >= -L)) out = true;
    }
    if (!out) {
      return { xy, starts: p.starts, count: n, subpaths: p.starts.length };
    }
    return p.mode === 'stroke' ? this.clipStrokes(xy, p.starts, n) : this.clipRings(xy, p.starts, n);
  }

  private clipStrokes(src: Float64Array, starts: Uint32Array, n: number): DevicePath {
    const L = this.limit;
    const xy: number[] = [];
    const st: number[] = [];
    for (let k = 0; k < starts.length; k++) {
      const i0 = starts[k] as number,
        i1 = k + 1 < starts.length ? (starts[k + 1] as number) : n;
      let open = false;
      for (let i = i0; i + 1 < i1; i++) {
        const seg = clipSegment(src[2 * i] as number, src[2 * i + 1] as number, src[2 * i + 2] as number, src[2 * i + 3] as number, L);
        if (!seg) {
          open = false;
          continue;
        }
        const [x0, y0, x1, y1, cutStart, cutEnd] = seg;
        if (!open || cutStart) {
          st.push(xy.length / 2);
          xy.push(x0, y0);
        }
        xy.push(x1, y1);
        open = !cutEnd;
      }
      if (i1 - i0 === 1) {
        const x = src[2 * i0] as number,
          y = src[2 * i0 + 1] as number;
        if (Math.abs(x) <= L && Math.abs(y) <= L) {
          st.push(xy.length / 2);
          xy.push(x, y);
        }
      }
    }
    return { xy: Float64Array.from(xy), starts: Uint32Array.from(st), count: xy.length / 2, subpaths: st.length };
  }

  private clipRings(src: Float64Array, starts: Uint32Array, n: number): DevicePath {
    const L = this.limit;
    const xy: number[] = [];
    const st: number[] = [];
    for (let k = 0; k < starts.length; k++) {
      const i0 = starts[k] as number,
        i1 = k + 1 < starts.length ? (starts[k + 1] as number) : n;
      let ring: number[] = [];
      for (let i = i0; i < i1; i++) {
        const x = src[2 * i] as number,
          y = src[2 * i + 1] as number;
        if (Number.isFinite(x) && Number.isFinite(y)) ring.push(x, y);
      }
      // Sutherland–Hodgman against the four sides of the box.
      for (let side = 0; side < 4 && ring.length >= 6; side++) ring = clipRingSide(ring, side, L);
      if (ring.length < 6) continue;
      st.push(xy.length / 2);
      for (const v of ring) xy.push(v);
    }
    return { xy: Float64Array.from(xy), starts: Uint32Array.from(st), count: xy.length / 2, subpaths: st.length };
  }
}

/** Liang–Barsky: the part of segment p0→p1 inside [-L, L]², with flags for a cut start / end. */
function clipSegment(x0: number, y0: number, x1: number, y1: number, L: number): [number, number, number, number, boolean, boolean] | null {
  if (!Number.isFinite(x0) || !Number.isFinite(y0) || !Number.isFinite(x1) || !Number.isFinite(y1)) return null;
  const dx = x1 - x0,
    dy = y1 - y0;
  let t0 = 0,
    t1 = 1;
  const edges: [number, number][] = [
    [-dx, x0 + L],
    [dx, L - x0],
    [-dy, y0 + L],
    [dy, L - y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return null;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return null;
      if (r < t1) t1 = r;
    }
  }
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy, t0 > 0, t1 < 1];
}

function inside(x: number, y: number, side: number, L: number): boolean {
  return side === 0 ? x >= -L : side === 1 ? x <= L : side === 2 ? y >= -L : y <= L;
}

function clipRingSide(ring: number[], side: number, L: number): number[] {
  const out: number[] = [];
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const ax = ring[2 * i] as number,
      ay = ring[2 * i + 1] as number;
    const j = (i + 1) % n;
    const bx = ring[2 * j] as number,
      by = ring[2 * j + 1] as number;
    const ain = inside(ax, ay, side, L),
      bin = inside(bx, by, side, L);
    if (ain) out.push(ax, ay);
    if (ain !== bin) {
      const edge = side === 0 ? -L : side === 1 ? L : side === 2 ? -L : L;
      const t = side < 2 ? (edge - ax) / (bx - ax) : (edge - ay) / (by - ay);
      out.push(ax + t * (bx - ax), ay + t * (by - ay));
    }
  }
  return out;
}
