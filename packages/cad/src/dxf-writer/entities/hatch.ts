/** HATCH: boundary paths, pattern definition lines, gradient (2004+). */
import { nearestAci } from '../../geom/color';
import type { HatchEntity } from '../../model';
import type { Groups } from '../encode';
import { common, sub, type EntityWriterContext } from './common';

export function writeHatch(w: EntityWriterContext, out: Groups, e: HatchEntity, owner: string, paper: boolean): void {
  common(w, out, e, 'HATCH', owner, paper);
  sub(w, out, 'AcDbHatch');
  out
    .pt(10, [0, 0, e.elevation])
    .pt(210, e.extrusion)
    .g(2, e.pattern || (e.solid ? 'SOLID' : 'ANSI31'));
  out
    .g(70, e.solid ? 1 : 0)
    .g(71, 0)
    .g(91, e.paths.length);
  for (const path of e.paths) {
    if (path.polyline) {
      const vs = path.polyline.vertices;
      const bulges = vs.some((v) => v.bulge);
      out
        .g(92, path.flags | 2)
        .g(72, bulges ? 1 : 0)
        .g(73, path.polyline.closed ? 1 : 0)
        .g(93, vs.length);
      for (const v of vs) {
        out.g(10, v.x).g(20, v.y);
        if (bulges) out.g(42, v.bulge);
      }
    } else {
      out.g(92, path.flags & ~2).g(93, path.edges.length);
      for (const ed of path.edges) {
        if (ed.kind === 'line') out.g(72, 1).pt(10, ed.start, true).pt(11, ed.end, true);
        else if (ed.kind === 'arc')
          out
            .g(72, 2)
            .pt(10, ed.center, true)
            .g(40, ed.radius)
            .g(50, ed.startAngle)
            .g(51, ed.endAngle)
            .g(73, ed.ccw ? 1 : 0);
        else if (ed.kind === 'ellipse')
          out
            .g(72, 3)
            .pt(10, ed.center, true)
            .pt(11, ed.majorAxis, true)
            .g(40, ed.ratio)
            .g(50, ed.startAngle)
            .g(51, ed.endAngle)
            .g(73, ed.ccw ? 1 : 0);
        else {
          const rational = ed.rational && ed.weights.length === ed.controlPoints.length;
          out
            .g(72, 4)
            .g(94, ed.degree)
            .g(73, rational ? 1 : 0)
            .g(74, ed.periodic ? 1 : 0)
            .g(95, ed.knots.length)
            .g(96, ed.controlPoints.length);
          for (const k of ed.knots) out.g(40, k);
          ed.controlPoints.forEach((c, i) => {
            out.pt(10, c, true);
            if (rational) out.g(42, ed.weights[i] ?? 1);
          });
          if (w.year >= 2010) {
            out.g(97, ed.fitPoints.length);
            for (const f of ed.fitPoints) out.pt(11, f, true);
          }
        }
      }
    }
    out.g(97, 0);
  }
  out.g(75, e.style).g(76, e.patternType);
  if (!e.solid) {
    out
      .g(52, e.patternAngle)
      .g(41, e.patternScale || 1)
      .g(77, e.patternDouble ? 1 : 0)
      .g(78, e.patternLines.length);
    for (const l of e.patternLines) {
      out.g(53, l.angle).g(43, l.base[0]).g(44, l.base[1]).g(45, l.offset[0]).g(46, l.offset[1]).g(79, l.dashes.length);
      for (const dash of l.dashes) out.g(49, dash);
    }
  }
  out.g(98, 0);
  const gr = e.gradient;
  if (gr && w.year >= 2004) {
    out
      .g(450, 1)
      .g(451, 0)
      .g(452, gr.singleColor ? 1 : 0)
      .g(453, gr.colors.length)
      .g(460, gr.angle)
      .g(461, gr.shift)
      .g(462, gr.tint);
    gr.colors.forEach((c, i) => {
      out.g(463, i ? 1 : 0);
      if (c.rgb !== undefined) out.g(63, nearestAci(c.rgb)).g(421, c.rgb);
      else out.g(63, c.aci ?? 7);
    });
    out.g(470, gr.name);
  }
}
