/** The simple curves: LINE (and R11's 3DLINE), POINT, CIRCLE, ARC, ELLIPSE, XLINE and RAY. */
import type { Entity } from '@xcad/cad/model';
import { RAD2DEG } from '../access';
import { T } from '../types';
import type { EntityContext, Owner } from './context';

const TWO_PI = Math.PI * 2;

export function line(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return { ...r.base(obj, tio, type, owner), type: 'LINE', start: a.p3(tio, type, 'start'), end: a.p3(tio, type, 'end') };
}

export function point(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return {
    ...r.base(obj, tio, type, owner),
    type: 'POINT',
    position: [a.d(tio, type, 'x'), a.d(tio, type, 'y'), a.d(tio, type, 'z')],
    angle: a.d(tio, type, 'x_ang') * RAD2DEG,
  };
}

export function circle(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return { ...r.base(obj, tio, type, owner), type: 'CIRCLE', center: a.p3(tio, type, 'center'), radius: a.d(tio, type, 'radius') };
}

export function arc(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return {
    ...r.base(obj, tio, type, owner),
    type: 'ARC',
    center: a.p3(tio, type, 'center'),
    radius: a.d(tio, type, 'radius'),
    startAngle: a.d(tio, type, 'start_angle') * RAD2DEG,
    endAngle: a.d(tio, type, 'end_angle') * RAD2DEG,
  };
}

export function ellipse(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  const end = a.d(tio, type, 'end_angle', TWO_PI);
  return {
    ...r.base(obj, tio, type, owner),
    type: 'ELLIPSE',
    center: a.p3(tio, type, 'center'),
    majorAxis: a.p3(tio, type, 'sm_axis'),
    ratio: a.d(tio, type, 'axis_ratio', 1),
    startParam: a.d(tio, type, 'start_angle'),
    endParam: end,
  };
}

/** XLINE and RAY: a base point and a direction. */
export function xline(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): Entity {
  const a = r.a;
  return {
    ...r.base(obj, tio, type, owner),
    type: type === T.XLINE ? 'XLINE' : 'RAY',
    base: a.p3(tio, type, 'point'),
    direction: a.p3(tio, type, 'vector', [1, 0, 0]),
  };
}
