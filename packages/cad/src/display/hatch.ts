/** HATCH (placeholder: solid fills and boundaries only). */
import type { HatchEntity } from '../model';
import type { EntityHandler } from './context';
import { polylinePoints } from './curves';

export const drawHatch: EntityHandler<HatchEntity> = (e, ctx) => {
  const m = ctx.ocs(e, e.elevation);
  const rings: number[][] = [];
  for (const p of e.paths) {
    if (p.polyline) rings.push(polylinePoints(p.polyline.vertices.map((v) => ({ ...v, startWidth: 0, endWidth: 0 })), p.polyline.closed, ctx, m));
    else {
      const r: number[] = [];
      for (const ed of p.edges) if (ed.kind === 'line') r.push(...ed.start, ...ed.end);
      if (r.length) rings.push(r);
    }
  }
  const style = ctx.style(e);
  if (e.solid) ctx.fill(style, m, rings);
  else for (const r of rings) ctx.stroke(style, m, r, true);
};
