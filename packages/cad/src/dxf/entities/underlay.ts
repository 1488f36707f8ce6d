/** PDFUNDERLAY, DWFUNDERLAY, DGNUNDERLAY (AcDbUnderlayReference). */
import type { UnderlayEntity } from '../../model';
import { asNum, type DxfRecord } from '../record';
import { mk } from './base';

export const UNDERLAY_TYPES = ['PDFUNDERLAY', 'DWFUNDERLAY', 'DGNUNDERLAY'] as const;

export function underlay(r: DxfRecord): UnderlayEntity {
  const clipBoundary: [number, number][] = [];
  const { codes, vals } = r;
  for (let i = 0; i < r.length; i++) {
    if (codes[i] !== 11) continue;
    const y = codes[i + 1] === 21 ? asNum(vals[i + 1]) : 0;
    clipBoundary.push([asNum(vals[i]), y]);
  }
  const e: UnderlayEntity = mk(r, {
    type: 'UNDERLAY',
    dxfType: r.type,
    insertion: r.pt(10),
    scale: [r.num(41, 1) || 1, r.num(42, 1) || 1, r.num(43, 1) || 1],
    rotation: r.num(50),
    flags: r.num(280, 2),
    contrast: r.num(281, 100),
    fade: r.num(282),
    clipBoundary,
  });
  const def = r.str(340);
  if (def) e.defHandle = def;
  return e;
}
