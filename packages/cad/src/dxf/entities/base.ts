/** The fields every DXF entity record has (AcDbEntity), and `mk`, which every family reader builds with. */
import type { Entity, EntityBase, XData } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';
import type { GroupValue } from '../tokenizer';

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
    xdata: undefined,
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
  if (r.xdataStart < codes.length) base.xdata = xdataOf(r);
  return base;
}

/**
 * The record's extended data but AutoCAD's own (ACAD), one entry per application: from the first
 * 1001 group on (an MTEXT's embedded object may sit between the entity and its extended data).
 */
function xdataOf(r: DxfRecord): XData[] | undefined {
  const { codes, vals } = r;
  const out: XData[] = [];
  let app: XData | null = null;
  for (let i = r.xdataStart; i < codes.length; i++) {
    const c = codes[i] as number;
    const v = vals[i] as GroupValue;
    if (c === 1001) {
      const name = asStr(v);
      app = name.toUpperCase() === 'ACAD' || !name ? null : { app: name, items: [] };
      if (app) out.push(app);
      continue;
    }
    if (!app || c < 1000 || c > 1071) continue;
    if (c >= 1010 && c <= 1013) {
      app.items.push({ code: c, value: r.ptAt(i, 0) });
      continue;
    }
    // The y and z of a point were taken with its x.
    if (c >= 1020 && c <= 1033) continue;
    app.items.push({ code: c, value: c < 1010 ? asStr(v) : asNum(v) });
  }
  return out.length ? out : undefined;
}
