/** Types this reader does not model: UNKNOWN with the DXF type and its proxy graphics. */
import type { Entity } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function unknown(r: DxfRecord): Entity {
  const e: Entity = mk(r, { type: 'UNKNOWN', dxfType: r.type });
  const graphics = proxyGraphics(r);
  if (graphics) e.graphics = graphics;
  return e;
}

/**
 * The proxy entity graphics of an entity this reader does not model (ACAD_PROXY_ENTITY, R13's
 * AcDbZombieEntity, custom types such as TCH_WALL): the 310 groups right after the byte count (92,
 * or 160 in some writers), joined. Later 310 runs (the object data after 93 / 161 / 162) are not
 * graphics. Undefined when there is none or it is shorter than the metafile header.
 */
function proxyGraphics(r: DxfRecord): string | undefined {
  const { codes, vals } = r;
  const end = r.length;
  for (let i = 0; i + 1 < end; i++) {
    const c = codes[i];
    if ((c !== 92 && c !== 160) || codes[i + 1] !== 310) continue;
    const size = asNum(vals[i]);
    const parts: string[] = [];
    let j = i + 1;
    for (; j < end && codes[j] === 310; j++) parts.push(asStr(vals[j]).trim());
    let hex = parts.join('');
    if (size > 0 && hex.length > size * 2) hex = hex.slice(0, size * 2);
    return hex.length >= 16 ? hex : undefined;
  }
  return undefined;
}
