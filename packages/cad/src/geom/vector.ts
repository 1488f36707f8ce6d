/**
 * Points and directions in 3D: `[x, y, z]` tuples everywhere in the engine (z = 0 when the source
 * has none). The bottom floor: the drawing model, the readers, writers and display list build on it.
 */
export type Vec3 = [number, number, number];

/** `v` scaled to length 1; the default extrusion (0, 0, 1) for a zero vector. */
export function normalize(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]);
  return l > 0 ? [v[0] / l, v[1] / l, v[2] / l] : [0, 0, 1];
}

export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
