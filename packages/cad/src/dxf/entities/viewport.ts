/** VIEWPORT: a paper-space window on the model. */
import type { Entity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function viewport(r: DxfRecord): Entity {
  const frozenLayers: string[] = [];
  for (let i = r.indexOf(331); i >= 0; i = r.indexOf(331, i + 1)) frozenLayers.push(asStr(r.vals[i]));
  const height = r.num(41);
  // R12 keeps the view in the ACAD "MVIEW" extended data, 2000+ in groups 12..51.
  const mv = r.has(45) || r.has(12) ? null : mview(r);
  const viewHeight = mv ? mv.height : r.num(45, height);
  const status = r.num(68);
  const vc = mv ? mv.center : r.pt(12);
  if (mv) frozenLayers.push(...mv.frozen);
  const flags = r.num(90);
  const e: Entity = mk(r, {
    type: 'VIEWPORT',
    center: r.pt(10),
    width: r.num(40),
    height,
    id: r.num(69),
    status,
    on: status !== 0 && !(flags & 0x20000),
    viewCenter: [vc[0], vc[1]],
    viewTarget: mv ? mv.target : r.pt(17),
    viewDirection: mv ? mv.direction : r.pt(16, [0, 0, 1]),
    viewHeight,
    scale: viewHeight ? height / viewHeight : 1,
    twist: mv ? mv.twist : r.num(51),
    flags,
    frozenLayers,
  });
  const clip = r.optStr(340);
  if (clip) e.clipBoundaryHandle = clip;
  return e;
}

/**
 * The R12 view of a viewport (ACAD extended data: 1000 MVIEW, {, version, target and direction
 * (1010), twist, view height, view centre x and y, lens, clips (1040), flags, snap and grid, {
 * frozen layers (1003) } }). Null when absent or short.
 */
function mview(r: DxfRecord): { target: Vec3; direction: Vec3; twist: number; height: number; center: Vec3; frozen: string[] } | null {
  const x = r.xdata('ACAD');
  const start = x.findIndex((g) => g.code === 1000 && asStr(g.value).toUpperCase() === 'MVIEW');
  if (start < 0) return null;
  const pts: Vec3[] = [];
  const reals: number[] = [];
  const frozen: string[] = [];
  for (let k = start + 1; k < x.length; k++) {
    const g = x[k] as { code: number; value: unknown };
    if (g.code === 1000) break;
    if (g.code === 1010) pts.push([asNum(g.value as never), 0, 0]);
    else if (g.code === 1020 && pts.length) (pts[pts.length - 1] as Vec3)[1] = asNum(g.value as never);
    else if (g.code === 1030 && pts.length) (pts[pts.length - 1] as Vec3)[2] = asNum(g.value as never);
    else if (g.code === 1040) reals.push(asNum(g.value as never));
    else if (g.code === 1003) frozen.push(asStr(g.value as never));
  }
  const [target, direction] = pts;
  const [twist, height, cx, cy] = reals;
  if (!target || !direction || height === undefined || cx === undefined || cy === undefined || !(height > 0)) return null;
  return { target, direction, twist: twist ?? 0, height, center: [cx, cy, 0], frozen };
}
