/** DIMENSION (with the ARC_DIMENSION and LARGE_RADIAL_DIMENSION classes) and LEADER. */
import type { Entity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function dimension(r: DxfRecord): Entity {
  const defPoints: Partial<Record<'p12' | 'p13' | 'p14' | 'p15' | 'p16', Vec3>> = {};
  for (const c of [12, 13, 14, 15, 16] as const) {
    const p = r.optPt(c);
    if (p) defPoints[`p${c}`] = p;
  }
  const flags = r.num(70);
  const e: Entity = mk(r, {
    type: 'DIMENSION',
    block: r.str(2),
    dimType: flags & 7,
    flags,
    style: r.str(3, 'STANDARD'),
    text: r.str(1),
    defPoint: r.pt(10),
    textMidpoint: r.pt(11),
    defPoints,
    textRotation: r.num(53),
    angle: r.num(50),
    attachment: r.num(71, 5),
  });
  const m = r.optNum(42);
  if (m !== undefined) e.measurement = m;
  return e;
}

export function leader(r: DxfRecord): Entity {
  const vertices: Vec3[] = [];
  for (let i = r.indexOf(10); i >= 0; i = r.indexOf(10, i + 1)) vertices.push(r.ptAt(i));
  const e: Entity = mk(r, {
    type: 'LEADER',
    vertices,
    arrowhead: r.num(71, 1) !== 0,
    pathType: r.num(72),
    style: r.str(3, 'STANDARD'),
  });
  const a = r.optStr(340);
  if (a) e.annotation = a;
  const at = r.optNum(73);
  if (at !== undefined) e.annotationType = at;
  const hk = r.optNum(75);
  if (hk !== undefined) e.hookline = hk !== 0;
  const hd = r.optNum(74);
  if (hd !== undefined) e.hooklineDirection = hd;
  const th = r.optNum(40);
  if (th !== undefined) e.textHeight = th;
  const tw = r.optNum(41);
  if (tw !== undefined) e.textWidth = tw;
  const hv = r.optPt(211);
  if (hv) e.horizontalDirection = hv;
  const bc = r.optNum(77);
  if (bc !== undefined) e.blockColor = bc;
  const ov = dimStyleOverrides(r);
  if (ov) e.dimOverrides = ov;
  return e;
}

/** Dimension-style overrides an entity carries in its ACAD extended data (DSTYLE { code, value, ... }). */
function dimStyleOverrides(r: DxfRecord): Record<number, number | string> | undefined {
  const x = r.xdata('ACAD');
  let out: Record<number, number | string> | undefined;
  for (let i = 0; i + 1 < x.length; i++) {
    if (x[i]!.code !== 1000 || asStr(x[i]!.value).toUpperCase() !== 'DSTYLE') continue;
    for (let j = i + 1; j + 1 < x.length; j++) {
      const g = x[j]!;
      if (g.code === 1002) {
        if (asStr(g.value) === '}') break;
        continue;
      }
      if (g.code !== 1070) continue;
      const v = x[j + 1]!;
      (out ??= {})[asNum(g.value)] = v.code === 1000 || v.code === 1005 ? asStr(v.value) : asNum(v.value);
      j++;
    }
    break;
  }
  return out;
}

/** TOLERANCE (AcDbFcf): dimension style (3), insertion (10), text (1), X direction (11). */
export function tolerance(r: DxfRecord): Entity {
  return mk(r, { type: 'TOLERANCE', style: r.str(3), insertion: r.pt(10), direction: r.pt(11, [1, 0, 0]), text: r.str(1) });
}
