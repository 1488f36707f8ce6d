/**
 * Entities of the drawing model → DWG entity objects (R2000 to R2018 encodings): the common
 * entity data (mode, links, colour, linetype, lineweight), each type's fields in the order the
 * format fixes for the release, and the handle references. Angles go from the model's degrees to
 * radians. Strings go through `ObjWriter.t` (code page TV before R2007, UTF-16 TU after).
 */
import { nearestAci } from '../geom/color';
import type {
  DimensionEntity,
  Entity,
  HatchEntity,
  ImageEntity,
  InsertEntity,
  LeaderEntity,
  MTextEntity,
  PolylineEntity,
  SplineEntity,
  TextEntity,
  ViewportEntity,
} from '../model';
import { change, type SaveAsNote } from '../save-as';
import { Ref } from './bits';
import { lineweightIndex, OT } from './constants';
import { ObjWriter, type Eed, type WriteContext } from './object';
import type { Vec3 } from '../geom/vector';

const RAD = Math.PI / 180;

/** Where the writer keeps table handles and notes; shared by every entity encoder. */
export interface EntityContext extends WriteContext {
  layer(name: string): number;
  /** Linetype flags (0 ByLayer, 1 ByBlock, 2 Continuous, 3 by handle) and the handle for 3. */
  linetype(name: string): { flags: number; handle: number };
  style(name: string): number;
  dimstyle(name: string): number;
  /** Counts one object changed to fit the release (decision 0037). */
  note(n: SaveAsNote): void;
  classType(dxfName: string): number;
  /** The new handle of the entity written for a source entity handle (0 when none was written as itself). */
  placedHandle(source: string): number;
  /** The entity's extended data as DWG stores it, under the applications' new APPID handles. */
  eed(e: Entity): Eed[];
}

/** An entity placed in the file: its handles and links, fixed before any object is encoded. */
export interface Placed {
  e: Entity;
  /** The source object `e` stands for (itself, or what it was lowered from): changes count once per source. */
  source?: Entity;
  /** An XCLIPped INSERT: its extension dictionary. */
  xdict?: number;
  handle: number;
  /** Owning block record (or the owning POLYLINE / INSERT for sub-entities). */
  owner: number;
  /** 0 owner handle written, 1 paper space, 2 model space. */
  mode: number;
  prev: number;
  next: number;
  /** POLYLINE vertices or INSERT attributes: their placements, in order. */
  subs: Placed[];
  /** SEQEND of a POLYLINE or of an INSERT with attributes. */
  seqend: number;
  /** INSERT/DIMENSION: the block record. */
  block?: number;
  /** IMAGE: its IMAGEDEF and IMAGEDEF_REACTOR. */
  imageDef?: number;
  imageReactor?: number;
  /** The type to write when it is not the model's (VERTEX_* and SEQEND). */
  kind?: 'vertex' | 'seqend';
}

function ocsColor(o: ObjWriter, ctx: EntityContext, e: Entity): void {
  const c = e.color;
  if (ctx.year < 2004) {
    let aci = c.aci ?? 256;
    if (c.rgb !== undefined) {
      if (c.aci === undefined || c.aci === 0 || c.aci === 256) aci = nearestAci(c.rgb);
      ctx.note(change(e.type, 'nearest-colour', 'changed to the nearest ACI colour (DWG 2000 has no true colours)', 'true colour'));
    }
    const t = e.transparency;
    if (t !== undefined && t >>> 24 === 2 && (t & 0xff) < 255)
      ctx.note(change(e.type, 'detail', 'transparency left out (DWG 2000 has none)'));
    o.d.bs(aci);
    return;
  }
  // R2004+ entity colour: BS index with flags (0x8000 = RGB follows, 0x2000 = transparency follows).
  const transparent = e.transparency !== undefined;
  if (c.rgb !== undefined) {
    o.d.bs(0x8000 | (transparent ? 0x2000 : 0));
    o.d.bl((0xc2000000 | (c.rgb & 0xffffff)) >>> 0);
  } else o.d.bs(((c.aci ?? 256) & 0x1ff) | (transparent ? 0x2000 : 0));
  if (transparent) o.d.bl(e.transparency as number);
}

/** The common entity data and its handles (before the type's own fields). */
function entityCommon(o: ObjWriter, p: Placed, ctx: EntityContext): void {
  const e = p.e;
  o.d.b(0); // no graphics
  o.d.bb(p.mode);
  if (p.mode === 0) o.ref(Ref.SoftPointer, p.owner);
  o.d.bl(0); // reactors
  // The extension dictionary (an XCLIPped INSERT's): from 2004 a bit says there is none.
  const xdict = p.xdict ?? 0;
  if (ctx.year >= 2004) o.d.b(xdict ? 0 : 1);
  if (ctx.year < 2004 || xdict) o.ref(Ref.HardOwner, xdict);
  if (ctx.year >= 2013) o.d.b(0); // no data-store data
  if (ctx.year < 2004) {
    o.d.b(0); // links written
    o.ref(Ref.SoftPointer, p.prev);
    o.ref(Ref.SoftPointer, p.next);
  }
  ocsColor(o, ctx, e);
  o.d.bd(Number.isFinite(e.ltscale) && e.ltscale > 0 ? e.ltscale : 1);
  o.ref(Ref.HardPointer, ctx.layer(e.layer));
  const lt = ctx.linetype(e.linetype || 'BYLAYER');
  o.d.bb(lt.flags);
  if (lt.flags === 3) o.ref(Ref.HardPointer, lt.handle);
  o.d.bb(0); // plot style ByLayer
  if (ctx.year >= 2007) o.d.bb(0).rc(0); // material ByLayer; casts and receives shadows
  if (ctx.year >= 2010) o.d.b(0).b(0).b(0); // no full, face or edge visual style
  o.d.bs(e.visible ? 0 : 1);
  o.d.rc(lineweightIndex(e.lineweight));
}

const num = (v: number | undefined, def = 0): number => (v !== undefined && Number.isFinite(v) ? v : def);
const isDefaultNormal = (v: Vec3): boolean => v[0] === 0 && v[1] === 0 && v[2] === 1;

function text(o: ObjWriter, ctx: EntityContext, e: TextEntity): void {
  const elevation = num(e.insertion[2]);
  const align = e.alignPoint && (e.halign !== 0 || e.valign !== 0) ? e.alignPoint : undefined;
  const oblique = num(e.oblique) * RAD;
  const rotation = num(e.rotation) * RAD;
  const width = num(e.widthFactor, 1) || 1;
  let df = 0;
  if (elevation === 0) df |= 1;
  if (!align) df |= 2;
  if (oblique === 0) df |= 4;
  if (rotation === 0) df |= 8;
  if (width === 1) df |= 0x10;
  if (!e.generation) df |= 0x20;
  if (!e.halign) df |= 0x40;
  if (!e.valign) df |= 0x80;
  o.d.rc(df);
  if (!(df & 1)) o.d.rd(elevation);
  o.d.rd2(e.insertion);
  if (align) o.d.dd2(align, e.insertion);
  o.d.be(e.extrusion);
  o.d.bt(num(e.thickness));
  if (!(df & 4)) o.d.rd(oblique);
  if (!(df & 8)) o.d.rd(rotation);
  o.d.rd(num(e.height, 1) || 1);
  if (!(df & 0x10)) o.d.rd(width);
  o.t(e.text);
  if (!(df & 0x20)) o.d.bs(e.generation);
  if (!(df & 0x40)) o.d.bs(e.halign);
  if (!(df & 0x80)) o.d.bs(e.valign);
  if (e.type !== 'TEXT') {
    if (ctx.year >= 2010) o.d.rc(0); // class version
    if (ctx.year >= 2018) o.d.rc(1); // single-line attribute
    o.t(e.tag ?? '');
    o.d.bs(0); // field length
    o.d.rc(e.attributeFlags ?? 0);
    if (ctx.year >= 2007) o.d.b(0); // position not locked
    if (e.type === 'ATTDEF') {
      if (ctx.year >= 2010) o.d.rc(0); // the definition's class version
      o.t(e.prompt ?? '');
    }
  }
  o.ref(Ref.HardPointer, ctx.style(e.style));
}

function mtext(o: ObjWriter, ctx: EntityContext, e: MTextEntity): void {
  const a = num(e.rotation) * RAD;
  const dir: Vec3 = e.direction && Math.hypot(...e.direction) > 0 ? e.direction : [Math.cos(a), Math.sin(a), 0];
  const h = num(e.height, 2.5) || 2.5;
  const lines = e.text.split(/\\P/).length;
  o.d.bd3(e.insertion).bd3(e.extrusion).bd3(dir);
  o.d.bd(num(e.width));
  if (ctx.year >= 2007) o.d.bd(num(e.definedHeight));
  o.d.bd(h);
  o.d.bs(Math.min(9, Math.max(1, e.attachment || 1)));
  o.d.bs(e.drawingDirection || 1);
  const extentsHeight = h * (1 + (lines - 1) * (5 / 3) * (e.lineSpacingFactor || 1));
  const extentsWidth = num(e.width) || h * Math.max(1, ...e.text.split(/\\P/).map((l) => l.length)) * 0.7;
  o.d.bd(extentsHeight).bd(extentsWidth);
  o.t(e.text);
  o.d
    .bs(e.lineSpacingStyle || 1)
    .bd(e.lineSpacingFactor || 1)
    .b(0);
  if (ctx.year >= 2004) {
    const bg = e.background && e.background.flags ? e.background : undefined;
    o.d.bl(bg ? bg.flags & 3 : 0);
    if (bg) {
      // Border offset factor: a BD in AutoCAD's files (2010, 2018 checked), then a CMC and the transparency.
      o.d.bd(num(bg.scale, 1.5));
      const c = bg.color;
      const aci = c.aci ?? 256;
      o.d
        .bs(0)
        .bl(
          c.rgb !== undefined
            ? (0xc2000000 | c.rgb) >>> 0
            : aci === 256
              ? 0xc0000000
              : aci === 0
                ? 0xc1000000
                : (0xc3000000 | (aci & 0xff)) >>> 0,
        )
        .rc(0);
      o.d.bl(0);
    }
  } else if (e.background && e.background.flags) ctx.note(change('MTEXT', 'detail', 'background masks left out (DWG 2000 has none)'));
  o.ref(Ref.HardPointer, ctx.style(e.style));
  if (ctx.year >= 2018) {
    // The text's own copy of its frame (not annotative): version, default flag, then the same
    // attachment, direction, insertion and sizes once more, and the columns.
    o.d.b(1).bs(4).b(1);
    o.d
      .bl(Math.min(9, Math.max(1, e.attachment || 1)))
      .bd3(dir)
      .bd3(e.insertion)
      .bd(num(e.width))
      .bd(num(e.definedHeight));
    o.d.bd(extentsWidth).bd(extentsHeight);
    const c = e.columns && e.columns.type > 0 ? e.columns : undefined;
    o.d.bs(c ? c.type : 0);
    if (c) {
      const heights = c.type === 2 && !c.autoHeight ? c.heights : [];
      o.d
        .bl(heights.length ? heights.length : Math.max(1, c.count))
        .bd(num(c.width))
        .bd(num(c.gutter))
        .b(c.autoHeight)
        .b(0);
      for (const height of heights) o.d.bd(height);
    }
    o.ref(Ref.HardPointer, 0); // registered application
  }
}

function insert(o: ObjWriter, p: Placed, ctx: EntityContext, e: InsertEntity): void {
  const [sx, sy, sz] = [num(e.scale[0], 1), num(e.scale[1], 1), num(e.scale[2], 1)];
  o.d.bd3(e.insertion);
  if (sx === 1 && sy === 1 && sz === 1) o.d.bb(3);
  else if (sx === 1) o.d.bb(1).dd(sy, 1).dd(sz, 1);
  else if (sx === sy && sx === sz) o.d.bb(2).rd(sx);
  else o.d.bb(0).rd(sx).dd(sy, sx).dd(sz, sx);
  o.d.bd(num(e.rotation) * RAD);
  o.d.bd3(e.extrusion);
  const attribs = p.subs.length > 0;
  o.d.b(attribs);
  if (ctx.year >= 2004 && attribs) o.d.bl(p.subs.length);
  if (p.kind === undefined && (e.columnCount > 1 || e.rowCount > 1)) {
    o.d.bs(Math.max(1, e.columnCount)).bs(Math.max(1, e.rowCount)).bd(num(e.columnSpacing)).bd(num(e.rowSpacing));
  }
  o.ref(Ref.HardPointer, p.block ?? 0);
  if (attribs) {
    if (ctx.year < 2004) {
      o.ref(Ref.SoftPointer, (p.subs[0] as Placed).handle);
      o.ref(Ref.SoftPointer, (p.subs[p.subs.length - 1] as Placed).handle);
    } else for (const s of p.subs) o.ref(Ref.HardOwner, s.handle);
    o.ref(Ref.HardOwner, p.seqend);
  }
}

function polyline(o: ObjWriter, p: Placed, ctx: EntityContext, e: PolylineEntity): void {
  switch (e.kind) {
    case '2d':
      o.d.bs(e.flags & 0xff & ~(8 | 16 | 64)).bs(curveType(e.flags));
      o.d.bd(num(e.defaultStartWidth)).bd(num(e.defaultEndWidth)).bt(num(e.thickness)).bd(num(e.elevation)).be(e.extrusion);
      break;
    case '3d':
      o.d.rc(curveType(e.flags)).rc((e.closed ? 1 : 0) | (e.flags & 4 ? 4 : 0));
      break;
    case 'mesh':
      o.d
        .bs((e.flags & ~(8 | 64)) | 16)
        .bs(curveType(e.flags))
        .bs(e.m)
        .bs(e.n)
        .bs(e.m)
        .bs(e.n);
      break;
    case 'polyface':
      o.d.bs(e.vertices.length).bs(e.faces.length);
      break;
  }
  if (ctx.year >= 2004) o.d.bl(p.subs.length);
  if (ctx.year < 2004) {
    o.ref(Ref.SoftPointer, p.subs[0]?.handle ?? 0);
    o.ref(Ref.SoftPointer, p.subs[p.subs.length - 1]?.handle ?? 0);
  } else for (const s of p.subs) o.ref(Ref.HardOwner, s.handle);
  o.ref(Ref.HardOwner, p.seqend);
}

/** DXF 75 from the polyline flags: 0 none, 5 quadratic, 6 cubic, 8 Bezier (bit 4 = spline-fit). */
function curveType(flags: number): number {
  return flags & 4 ? 6 : 0;
}

/** The vertex type and the fields of a POLYLINE's vertex `i` (faces after the coordinates). */
function vertexType(pl: PolylineEntity, i: number): number {
  if (pl.kind === 'polyface') return i < pl.vertices.length ? OT.VERTEX_PFACE : OT.VERTEX_PFACE_FACE;
  if (pl.kind === 'mesh') return OT.VERTEX_MESH;
  if (pl.kind === '3d') return OT.VERTEX_3D;
  return OT.VERTEX_2D;
}

function vertex(o: ObjWriter, ctx: EntityContext, pl: PolylineEntity, i: number): void {
  if (pl.kind === 'polyface' && i >= pl.vertices.length) {
    const f = pl.faces[i - pl.vertices.length] ?? [];
    for (let k = 0; k < 4; k++) o.d.bs(f[k] ?? 0);
    return;
  }
  const v = pl.vertices[i];
  if (!v) return;
  if (pl.kind === '2d') {
    o.d.rc(v.flags & 0xff);
    o.d.bd3([v.position[0], v.position[1], num(pl.elevation)]);
    const s = num(v.startWidth),
      w = num(v.endWidth);
    if (s !== 0 && s === w) o.d.bd(-s);
    else o.d.bd(s).bd(w);
    o.d.bd(num(v.bulge));
    if (ctx.year >= 2010) o.d.bl(0); // vertex id
    o.d.bd(0); // tangent direction
    return;
  }
  const flag = pl.kind === 'polyface' ? 128 | 64 : pl.kind === 'mesh' ? 64 : 32;
  o.d.rc((v.flags & 0xff) | flag);
  o.d.bd3(v.position);
}

function spline(o: ObjWriter, ctx: EntityContext, e: SplineEntity): void {
  const fitOnly = e.controlPoints.length < 2 && e.fitPoints.length >= 2;
  o.d.bl(fitOnly ? 2 : 1);
  if (ctx.year >= 2013) {
    // Spline flags (1 = defined by fit points, 4 = closed) and the knot parameterisation (15 = custom knots).
    o.d.bl((fitOnly ? 1 : 0) | (e.closed ? 4 : 0)).bl(fitOnly ? 0 : 15);
  }
  o.d.bl(Math.max(1, e.degree || 3));
  if (fitOnly) {
    o.d
      .bd(1e-10)
      .bd3(e.startTangent ?? [0, 0, 0])
      .bd3(e.endTangent ?? [0, 0, 0])
      .bl(e.fitPoints.length);
    for (const p of e.fitPoints) o.d.bd3(p);
    return;
  }
  if (e.fitPoints.length) ctx.note(change('SPLINE', 'detail', 'fit points left out where the control points define the curve'));
  const weighted = e.weights.length === e.controlPoints.length && e.weights.some((w) => w !== 1);
  o.d
    .b(weighted || e.rational)
    .b(e.closed)
    .b(e.periodic)
    .bd(1e-10)
    .bd(1e-10);
  o.d.bl(e.knots.length).bl(e.controlPoints.length).b(weighted);
  for (const k of e.knots) o.d.bd(k);
  e.controlPoints.forEach((p, i) => {
    o.d.bd3(p);
    if (weighted) o.d.bd(e.weights[i] ?? 1);
  });
}

function dimension(o: ObjWriter, p: Placed, ctx: EntityContext, e: DimensionEntity): void {
  const t = e.dimType & 7;
  const pts = e.defPoints;
  const zero: Vec3 = [0, 0, 0];
  if (ctx.year >= 2010) o.d.rc(0); // class version
  o.d.bd3(e.extrusion);
  o.d.rd2(e.textMidpoint).bd(num(e.textMidpoint[2]));
  // Bit 0: the text sits at its default place (DXF 70 bit 128 clear); bit 1: block used by this dimension only.
  o.d.rc((e.flags & 128 ? 0 : 1) | (e.flags & 32 ? 2 : 0));
  o.t(e.text);
  o.d.bd(num(e.textRotation) * RAD).bd(0);
  o.d.bd3([1, 1, 1]).bd(0);
  o.d
    .bs(e.attachment || 5)
    .bs(1)
    .bd(1)
    .bd(num(e.measurement));
  if (ctx.year >= 2007) o.d.b(0).b(0).b(0);
  o.d.rd2(pts.p12 ?? zero);
  switch (t) {
    case 6:
      o.d
        .bd3(e.defPoint)
        .bd3(pts.p13 ?? zero)
        .bd3(pts.p14 ?? zero)
        .rc(e.flags & 64 ? 1 : 0);
      break;
    case 0:
      o.d
        .bd3(pts.p13 ?? zero)
        .bd3(pts.p14 ?? zero)
        .bd3(e.defPoint)
        .bd(0)
        .bd(num(e.angle) * RAD);
      break;
    case 1:
      o.d
        .bd3(pts.p13 ?? zero)
        .bd3(pts.p14 ?? zero)
        .bd3(e.defPoint)
        .bd(0);
      break;
    case 5:
      o.d
        .bd3(e.defPoint)
        .bd3(pts.p13 ?? zero)
        .bd3(pts.p14 ?? zero)
        .bd3(pts.p15 ?? zero);
      break;
    case 2:
      o.d
        .rd2(pts.p16 ?? zero)
        .bd3(pts.p13 ?? zero)
        .bd3(pts.p14 ?? zero)
        .bd3(pts.p15 ?? zero)
        .bd3(e.defPoint);
      break;
    case 4:
      o.d
        .bd3(e.defPoint)
        .bd3(pts.p15 ?? zero)
        .bd(0);
      break;
    case 3:
      o.d
        .bd3(pts.p15 ?? zero)
        .bd3(e.defPoint)
        .bd(0);
      break;
  }
  o.ref(Ref.HardPointer, ctx.dimstyle(e.style));
  o.ref(Ref.HardPointer, p.block ?? 0);
}

function dimensionType(e: DimensionEntity): number {
  return [
    OT.DIMENSION_LINEAR,
    OT.DIMENSION_ALIGNED,
    OT.DIMENSION_ANG2LN,
    OT.DIMENSION_DIAMETER,
    OT.DIMENSION_RADIUS,
    OT.DIMENSION_ANG3PT,
    OT.DIMENSION_ORDINATE,
    OT.DIMENSION_LINEAR,
  ][e.dimType & 7] as number;
}

function leader(o: ObjWriter, ctx: EntityContext, e: LeaderEntity): void {
  const pts = e.vertices.length ? e.vertices : [[0, 0, 0] as Vec3];
  const last = pts[pts.length - 1] as Vec3;
  // Annotation type, then path type: the order AutoCAD's files have them in (read back by the
  // same reader as AutoCAD's own, a spline leader stays a spline).
  o.d
    .b(0)
    .bs(e.annotationType ?? 3)
    .bs(e.pathType || 0)
    .bl(pts.length);
  for (const p of pts) o.d.bd3(p);
  o.d
    .bd3(last)
    .bd3(e.extrusion)
    .bd3(e.horizontalDirection ?? [1, 0, 0])
    .bd3([0, 0, 0])
    .bd3(last);
  // The annotation box size is gone from R2010 (AutoCAD's files have the end projection point and then the flags).
  if (ctx.year < 2010) o.d.bd(num(e.textHeight)).bd(num(e.textWidth));
  o.d
    .b(e.hooklineDirection === 0 ? 0 : 1)
    .b(e.arrowhead)
    .bs(0);
  o.d.b(e.hookline ?? false).b(0);
  o.ref(Ref.SoftOwner, 0);
  o.ref(Ref.HardPointer, ctx.dimstyle(e.style));
}

function hatch(o: ObjWriter, ctx: EntityContext, e: HatchEntity): void {
  const gradient = ctx.year >= 2004 && e.gradient !== undefined;
  if (ctx.year >= 2004) {
    const g = e.gradient;
    o.d
      .bl(gradient ? 1 : 0)
      .bl(0)
      .bd(g ? num(g.angle) : 0)
      .bd(g ? num(g.shift) : 0)
      .bl(g?.singleColor ? 1 : 0)
      .bd(g ? num(g.tint) : 0);
    const colors = g ? g.colors.slice(0, 2) : [];
    o.d.bl(colors.length);
    for (const c of colors) {
      o.d.bd(0).bs(0);
      o.d.bl(c.rgb !== undefined ? (0xc2000000 | c.rgb) >>> 0 : (0xc3000000 | ((c.aci ?? 7) & 0xff)) >>> 0).rc(0);
    }
    o.t(g ? g.name : '');
  } else if (e.gradient) ctx.note(change('HATCH', 'solid-fill', 'gradient fills written as solid fills (DWG 2000 has no gradients)'));
  const solid = e.solid || (e.gradient !== undefined && !gradient);
  o.d.bd(num(e.elevation)).bd3(e.extrusion);
  o.t(solid ? 'SOLID' : e.pattern || 'ANSI31');
  o.d.b(solid).b(e.associative && false);
  o.d.bl(e.paths.length);
  const pixelSize = e.paths.some((path) => (path.flags & 4) !== 0);
  for (const path of e.paths) {
    const poly = path.polyline && path.polyline.vertices.length > 0 ? path.polyline : undefined;
    o.d.bl((path.flags & ~2) | (poly ? 2 : 0));
    if (poly) {
      const bulges = poly.vertices.some((v) => v.bulge !== 0);
      o.d.b(bulges).b(poly.closed).bl(poly.vertices.length);
      for (const v of poly.vertices) {
        o.d.rd(v.x).rd(v.y);
        if (bulges) o.d.bd(v.bulge);
      }
    } else {
      o.d.bl(path.edges.length);
      for (const edge of path.edges) {
        switch (edge.kind) {
          case 'line':
            o.d.rc(1).rd2(edge.start).rd2(edge.end);
            break;
          case 'arc':
            o.d
              .rc(2)
              .rd2(edge.center)
              .bd(edge.radius)
              .bd(edge.startAngle * RAD)
              .bd(edge.endAngle * RAD)
              .b(edge.ccw);
            break;
          case 'ellipse':
            o.d
              .rc(3)
              .rd2(edge.center)
              .rd2(edge.majorAxis)
              .bd(edge.ratio)
              .bd(edge.startAngle * RAD)
              .bd(edge.endAngle * RAD)
              .b(edge.ccw);
            break;
          case 'spline': {
            const weighted = edge.rational && edge.weights.length === edge.controlPoints.length;
            o.d.rc(4).bl(edge.degree).b(weighted).b(edge.periodic).bl(edge.knots.length).bl(edge.controlPoints.length);
            for (const k of edge.knots) o.d.bd(k);
            edge.controlPoints.forEach((p, i) => {
              o.d.rd2(p);
              if (weighted) o.d.bd(edge.weights[i] ?? 1);
            });
            if (ctx.year >= 2010) {
              // Fit points, then start and end tangents when there are fit points (none known: zero).
              o.d.bl(edge.fitPoints.length);
              for (const p of edge.fitPoints) o.d.rd2(p);
              if (edge.fitPoints.length) o.d.rd2([0, 0]).rd2([0, 0]);
            }
            break;
          }
        }
      }
    }
    o.d.bl(0); // no source boundary objects
  }
  o.d.bs(e.style).bs(e.patternType || 1);
  if (!solid) {
    const lines = e.patternLines;
    o.d
      .bd(num(e.patternAngle) * RAD)
      .bd(num(e.patternScale, 1) || 1)
      .b(e.patternDouble)
      .bs(lines.length);
    for (const l of lines) {
      o.d
        .bd(num(l.angle) * RAD)
        .bd(l.base[0])
        .bd(l.base[1])
        .bd(l.offset[0])
        .bd(l.offset[1])
        .bs(l.dashes.length);
      for (const d of l.dashes) o.d.bd(d);
    }
  }
  if (pixelSize) o.d.bd(1);
  o.d.bl(0); // no seed points
}

function viewport(o: ObjWriter, ctx: EntityContext, e: ViewportEntity): void {
  const vh = num(e.viewHeight) || num(e.height, 1);
  o.d.bd3(e.center).bd(num(e.width)).bd(num(e.height));
  o.d
    .bd3(e.viewTarget)
    .bd3(e.viewDirection)
    .bd(num(e.twist) * RAD)
    .bd(vh)
    .bd(50)
    .bd(0)
    .bd(0)
    .bd(0);
  o.d.rd2(e.viewCenter).rd2([0, 0]).rd2([10, 10]).rd2([10, 10]).bs(1000);
  if (ctx.year >= 2007) o.d.bs(5);
  o.d.bl(0); // frozen layers
  // Status: 0x20000 = off; keep the model's flags otherwise.
  o.d.bl(((e.flags & ~0x20000) | (e.on ? 0 : 0x20000)) >>> 0);
  o.t(''); // plot style sheet
  o.d.rc(0).b(1).b(0).bd3([0, 0, 0]).bd3([1, 0, 0]).bd3([0, 1, 0]).bd(0).bs(0);
  if (ctx.year >= 2004) o.d.bs(0); // shade plot mode
  if (ctx.year >= 2007) {
    o.d.b(1).rc(1).bd(0).bd(0); // default lighting on, one distant light, brightness, contrast
    o.d.bs(0).bl(0xc30000fa).rc(0); // ambient colour 250
  }
  // The clip boundary: the paper-space entity a non-rectangular viewport is clipped by.
  o.ref(Ref.HardPointer, e.clipBoundaryHandle ? ctx.placedHandle(e.clipBoundaryHandle) : 0);
  o.ref(Ref.HardPointer, 0); // named UCS
  o.ref(Ref.HardPointer, 0); // base UCS
  if (ctx.year >= 2007) o.ref(Ref.SoftPointer, 0).ref(Ref.HardPointer, 0).ref(Ref.SoftPointer, 0).ref(Ref.HardOwner, 0); // background, visual style, shade plot, sun
}

function image(o: ObjWriter, p: Placed, ctx: EntityContext, e: ImageEntity): void {
  const clip =
    e.clipBoundary.length >= 2
      ? e.clipBoundary
      : [
          [-0.5, -0.5],
          [e.imageSize[0] - 0.5, e.imageSize[1] - 0.5],
        ];
  o.d.bl(0).bd3(e.insertion).bd3(e.u).bd3(e.v).rd2(e.imageSize);
  o.d
    .bs(e.displayFlags || 7)
    .b(e.clipping)
    .rc(50)
    .rc(50)
    .rc(0);
  if (ctx.year >= 2010) o.d.b(0); // clip mode: keep what is inside the boundary
  const rect = clip.length === 2;
  o.d.bs(rect ? 1 : 2);
  if (!rect) o.d.bl(clip.length);
  for (const c of clip) o.d.rd2(c);
  o.ref(Ref.HardPointer, p.imageDef ?? 0);
  o.ref(Ref.HardOwner, p.imageReactor ?? 0);
}

/** The object type to write for a placed entity. */
function typeOf(p: Placed, ctx: EntityContext): number {
  const e = p.e;
  if (p.kind === 'seqend') return OT.SEQEND;
  switch (e.type) {
    case 'LINE':
      return OT.LINE;
    case 'POINT':
      return OT.POINT;
    case 'CIRCLE':
      return OT.CIRCLE;
    case 'ARC':
      return OT.ARC;
    case 'ELLIPSE':
      return OT.ELLIPSE;
    case 'LWPOLYLINE':
      return OT.LWPOLYLINE;
    case 'POLYLINE':
      return e.kind === '2d' ? OT.POLYLINE_2D : e.kind === '3d' ? OT.POLYLINE_3D : e.kind === 'mesh' ? OT.POLYLINE_MESH : OT.POLYLINE_PFACE;
    case 'SPLINE':
      return OT.SPLINE;
    case 'SOLID':
      return OT.SOLID;
    case 'TRACE':
      return OT.TRACE;
    case '3DFACE':
      return OT.FACE3D;
    case 'TEXT':
      return OT.TEXT;
    case 'ATTRIB':
      return OT.ATTRIB;
    case 'ATTDEF':
      return OT.ATTDEF;
    case 'MTEXT':
      return OT.MTEXT;
    case 'INSERT':
      return e.columnCount > 1 || e.rowCount > 1 ? OT.MINSERT : OT.INSERT;
    case 'DIMENSION':
      return dimensionType(e);
    case 'LEADER':
      return OT.LEADER;
    case 'TOLERANCE':
      return OT.TOLERANCE;
    case 'HATCH':
      return OT.HATCH;
    case 'VIEWPORT':
      return OT.VIEWPORT;
    case 'RAY':
      return OT.RAY;
    case 'XLINE':
      return OT.XLINE;
    case 'IMAGE':
      return ctx.classType('IMAGE');
    case 'WIPEOUT':
      return ctx.classType('WIPEOUT');
    default:
      throw new Error(`${e.type} has no DWG encoding here`);
  }
}

/** Encodes one placed entity (or a POLYLINE's vertex `vertexIndex`, or a SEQEND). */
export function encodeEntity(p: Placed, ctx: EntityContext, vertexOf?: { pl: PolylineEntity; index: number }): Uint8Array {
  const type = vertexOf ? vertexType(vertexOf.pl, vertexOf.index) : typeOf(p, ctx);
  const o = new ObjWriter(type, p.handle, ctx, vertexOf || p.kind === 'seqend' || !p.e.xdata ? [] : ctx.eed(p.e));
  entityCommon(o, p, ctx);
  if (vertexOf) {
    vertex(o, ctx, vertexOf.pl, vertexOf.index);
    return o.finish();
  }
  if (p.kind === 'seqend') return o.finish();
  const e = p.e;
  switch (e.type) {
    case 'LINE': {
      const z0 = num(e.start[2]),
        z1 = num(e.end[2]);
      const flat = z0 === 0 && z1 === 0;
      o.d.b(flat).rd(e.start[0]).dd(e.end[0], e.start[0]).rd(e.start[1]).dd(e.end[1], e.start[1]);
      if (!flat) o.d.rd(z0).dd(z1, z0);
      o.d.bt(num(e.thickness)).be(e.extrusion);
      break;
    }
    case 'POINT':
      o.d
        .bd3(e.position)
        .bt(num(e.thickness))
        .be(e.extrusion)
        .bd(num(e.angle) * RAD);
      break;
    case 'CIRCLE':
      o.d.bd3(e.center).bd(e.radius).bt(num(e.thickness)).be(e.extrusion);
      break;
    case 'ARC':
      o.d
        .bd3(e.center)
        .bd(e.radius)
        .bt(num(e.thickness))
        .be(e.extrusion)
        .bd(num(e.startAngle) * RAD)
        .bd(num(e.endAngle) * RAD);
      break;
    case 'ELLIPSE':
      o.d.bd3(e.center).bd3(e.majorAxis).bd3(e.extrusion).bd(e.ratio).bd(e.startParam).bd(e.endParam);
      break;
    case 'LWPOLYLINE': {
      const vs = e.vertices;
      const bulges = vs.some((v) => v.bulge !== 0);
      const widths = vs.some((v) => v.startWidth !== 0 || v.endWidth !== 0);
      let flag = 0;
      if (!isDefaultNormal(e.extrusion)) flag |= 1;
      if (e.thickness) flag |= 2;
      if (e.constantWidth) flag |= 4;
      if (e.elevation) flag |= 8;
      if (bulges) flag |= 16;
      if (widths) flag |= 32;
      if (e.plinegen) flag |= 256;
      if (e.closed) flag |= 512;
      o.d.bs(flag);
      if (flag & 4) o.d.bd(e.constantWidth);
      if (flag & 8) o.d.bd(e.elevation);
      if (flag & 2) o.d.bd(num(e.thickness));
      if (flag & 1) o.d.bd3(e.extrusion);
      o.d.bl(vs.length);
      if (bulges) o.d.bl(vs.length);
      if (widths) o.d.bl(vs.length);
      vs.forEach((v, i) => {
        const prev = vs[i - 1];
        if (!prev) o.d.rd(v.x).rd(v.y);
        else o.d.dd(v.x, prev.x).dd(v.y, prev.y);
      });
      if (bulges) for (const v of vs) o.d.bd(v.bulge);
      if (widths) for (const v of vs) o.d.bd(v.startWidth).bd(v.endWidth);
      break;
    }
    case 'POLYLINE':
      polyline(o, p, ctx, e);
      break;
    case 'SPLINE':
      spline(o, ctx, e);
      break;
    case 'SOLID':
    case 'TRACE':
      o.d.bt(num(e.thickness)).bd(num(e.points[0][2]));
      for (const c of e.points) o.d.rd2(c);
      o.d.be(e.extrusion);
      break;
    case '3DFACE': {
      const [a, b, c, d] = e.points;
      const flags = e.invisibleEdges ?? 0;
      const zz = num(a[2]) === 0;
      o.d
        .b(flags === 0)
        .b(zz)
        .rd(a[0])
        .rd(a[1]);
      if (!zz) o.d.rd(a[2]);
      o.d.dd(b[0], a[0]).dd(b[1], a[1]).dd(b[2], a[2]);
      o.d.dd(c[0], b[0]).dd(c[1], b[1]).dd(c[2], b[2]);
      o.d.dd(d[0], c[0]).dd(d[1], c[1]).dd(d[2], c[2]);
      if (flags !== 0) o.d.bs(flags);
      break;
    }
    case 'TEXT':
    case 'ATTRIB':
    case 'ATTDEF':
      text(o, ctx, e);
      break;
    case 'MTEXT':
      mtext(o, ctx, e);
      break;
    case 'INSERT':
      insert(o, p, ctx, e);
      break;
    case 'DIMENSION':
      dimension(o, p, ctx, e);
      break;
    case 'LEADER':
      leader(o, ctx, e);
      break;
    case 'TOLERANCE':
      // AcDbFcf from R2000: place, X direction, extrusion, the frame's text; its dimension style.
      o.d.bd3(e.insertion).bd3(e.direction).bd3(e.extrusion);
      o.t(e.text);
      o.ref(Ref.HardPointer, ctx.dimstyle(e.style));
      break;
    case 'HATCH':
      hatch(o, ctx, e);
      break;
    case 'VIEWPORT':
      viewport(o, ctx, e);
      break;
    case 'RAY':
    case 'XLINE':
      o.d.bd3(e.base).bd3(e.direction);
      break;
    case 'IMAGE':
    case 'WIPEOUT':
      image(o, p, ctx, e);
      break;
    default:
      throw new Error(`${e.type} has no DWG encoding here`);
  }
  return o.finish();
}

/** Entity types this encoder writes natively (the rest is lowered first). */
export const NATIVE_TYPES = new Set([
  'LINE',
  'POINT',
  'CIRCLE',
  'ARC',
  'ELLIPSE',
  'LWPOLYLINE',
  'POLYLINE',
  'SPLINE',
  'SOLID',
  'TRACE',
  '3DFACE',
  'TEXT',
  'ATTRIB',
  'ATTDEF',
  'MTEXT',
  'INSERT',
  'DIMENSION',
  'LEADER',
  'TOLERANCE',
  'HATCH',
  'VIEWPORT',
  'RAY',
  'XLINE',
  'IMAGE',
  'WIPEOUT',
]);

/** BLOCK (with its name) or ENDBLK: common entity data only, owned by the block record. */
export function encodeBlockMarker(p: Placed, ctx: EntityContext, name: string | null): Uint8Array {
  const o = new ObjWriter(name === null ? OT.ENDBLK : OT.BLOCK, p.handle, ctx);
  entityCommon(o, p, ctx);
  if (name !== null) o.t(name);
  return o.finish();
}
