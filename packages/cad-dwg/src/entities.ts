/**
 * LibreDWG entities → the drawing model, following the DXF reader's conventions: angles in degrees
 * (DWG stores radians) except ellipse parameters and the gradient angle, OCS coordinates as stored,
 * points as [x, y, z], colours as ACI / true colour, lineweights in 1/100 mm.
 */
import type {
  Color,
  DimensionEntity,
  Entity,
  EntityBase,
  HatchEdge,
  HatchEntity,
  HatchPath,
  ImageEntity,
  InsertEntity,
  LwVertex,
  MeshEntity,
  MLeaderEntity,
  MLineEntity,
  MLineVertex,
  MTextEntity,
  PolylineEntity,
  PolylineVertex,
  SplineEntity,
  TableEntity,
  TextEntity,
  ViewportEntity,
} from '@xcad/cad/model';
import type { HatchPatternLine, Vec3 } from '@xcad/cad/geom';
import { hex, RAD2DEG, type Access } from './access';
import { lineweight, T } from './types';
import { isWasmTrap, type DwgColor } from './wasm';

/** Table names by handle, filled before any entity is read. */
export interface Names {
  layers: Map<number, string>;
  ltypes: Map<number, string>;
  styles: Map<number, string>;
  dimstyles: Map<number, string>;
  /** BLOCK_HEADER handle → block name. */
  blocks: Map<number, string>;
  /** MLINESTYLE handle → style name. */
  mlineStyles: Map<number, string>;
  /** Names of the BYBLOCK and CONTINUOUS linetype records ('ByBlock', 'Continuous'). */
  byBlock: string;
  continuous: string;
  /** R2000+: entities carry lineweights and linetype flags (R13/R14 refer to a linetype record). */
  r2000: boolean;
  /** R12 and before: colours come from the R11 entity header. */
  preR13: boolean;
}

/** Where the entity lives: its block record's handle and whether that is a paper-space block. */
export interface Owner {
  handle: string;
  paperSpace: boolean;
}

const TWO_PI = Math.PI * 2;
/** Byte → two upper-case hex digits. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));

/** Pre-R13 bookkeeping records LibreDWG lists as entities: nothing to draw, not entities in DXF. */
const NOT_ENTITIES = new Set(['JUMP', 'REPEAT', 'ENDREP', 'LOAD']);

/** Dimension classes outside the fixed DIMENSION types, drawn like the others by their block. */
const DIMENSION_CLASSES: Record<string, number> = { ARC_DIMENSION: 5, LARGE_RADIAL_DIMENSION: 4 };

/** A DWG colour → the model's: ACI (0 ByBlock, 256 ByLayer) and/or true colour. */
export function modelColor(c: DwgColor | undefined, absolute = false): Color {
  if (!c) return { aci: 256 };
  const method = c.method || (c.rgb >>> 24) & 0xff;
  let index = c.index;
  if (absolute) index = Math.abs(index);
  if (method === 0xc2) {
    const out: Color = { rgb: c.rgb & 0xffffff };
    if (index >= 1 && index <= 255) out.aci = index;
    return out;
  }
  if (method === 0xc0) return { aci: 256 };
  if (method === 0xc1) return { aci: 0 };
  if (method === 0xc3) {
    const i = c.rgb & 0xff;
    return { aci: i >= 1 && i <= 255 ? i : index };
  }
  return { aci: index };
}

/** DXF group 440 value for a DWG colour's transparency (undefined = ByLayer). */
function transparencyOf(c: DwgColor | undefined): number | undefined {
  if (!c) return undefined;
  if (c.alpha_type === 1) return 0x01000000;
  if (c.alpha_type === 2 || c.alpha_type === 3) return 0x02000000 | (c.alpha & 0xff);
  return undefined;
}

/**
 * An entity colour from LibreDWG's struct: ACI `index`, `rgb` and a second 32-bit word that holds
 * the raw transparency - or, when an entity has both (R2004+), the two swapped. The top byte tells
 * them apart: 0xC2 true colour, 0x01 transparency ByBlock, 0x02 explicit alpha.
 */
export function heapColor(index: number, rgb: number, other: number, alphaType: number, alpha: number): { color: Color; transparency: number | undefined } {
  let color: Color = { aci: index };
  let transparency: number | undefined;
  for (const v of [rgb, other]) {
    const top = v >>> 24;
    if (top === 0xc2) {
      color = { rgb: v & 0xffffff };
      if (index >= 1 && index <= 255) color.aci = index;
    } else if (top === 0xc3 && !(index >= 1 && index <= 255)) color = { aci: v & 0xff };
    else if (top === 0xc0) color = { aci: 256 };
    else if (top === 0xc1) color = { aci: 0 };
    else if (top === 0x01 && (v & 0xffffff) === 0) transparency = 0x01000000;
    else if (top === 0x02 && (v & 0xffff00) === 0) transparency = v;
  }
  if (transparency === undefined && alphaType === 1) transparency = 0x01000000;
  else if (transparency === undefined && (alphaType === 2 || alphaType === 3)) transparency = 0x02000000 | alpha;
  return { color, transparency };
}

function isZero(v: Vec3): boolean {
  return v[0] === 0 && v[1] === 0 && v[2] === 0;
}

function normalOr(v: Vec3): Vec3 {
  return isZero(v) ? [0, 0, 1] : v;
}

/**
 * Where the common fields sit in LibreDWG's Dwg_Object_Entity for this build, found by matching
 * the API's values on the first entities (see EntityReader.probe). Offsets are from the struct.
 */
interface EntityLayout {
  color: number;
  ltscale: number;
  ltflags: number;
  invisible: number;
  linewt: number;
  layer: number;
  /** -1 until a probe with a linetype reference confirmed it. */
  ltype: number;
  /** Offset of absolute_ref in Dwg_Object_Ref. */
  absref: number;
}

/** The common fields as the API gives them. */
interface CommonFields {
  color: DwgColor | undefined;
  layerRef: number;
  ltFlags: number;
  ltypeRef: number;
  ltscale: number;
  linewt: number;
  invisible: number;
}

const PROBES = 8;

export class EntityReader {
  /** Entity types met but not modelled, by DXF name. */
  readonly unknown = new Map<string, number>();
  readonly warnings: string[] = [];
  /** INSERTs with an extension dictionary, and its handle (a possible XCLIP: ACAD_FILTER → SPATIAL). */
  readonly xdictInserts: [InsertEntity, number][] = [];
  /**
   * Common fields are read from the heap once their place in the entity struct is known: the API
   * costs several Embind calls per entity, and its colour object misses the true colour when a
   * transparency is also set (R2004+). null = still probing, false = keep using the API.
   */
  private layout: EntityLayout | null | false = null;
  private probes: EntityLayout[] = [];

  constructor(
    private readonly a: Access,
    private readonly names: Names,
    /** Objects from `first` to `last` in file order (R13-R2000 attribute and vertex runs). */
    private readonly between: (first: number, last: number) => number[] = () => [],
  ) {}

  private get w() {
    return this.a.w;
  }

  // -- common -----------------------------------------------------------------------------------

  private apiFields(tio: number): CommonFields {
    const a = this.a;
    return {
      color: a.common<DwgColor>(tio, 'color'),
      layerRef: a.common<number>(tio, 'layer') ?? 0,
      ltFlags: a.common<number>(tio, 'ltype_flags') ?? 0,
      ltypeRef: a.common<number>(tio, 'ltype') ?? 0,
      ltscale: a.common<number>(tio, 'ltype_scale') ?? 1,
      linewt: a.common<number>(tio, 'linewt') ?? 29,
      invisible: a.common<number>(tio, 'invisible') ?? 0,
    };
  }

  /**
   * Locates the common fields in one entity from the API's values: the colour where all its
   * fields match at exactly one offset, the scalars at their fixed distance after it (as in
   * dwg.h), the layer reference where its pointer is. null when this entity is ambiguous.
   */
  private locate(ent: number, f: CommonFields): EntityLayout | null {
    const a = this.a;
    const c = f.color;
    if (!c || !f.layerRef) return null;
    let color = -1;
    for (let o = 0; o < 240; o += 4) {
      if (a.i16At(ent + o) !== c.index || a.u16At(ent + o + 2) !== c.flag || a.u32At(ent + o + 8) !== c.rgb >>> 0) continue;
      if (a.u8At(ent + o + 32) !== c.alpha_type || a.u8At(ent + o + 33) !== c.alpha) continue;
      if (color >= 0) return null;
      color = o;
    }
    if (color < 0) return null;
    const lay: EntityLayout = {
      color,
      ltscale: color + 40,
      ltflags: color + 48,
      invisible: color + 56,
      linewt: color + 58,
      layer: -1,
      ltype: -1,
      absref: 32,
    };
    if (a.f64At(ent + lay.ltscale) !== f.ltscale || a.u8At(ent + lay.ltflags) !== f.ltFlags) return null;
    if (a.u16At(ent + lay.invisible) !== f.invisible || a.u8At(ent + lay.linewt) !== f.linewt) return null;
    for (let o = lay.linewt + 2; o < 512; o += 4) {
      if (a.u32At(ent + o) !== f.layerRef) continue;
      if (lay.layer >= 0) return null;
      lay.layer = o;
    }
    if (lay.layer < 0) return null;
    if (f.ltypeRef) lay.ltype = a.u32At(ent + lay.layer + 4) === f.ltypeRef ? lay.layer + 4 : -2;
    if ((a.u32At(f.layerRef + lay.absref) >>> 0) !== (a.refHandle(f.layerRef) >>> 0)) return null;
    return lay;
  }

  /** Adds one probe; after PROBES agreeing probes the layout is used for every entity. */
  private probe(obj: number, f: CommonFields): void {
    const found = this.locate(this.w.dwg_object_to_entity(obj), f);
    if (!found) return;
    const first = this.probes[0];
    if (first && (first.color !== found.color || first.layer !== found.layer || found.ltype === -2 || (first.ltype >= 0 && found.ltype >= 0 && first.ltype !== found.ltype))) {
      this.layout = false;
      return;
    }
    this.probes.push(found);
    if (this.probes.length < PROBES) return;
    const ltype = this.probes.find((p) => p.ltype >= 0)?.ltype ?? -1;
    this.layout = { ...found, ltype };
  }

  private base(obj: number, tio: number, type: number, owner: Owner): EntityBase {
    const a = this.a;
    const w = this.w;
    const r2000 = this.names.r2000;
    let color: Color;
    let transparency: number | undefined;
    let layerHandle: number;
    let ltFlags: number;
    let ltypeRef = -1;
    let ltscale: number;
    let linewt: number;
    let invisible: number;
    const lay = this.layout;
    if (lay) {
      const ent = w.dwg_object_to_entity(obj);
      const c = ent + lay.color;
      ({ color, transparency } = heapColor(a.i16At(c), a.u32At(c + 8), a.u32At(c + 28), a.u8At(c + 32), a.u8At(c + 33)));
      const layerRef = a.u32At(ent + lay.layer);
      layerHandle = layerRef ? a.u32At(layerRef + lay.absref) : 0;
      ltFlags = a.u8At(ent + lay.ltflags);
      if (lay.ltype >= 0) ltypeRef = a.u32At(ent + lay.ltype);
      ltscale = a.f64At(ent + lay.ltscale);
      linewt = a.u8At(ent + lay.linewt);
      invisible = a.u16At(ent + lay.invisible);
    } else {
      const f = this.apiFields(tio);
      if (lay === null) this.probe(obj, f);
      const located = this.probes.length ? this.probes[this.probes.length - 1] : undefined;
      if (located && f.color) {
        const c = w.dwg_object_to_entity(obj) + located.color;
        ({ color, transparency } = heapColor(a.i16At(c), a.u32At(c + 8), a.u32At(c + 28), a.u8At(c + 32), a.u8At(c + 33)));
      } else {
        color = modelColor(f.color);
        transparency = transparencyOf(f.color);
      }
      layerHandle = a.refHandle(f.layerRef);
      ltFlags = f.ltFlags;
      ltypeRef = f.ltypeRef;
      ltscale = f.ltscale;
      linewt = f.linewt;
      invisible = f.invisible;
    }
    if (!r2000) ltFlags = 3;
    if (this.names.preR13) {
      // R11 entity header: bit 1 says a colour byte follows (0 = ByBlock); none = ByLayer.
      const flags = a.common<number>(tio, 'flag_r11') ?? 0;
      let c = flags & 1 ? (a.common<number>(tio, 'color_r11') ?? 256) : 256;
      if (c < 0) c += 256;
      color = { aci: c };
      transparency = undefined;
    }
    let linetype = 'BYLAYER';
    if (ltFlags === 1) linetype = this.names.byBlock;
    else if (ltFlags === 2) linetype = this.names.continuous;
    else if (ltFlags === 3) {
      if (ltypeRef < 0) ltypeRef = a.common<number>(tio, 'ltype') ?? 0;
      const name = this.names.ltypes.get(a.refHandle(ltypeRef));
      if (name && name.toUpperCase() !== 'BYLAYER') linetype = name;
    }
    const base: EntityBase = {
      handle: hex(w.dwg_obj_get_handle_value(obj)),
      layer: this.names.layers.get(layerHandle) ?? '0',
      color,
      linetype,
      ltscale: Number.isFinite(ltscale) && ltscale > 0 ? ltscale : 1,
      lineweight: r2000 ? lineweight(linewt) : -1,
      visible: (invisible & 1) === 0,
      extrusion: [0, 0, 1],
      thickness: undefined,
      owner: owner.handle,
      paperSpace: owner.paperSpace,
      transparency,
    };
    if (a.off(tio, type, 'extrusion') >= 0) base.extrusion = normalOr(a.p3(tio, type, 'extrusion'));
    if (a.off(tio, type, 'thickness') >= 0) {
      const t = a.d(tio, type, 'thickness');
      if (t !== 0) base.thickness = t;
    }
    if (base.transparency === undefined) delete base.transparency;
    if (base.thickness === undefined) delete base.thickness;
    return base;
  }

  /** A CMC colour field of an entity struct, read like the entity colour when its layout is known. */
  private structColor(tio: number, type: number, field: string): Color {
    const a = this.a;
    const o = a.off(tio, type, field);
    if (o >= 0 && this.layout) {
      const c = tio + o;
      return heapColor(a.i16At(c), a.u32At(c + 8), a.u32At(c + 28), a.u8At(c + 32), a.u8At(c + 33)).color;
    }
    return modelColor(a.color(tio, field));
  }

  private name(map: Map<number, string>, ref: number, def: string): string {
    return map.get(this.a.refHandle(ref)) ?? def;
  }

  private unknownType(obj: number, type: number): string {
    switch (type) {
      case T.SHAPE:
        return 'SHAPE';
      case T.REGION:
        return 'REGION';
      case T.SOLID3D:
        return '3DSOLID';
      case T.BODY:
        return 'BODY';
      case T.TOLERANCE:
        return 'TOLERANCE';
      case T.MLINE:
        return 'MLINE';
      case T.OLEFRAME:
        return 'OLEFRAME';
      case T.OLE2FRAME:
        return 'OLE2FRAME';
      case T.PROXY_ENTITY:
        return 'ACAD_PROXY_ENTITY';
    }
    try {
      return this.w.dwg_object_get_dxfname(obj) || `TYPE_${type}`;
    } catch {
      return `TYPE_${type}`;
    }
  }

  // -- dispatch ---------------------------------------------------------------------------------

  /** The model entity for a top-level DWG entity; null for sub-entities read with their parent. */
  read(obj: number, owner: Owner): Entity | null {
    const w = this.w;
    const type = w.dwg_object_get_fixedtype(obj);
    switch (type) {
      case T.BLOCK:
      case T.ENDBLK:
      case T.SEQEND:
      case T.VERTEX_2D:
      case T.VERTEX_3D:
      case T.VERTEX_MESH:
      case T.VERTEX_PFACE:
      case T.VERTEX_PFACE_FACE:
      case T.ATTRIB:
        return null;
    }
    const tio = w.dwg_object_to_entity_tio(obj);
    if (!tio) return null;
    let dxfName = '';
    if (type >= 500) {
      try {
        dxfName = w.dwg_object_get_dxfname(obj);
      } catch {
        dxfName = '';
      }
    }
    if (NOT_ENTITIES.has(dxfName)) return null;
    try {
      const e = this.entity(obj, tio, type, dxfName, owner);
      if (e) return e;
    } catch (err) {
      if (isWasmTrap(err)) throw err;
      this.warnings.push(`${dxfName || type} ${hex(w.dwg_obj_get_handle_value(obj))}: ${(err as Error).message}`);
    }
    const dxfType = dxfName || this.unknownType(obj, type);
    this.unknown.set(dxfType, (this.unknown.get(dxfType) ?? 0) + 1);
    const unknown: Entity = { ...this.base(obj, tio, type, owner), type: 'UNKNOWN', dxfType };
    const graphics = this.proxyGraphics(obj);
    if (graphics) unknown.graphics = graphics;
    return unknown;
  }

  /**
   * The proxy entity graphics of a custom or proxy entity (LibreDWG's common entity `preview`,
   * e.g. TArch's TCH_WALL, AEC_WALL) as hex, as the DXF reader keeps the 310 groups.
   */
  private proxyGraphics(obj: number): string | undefined {
    let bytes: Uint8Array | null | undefined;
    try {
      const r = this.w.dwg_entity_get_preview?.(obj);
      bytes = r instanceof Uint8Array ? r : r?.data;
    } catch (err) {
      if (isWasmTrap(err)) throw err;
      return undefined;
    }
    if (!bytes || bytes.length < 8) return undefined;
    // The metafile starts with its own size: trust it over the buffer when it is shorter.
    const total = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(0, true);
    const n = total >= 8 && total < bytes.length ? total : bytes.length;
    let hexText = '';
    for (let i = 0; i < n; i++) hexText += HEX[bytes[i] as number] as string;
    return hexText;
  }

  private entity(obj: number, tio: number, type: number, dxfName: string, owner: Owner): Entity | null {
    const a = this.a;
    switch (type) {
      case T.LINE:
        return { ...this.base(obj, tio, type, owner), type: 'LINE', start: a.p3(tio, type, 'start'), end: a.p3(tio, type, 'end') };
      case T.POINT:
        return {
          ...this.base(obj, tio, type, owner),
          type: 'POINT',
          position: [a.d(tio, type, 'x'), a.d(tio, type, 'y'), a.d(tio, type, 'z')],
          angle: a.d(tio, type, 'x_ang') * RAD2DEG,
        };
      case T.CIRCLE:
        return { ...this.base(obj, tio, type, owner), type: 'CIRCLE', center: a.p3(tio, type, 'center'), radius: a.d(tio, type, 'radius') };
      case T.ARC:
        return {
          ...this.base(obj, tio, type, owner),
          type: 'ARC',
          center: a.p3(tio, type, 'center'),
          radius: a.d(tio, type, 'radius'),
          startAngle: a.d(tio, type, 'start_angle') * RAD2DEG,
          endAngle: a.d(tio, type, 'end_angle') * RAD2DEG,
        };
      case T.ELLIPSE: {
        const end = a.d(tio, type, 'end_angle', TWO_PI);
        return {
          ...this.base(obj, tio, type, owner),
          type: 'ELLIPSE',
          center: a.p3(tio, type, 'center'),
          majorAxis: a.p3(tio, type, 'sm_axis'),
          ratio: a.d(tio, type, 'axis_ratio', 1),
          startParam: a.d(tio, type, 'start_angle'),
          endParam: end,
        };
      }
      case T.LWPOLYLINE:
        return this.lwpolyline(obj, tio, type, owner);
      case T.POLYLINE_2D:
      case T.POLYLINE_3D:
      case T.POLYLINE_PFACE:
      case T.POLYLINE_MESH:
        return this.polyline(obj, tio, type, owner);
      case T.SPLINE:
        return this.spline(obj, tio, type, owner);
      case T.SOLID:
      case T.TRACE: {
        const z = a.d(tio, type, 'elevation');
        const c = (f: string): Vec3 => {
          const p = a.p2(tio, type, f);
          return [p[0], p[1], z];
        };
        return { ...this.base(obj, tio, type, owner), type: type === T.SOLID ? 'SOLID' : 'TRACE', points: [c('corner1'), c('corner2'), c('corner3'), c('corner4')] };
      }
      case T.FACE3D:
        return {
          ...this.base(obj, tio, type, owner),
          type: '3DFACE',
          points: [a.p3(tio, type, 'corner1'), a.p3(tio, type, 'corner2'), a.p3(tio, type, 'corner3'), a.p3(tio, type, 'corner4')],
          invisibleEdges: a.u16(tio, type, 'invis_flags'),
        };
      case T.TEXT:
      case T.ATTDEF:
        return this.text(obj, tio, type, owner);
      case T.MTEXT:
        return this.mtext(obj, tio, type, owner);
      case T.INSERT:
      case T.MINSERT:
        return this.insert(obj, tio, type, owner);
      case T.DIMENSION_ORDINATE:
      case T.DIMENSION_LINEAR:
      case T.DIMENSION_ALIGNED:
      case T.DIMENSION_ANG3PT:
      case T.DIMENSION_ANG2LN:
      case T.DIMENSION_RADIUS:
      case T.DIMENSION_DIAMETER:
        return this.dimension(obj, tio, type, owner);
      case T.LEADER:
        return this.leader(obj, tio, type, owner);
      case T.HATCH:
        return this.hatch(obj, tio, type, owner);
      case T.XLINE:
      case T.RAY:
        return {
          ...this.base(obj, tio, type, owner),
          type: type === T.XLINE ? 'XLINE' : 'RAY',
          base: a.p3(tio, type, 'point'),
          direction: a.p3(tio, type, 'vector', [1, 0, 0]),
        };
      case T.VIEWPORT:
        return this.viewport(obj, tio, type, owner);
      case T.MLINE:
        return this.mline(obj, tio, type, owner);
    }
    if (dxfName in DIMENSION_CLASSES) return this.dimension(obj, tio, type, owner, DIMENSION_CLASSES[dxfName]);
    switch (dxfName) {
      case 'MESH':
        return this.mesh(obj, tio, type, owner);
      case '3DLINE':
        return { ...this.base(obj, tio, type, owner), type: 'LINE', start: a.p3(tio, type, 'start'), end: a.p3(tio, type, 'end') };
      case 'MULTILEADER':
        return this.mleader(obj, tio, type, owner);
      case 'IMAGE':
      case 'WIPEOUT':
        return this.image(obj, tio, type, owner, dxfName);
      case 'ACAD_TABLE':
        return this.table(obj, tio, type, owner);
    }
    return null;
  }

  // -- curves -----------------------------------------------------------------------------------

  private lwpolyline(obj: number, tio: number, type: number, owner: Owner): Entity {
    const a = this.a;
    const flag = a.u16(tio, type, 'flag');
    const n = a.u32(tio, type, 'num_points');
    const pts = a.ptr(tio, type, 'points');
    const nb = a.u32(tio, type, 'num_bulges');
    const bulges = a.ptr(tio, type, 'bulges');
    const nw = a.u32(tio, type, 'num_widths');
    const widths = a.ptr(tio, type, 'widths');
    const vertices: LwVertex[] = new Array<LwVertex>(pts ? n : 0);
    for (let i = 0; i < vertices.length; i++) {
      const p = pts + 16 * i;
      vertices[i] = {
        x: a.f64At(p),
        y: a.f64At(p + 8),
        bulge: bulges && i < nb ? a.f64At(bulges + 8 * i) : 0,
        startWidth: widths && i < nw ? a.f64At(widths + 16 * i) : 0,
        endWidth: widths && i < nw ? a.f64At(widths + 16 * i + 8) : 0,
      };
    }
    return {
      ...this.base(obj, tio, type, owner),
      type: 'LWPOLYLINE',
      vertices,
      closed: (flag & 512) !== 0,
      plinegen: (flag & 256) !== 0,
      constantWidth: a.d(tio, type, 'const_width'),
      elevation: a.d(tio, type, 'elevation'),
    };
  }

  /**
   * Sub-entities (vertices, attributes) of a POLYLINE or INSERT, in order: the handle array of
   * R2004+ files, else the run between the first and last handles (R13-R2000), else LibreDWG's
   * own iteration.
   */
  private owned(obj: number, tio: number, type: number, arrayField: string, firstField: string, lastField: string): number[] {
    const a = this.a;
    const w = this.w;
    const refObj = (ref: number): number => {
      if (!ref) return 0;
      try {
        return w.dwg_ref_get_object(ref);
      } catch {
        return 0;
      }
    };
    const n = a.u32(tio, type, 'num_owned');
    const arr = a.ptr(tio, type, arrayField);
    if (arr && n > 0 && n < 10_000_000) {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const o = refObj(a.u32At(arr + 4 * i));
        if (o) out.push(o);
      }
      if (out.length) return out;
    }
    const first = refObj(a.ptr(tio, type, firstField));
    const last = refObj(a.ptr(tio, type, lastField));
    if (first && last) {
      const run = this.between(first, last);
      if (run.length) return run;
    }
    return this.subEntities(obj);
  }

  /** Sub-entities as LibreDWG iterates them. */
  private subEntities(obj: number): number[] {
    const w = this.w;
    const out: number[] = [];
    const seen = new Set<number>();
    for (let cur = w.get_first_owned_subentity(obj); cur && !seen.has(cur); cur = w.get_next_owned_subentity(obj, cur)) {
      seen.add(cur);
      out.push(cur);
      if (out.length > 10_000_000) break;
    }
    return out;
  }

  private polyline(obj: number, tio: number, type: number, owner: Owner): PolylineEntity {
    const a = this.a;
    const w = this.w;
    let flags: number;
    let kind: PolylineEntity['kind'];
    let m = 0;
    let n = 0;
    let elevation = 0;
    let sw = 0;
    let ew = 0;
    if (type === T.POLYLINE_2D) {
      flags = a.u16(tio, type, 'flag') & ~(8 | 16 | 64);
      kind = '2d';
      elevation = a.d(tio, type, 'elevation');
      sw = a.d(tio, type, 'start_width');
      ew = a.d(tio, type, 'end_width');
    } else if (type === T.POLYLINE_3D) {
      const f = a.u8(tio, type, 'flag');
      const curve = a.u8(tio, type, 'curve_type');
      // DWG flag: 1 closed (and 2 curve-fit bits in curve_type); DXF 70: 1 closed, 4 spline fit, 8 3D.
      flags = 8 | (f & 1) | (curve === 5 || curve === 6 ? 4 : 0);
      kind = '3d';
    } else if (type === T.POLYLINE_PFACE) {
      flags = 64;
      kind = 'polyface';
      m = a.u16(tio, type, 'numverts');
      n = a.u16(tio, type, 'numfaces');
    } else {
      flags = (a.u16(tio, type, 'flag') & ~(8 | 64)) | 16;
      kind = 'mesh';
      m = a.u16(tio, type, 'num_m_verts');
      n = a.u16(tio, type, 'num_n_verts');
    }
    const pl: PolylineEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'POLYLINE',
      kind,
      flags,
      closed: (flags & 1) !== 0,
      elevation,
      defaultStartWidth: sw,
      defaultEndWidth: ew,
      m,
      n,
      meshClosedN: (flags & 32) !== 0,
      vertices: [],
      faces: [],
    };
    for (const v of this.owned(obj, tio, type, 'vertex', 'first_vertex', 'last_vertex')) {
      const vt = w.dwg_object_get_fixedtype(v);
      const vtio = w.dwg_object_to_entity_tio(v);
      if (!vtio) continue;
      if (vt === T.VERTEX_PFACE_FACE) {
        const o = a.off(vtio, vt, 'vertind');
        const face: number[] = [];
        if (o >= 0)
          for (let k = 0; k < 4; k++) {
            const idx = a.i16At(vtio + o + 2 * k);
            if (idx !== 0) face.push(idx);
          }
        pl.faces.push(face);
        continue;
      }
      if (vt !== T.VERTEX_2D && vt !== T.VERTEX_3D && vt !== T.VERTEX_MESH && vt !== T.VERTEX_PFACE) continue;
      const vflag = a.u8(vtio, vt, 'flag');
      const vertex: PolylineVertex = { position: a.p3(vtio, vt, 'point'), bulge: 0, startWidth: 0, endWidth: 0, flags: vflag };
      if (vt === T.VERTEX_2D) {
        vertex.bulge = a.d(vtio, vt, 'bulge');
        let s = a.d(vtio, vt, 'start_width');
        let e = a.d(vtio, vt, 'end_width');
        // A negative start width stands for equal start and end widths.
        if (s < 0) e = s = -s;
        vertex.startWidth = s;
        vertex.endWidth = e;
      } else if (vt === T.VERTEX_PFACE) vertex.flags = vflag | 64 | 128;
      else if (vt === T.VERTEX_MESH) vertex.flags = vflag | 64;
      else vertex.flags = vflag | 32;
      pl.vertices.push(vertex);
    }
    return pl;
  }

  private spline(obj: number, tio: number, type: number, owner: Owner): SplineEntity {
    const a = this.a;
    const closed = a.u8(tio, type, 'closed_b') !== 0;
    const periodic = a.u8(tio, type, 'periodic') !== 0;
    const rational = a.u8(tio, type, 'rational') !== 0;
    const weighted = a.u8(tio, type, 'weighted') !== 0;
    let flags = a.u16(tio, type, 'flag');
    if (closed) flags |= 1;
    if (periodic) flags |= 2;
    if (rational) flags |= 4;
    const nk = a.u32(tio, type, 'num_knots');
    const knotsPtr = a.ptr(tio, type, 'knots');
    const knots = knotsPtr ? a.doublesAt(knotsPtr, nk) : [];
    const nc = a.u32(tio, type, 'num_ctrl_pts');
    const ctrl = a.ptr(tio, type, 'ctrl_pts');
    const size = a.subSize('SPLINE_control_point') || 40;
    const ox = Math.max(0, a.subOff('SPLINE_control_point', 'x'));
    const ow = a.subOff('SPLINE_control_point', 'w');
    const controlPoints: Vec3[] = [];
    const weights: number[] = [];
    if (ctrl)
      for (let i = 0; i < nc; i++) {
        const p = ctrl + size * i;
        controlPoints.push(a.p3At(p + ox));
        weights.push(ow >= 0 ? a.f64At(p + ow) : 1);
      }
    const nf = a.u16(tio, type, 'num_fit_pts');
    const fit = a.ptr(tio, type, 'fit_pts');
    const fitPoints: Vec3[] = [];
    if (fit) for (let i = 0; i < nf; i++) fitPoints.push(a.p3At(fit + 24 * i));
    const e: SplineEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'SPLINE',
      degree: a.u16(tio, type, 'degree', 3),
      flags,
      closed,
      periodic,
      rational,
      knots,
      weights: (rational || weighted) && !weights.every((x) => x === 1) ? weights : [],
      controlPoints,
      fitPoints,
    };
    if (fitPoints.length) {
      const st = a.p3(tio, type, 'beg_tan_vec');
      const et = a.p3(tio, type, 'end_tan_vec');
      if (!isZero(st)) e.startTangent = st;
      if (!isZero(et)) e.endTangent = et;
    }
    return e;
  }

  // -- text -------------------------------------------------------------------------------------

  private textBase(obj: number, tio: number, type: number, owner: Owner, kind: TextEntity['type']): TextEntity {
    const a = this.a;
    const z = a.d(tio, type, 'elevation');
    const ins = a.p2(tio, type, 'ins_pt');
    const halign = a.u16(tio, type, 'horiz_alignment');
    const valign = a.u16(tio, type, 'vert_alignment');
    const e: TextEntity = {
      ...this.base(obj, tio, type, owner),
      type: kind,
      text: a.str(tio, type, type === T.ATTDEF ? 'default_value' : 'text_value'),
      insertion: [ins[0], ins[1], z],
      height: a.d(tio, type, 'height', 1),
      rotation: a.d(tio, type, 'rotation') * RAD2DEG,
      widthFactor: a.d(tio, type, 'width_factor', 1) || 1,
      oblique: a.d(tio, type, 'oblique_angle') * RAD2DEG,
      style: this.name(this.names.styles, a.ptr(tio, type, 'style'), 'STANDARD'),
      halign,
      valign,
      generation: a.u16(tio, type, 'generation'),
    };
    if (halign !== 0 || valign !== 0) {
      const al = a.p2(tio, type, 'alignment_pt');
      e.alignPoint = [al[0], al[1], z];
    }
    if (type !== T.TEXT) {
      e.tag = a.str(tio, type, 'tag');
      const flags = a.u8(tio, type, 'flags');
      // LibreDWG misreads the flags of R2018 multi-line attributes (values above 15).
      e.attributeFlags = flags <= 15 ? flags : 0;
      if (type === T.ATTDEF) e.prompt = a.str(tio, type, 'prompt');
    }
    return e;
  }

  private text(obj: number, tio: number, type: number, owner: Owner): TextEntity {
    return this.textBase(obj, tio, type, owner, type === T.ATTDEF ? 'ATTDEF' : 'TEXT');
  }

  private mtext(obj: number, tio: number, type: number, owner: Owner): MTextEntity {
    const a = this.a;
    const dir = a.p3(tio, type, 'x_axis_dir');
    const e: MTextEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'MTEXT',
      // A line feed in the stored text is a paragraph break (DXF writes it as ^J; both become \P).
      text: a.str(tio, type, 'text').replace(/\r?\n/g, '\\P'),
      insertion: a.p3(tio, type, 'ins_pt'),
      height: a.d(tio, type, 'text_height', 1),
      width: a.d(tio, type, 'rect_width'),
      attachment: a.u16(tio, type, 'attachment', 1) || 1,
      drawingDirection: a.u16(tio, type, 'flow_dir', 1) || 1,
      rotation: 0,
      style: this.name(this.names.styles, a.ptr(tio, type, 'style'), 'STANDARD'),
      lineSpacingFactor: a.d(tio, type, 'linespace_factor', 1) || 1,
      lineSpacingStyle: a.u16(tio, type, 'linespace_style', 1) || 1,
    };
    // DXF writes group 11 only for rotated text; so does this reader.
    if ((dir[0] !== 0 || dir[1] !== 0) && !(dir[0] === 1 && dir[1] === 0 && dir[2] === 0)) {
      e.direction = dir;
      e.rotation = Math.atan2(dir[1], dir[0]) * RAD2DEG;
    }
    const bg = a.u32(tio, type, 'bg_fill_flag');
    if (bg) {
      const scale = a.value<number>(tio, 'bg_fill_scale');
      e.background = { flags: bg, color: this.structColor(tio, type, 'bg_fill_color'), scale: typeof scale === 'number' && scale >= 1 && scale <= 5 ? scale : 1.5 };
    }
    const colType = a.u16(tio, type, 'column_type');
    if (colType) {
      const nh = a.u32(tio, type, 'num_column_heights');
      const hp = a.ptr(tio, type, 'column_heights');
      const heights = hp ? a.doublesAt(hp, Math.min(nh, 10_000)).map((h) => (h > 0 && h < 1e15 ? h : 0)) : [];
      e.columns = {
        type: colType,
        count: Math.max(a.u32(tio, type, 'numfragments'), heights.length, 1),
        width: a.d(tio, type, 'column_width'),
        gutter: a.d(tio, type, 'gutter'),
        autoHeight: a.u8(tio, type, 'auto_height') !== 0,
        heights,
      };
    }
    return e;
  }

  // -- blocks -----------------------------------------------------------------------------------

  private insert(obj: number, tio: number, type: number, owner: Owner): InsertEntity {
    const a = this.a;
    const w = this.w;
    const multi = type === T.MINSERT;
    let scale = a.p3(tio, type, 'scale', [1, 1, 1]);
    // R11 inserts written without a scale leave it zero.
    if (scale[0] === 0 && scale[1] === 0 && scale[2] === 0) scale = [1, 1, 1];
    const name = this.name(this.names.blocks, a.ptr(tio, type, 'block_header'), '') || a.str(tio, type, 'block_name');
    if (!name) this.warnings.push(`${multi ? 'MINSERT' : 'INSERT'} ${hex(w.dwg_obj_get_handle_value(obj))}: LibreDWG did not resolve its block; it is not drawn`);
    const e: InsertEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'INSERT',
      name,
      insertion: a.p3(tio, type, 'ins_pt'),
      scale,
      rotation: a.d(tio, type, 'rotation') * RAD2DEG,
      columnCount: multi ? Math.max(1, a.u16(tio, type, 'num_cols')) : 1,
      rowCount: multi ? Math.max(1, a.u16(tio, type, 'num_rows')) : 1,
      columnSpacing: multi ? a.d(tio, type, 'col_spacing') : 0,
      rowSpacing: multi ? a.d(tio, type, 'row_spacing') : 0,
      attributes: [],
    };
    const xdict = a.refHandle(a.common<number>(tio, 'xdicobjhandle') ?? 0);
    if (xdict) this.xdictInserts.push([e, xdict]);
    if (a.u8(tio, type, 'has_attribs')) {
      for (const sub of this.owned(obj, tio, type, 'attribs', 'first_attrib', 'last_attrib')) {
        if (w.dwg_object_get_fixedtype(sub) !== T.ATTRIB) continue;
        const stio = w.dwg_object_to_entity_tio(sub);
        if (stio) e.attributes.push(this.textBase(sub, stio, T.ATTRIB, { handle: e.handle ?? owner.handle, paperSpace: owner.paperSpace }, 'ATTRIB'));
      }
    }
    return e;
  }

  // -- annotations ------------------------------------------------------------------------------

  private dimension(obj: number, tio: number, type: number, owner: Owner, classType?: number): DimensionEntity {
    const a = this.a;
    const subtype: Record<number, number> = {
      [T.DIMENSION_LINEAR]: 0,
      [T.DIMENSION_ALIGNED]: 1,
      [T.DIMENSION_ANG2LN]: 2,
      [T.DIMENSION_DIAMETER]: 3,
      [T.DIMENSION_RADIUS]: 4,
      [T.DIMENSION_ANG3PT]: 5,
      [T.DIMENSION_ORDINATE]: 6,
    };
    const dimType = classType ?? subtype[type] ?? 0;
    let flags = (a.u8(tio, type, 'flag') & ~7) | dimType;
    const z = a.d(tio, type, 'elevation');
    const mid = a.p2(tio, type, 'text_midpt');
    const defPoints: DimensionEntity['defPoints'] = {};
    let defPoint = a.p3(tio, type, 'def_pt');
    let angle = 0;
    switch (type) {
      case T.DIMENSION_LINEAR:
        angle = a.d(tio, type, 'dim_rotation') * RAD2DEG;
        defPoints.p13 = a.p3(tio, type, 'xline1_pt');
        defPoints.p14 = a.p3(tio, type, 'xline2_pt');
        break;
      case T.DIMENSION_ALIGNED:
        defPoints.p13 = a.p3(tio, type, 'xline1_pt');
        defPoints.p14 = a.p3(tio, type, 'xline2_pt');
        break;
      case T.DIMENSION_ANG3PT:
        defPoints.p13 = a.p3(tio, type, 'xline1_pt');
        defPoints.p14 = a.p3(tio, type, 'xline2_pt');
        defPoints.p15 = a.p3(tio, type, 'center_pt');
        break;
      case T.DIMENSION_ANG2LN:
        // DXF 10 is the end of the second line; LibreDWG's def_pt is the arc location (DXF 16).
        defPoints.p16 = defPoint;
        defPoint = a.p3(tio, type, 'xline2end_pt');
        defPoints.p13 = a.p3(tio, type, 'xline1start_pt');
        defPoints.p14 = a.p3(tio, type, 'xline1end_pt');
        defPoints.p15 = a.p3(tio, type, 'xline2start_pt');
        break;
      case T.DIMENSION_RADIUS:
      case T.DIMENSION_DIAMETER:
        defPoints.p15 = a.p3(tio, type, 'first_arc_pt');
        break;
      case T.DIMENSION_ORDINATE:
        defPoints.p13 = a.p3(tio, type, 'feature_location_pt');
        defPoints.p14 = a.p3(tio, type, 'leader_endpt');
        if (a.u8(tio, type, 'flag2')) flags |= 64;
        break;
      default:
        // ARC_DIMENSION (13, 14, 15 like the 3-point angle); LARGE_RADIAL_DIMENSION has none.
        if (a.off(tio, type, 'xline1_pt') >= 0) {
          defPoints.p13 = a.p3(tio, type, 'xline1_pt');
          defPoints.p14 = a.p3(tio, type, 'xline2_pt');
          defPoints.p15 = a.p3(tio, type, 'center_pt');
        }
    }
    const e: DimensionEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'DIMENSION',
      block: this.name(this.names.blocks, a.ptr(tio, type, 'block'), ''),
      dimType,
      flags,
      style: this.name(this.names.dimstyles, a.ptr(tio, type, 'dimstyle'), 'STANDARD'),
      text: a.str(tio, type, 'user_text'),
      defPoint,
      textMidpoint: [mid[0], mid[1], z],
      defPoints,
      textRotation: a.d(tio, type, 'text_rotation') * RAD2DEG,
      angle,
      attachment: a.u16(tio, type, 'attachment', 5) || 5,
    };
    const m = a.d(tio, type, 'act_measurement', NaN);
    if (!Number.isNaN(m)) e.measurement = m;
    return e;
  }

  private leader(obj: number, tio: number, type: number, owner: Owner): Entity {
    const a = this.a;
    const n = a.u32(tio, type, 'num_points');
    const p = a.ptr(tio, type, 'points');
    const vertices: Vec3[] = [];
    if (p) for (let i = 0; i < Math.min(n, 100_000); i++) vertices.push(a.p3At(p + 24 * i));
    const e: Entity = {
      ...this.base(obj, tio, type, owner),
      type: 'LEADER',
      vertices,
      arrowhead: a.u8(tio, type, 'arrowhead_on') !== 0,
      pathType: a.u16(tio, type, 'path_type'),
      style: this.name(this.names.dimstyles, a.ptr(tio, type, 'dimstyle'), 'STANDARD'),
    };
    const ann = a.refHandle(a.ptr(tio, type, 'associated_annotation'));
    if (ann) e.annotation = hex(ann);
    if (e.type === 'LEADER') {
      if (a.off(tio, type, 'annot_type') >= 0) e.annotationType = a.u16(tio, type, 'annot_type');
      if (a.off(tio, type, 'hookline_on') >= 0) e.hookline = a.u8(tio, type, 'hookline_on') !== 0;
      if (a.off(tio, type, 'hookline_dir') >= 0) e.hooklineDirection = a.u8(tio, type, 'hookline_dir');
      if (a.off(tio, type, 'box_height') >= 0) e.textHeight = a.d(tio, type, 'box_height');
      if (a.off(tio, type, 'box_width') >= 0) e.textWidth = a.d(tio, type, 'box_width');
      const hd = a.p3(tio, type, 'x_direction');
      if (!isZero(hd)) e.horizontalDirection = hd;
      const bc = a.u16(tio, type, 'byblock_color');
      if (bc > 0 && bc < 256) e.blockColor = bc;
    }
    return e;
  }

  private mleader(obj: number, tio: number, type: number, owner: Owner): MLeaderEntity {
    const a = this.a;
    const e: MLeaderEntity = { ...this.base(obj, tio, type, owner), type: 'MULTILEADER', leaders: [] };
    const style = a.refHandle(a.ptr(tio, type, 'mleaderstyle'));
    if (style) e.styleHandle = hex(style);
    const ctxOff = a.off(tio, type, 'ctx');
    if (ctxOff < 0) return e;
    const ctx = tio + ctxOff;
    const C = 'MLEADER_AnnotContext';
    const at = (sub: string, f: string, base: number): number => {
      const o = a.subOff(sub, f);
      return o < 0 ? -1 : base + o;
    };
    const num = (addr: number, kind: 'd' | 'u32' | 'u8'): number => (addr < 0 ? 0 : kind === 'd' ? a.f64At(addr) : kind === 'u32' ? a.u32At(addr) : a.u8At(addr));
    /** A CMC colour struct at `addr` (the layout the entity colour probe confirmed). */
    const cmcAt = (addr: number): Color => heapColor(a.i16At(addr), a.u32At(addr + 8), a.u32At(addr + 28), a.u8At(addr + 32), a.u8At(addr + 33)).color;
    const nLeaders = num(at(C, 'num_leaders', ctx), 'u32');
    const leadersPtr = num(at(C, 'leaders', ctx), 'u32');
    const nodeSize = a.subSize('LEADER_Node');
    const lineSize = a.subSize('LEADER_Line');
    if (leadersPtr && nodeSize > 0)
      for (let i = 0; i < Math.min(nLeaders, 1000); i++) {
        const node = leadersPtr + i * nodeSize;
        const leader: MLeaderEntity['leaders'][number] = { doglegLength: num(at('LEADER_Node', 'dogleg_length', node), 'd'), lines: [] };
        const attach = at('LEADER_Node', 'attach_dir', node);
        if (attach >= 0) leader.attachmentDirection = a.u16At(attach);
        if (num(at('LEADER_Node', 'has_lastleaderlinepoint', node), 'u8')) leader.lastPoint = a.p3At(at('LEADER_Node', 'lastleaderlinepoint', node));
        if (num(at('LEADER_Node', 'has_dogleg', node), 'u8')) leader.doglegVector = a.p3At(at('LEADER_Node', 'dogleg_vector', node));
        const nLines = num(at('LEADER_Node', 'num_lines', node), 'u32');
        const linesPtr = num(at('LEADER_Node', 'lines', node), 'u32');
        if (linesPtr && lineSize > 0)
          for (let j = 0; j < Math.min(nLines, 1000); j++) {
            const line = linesPtr + j * lineSize;
            const np = num(at('LEADER_Line', 'num_points', line), 'u32');
            const pts = num(at('LEADER_Line', 'points', line), 'u32');
            const vertices: Vec3[] = [];
            if (pts) for (let k = 0; k < Math.min(np, 10_000); k++) vertices.push(a.p3At(pts + 24 * k));
            const ml: MLeaderEntity['leaders'][number]['lines'][number] = { vertices };
            const index = at('LEADER_Line', 'line_index', line);
            if (index >= 0) ml.index = a.u32At(index);
            const lc = at('LEADER_Line', 'color', line);
            if (lc >= 0) {
              // ByBlock (the default) = the leader's colour.
              const c = cmcAt(lc);
              if (c.aci !== 0 || c.rgb !== undefined) ml.color = c;
            }
            leader.lines.push(ml);
          }
        e.leaders.push(leader);
      }
    const textHeight = at(C, 'text_height', ctx);
    if (textHeight >= 0) e.textHeight = a.f64At(textHeight);
    const arrow = at(C, 'arrow_size', ctx);
    if (arrow >= 0) e.arrowSize = a.f64At(arrow);
    const scale = at(C, 'scale_factor', ctx);
    if (scale >= 0) e.contentScale = a.f64At(scale);
    const base = at(C, 'content_base', ctx);
    if (base >= 0) e.contentBase = a.p3At(base);
    const gap = at(C, 'landing_gap', ctx);
    if (gap >= 0) e.landingGap = a.f64At(gap);
    const left = at(C, 'text_left', ctx);
    if (left >= 0) e.textLeftAttachment = a.u16At(left);
    const right = at(C, 'text_right', ctx);
    if (right >= 0) e.textRightAttachment = a.u16At(right);
    const top = at(C, 'text_top', ctx);
    if (top >= 0) e.textTopAttachment = a.u16At(top);
    const bottom = at(C, 'text_bottom', ctx);
    if (bottom >= 0) e.textBottomAttachment = a.u16At(bottom);
    const content = at(C, 'content', ctx);
    if (content >= 0 && num(at(C, 'has_content_txt', ctx), 'u8')) {
      const M = 'MLEADER_Content_MText';
      const textPtr = at(M, 'default_text', content);
      if (textPtr >= 0) e.text = a.strAt(a.u32At(textPtr));
      const loc = at(M, 'location', content);
      if (loc >= 0) e.textPosition = a.p3At(loc);
      const dir = at(M, 'direction', content);
      if (dir >= 0) e.textDirection = a.p3At(dir);
      const width = at(M, 'width', content);
      if (width >= 0) e.textWidth = a.f64At(width);
      const dh = at(M, 'height', content);
      if (dh >= 0) e.textDefinedHeight = a.f64At(dh);
      const normal = at(M, 'normal', content);
      if (normal >= 0) e.textNormal = normalOr(a.p3At(normal));
      const style = at(M, 'style', content);
      const sh = style >= 0 ? a.refHandle(a.u32At(style)) : 0;
      if (sh) e.textStyleHandle = hex(sh);
      const align = at(M, 'alignment', content);
      if (align >= 0) e.textAlignment = a.u16At(align);
      const flow = at(M, 'flow', content);
      if (flow >= 0) e.textFlow = a.u16At(flow);
      const lsf = at(M, 'line_spacing_factor', content);
      if (lsf >= 0) e.textLineSpacingFactor = a.f64At(lsf);
      const lss = at(M, 'line_spacing_style', content);
      if (lss >= 0) e.textLineSpacingStyle = a.u16At(lss);
      const color = at(M, 'color', content);
      if (color >= 0) e.textColor = cmcAt(color);
      // 292 (is_bg_mask_fill): a background mask; 291 (is_bg_fill): in the window colour.
      if (num(at(M, 'is_bg_mask_fill', content), 'u8')) {
        const bgc = at(M, 'bg_color', content);
        const bgs = at(M, 'bg_scale', content);
        const s = bgs >= 0 ? a.f64At(bgs) : 1.5;
        e.textBackground = { ...(bgc >= 0 ? { color: cmcAt(bgc) } : {}), scale: s > 0 ? s : 1.5, useWindowColor: num(at(M, 'is_bg_fill', content), 'u8') !== 0 };
      }
    }
    if (content >= 0 && num(at(C, 'has_content_blk', ctx), 'u8')) {
      const B = 'MLEADER_Content_Block';
      const ref = at(B, 'block_table', content);
      const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
      if (h) e.blockHandle = hex(h);
      const loc = at(B, 'location', content);
      if (loc >= 0) e.blockPosition = a.p3At(loc);
      const normal = at(B, 'normal', content);
      if (normal >= 0) e.blockNormal = normalOr(a.p3At(normal));
      const bs = at(B, 'scale', content);
      if (bs >= 0) e.blockScale = a.p3At(bs);
      const rot = at(B, 'rotation', content);
      if (rot >= 0) e.blockRotation = a.f64At(rot) * RAD2DEG;
      const color = at(B, 'color', content);
      if (color >= 0) e.blockColor = cmcAt(color);
    }
    if (e.blockHandle === undefined) {
      const h = a.refHandle(a.ptr(tio, type, 'block_style'));
      if (h) e.blockHandle = hex(h);
    }
    // Entity-level properties (MLEADERSTYLE values or their overrides).
    if (a.off(tio, type, 'type') >= 0) e.leaderType = a.u16(tio, type, 'type');
    for (const f of ['line_color', 'color']) {
      if (a.off(tio, type, f) < 0) continue;
      e.leaderColor = this.structColor(tio, type, f);
      break;
    }
    for (const f of ['line_ltype', 'ltype']) {
      const h = a.off(tio, type, f) >= 0 ? a.refHandle(a.ptr(tio, type, f)) : 0;
      if (!h) continue;
      e.leaderLinetypeHandle = hex(h);
      break;
    }
    for (const f of ['line_linewt', 'linewt']) {
      const o = a.off(tio, type, f);
      if (o < 0) continue;
      e.leaderLineweight = a.i32At(tio + o);
      break;
    }
    if (a.off(tio, type, 'has_landing') >= 0) e.hasLanding = a.u8(tio, type, 'has_landing') !== 0;
    if (a.off(tio, type, 'has_dogleg') >= 0) e.hasDogleg = a.u8(tio, type, 'has_dogleg') !== 0;
    const arrowHandle = a.refHandle(a.ptr(tio, type, 'arrow_handle'));
    if (arrowHandle) e.arrowHandle = hex(arrowHandle);
    if (e.arrowSize === undefined && a.off(tio, type, 'arrow_size') >= 0) e.arrowSize = a.d(tio, type, 'arrow_size');
    if (a.off(tio, type, 'style_content') >= 0) e.contentType = a.u16(tio, type, 'style_content');
    if (e.textStyleHandle === undefined) {
      const h = a.refHandle(a.ptr(tio, type, 'text_style'));
      if (h) e.textStyleHandle = hex(h);
    }
    if (e.textColor === undefined && a.off(tio, type, 'text_color') >= 0) e.textColor = this.structColor(tio, type, 'text_color');
    if (a.off(tio, type, 'has_text_frame') >= 0) e.textFrame = a.u8(tio, type, 'has_text_frame') !== 0;
    if (e.blockColor === undefined && a.off(tio, type, 'block_color') >= 0) e.blockColor = this.structColor(tio, type, 'block_color');
    if (e.blockScale === undefined && a.off(tio, type, 'block_scale') >= 0) e.blockScale = a.p3(tio, type, 'block_scale', [1, 1, 1]);
    if (e.blockRotation === undefined && a.off(tio, type, 'block_rotation') >= 0) e.blockRotation = a.d(tio, type, 'block_rotation') * RAD2DEG;
    if (a.off(tio, type, 'justification') >= 0) e.textAttachmentPoint = a.u16(tio, type, 'justification');
    if (a.off(tio, type, 'attach_dir') >= 0) e.textAttachmentDirection = a.u16(tio, type, 'attach_dir');
    const nArrows = a.u32(tio, type, 'num_arrowheads');
    const arrows = a.ptr(tio, type, 'arrowheads');
    const arrowSize = a.subSize('LEADER_ArrowHead');
    if (arrows && arrowSize > 0)
      for (let i = 0; i < Math.min(nArrows, 1000); i++) {
        const p = arrows + i * arrowSize;
        const ref = at('LEADER_ArrowHead', 'arrowhead', p);
        const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
        if (h) (e.arrowHeads ??= []).push({ index: num(at('LEADER_ArrowHead', 'is_default', p), 'u8'), handle: hex(h) });
      }
    const nLabels = a.u32(tio, type, 'num_blocklabels');
    const labels = a.ptr(tio, type, 'blocklabels');
    const labelSize = a.subSize('LEADER_BlockLabel');
    if (labels && labelSize > 0)
      for (let i = 0; i < Math.min(nLabels, 1000); i++) {
        const p = labels + i * labelSize;
        const ref = at('LEADER_BlockLabel', 'attdef', p);
        const h = ref >= 0 ? a.refHandle(a.u32At(ref)) : 0;
        if (!h) continue;
        const text = at('LEADER_BlockLabel', 'label_text', p);
        const index = at('LEADER_BlockLabel', 'ui_index', p);
        (e.blockAttributes ??= []).push({ handle: hex(h), index: index >= 0 ? a.u16At(index) : 0, width: num(at('LEADER_BlockLabel', 'width', p), 'd'), text: text >= 0 ? a.strAt(a.u32At(text)) : '' });
      }
    return e;
  }

  private hatch(obj: number, tio: number, type: number, owner: Owner): HatchEntity {
    const a = this.a;
    const solid = a.u8(tio, type, 'is_solid_fill') !== 0;
    const e: HatchEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'HATCH',
      pattern: a.str(tio, type, 'name'),
      solid,
      associative: a.u8(tio, type, 'is_associative') !== 0,
      elevation: a.d(tio, type, 'elevation'),
      paths: [],
      style: a.u16(tio, type, 'style'),
      patternType: a.u16(tio, type, 'pattern_type', 1),
      patternAngle: a.d(tio, type, 'angle') * RAD2DEG,
      patternScale: a.d(tio, type, 'scale_spacing', 1) || 1,
      patternDouble: a.u8(tio, type, 'double_flag') !== 0,
      patternLines: [],
    };
    // Boundary paths.
    const P = 'HATCH_Path';
    const S = 'HATCH_PathSeg';
    const nPaths = a.u32(tio, type, 'num_paths');
    const paths = a.ptr(tio, type, 'paths');
    const pathSize = a.subSize(P);
    const segSize = a.subSize(S);
    const polySize = a.subSize('HATCH_PolylinePath');
    const cpSize = a.subSize('HATCH_ControlPoint');
    const so = (f: string): number => a.subOff(S, f);
    if (paths && pathSize > 0)
      for (let i = 0; i < Math.min(nPaths, 100_000); i++) {
        const p = paths + i * pathSize;
        const flags = a.u32At(p + a.subOff(P, 'flag'));
        const count = a.u32At(p + a.subOff(P, 'num_segs_or_paths'));
        const path: HatchPath = { flags, edges: [] };
        if (flags & 2) {
          const vp = a.u32At(p + a.subOff(P, 'polyline_paths'));
          const vertices: { x: number; y: number; bulge: number }[] = [];
          const po = Math.max(0, a.subOff('HATCH_PolylinePath', 'point'));
          const bo = a.subOff('HATCH_PolylinePath', 'bulge');
          if (vp && polySize > 0)
            for (let k = 0; k < Math.min(count, 1_000_000); k++) {
              const q = vp + k * polySize;
              vertices.push({ x: a.f64At(q + po), y: a.f64At(q + po + 8), bulge: bo >= 0 ? a.f64At(q + bo) : 0 });
            }
          path.polyline = { vertices, closed: a.u8At(p + a.subOff(P, 'closed')) !== 0 };
        } else {
          const sp = a.u32At(p + a.subOff(P, 'segs'));
          if (sp && segSize > 0)
            for (let k = 0; k < Math.min(count, 1_000_000); k++) {
              const q = sp + k * segSize;
              const kind = a.u8At(q + so('curve_type'));
              let edge: HatchEdge | undefined;
              if (kind === 1) edge = { kind: 'line', start: a.p2At(q + so('first_endpoint')), end: a.p2At(q + so('second_endpoint')) };
              else if (kind === 2)
                edge = {
                  kind: 'arc',
                  center: a.p2At(q + so('center')),
                  radius: a.f64At(q + so('radius')),
                  startAngle: a.f64At(q + so('start_angle')) * RAD2DEG,
                  endAngle: a.f64At(q + so('end_angle')) * RAD2DEG,
                  ccw: a.u8At(q + so('is_ccw')) !== 0,
                };
              else if (kind === 3)
                edge = {
                  kind: 'ellipse',
                  center: a.p2At(q + so('center')),
                  majorAxis: a.p2At(q + so('endpoint')),
                  ratio: a.f64At(q + so('minor_major_ratio')),
                  startAngle: a.f64At(q + so('start_angle')) * RAD2DEG,
                  endAngle: a.f64At(q + so('end_angle')) * RAD2DEG,
                  ccw: a.u8At(q + so('is_ccw')) !== 0,
                };
              else if (kind === 4) {
                const nk = a.u32At(q + so('num_knots'));
                const nc = a.u32At(q + so('num_control_points'));
                const kp = a.u32At(q + so('knots'));
                const cp = a.u32At(q + so('control_points'));
                const nf = a.u32At(q + so('num_fitpts'));
                const fp = a.u32At(q + so('fitpts'));
                const rational = a.u8At(q + so('is_rational')) !== 0;
                const controlPoints: [number, number][] = [];
                const weights: number[] = [];
                const cpo = Math.max(0, a.subOff('HATCH_ControlPoint', 'point'));
                const cwo = a.subOff('HATCH_ControlPoint', 'weight');
                if (cp && cpSize > 0)
                  for (let c = 0; c < Math.min(nc, 100_000); c++) {
                    controlPoints.push(a.p2At(cp + c * cpSize + cpo));
                    if (rational && cwo >= 0) weights.push(a.f64At(cp + c * cpSize + cwo));
                  }
                const fitPoints: [number, number][] = [];
                if (fp) for (let c = 0; c < Math.min(nf, 100_000); c++) fitPoints.push(a.p2At(fp + 16 * c));
                edge = {
                  kind: 'spline',
                  degree: a.u32At(q + so('degree')),
                  rational,
                  periodic: a.u8At(q + so('is_periodic')) !== 0,
                  knots: kp ? a.doublesAt(kp, Math.min(nk, 100_000)) : [],
                  controlPoints,
                  weights,
                  fitPoints,
                };
              }
              if (edge) path.edges.push(edge);
            }
        }
        e.paths.push(path);
      }
    // Pattern definition lines.
    const D = 'HATCH_DefLine';
    const nLines = a.u16(tio, type, 'num_deflines');
    const lines = a.ptr(tio, type, 'deflines');
    const lineSize = a.subSize(D);
    if (!solid && lines && lineSize > 0)
      for (let i = 0; i < Math.min(nLines, 10_000); i++) {
        const q = lines + i * lineSize;
        const nd = a.u16At(q + a.subOff(D, 'num_dashes'));
        const dp = a.u32At(q + a.subOff(D, 'dashes'));
        const line: HatchPatternLine = {
          angle: a.f64At(q + a.subOff(D, 'angle')) * RAD2DEG,
          base: a.p2At(q + a.subOff(D, 'pt0')),
          offset: a.p2At(q + a.subOff(D, 'offset')),
          dashes: dp ? a.doublesAt(dp, Math.min(nd, 1000)) : [],
        };
        e.patternLines.push(line);
      }
    // Gradient.
    if (a.u32(tio, type, 'is_gradient_fill')) {
      const nc = a.u32(tio, type, 'num_colors');
      const cp = a.ptr(tio, type, 'colors');
      const size = a.subSize('HATCH_Color');
      const co = a.subOff('HATCH_Color', 'color');
      const colors: Color[] = [];
      if (cp && size > 0 && co >= 0)
        for (let i = 0; i < Math.min(nc, 16); i++) {
          const c = this.w.dwg_dynapi_subclass_value(cp + i * size, 'HATCH_Color', 'color');
          if (!c.success) continue;
          const mc = modelColor(c.data as DwgColor);
          colors.push(mc.rgb !== undefined ? { rgb: mc.rgb } : mc);
        }
      e.gradient = {
        name: a.str(tio, type, 'gradient_name'),
        colors,
        angle: a.d(tio, type, 'gradient_angle'),
        shift: a.d(tio, type, 'gradient_shift'),
        singleColor: a.u32(tio, type, 'single_color_gradient') !== 0,
        tint: a.d(tio, type, 'gradient_tint'),
      };
    }
    return e;
  }

  private image(obj: number, tio: number, type: number, owner: Owner, kind: 'IMAGE' | 'WIPEOUT'): ImageEntity {
    const a = this.a;
    const size = a.p2(tio, type, 'image_size');
    const n = a.u32(tio, type, 'num_clip_verts');
    const vp = a.ptr(tio, type, 'clip_verts');
    const clipBoundary: [number, number][] = [];
    if (vp) for (let i = 0; i < Math.min(n, 100_000); i++) clipBoundary.push(a.p2At(vp + 16 * i));
    const clipType = a.u16(tio, type, 'clip_boundary_type', 1) || 1;
    // DXF repeats the first vertex of a polygonal boundary at its end; so does this reader.
    const first = clipBoundary[0];
    const last = clipBoundary[clipBoundary.length - 1];
    if (clipType === 2 && first && last && clipBoundary.length >= 3 && (first[0] !== last[0] || first[1] !== last[1])) clipBoundary.push([first[0], first[1]]);
    const e: ImageEntity = {
      ...this.base(obj, tio, type, owner),
      type: kind,
      insertion: a.p3(tio, type, 'pt0'),
      u: a.p3(tio, type, 'uvec', [1, 0, 0]),
      v: a.p3(tio, type, 'vvec', [0, 1, 0]),
      imageSize: size,
      displayFlags: a.u16(tio, type, 'display_props'),
      clipping: a.u8(tio, type, 'clipping') !== 0,
      clipType,
      clipBoundary,
    };
    const def = a.refHandle(a.ptr(tio, type, 'imagedef'));
    if (def) e.imageDefHandle = hex(def);
    return e;
  }

  private table(obj: number, tio: number, type: number, owner: Owner): TableEntity {
    const a = this.a;
    const rows = a.u32(tio, type, 'num_rows');
    const columns = a.u32(tio, type, 'num_cols');
    const rh = a.ptr(tio, type, 'row_heights');
    const cw = a.ptr(tio, type, 'col_widths');
    const cells: string[] = [];
    const cp = a.ptr(tio, type, 'cells');
    const cellSize = a.subSize('TABLE_Cell');
    const to = a.subOff('TABLE_Cell', 'text_value');
    if (cp && cellSize > 0 && to >= 0 && rows * columns <= 1_000_000)
      for (let i = 0; i < rows * columns; i++) cells.push(a.strAt(a.u32At(cp + i * cellSize + to)));
    const block = this.name(this.names.blocks, a.ptr(tio, type, 'block_header'), '');
    if (!block) this.warnings.push(`ACAD_TABLE ${hex(this.w.dwg_obj_get_handle_value(obj))}: LibreDWG does not decode this table's geometry (R2010+ tables); it is not drawn`);
    return {
      ...this.base(obj, tio, type, owner),
      type: 'ACAD_TABLE',
      block,
      insertion: a.p3(tio, type, 'ins_pt'),
      rows,
      columns,
      rowHeights: rh && rows <= 100_000 ? a.doublesAt(rh, rows) : [],
      columnWidths: cw && columns <= 100_000 ? a.doublesAt(cw, columns) : [],
      cells,
    };
  }

  private mline(obj: number, tio: number, type: number, owner: Owner): MLineEntity {
    const a = this.a;
    const V = 'MLINE_vertex';
    const L = 'MLINE_line';
    const n = a.u16(tio, type, 'num_verts');
    const verts = a.ptr(tio, type, 'verts');
    const vSize = a.subSize(V);
    const lSize = a.subSize(L);
    const vertices: MLineVertex[] = [];
    if (verts && vSize > 0)
      for (let i = 0; i < Math.min(n, 100_000); i++) {
        const v = verts + i * vSize;
        const params: number[][] = [];
        const nl = a.u8At(v + a.subOff(V, 'num_lines'));
        const lines = a.u32At(v + a.subOff(V, 'lines'));
        if (lines && lSize > 0)
          for (let j = 0; j < nl; j++) {
            const l = lines + j * lSize;
            const np = a.u16At(l + a.subOff(L, 'num_segparms'));
            const pp = a.u32At(l + a.subOff(L, 'segparms'));
            params.push(pp ? a.doublesAt(pp, Math.min(np, 1000)) : []);
          }
        vertices.push({
          position: a.p3At(v + a.subOff(V, 'vertex')),
          direction: a.p3At(v + a.subOff(V, 'vertex_direction')),
          miter: a.p3At(v + a.subOff(V, 'miter_direction')),
          params,
        });
      }
    const styleHandle = a.refHandle(a.ptr(tio, type, 'mlinestyle'));
    const e: MLineEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'MLINE',
      style: this.names.mlineStyles.get(styleHandle) ?? 'STANDARD',
      scale: a.d(tio, type, 'scale', 1),
      justification: a.u8(tio, type, 'justification'),
      closed: (a.u16(tio, type, 'flags') & 2) !== 0,
      vertices,
    };
    if (styleHandle) e.styleHandle = hex(styleHandle);
    return e;
  }

  /** MESH (subdivision mesh): the level-0 cage; the face list as DXF 93/90 writes it. */
  private mesh(obj: number, tio: number, type: number, owner: Owner): MeshEntity {
    const a = this.a;
    const nv = a.u32(tio, type, 'num_vertex');
    const vp = a.ptr(tio, type, 'vertex');
    const vertices: Vec3[] = [];
    if (vp) for (let i = 0; i < Math.min(nv, 10_000_000); i++) vertices.push(a.p3At(vp + 24 * i));
    const nf = a.u32(tio, type, 'num_faces');
    const fp = a.ptr(tio, type, 'faces');
    const faces: number[][] = [];
    if (fp)
      for (let k = 0; k < Math.min(nf, 10_000_000); ) {
        const count = a.u32At(fp + 4 * k);
        if (!(count > 0) || k + count >= nf) break;
        const face: number[] = [];
        for (let j = 1; j <= count; j++) face.push(a.u32At(fp + 4 * (k + j)));
        faces.push(face);
        k += count + 1;
      }
    const ne = a.u32(tio, type, 'num_edges');
    const ep = a.ptr(tio, type, 'edges');
    const size = a.subSize('MESH_edge') || 12;
    const from = a.subOff('MESH_edge', 'idxfrom');
    const to = a.subOff('MESH_edge', 'idxto');
    const edges: [number, number][] = [];
    if (ep && from >= 0 && to >= 0) for (let i = 0; i < Math.min(ne, 10_000_000); i++) edges.push([a.u32At(ep + i * size + from), a.u32At(ep + i * size + to)]);
    return { ...this.base(obj, tio, type, owner), type: 'MESH', vertices, faces, edges };
  }

  private viewport(obj: number, tio: number, type: number, owner: Owner): ViewportEntity {
    const a = this.a;
    const height = a.d(tio, type, 'height');
    const viewHeight = a.d(tio, type, 'VIEWSIZE') || height;
    const flags = a.u32(tio, type, 'status_flag');
    // DWG keeps no stack order (DXF 68) since R2000: 0x20000 in the flags is 'off'; the layout
    // pass numbers the viewports that are on.
    const on = !(flags & 0x20000);
    const status = on ? a.i16(tio, type, 'on_off') || 1 : 0;
    const vc = a.p2(tio, type, 'VIEWCTR');
    const frozenLayers: string[] = [];
    const nf = a.u32(tio, type, 'num_frozen_layers');
    const fl = a.ptr(tio, type, 'frozen_layers');
    if (fl)
      for (let i = 0; i < Math.min(nf, 100_000); i++) {
        const h = a.refHandle(a.u32At(fl + 4 * i));
        if (h) frozenLayers.push(hex(h));
      }
    const e: ViewportEntity = {
      ...this.base(obj, tio, type, owner),
      type: 'VIEWPORT',
      center: a.p3(tio, type, 'center'),
      width: a.d(tio, type, 'width'),
      height,
      id: a.i16(tio, type, 'id'),
      status,
      on,
      viewCenter: vc,
      viewTarget: a.p3(tio, type, 'view_target'),
      viewDirection: normalOr(a.p3(tio, type, 'VIEWDIR', [0, 0, 1])),
      viewHeight,
      scale: viewHeight ? height / viewHeight : 1,
      twist: a.d(tio, type, 'twist_angle') * RAD2DEG,
      flags,
      frozenLayers,
    };
    const clip = a.refHandle(a.ptr(tio, type, 'clip_boundary'));
    if (clip) e.clipBoundaryHandle = hex(clip);
    return e;
  }
}
