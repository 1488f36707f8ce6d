/**
 * The save-as graphic lowering (decision 0037): an object a DXF/DWG version cannot hold
 * (MULTILEADER, a table without its block, a custom object with proxy graphics) is drawn by the
 * display's own handler into a context that keeps what is drawn as entities instead of pixels:
 * strokes become polylines, fills solid hatches, block references INSERTs, virtual entities (the
 * MULTILEADER's MTEXT and block content) themselves, text lines TEXT. So the lowered object looks
 * as our renderer draws the original: frames, arrowheads, landings and all.
 *
 * It sits above the display floor and the writers (which never import the display, decision
 * 0032); the writers take it as `WriteDxfOptions.graphics` / `WriteDwgOptions.graphics`.
 */
import type { Drawing, Entity, EntityBase, HatchEntity, InsertEntity, LwPolylineEntity, PolylineEntity, TextEntity } from './model';
import type { Vec3 } from './geom/vector';
import { apply3, isDefaultExtrusion, multiply, ocsToWcs, scaleOf, translation, IDENTITY, type Mat } from './geom/matrix';
import type { DashPattern, DrawContext, FillOptions } from './display/context';
import { drawMLeader } from './display/leader';
import { drawProxyGraphics } from './display/proxy';
import { drawTable } from './display/table';
import type { BuildWarning, TextPrimitive } from './display/types';
import { defaultFontProvider, type FontProvider, type FontRef } from './text/fonts';
import { chordTolerance } from './dxf-writer/writer';
import type { GraphicsLowering } from './dxf-writer/lower';

/** Entity properties a drawn style stands for (the owner's layer, colour, linetype, lineweight). */
type Props = Pick<EntityBase, 'layer' | 'color' | 'linetype' | 'ltscale' | 'lineweight' | 'paperSpace' | 'transparency'>;

const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

class CaptureContext implements DrawContext {
  readonly matrix: Mat = IDENTITY;
  readonly out: Entity[] = [];
  private readonly styles: Props[] = [];

  constructor(
    readonly drawing: Drawing,
    readonly fonts: FontProvider,
    readonly paperSpace: boolean,
    private readonly tol: number,
  ) {}

  private base(style: number): EntityBase {
    const p = this.styles[style] ?? this.styles[0];
    const b: EntityBase = {
      layer: p?.layer ?? '0',
      color: { ...(p?.color ?? { aci: 256 }) },
      linetype: p?.linetype ?? 'BYLAYER',
      ltscale: p?.ltscale ?? 1,
      lineweight: p?.lineweight ?? -1,
      visible: true,
      extrusion: [0, 0, 1],
      paperSpace: this.paperSpace,
    };
    if (p?.transparency !== undefined) b.transparency = p.transparency;
    return b;
  }

  ocs(e: EntityBase, elevation = 0): Mat {
    if (isDefaultExtrusion(e.extrusion)) return elevation ? translation(0, 0, elevation) : this.matrix;
    return multiply(ocsToWcs(e.extrusion), translation(0, 0, elevation));
  }
  style(e: EntityBase): number {
    return this.styleWith(e, e.color);
  }
  styleWith(e: EntityBase, color: { aci?: number; rgb?: number }): number {
    const p: Props = {
      layer: e.layer,
      color: { ...color },
      linetype: e.linetype,
      ltscale: e.ltscale,
      lineweight: e.lineweight,
      paperSpace: e.paperSpace,
    };
    if (e.transparency !== undefined) p.transparency = e.transparency;
    this.styles.push(p);
    return this.styles.length - 1;
  }
  /** Continuous: the entities written keep their linetype, and whoever draws them dashes them. */
  dashes(): DashPattern | null {
    return null;
  }
  tolerance(m: Mat): number {
    return this.tol / (scaleOf(m) || 1);
  }
  arcSegments(radius: number, sweep: number, m: Mat): number {
    const r = Math.abs(radius);
    const tol = this.tolerance(m);
    const full = r <= tol ? 8 : Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - tol / r)));
    return Math.max(1, Math.ceil((Math.min(Math.max(full, 8), 256) * Math.abs(sweep)) / (2 * Math.PI)));
  }

  stroke(style: number, m: Mat, xy: ArrayLike<number>, closed: boolean): void {
    const pts: Vec3[] = [];
    for (let i = 0; i + 1 < xy.length; i += 2) pts.push(apply3(m, xy[i] as number, xy[i + 1] as number, 0));
    this.polyline(style, pts, closed);
  }
  stroke3(style: number, m: Mat, xyz: ArrayLike<number>, closed: boolean): void {
    const pts: Vec3[] = [];
    for (let i = 0; i + 2 < xyz.length; i += 3) pts.push(apply3(m, xyz[i] as number, xyz[i + 1] as number, xyz[i + 2] as number));
    this.polyline(style, pts, closed);
  }

  private polyline(style: number, raw: Vec3[], closed: boolean): void {
    const pts = raw.filter((p, i) => p.every(Number.isFinite) && (i === 0 || !samePoint(p, raw[i - 1] as Vec3)));
    if (closed && pts.length > 2 && samePoint(pts[0] as Vec3, pts[pts.length - 1] as Vec3)) pts.pop();
    if (pts.length < 2) return;
    const z = (pts[0] as Vec3)[2];
    if (pts.every((p) => near(p[2], z))) {
      const lw: LwPolylineEntity = {
        ...this.base(style),
        type: 'LWPOLYLINE',
        vertices: pts.map((p) => ({ x: p[0], y: p[1], bulge: 0, startWidth: 0, endWidth: 0 })),
        closed,
        plinegen: true,
        constantWidth: 0,
        elevation: z,
      };
      this.out.push(lw);
      return;
    }
    const pl: PolylineEntity = {
      ...this.base(style),
      type: 'POLYLINE',
      kind: '3d',
      flags: 8 | (closed ? 1 : 0),
      closed,
      elevation: 0,
      defaultStartWidth: 0,
      defaultEndWidth: 0,
      m: 0,
      n: 0,
      meshClosedN: false,
      vertices: pts.map((p) => ({ position: p, bulge: 0, startWidth: 0, endWidth: 0, flags: 32 })),
      faces: [],
    };
    this.out.push(pl);
  }

  /** A filled area as a solid HATCH in the plane of its first point (wipeouts: the object's own mask is kept instead). */
  fill(style: number, m: Mat, rings: ArrayLike<number>[], options?: FillOptions): void {
    if (options?.wipeout) return;
    const paths: HatchEntity['paths'] = [];
    let z: number | undefined;
    for (const ring of rings) {
      const vertices: { x: number; y: number; bulge: number }[] = [];
      for (let i = 0; i + 1 < ring.length; i += 2) {
        const p = apply3(m, ring[i] as number, ring[i + 1] as number, 0);
        if (!p.every(Number.isFinite)) continue;
        z ??= p[2];
        vertices.push({ x: p[0], y: p[1], bulge: 0 });
      }
      if (vertices.length >= 3) paths.push({ flags: 2 | (paths.length ? 0 : 1), polyline: { vertices, closed: true }, edges: [] });
    }
    if (!paths.length) return;
    const hatch: HatchEntity = {
      ...this.base(style),
      type: 'HATCH',
      pattern: 'SOLID',
      solid: true,
      associative: false,
      elevation: z ?? 0,
      paths,
      style: 0,
      patternType: 1,
      patternAngle: 0,
      patternScale: 1,
      patternDouble: false,
      patternLines: [],
    };
    this.out.push(hatch);
  }

  /** A text line as TEXT: its matrix gives the baseline start, direction, height (the em size times the cap height) and width factor. */
  text(t: Omit<TextPrimitive, 'kind' | 'font'>, _font: FontRef): void {
    const [a, b, c, d, x, y] = t.matrix;
    const sx = Math.hypot(a, b);
    const sy = Math.hypot(c, d);
    if (!t.text.trim() || !(sx > 0) || !(sy > 0)) return;
    const size = t.size * sy;
    const text: TextEntity = {
      ...this.base(t.style),
      type: 'TEXT',
      text: t.text,
      insertion: [x, y, 0],
      height: size * 0.72,
      rotation: (Math.atan2(b, a) * 180) / Math.PI,
      widthFactor: sx / sy,
      oblique: 0,
      style: 'Standard',
      halign: 0,
      valign: 0,
      generation: a * d - b * c < 0 ? 2 : 0,
    };
    this.out.push(text);
  }

  /** A block drawn with `m`: an INSERT at the point its base point goes to, scaled and rotated as `m` is. */
  drawBlock(name: string, m: Mat, owner: EntityBase): void {
    const block = this.drawing.blocks[name] ?? Object.values(this.drawing.blocks).find((k) => k.name.toUpperCase() === name.toUpperCase());
    if (!block) return;
    const bp = block.basePoint;
    const [a = 1, b = 0, c = 0, , d = 0, e = 1, f = 0, , g = 0, h = 0, k = 1] = m;
    const sx = Math.hypot(a, d, g);
    const sy = Math.hypot(b, e, h);
    const sz = Math.hypot(c, f, k) || 1;
    const det = a * e - b * d;
    const insert: InsertEntity = {
      layer: owner.layer,
      color: { ...owner.color },
      linetype: owner.linetype,
      ltscale: owner.ltscale,
      lineweight: owner.lineweight,
      visible: true,
      extrusion: [0, 0, 1],
      paperSpace: this.paperSpace,
      type: 'INSERT',
      name: block.name,
      insertion: apply3(m, bp[0], bp[1], bp[2]),
      scale: [sx, det < 0 ? -sy : sy, sz],
      rotation: (Math.atan2(d, a) * 180) / Math.PI,
      columnCount: 1,
      rowCount: 1,
      columnSpacing: 0,
      rowSpacing: 0,
      attributes: [],
    };
    this.out.push(insert);
  }

  /** A virtual entity (in world coordinates: this context's matrix is the identity) is kept whole. */
  drawEntity(e: Entity): void {
    this.out.push(e);
  }
  keepEntity(e: Entity): boolean {
    this.out.push(e);
    return true;
  }
  warn(_w: BuildWarning): void {}
}

function samePoint(a: Vec3, b: Vec3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/**
 * The graphic lowering of one drawing: MULTILEADER and a table without its block drawn by their
 * display handlers, a custom object by its proxy graphics. Null when there is nothing to draw.
 */
export function graphicsLowering(drawing: Drawing, fonts: FontProvider = defaultFontProvider()): GraphicsLowering {
  const tol = chordTolerance(drawing);
  return {
    draw(e: Entity): Entity[] | null {
      const ctx = new CaptureContext(drawing, fonts, e.paperSpace, tol);
      let drawn = true;
      if (e.type === 'MULTILEADER') drawMLeader(e, ctx);
      else if (e.type === 'ACAD_TABLE') drawTable(e, ctx);
      else if (e.type === 'UNKNOWN') drawn = e.graphics !== undefined && drawProxyGraphics(e, ctx);
      else return null;
      return drawn && ctx.out.length ? ctx.out : null;
    },
  };
}
