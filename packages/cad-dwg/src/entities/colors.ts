/** DWG colours (LibreDWG's CMC struct and API object) → the model's ACI / true colour / transparency. */
import type { Color } from '@xcad/cad/model';
import type { DwgColor } from '../wasm';

/** A DWG colour → the model's: ACI (0 ByBlock, 256 ByLayer) and/or true colour. */
export function modelColor(c: DwgColor | undefined, absolute = false): Color {
  if (!c) return { aci: 256 };
  const method = c.method || (c.rgb >>> 24) & 0xff;
  let index = c.index;
  if (absolute) index = Math.abs(index);
  if (method === 0xc2) {
    const out: Color = { rgb: c.rgb & 0xffffff };
    if (index >= 1 && index <= 255) out.aci = index;
    return out;
  }
  if (method === 0xc0) return { aci: 256 };
  if (method === 0xc1) return { aci: 0 };
  if (method === 0xc3) {
    const i = c.rgb & 0xff;
    return { aci: i >= 1 && i <= 255 ? i : index };
  }
  return { aci: index };
}

/** DXF group 440 value for a DWG colour's transparency (undefined = ByLayer). */
export function transparencyOf(c: DwgColor | undefined): number | undefined {
  if (!c) return undefined;
  if (c.alpha_type === 1) return 0x01000000;
  if (c.alpha_type === 2 || c.alpha_type === 3) return 0x02000000 | (c.alpha & 0xff);
  return undefined;
}

/**
 * An entity colour from LibreDWG's struct: ACI `index`, `rgb` and a second 32-bit word that holds
 * the raw transparency - or, when an entity has both (R2004+), the two swapped. The top byte tells
 * them apart: 0xC2 true colour, 0x01 transparency ByBlock, 0x02 explicit alpha.
 */
export function heapColor(
  index: number,
  rgb: number,
  other: number,
  alphaType: number,
  alpha: number,
): { color: Color; transparency: number | undefined } {
  let color: Color = { aci: index };
  let transparency: number | undefined;
  for (const v of [rgb, other]) {
    const top = v >>> 24;
    if (top === 0xc2) {
      color = { rgb: v & 0xffffff };
      if (index >= 1 && index <= 255) color.aci = index;
    } else if (top === 0xc3 && !(index >= 1 && index <= 255)) color = { aci: v & 0xff };
    else if (top === 0xc0) color = { aci: 256 };
    else if (top === 0xc1) color = { aci: 0 };
    else if (top === 0x01 && (v & 0xffffff) === 0) transparency = 0x01000000;
    else if (top === 0x02 && (v & 0xffff00) === 0) transparency = v;
  }
  if (transparency === undefined && alphaType === 1) transparency = 0x01000000;
  else if (transparency === undefined && (alphaType === 2 || alphaType === 3)) transparency = 0x02000000 | alpha;
  return { color, transparency };
}
