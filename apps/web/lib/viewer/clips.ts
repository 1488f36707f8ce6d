import type { PackedList } from './types';
import type { Affine } from './view';

// XCLIPped block references (PackedList.clips): which polygons hold a clipped primitive, and
// whether a point is inside them. The renderer and the 2D overlay clip with them; snapping skips
// what they hide.

/** Stencil bits the renderer gives clips (bit 0 is the viewport's): nesting deeper than this is clipped by the outer levels only. */
export const MAX_CLIP_DEPTH = 7;

/** Clip `index` and the clips it is nested in, outermost first (at most MAX_CLIP_DEPTH of them, the outermost kept). */
export function clipChain(list: PackedList, index: number): number[] {
  const chain: number[] = [];
  for (let i = index; i >= 0 && chain.length <= list.clips.length; i = list.clips[i]?.parent ?? -1) chain.push(i);
  return chain.reverse().slice(0, MAX_CLIP_DEPTH);
}

/** A polygon (x, y pairs) through an affine, as float32 for the GPU or the canvas. */
export function polygonThrough(polygon: Float64Array, m: Affine): Float32Array {
  const out = new Float32Array(polygon.length);
  for (let i = 0; i < polygon.length; i += 2) {
    const x = polygon[i] as number,
      y = polygon[i + 1] as number;
    out[i] = m[0] * x + m[2] * y + m[4];
    out[i + 1] = m[1] * x + m[3] * y + m[5];
  }
  return out;
}

/** Whether (x, y) is inside a ring (even-odd, as the stencil counts it). */
export function insideRing(ring: ArrayLike<number>, x: number, y: number): boolean {
  let inside = false;
  const n = ring.length >> 1;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i] as number,
      yi = ring[2 * i + 1] as number;
    const xj = ring[2 * j] as number,
      yj = ring[2 * j + 1] as number;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a point of the list (list coordinates) shows through clip `index` and those it is nested in. */
export function insideClip(list: PackedList, index: number, x: number, y: number): boolean {
  return clipChain(list, index).every((i) => {
    const clip = list.clips[i];
    return !clip || insideRing(clip.polygon, x, y);
  });
}
