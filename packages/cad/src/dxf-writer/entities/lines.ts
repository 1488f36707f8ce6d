/** The simple curves: LINE, POINT, CIRCLE, ARC, ELLIPSE, XLINE and RAY; and TOLERANCE, a frame placed by a point and a direction. */
import type { EntityOf } from '../../model';
import type { Groups } from '../encode';
import { common, dimstyle, extrusion, sub, thickness, type EntityWriterContext } from './common';

export function writeLine(w: EntityWriterContext, out: Groups, e: EntityOf<'LINE'>, owner: string, paper: boolean): void {
  common(w, out, e, 'LINE', owner, paper);
  sub(w, out, 'AcDbLine');
  thickness(out, e);
  out.pt(10, e.start).pt(11, e.end);
  extrusion(out, e);
}

export function writePoint(w: EntityWriterContext, out: Groups, e: EntityOf<'POINT'>, owner: string, paper: boolean): void {
  common(w, out, e, 'POINT', owner, paper);
  sub(w, out, 'AcDbPoint');
  out.pt(10, e.position);
  thickness(out, e);
  extrusion(out, e);
  if (e.angle) out.g(50, e.angle);
}

export function writeCircle(w: EntityWriterContext, out: Groups, e: EntityOf<'CIRCLE' | 'ARC'>, owner: string, paper: boolean): void {
  common(w, out, e, e.type, owner, paper);
  sub(w, out, 'AcDbCircle');
  thickness(out, e);
  out.pt(10, e.center).g(40, e.radius);
  extrusion(out, e);
  if (e.type === 'ARC') {
    sub(w, out, 'AcDbArc');
    out.g(50, e.startAngle).g(51, e.endAngle);
  }
}

export function writeEllipse(w: EntityWriterContext, out: Groups, e: EntityOf<'ELLIPSE'>, owner: string, paper: boolean): void {
  common(w, out, e, 'ELLIPSE', owner, paper);
  sub(w, out, 'AcDbEllipse');
  out.pt(10, e.center).pt(11, e.majorAxis).pt(210, e.extrusion).g(40, e.ratio).g(41, e.startParam).g(42, e.endParam);
}

export function writeXline(w: EntityWriterContext, out: Groups, e: EntityOf<'XLINE' | 'RAY'>, owner: string, paper: boolean): void {
  common(w, out, e, e.type, owner, paper);
  sub(w, out, e.type === 'XLINE' ? 'AcDbXline' : 'AcDbRay');
  out.pt(10, e.base).pt(11, e.direction);
}

/** A feature control frame (R13 and later): its dimension style, place, direction and text as read. */
export function writeTolerance(w: EntityWriterContext, out: Groups, e: EntityOf<'TOLERANCE'>, owner: string, paper: boolean): void {
  common(w, out, e, 'TOLERANCE', owner, paper);
  sub(w, out, 'AcDbFcf');
  dimstyle(w, out, e.style);
  out.pt(10, e.insertion).g(1, e.text).pt(11, e.direction);
  extrusion(out, e);
}
