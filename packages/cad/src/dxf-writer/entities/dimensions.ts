/** DIMENSION (its subclass by type) and LEADER. */
import type { DimensionEntity, EntityOf } from '../../model';
import type { Groups } from '../encode';
import { common, dimstyle, extrusion, sub, type EntityWriterContext } from './common';

export function writeDimension(w: EntityWriterContext, out: Groups, e: DimensionEntity, owner: string, paper: boolean): void {
  common(w, out, e, 'DIMENSION', owner, paper);
  sub(w, out, 'AcDbDimension');
  out
    .g(2, e.block)
    .pt(10, e.defPoint)
    .pt(11, e.textMidpoint)
    .g(70, e.flags)
    .g(71, e.attachment || 5)
    .g(1, e.text);
  if (e.textRotation) out.g(53, e.textRotation);
  dimstyle(w, out, e.style);
  if (e.measurement !== undefined) out.g(42, e.measurement);
  extrusion(out, e);
  const p = e.defPoints;
  const pts = (...codes: (12 | 13 | 14 | 15 | 16)[]): void => {
    for (const c of codes) out.pt(c, p[`p${c}`] ?? [0, 0, 0]);
  };
  switch (e.dimType) {
    case 0:
    case 1:
      out.g(100, 'AcDbAlignedDimension');
      pts(13, 14);
      if (e.dimType === 0) out.g(50, e.angle).g(100, 'AcDbRotatedDimension');
      break;
    case 2:
      out.g(100, 'AcDb2LineAngularDimension');
      pts(13, 14, 15, 16);
      break;
    case 3:
    case 4:
      out.g(100, e.dimType === 3 ? 'AcDbDiametricDimension' : 'AcDbRadialDimension');
      pts(15);
      out.g(40, 0);
      break;
    case 5:
      out.g(100, 'AcDb3PointAngularDimension');
      pts(13, 14, 15);
      break;
    default:
      out.g(100, 'AcDbOrdinateDimension');
      pts(13, 14);
  }
}

export function writeLeader(w: EntityWriterContext, out: Groups, e: EntityOf<'LEADER'>, owner: string, paper: boolean): void {
  common(w, out, e, 'LEADER', owner, paper);
  sub(w, out, 'AcDbLeader');
  dimstyle(w, out, e.style);
  out
    .g(71, e.arrowhead ? 1 : 0)
    .g(72, e.pathType)
    .g(73, e.annotationType ?? 3);
  if (e.hooklineDirection !== undefined) out.g(74, e.hooklineDirection);
  if (e.hookline !== undefined) out.g(75, e.hookline ? 1 : 0);
  if (e.textHeight !== undefined) out.g(40, e.textHeight);
  if (e.textWidth !== undefined) out.g(41, e.textWidth);
  out.g(76, e.vertices.length);
  for (const v of e.vertices) out.pt(10, v);
  if (e.blockColor !== undefined) out.g(77, e.blockColor);
  extrusion(out, e);
  if (e.horizontalDirection) out.pt(211, e.horizontalDirection);
}
