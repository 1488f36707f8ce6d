/** The fields every DXF entity record has (AcDbEntity), and `mk`, which every family reader builds with. */
import type { Entity, EntityBase } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';

export const RAD2DEG = 180 / Math.PI;

type Own<E> = E extends Entity ? Omit<E, keyof EntityBase> : never;

/** Entity = common fields + own fields (Object.assign: much faster than a spread in V8). */
export function mk<F extends Own<Entity>>(r: DxfRecord, fields: F): EntityBase & F {
  return Object.assign(baseOf(r), fields);
}

function baseOf(r: DxfRecord): EntityBase {
  // Every key is present (optional ones as undefined) so that all bases share one hidden class:
  // spreading them into the entity literals stays on V8's fast path.
  const base: EntityBase = {
    handle: undefined,
    layer: '0',
    color: { aci: undefined, rgb: undefined },
    linetype: 'BYLAYER',
    ltscale: 1,
    lineweight: -1,
    visible: true,
    extrusion: [0, 0, 1],
    thickness: undefined,
    owner: undefined,
    paperSpace: false,
    transparency: undefined,
  };
  const { codes, vals } = r;
  const end = r.length;
  let inEntity = true;
  let seen210 = false;
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    const v = vals[i];
    if (c === 100) {
      inEntity = asStr(v) === 'AcDbEntity';
      continue;
    }
    if (c === 210 && !seen210) {
      seen210 = true;
      const p = r.ptAt(i, 1);
      if (p[0] !== 0 || p[1] !== 0 || p[2] !== 0) base.extrusion = p;
      continue;
    }
    if (c === 39 && base.thickness === undefined) {
      base.thickness = asNum(v);
      continue;
    }
    if (!inEntity) continue;
    switch (c) {
      case 5:
        if (base.handle === undefined) base.handle = asStr(v);
        break;
      case 8:
        base.layer = asStr(v);
        break;
      case 62:
        if (base.color.aci === undefined) base.color.aci = asNum(v);
        break;
      case 420:
        if (base.color.rgb === undefined) base.color.rgb = asNum(v) & 0xffffff;
        break;
      case 6:
        base.linetype = asStr(v);
        break;
      case 48:
        base.ltscale = asNum(v, 1);
        break;
      case 370:
        base.lineweight = asNum(v, -1);
        break;
      case 60:
        base.visible = asNum(v) === 0;
        break;
      case 67:
        base.paperSpace = asNum(v) === 1;
        break;
      case 330:
        if (base.owner === undefined) base.owner = asStr(v);
        break;
      case 440:
        base.transparency = asNum(v);
        break;
    }
  }
  if (base.color.aci === undefined && base.color.rgb === undefined) base.color.aci = 256;
  return base;
}
