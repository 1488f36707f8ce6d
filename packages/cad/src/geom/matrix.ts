/**
 * 3D affine matrices as 12 numbers, row-major: [a0 a1 a2 a3, b0 b1 b2 b3, c0 c1 c2 c3] with
 *   x' = a0·x + a1·y + a2·z + a3,  y' = b0·x + … + b3,  z' = c0·x + … + c3.
 * The display list keeps x' and y' (a top view); z' matters only while composing.
 */
import { cross, normalize, type Vec3 } from './vector';

export type Mat = readonly number[];
/** 2D affine [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f (the PDF/canvas order). */
export type Affine2D = [number, number, number, number, number, number];

export const IDENTITY: Mat = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];

/** a ∘ b: apply b first, then a. */
export function multiply(a: Mat, b: Mat): Mat {
  const r = new Array<number>(12);
  for (let i = 0; i < 3; i++) {
    const a0 = a[i * 4] as number,
      a1 = a[i * 4 + 1] as number,
      a2 = a[i * 4 + 2] as number,
      a3 = a[i * 4 + 3] as number;
    r[i * 4] = a0 * (b[0] as number) + a1 * (b[4] as number) + a2 * (b[8] as number);
    r[i * 4 + 1] = a0 * (b[1] as number) + a1 * (b[5] as number) + a2 * (b[9] as number);
    r[i * 4 + 2] = a0 * (b[2] as number) + a1 * (b[6] as number) + a2 * (b[10] as number);
    r[i * 4 + 3] = a0 * (b[3] as number) + a1 * (b[7] as number) + a2 * (b[11] as number) + a3;
  }
  return r;
}

export function translation(x: number, y: number, z = 0): Mat {
  return [1, 0, 0, x, 0, 1, 0, y, 0, 0, 1, z];
}

export function scaling(sx: number, sy: number, sz = 1): Mat {
  return [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz, 0];
}

/** Rotation about z by `rad` radians (counter-clockwise). */
export function rotationZ(rad: number): Mat {
  const c = Math.cos(rad),
    s = Math.sin(rad);
  return [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0];
}

/** The matrix whose columns are the given axes and origin. */
export function fromAxes(x: Vec3, y: Vec3, z: Vec3, origin: Vec3 = [0, 0, 0]): Mat {
  return [x[0], y[0], z[0], origin[0], x[1], y[1], z[1], origin[1], x[2], y[2], z[2], origin[2]];
}

/** True for the default extrusion (0, 0, 1), where the OCS is the WCS. */
export function isDefaultExtrusion(n: Vec3): boolean {
  return Math.abs(n[0]) < 1e-12 && Math.abs(n[1]) < 1e-12 && n[2] > 0;
}

/**
 * OCS → WCS for an extrusion direction (the DXF arbitrary axis algorithm), the one implementation:
 * the display list composes the matrix, the writers map points through it with `apply3`.
 */
export function ocsToWcs(extrusion: Vec3): Mat {
  if (isDefaultExtrusion(extrusion)) return IDENTITY;
  const n = normalize(extrusion);
  const ax = Math.abs(n[0]) < 1 / 64 && Math.abs(n[1]) < 1 / 64 ? normalize(cross([0, 1, 0], n)) : normalize(cross([0, 0, 1], n));
  const ay = normalize(cross(n, ax));
  return fromAxes(ax, ay, n);
}

export function apply(m: Mat, x: number, y: number, z = 0): [number, number] {
  return [
    (m[0] as number) * x + (m[1] as number) * y + (m[2] as number) * z + (m[3] as number),
    (m[4] as number) * x + (m[5] as number) * y + (m[6] as number) * z + (m[7] as number),
  ];
}

export function apply3(m: Mat, x: number, y: number, z = 0): Vec3 {
  return [
    (m[0] as number) * x + (m[1] as number) * y + (m[2] as number) * z + (m[3] as number),
    (m[4] as number) * x + (m[5] as number) * y + (m[6] as number) * z + (m[7] as number),
    (m[8] as number) * x + (m[9] as number) * y + (m[10] as number) * z + (m[11] as number),
  ];
}

/** Geometric-mean scale of the projected xy part: how long a unit of this space is in the output. */
export function scaleOf(m: Mat): number {
  const det = (m[0] as number) * (m[5] as number) - (m[1] as number) * (m[4] as number);
  const s = Math.sqrt(Math.abs(det));
  if (s > 1e-300) return s;
  // Degenerate in xy (seen edge-on): the largest column length.
  return Math.max(Math.hypot(m[0] as number, m[4] as number), Math.hypot(m[1] as number, m[5] as number), 1e-300);
}

/** The projected xy part of `m` as a 2D affine. */
export function toAffine2D(m: Mat): Affine2D {
  return [m[0] as number, m[4] as number, m[1] as number, m[5] as number, m[3] as number, m[7] as number];
}

/** a ∘ b: apply b, then a. Takes display-list matrices (plain number lists) as well. */
export function affineMultiply(a: Affine2D | readonly number[], b: Affine2D | readonly number[]): Affine2D {
  const [a0, a1, a2, a3, a4, a5] = a as Affine2D;
  const [b0, b1, b2, b3, b4, b5] = b as Affine2D;
  return [a0 * b0 + a2 * b1, a1 * b0 + a3 * b1, a0 * b2 + a2 * b3, a1 * b2 + a3 * b3, a0 * b4 + a2 * b5 + a4, a1 * b4 + a3 * b5 + a5];
}

export function affineInvert(a: Affine2D): Affine2D {
  const det = a[0] * a[3] - a[1] * a[2];
  if (!det) return [1, 0, 0, 1, -a[4], -a[5]];
  const ia = a[3] / det,
    ib = -a[1] / det,
    ic = -a[2] / det,
    id = a[0] / det;
  return [ia, ib, ic, id, -(ia * a[4] + ic * a[5]), -(ib * a[4] + id * a[5])];
}

/**
 * Text space → world for a line of text: `m` maps the entity's coordinate system (its OCS) to
 * world; the text starts at (x, y) there, turned by `rotation` radians, stretched by `widthFactor`
 * along the baseline, slanted by `oblique` radians, mirrored by the TEXT generation flags.
 */
export function textMatrix(
  m: Mat,
  x: number,
  y: number,
  rotation: number,
  widthFactor = 1,
  oblique = 0,
  mirrorX = false,
  mirrorY = false,
): Affine2D {
  const c = Math.cos(rotation),
    s = Math.sin(rotation);
  const sx = (mirrorX ? -1 : 1) * (widthFactor || 1);
  const sy = mirrorY ? -1 : 1;
  const t = Math.tan(oblique);
  // local: x' = sx·x + t·y, y' = sy·y (oblique leans the glyphs right), then rotate, then place.
  const local: Affine2D = [c * sx, s * sx, c * t * sy - s * sy, s * t * sy + c * sy, x, y];
  return affineMultiply(toAffine2D(m), local);
}
