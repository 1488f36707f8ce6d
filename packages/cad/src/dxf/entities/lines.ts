/** The simple curves: LINE, POINT, CIRCLE, ARC, ELLIPSE, XLINE and RAY. */
import type { Entity } from '../../model';
import type { DxfRecord } from '../record';
import { mk } from './base';

export function line(r: DxfRecord): Entity {
  return mk(r, { type: 'LINE', start: r.pt(10), end: r.pt(11) });
}

export function point(r: DxfRecord): Entity {
  return mk(r, { type: 'POINT', position: r.pt(10), angle: r.num(50) });
}

export function circle(r: DxfRecord): Entity {
  return mk(r, { type: 'CIRCLE', center: r.pt(10), radius: r.num(40) });
}

export function arc(r: DxfRecord): Entity {
  return mk(r, { type: 'ARC', center: r.pt(10), radius: r.num(40), startAngle: r.num(50), endAngle: r.num(51, 360) });
}

export function ellipse(r: DxfRecord): Entity {
  return mk(r, {
    type: 'ELLIPSE',
    center: r.pt(10),
    majorAxis: r.pt(11, [1, 0, 0]),
    ratio: r.num(40, 1),
    startParam: r.num(41),
    endParam: r.num(42, Math.PI * 2),
  });
}

/** XLINE and RAY: a base point and a direction. */
export function xline(r: DxfRecord, type: 'XLINE' | 'RAY'): Entity {
  return mk(r, { type, base: r.pt(10), direction: r.pt(11, [1, 0, 0]) });
}
