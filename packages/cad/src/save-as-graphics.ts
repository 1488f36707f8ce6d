/**
 * The save-as graphic lowering (decision 0037): an object a DXF/DWG version cannot hold
 * (MULTILEADER, a table without its block, a custom object with proxy graphics) is drawn by the
 * display's own handler into a context that keeps what is drawn as entities instead of pixels:
 * strokes become polylines, fills solid hatches, block references INSERTs, virtual entities (the
 * MULTILEADER's MTEXT and block content) themselves, runs of text TEXT (so an R12 MTEXT too:
 * wrapped, aligned and coloured as drawn). So the lowered object looks
 * as our renderer draws the original: frames, arrowheads, landings and all.
 *
 * It sits above the display floor and the writers (which never import the display, decision
 * 0032); the writers take it as `WriteDxfOptions.graphics` / `WriteDwgOptions.graphics`.
 */
import type { Drawing, Entity, EntityBase, HatchEntity, InsertEntity, LwPolylineEntity, PolylineEntity, TextEntity } from './model';
import type { Vec3 } from './geom/vector';
import { apply3, isDefaultExtrusion, multiply, ocsToWcs, scaleOf, translation, IDENTITY, type Mat } from './geom/matrix';
import type { DashPattern, DrawContext, FillOptions } from './display/context';
import { drawDimension } from './display/dimension';
import { drawImage } from './display/image';
import { drawLeader, drawMLeader } from './display/leader';
import { drawProxyGraphics } from './display/proxy';
import { drawTable } from './display/table';
import { drawTolerance } from './display/tolerance';
import { drawShape } from './display/shapes';
import { drawOle2Frame } from './display/ole';
import type { BuildWarning, TextPrimitive } from './display/types';
import { drawMText } from './display/text';
import { defaultFontProvider, type FontProvider, type FontRef, type ResolvedFont } from './text/fonts';
import { chordTolerance } from './dxf-writer/writer';
import type { GraphicsLowering } from './dxf-writer/lower';

/** Entity properties a drawn style stands for (the owner's layer, colour, linetype, lineweight). */
type Props = Pick<EntityBase, 'layer' | 'color' | 'linetype' | 'ltscale' | 'lineweight' | 'paperSpace' | 'transparency'>;

const near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The fonts the display lays text out with, each remembered by its reference (for the cap height
 * a TEXT's height is), and shape fonts handed out without their glyphs: so text comes as lines of
 * text, never as the strokes of its characters.
 */
const fontKey = (r: FontRef): string => [r.requested, r.family, r.file ?? '', r.face ?? ''].join('\u0000');

class TextFonts implements FontProvider {
  private readonly caps = new Map<string, number>();
  constructor(private readonly base: FontProvider) {}
  /** The cap height (a fraction of the em) of a font handed out. */
  capHeight(ref: FontRef): number {
    return this.caps.get(fontKey(ref)) ?? 0.72;
  }
  private keep(f: ResolvedFont): ResolvedFont {
    this.caps.set(fontKey(f.ref), f.capHeight > 0 ? f.capHeight : 0.72);
    if (!f.glyph) return f;
    const { glyph: _glyph, ...rest } = f;
    return rest;
  }
  resolve(style: Parameters<FontProvider['resolve']>[0], text: string): ResolvedFont {
    return this.keep(this.base.resolve(style, text));
  }
  missing(): string[] {
    return this.base.missing();
  }
  substitutions(): ReturnType<FontProvider['substitutions']> {
    return this.base.substitutions();
  }
  missingCharacters(): string[] {
    return this.base.missingCharacters();
  }
  shapeFile(name: string): ReturnType<NonNullable<FontProvider['shapeFile']>> {
    return this.base.shapeFile?.(name);
  }
  runs(...args: Parameters<NonNullable<FontProvider['runs']>>): ReturnType<NonNullable<FontProvider['runs']>> {
    const runs = this.base.runs ? this.base.runs(...args) : [{ text: args[1], font: this.base.resolve(args[0], args[1]) }];
    return runs.map((r) => ({ text: r.text, font: this.keep(r.font) }));
  }
}

class CaptureContext implements DrawContext {
  readonly matrix: Mat = IDENTITY;
  readonly out: Entity[] = [];
  private readonly styles: Props[] = [];

  constructor(
    readonly drawing: Drawing,
    readonly fonts: TextFonts,
    readonly paperSpace: boolean,
    private readonly tol: number,
    /** The text style TEXT lines are written in (the lowered object's own). */
    private readonly textStyle: string,
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

  /**
   * A run of text as TEXT: its matrix gives the baseline start, direction, obliquing and width
   * factor; the height is the em size times the font's cap height.
   */
  text(t: Omit<TextPrimitive, 'kind' | 'font'>, font: FontRef): void {
    const [a, b, c, d, x, y] = t.matrix;
    const sx = Math.hypot(a, b);
    if (!t.text.trim() || !(sx > 0)) return;
    // The y axis split along the baseline (obliquing) and across it (height; negative: mirrored).
    const along = (a * c + b * d) / sx;
    const across = (a * d - b * c) / sx;
    if (!(Math.abs(across) > 0)) return;
    const text: TextEntity = {
      ...this.base(t.style),
      type: 'TEXT',
      text: t.text,
      insertion: [x, y, 0],
      height: t.size * Math.abs(across) * this.fonts.capHeight(font),
      rotation: (Math.atan2(b, a) * 180) / Math.PI,
      widthFactor: sx / Math.abs(across),
      oblique: (Math.atan2(along, Math.abs(across)) * 180) / Math.PI,
      style: this.textStyle,
      halign: 0,
      valign: 0,
      generation: across < 0 ? 4 : 0,
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
 * display handlers (and in R12 MTEXT, LEADER and IMAGE's frame), a custom object by its proxy graphics. Null when there is nothing to draw.
 */
export function graphicsLowering(drawing: Drawing, fonts: FontProvider = defaultFontProvider()): GraphicsLowering {
  const tol = chordTolerance(drawing);
  const textFonts = new TextFonts(fonts);
  return {
    draw(e: Entity): Entity[] | null {
      const ctx = new CaptureContext(drawing, textFonts, e.paperSpace, tol, e.type === 'MTEXT' ? e.style : 'Standard');
      let drawn = true;
      if (e.type === 'MULTILEADER') drawMLeader(e, ctx);
      // R12: laid out as drawn (wrapped at its width, columns, alignment), one TEXT per run.
      else if (e.type === 'MTEXT') drawMText(e, ctx);
      else if (e.type === 'ACAD_TABLE') drawTable(e, ctx);
      // R12 keeps a dimension as a reference to its block: one without a block is drawn from its points.
      else if (e.type === 'DIMENSION') drawDimension(e, ctx);
      // R12: a leader as drawn (its spline path, arrowhead and hook line), an image as its frame.
      else if (e.type === 'LEADER') drawLeader(e, ctx);
      else if (e.type === 'IMAGE') drawImage(e, ctx);
      // No encoding of their own in the writers: drawn as the display draws them.
      else if (e.type === 'TOLERANCE') drawTolerance(e, ctx);
      else if (e.type === 'SHAPE') drawShape(e, ctx);
      else if (e.type === 'OLE2FRAME') drawOle2Frame(e, ctx);
      else if (e.type === 'UNKNOWN') drawn = e.graphics !== undefined && drawProxyGraphics(e, ctx);
      else return null;
      return drawn && ctx.out.length ? ctx.out : null;
    },
  };
}
