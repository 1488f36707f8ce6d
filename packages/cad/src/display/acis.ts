/**
 * 3DSOLID, REGION, BODY and the surfaces, drawn as AutoCAD's 2D wireframe shows them: every edge of
 * the modeler data (acis-data.ts) in world coordinates, projected by the view, in the entity's
 * colour, layer, linetype and lineweight. A region is its boundary only: the 2D wireframe does not
 * fill it. Modeler data that cannot be read leaves the entity out, with the reason in the notice.
 */
import type { AcisEntity } from '../model';
import type { Vec3 } from '../geom/vector';
import { deBoor } from '../geom/spline';
import { AcisError, acisWire, type AcisCurve, type AcisWire } from './acis-data';
import type { DrawContext } from './context';

/** Read once per entity: a block with a solid drawn many times, several layouts. */
const WIRES = new WeakMap<AcisEntity, AcisWire | string>();

/** The edges of an entity, or why there are none. */
export function acisEdges(e: AcisEntity): AcisWire | string {
  let w = WIRES.get(e);
  if (w === undefined) {
    try {
      w = acisWire(e.sat, e.sab);
      if (!w.curves.length) w = w.missing ? 'its edges have no readable curves' : 'its modeler data holds no edges';
    } catch (err) {
      // A RangeError or TypeError from damaged data is a reason like any other, never a crash.
      w = err instanceof AcisError ? err.message : `its modeler data is damaged (${(err as Error).message})`;
    }
    WIRES.set(e, w);
  }
  return w;
}

/** Strokes the edges; false when there is nothing to draw. */
export function strokeAcis(e: AcisEntity, ctx: DrawContext): boolean {
  const w = acisEdges(e);
  if (typeof w === 'string') return false;
  const style = ctx.style(e);
  const dashes = ctx.dashes(e);
  for (const c of w.curves) {
    const pts = curvePoints(c, ctx);
    if (pts.length >= 6) ctx.stroke3(style, ctx.matrix, pts, false, { dashes });
  }
  return true;
}

/** What the builder adds to the DrawContext that this handler uses (handlers.ts's BuildContext has it). */
interface Counting extends DrawContext {
  count(type: string): void;
  skip(type: string): void;
}

export function drawAcis(e: AcisEntity, ctx: Counting): boolean {
  if (strokeAcis(e, ctx)) {
    ctx.count(e.dxfType);
    return false;
  }
  const why = acisEdges(e);
  ctx.skip(e.dxfType);
  ctx.warn({ code: 'unsupported-entity', subject: e.dxfType, message: `${e.dxfType} not drawn: ${typeof why === 'string' ? why : ''}` });
  return false;
}

function curvePoints(c: AcisCurve, ctx: DrawContext): number[] {
  switch (c.kind) {
    case 'line':
      return [...c.a, ...c.b];
    case 'ellipse': {
      const r = Math.max(Math.hypot(...c.major), Math.hypot(...c.minor));
      const sweep = c.t1 - c.t0;
      const segs = Math.max(2, ctx.arcSegments(r, sweep, ctx.matrix));
      const out = new Array<number>((segs + 1) * 3);
      for (let i = 0; i <= segs; i++) {
        const t = c.t0 + (sweep * i) / segs;
        const co = Math.cos(t),
          si = Math.sin(t);
        out[3 * i] = c.center[0] + co * c.major[0] + si * c.minor[0];
        out[3 * i + 1] = c.center[1] + co * c.major[1] + si * c.minor[1];
        out[3 * i + 2] = c.center[2] + co * c.major[2] + si * c.minor[2];
      }
      return out;
    }
    case 'spline': {
      // Segments from the control polygon's length against the tolerance, as SPLINE does.
      let len = 0;
      for (let i = 1; i < c.ctrl.length; i++) {
        const a = c.ctrl[i - 1] as Vec3,
          b = c.ctrl[i] as Vec3;
        len += Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      }
      const tol = Math.max(ctx.tolerance(ctx.matrix), 1e-12);
      const spans = Math.max(1, c.ctrl.length - c.degree);
      const segs = Math.min(4096, Math.max(spans * 4, Math.ceil(Math.sqrt(len / tol) * 0.8 * Math.sqrt(spans))));
      const out: number[] = [];
      for (let i = 0; i <= segs; i++) out.push(...deBoor(c.t0 + ((c.t1 - c.t0) * i) / segs, c.degree, c.knots, c.ctrl, c.weights));
      return out;
    }
  }
}
