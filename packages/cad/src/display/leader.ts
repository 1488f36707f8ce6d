/**
 * LEADER (straight or spline path through its WCS vertices, arrowhead at the first vertex sized by
 * its dimension style) and MULTILEADER (leader lines to the landing point, dogleg, arrowheads, and
 * the MTEXT or block content).
 */
import type { LeaderEntity, MLeaderEntity, Vec3 } from '../model';
import type { DrawContext, EntityHandler } from './context';
import { fitPointCurve } from './curves';
import { arrowOf, blockRecordName, dimScale, dimVars, drawArrow, virtualMText, wcsToOcs, type Arrow } from './dimension';
import { multiply, translation, type Mat } from './matrix';

export const drawLeader: EntityHandler<LeaderEntity> = (e, ctx) => {
  const pts = dedupe(e.vertices);
  if (pts.length < 2) return;
  const v = dimVars(ctx.drawing, e.style);
  const clrd = v.num(176);
  const style = clrd > 0 && clrd <= 256 ? ctx.styleWith(e, { aci: clrd }) : ctx.style(e);
  const dashes = ctx.dashes(e);
  if (e.pathType === 1 && pts.length > 2) {
    const tol = Math.max(ctx.tolerance(ctx.matrix), 1e-12);
    let len = 0;
    for (let i = 1; i < pts.length; i++) len += dist(pts[i]!, pts[i - 1]!);
    const perSpan = Math.max(4, Math.min(64, Math.ceil(Math.sqrt(len / (pts.length - 1) / tol))));
    ctx.stroke3(style, ctx.matrix, fitPointCurve(pts, perSpan, false), false, { dashes });
  } else ctx.stroke3(style, ctx.matrix, pts.flat(), false, { dashes });
  if (!e.arrowhead) return;
  const size = v.num(41) * dimScale(v);
  const first = pts[0]!, second = pts[1]!;
  // No room for an arrowhead on a very short first segment.
  if (dist(first, second) < size) return;
  arrowAt(ctx, e, style, first, second, size, arrowOf(ctx.drawing, v.str(341)));
};

export const drawMLeader: EntityHandler<MLeaderEntity> = (e, ctx) => {
  const style = ctx.style(e);
  const textHeight = e.textHeight && e.textHeight > 0 ? e.textHeight : 0;
  const size = e.arrowSize && e.arrowSize > 0 ? e.arrowSize : textHeight || 1;
  const arrow: Arrow = { kind: 'closed-filled' };
  for (const l of e.leaders) {
    for (const line of l.lines) {
      const pts = dedupe(l.lastPoint ? [...line.vertices, l.lastPoint] : line.vertices);
      if (pts.length < 2) continue;
      ctx.stroke3(style, ctx.matrix, pts.flat(), false);
      if (dist(pts[0]!, pts[1]!) >= size) arrowAt(ctx, e, style, pts[0]!, pts[1]!, size, arrow);
    }
    // The landing (dogleg) from the connection point towards the content.
    const dv = l.doglegVector;
    if (l.lastPoint && dv && l.doglegLength > 0) {
      const n = Math.hypot(dv[0], dv[1], dv[2]);
      if (n > 0) {
        const k = l.doglegLength / n;
        const p = l.lastPoint;
        ctx.stroke3(style, ctx.matrix, [...p, p[0] + dv[0] * k, p[1] + dv[1] * k, p[2] + dv[2] * k], false);
      }
    }
  }
  if (e.text && e.textPosition) {
    const dir = e.textDirection;
    const rotation = dir && (dir[0] || dir[1]) ? (Math.atan2(dir[1], dir[0]) * 180) / Math.PI : 0;
    ctx.drawEntity(
      virtualMText(e, {
        text: e.text,
        insertion: wcsToOcs(e.extrusion, e.textPosition),
        height: textHeight || size,
        rotation,
        attachment: 1,
        style: 'STANDARD',
        ...(e.textWidth && e.textWidth > 0 ? { width: e.textWidth } : {}),
      }),
    );
  }
  const block = blockRecordName(ctx.drawing, e.blockHandle);
  if (block && e.blockPosition) {
    const p = e.blockPosition;
    ctx.drawBlock(block, multiply(ctx.matrix, translation(p[0], p[1], p[2])), e);
  }
};

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function dedupe(pts: Vec3[]): Vec3[] {
  const out: Vec3[] = [];
  for (const p of pts) {
    if (!p.every(Number.isFinite)) continue;
    const q = out[out.length - 1];
    if (q && dist(p, q) === 0) continue;
    out.push(p);
  }
  return out;
}

/** An arrowhead at `tip` pointing away from `from` (both WCS), in the plane z = tip's z. */
function arrowAt(ctx: DrawContext, owner: LeaderEntity | MLeaderEntity, style: number, tip: Vec3, from: Vec3, size: number, arrow: Arrow): void {
  const dx = tip[0] - from[0], dy = tip[1] - from[1];
  const l = Math.hypot(dx, dy);
  if (!(l > 0)) return;
  const m: Mat = tip[2] ? multiply(ctx.matrix, translation(0, 0, tip[2])) : ctx.matrix;
  drawArrow(ctx, owner, style, m, [tip[0], tip[1]], [dx / l, dy / l], size, arrow);
}
