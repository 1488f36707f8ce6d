/**
 * LibreDWG entities → the drawing model, following the DXF reader's conventions: angles in degrees
 * (DWG stores radians) except ellipse parameters and the gradient angle, OCS coordinates as stored,
 * points as [x, y, z], colours as ACI / true colour, lineweights in 1/100 mm. This reader owns the
 * fields every entity has and the dispatch through ENTITY_READERS (table.ts); each entity family
 * reads its own fields in a file of its own.
 */
import type { Color, Entity, EntityBase, InsertEntity, TextEntity, XData, XDataItem } from '@xcad/cad/model';
import { hex, type Access } from '../access';
import { lineweight, T } from '../types';
import { isWasmTrap, type DwgColor } from '../wasm';
import { heapColor, modelColor, transparencyOf } from './colors';
import { normalOr, type EntityContext, type Names, type Owner } from './context';
import { ENTITY_READERS } from './table';

/** Byte → two upper-case hex digits. */
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).toUpperCase().padStart(2, '0'));

/** Pre-R13 bookkeeping records LibreDWG lists as entities: nothing to draw, not entities in DXF. */
const NOT_ENTITIES = new Set(['JUMP', 'REPEAT', 'ENDREP', 'LOAD']);

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
  /** Offset of num_eed (the Dwg_Eed pointer follows it), -1 when the probes did not confirm it. */
  eed: number;
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
  numEed: number;
  eed: number;
}

const PROBES = 8;
/** Where dwg.h puts num_eed in Dwg_Object_Entity (after objid, the tio union and the dwg pointer, wasm32). */
const NUM_EED_AT = 12;

export class EntityReader implements EntityContext {
  /** Entity types met but not modelled, by DXF name. */
  readonly unknown = new Map<string, number>();
  readonly warnings: string[] = [];
  /** INSERTs with an extension dictionary, and its handle (a possible XCLIP: ACAD_FILTER → SPATIAL). */
  readonly xdictInserts: [InsertEntity, number][] = [];
  readonly unstyledAttribs: [InsertEntity, TextEntity][] = [];
  /**
   * Common fields are read from the heap once their place in the entity struct is known: the API
   * costs several Embind calls per entity, and its colour object misses the true colour when a
   * transparency is also set (R2004+). null = still probing, false = keep using the API.
   */
  private layout: EntityLayout | null | false = null;
  private probes: EntityLayout[] = [];

  constructor(
    readonly a: Access,
    readonly names: Names,
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
      numEed: a.common<number>(tio, 'num_eed') ?? 0,
      eed: a.common<number>(tio, 'eed') ?? 0,
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
      eed: a.u32At(ent + NUM_EED_AT) === f.numEed >>> 0 && a.u32At(ent + NUM_EED_AT + 4) === f.eed >>> 0 ? NUM_EED_AT : -1,
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
    if (a.u32At(f.layerRef + lay.absref) >>> 0 !== a.refHandle(f.layerRef) >>> 0) return null;
    return lay;
  }

  /** Adds one probe; after PROBES agreeing probes the layout is used for every entity. */
  private probe(obj: number, f: CommonFields): void {
    const found = this.locate(this.w.dwg_object_to_entity(obj), f);
    if (!found) return;
    const first = this.probes[0];
    if (
      first &&
      (first.color !== found.color ||
        first.layer !== found.layer ||
        found.ltype === -2 ||
        (first.ltype >= 0 && found.ltype >= 0 && first.ltype !== found.ltype))
    ) {
      this.layout = false;
      return;
    }
    this.probes.push(found);
    if (this.probes.length < PROBES) return;
    const ltype = this.probes.find((p) => p.ltype >= 0)?.ltype ?? -1;
    const eed = this.probes.every((p) => p.eed === NUM_EED_AT) ? NUM_EED_AT : -1;
    this.layout = { ...found, ltype, eed };
  }

  base(obj: number, tio: number, type: number, owner: Owner): EntityBase {
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
    let numEed: number;
    let eedPtr: number;
    const lay = this.layout;
    if (lay) {
      const ent = w.dwg_object_to_entity(obj);
      if (lay.eed >= 0) {
        numEed = a.u32At(ent + lay.eed);
        eedPtr = numEed ? a.u32At(ent + lay.eed + 4) : 0;
      } else {
        numEed = a.common<number>(tio, 'num_eed') ?? 0;
        eedPtr = numEed ? (a.common<number>(tio, 'eed') ?? 0) : 0;
      }
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
      numEed = f.numEed;
      eedPtr = f.eed;
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
    if (numEed > 0 && eedPtr) {
      const xdata = xdataAt(a, eedPtr, numEed, this.names);
      if (xdata) base.xdata = xdata;
    }
    return base;
  }

  /** A CMC colour field of an entity struct, read like the entity colour when its layout is known. */
  structColor(tio: number, type: number, field: string): Color {
    const a = this.a;
    const o = a.off(tio, type, field);
    if (o >= 0 && this.layout) {
      const c = tio + o;
      return heapColor(a.i16At(c), a.u32At(c + 8), a.u32At(c + 28), a.u8At(c + 32), a.u8At(c + 33)).color;
    }
    return modelColor(a.color(tio, field));
  }

  name(map: Map<number, string>, ref: number, def: string): string {
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
    const byType = ENTITY_READERS.get(type);
    if (byType === null) return null;
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
    const readEntity = type >= 500 ? ENTITY_READERS.get(dxfName) : byType;
    try {
      if (readEntity) return readEntity(this, obj, tio, type, owner);
    } catch (err) {
      if (isWasmTrap(err)) throw err;
      this.warnings.push(`${dxfName || type} ${hex(w.dwg_obj_get_handle_value(obj))}: ${(err as Error).message}`);
    }
    const dxfType = dxfName || this.unknownType(obj, type);
    this.unknown.set(dxfType, (this.unknown.get(dxfType) ?? 0) + 1);
    const unknown: Entity = { ...this.base(obj, tio, type, owner), type: 'UNKNOWN', dxfType };
    const graphics = this.graphics(obj);
    if (graphics) unknown.graphics = graphics;
    return unknown;
  }

  /**
   * The proxy entity graphics of a custom or proxy entity (LibreDWG's common entity `preview`,
   * e.g. TArch's TCH_WALL, AEC_WALL) as hex, as the DXF reader keeps the 310 groups.
   */
  graphics(obj: number): string | undefined {
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

  /**
   * Sub-entities (vertices, attributes) of a POLYLINE or INSERT, in order: the handle array of
   * R2004+ files, else the run between the first and last handles (R13-R2000), else LibreDWG's
   * own iteration.
   */
  owned(obj: number, tio: number, type: number, arrayField: string, firstField: string, lastField: string): number[] {
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
}

/**
 * The extended data of applications other than ACAD from LibreDWG's Dwg_Eed array: one 40-byte
 * record per item, the application's handle at +16 on the first item of each application, the
 * item's data at +32 (packed: its code byte, then the value at +1; a string's length at +1, its code
 * page at +3, its characters from +5). An application whose items include one this cannot decode
 * (an unknown code, a layer that is not in the file), or whose handle names no APPID, is skipped
 * whole (its items make sense only together).
 */
export function xdataAt(a: Access, eed: number, n: number, names: Names): XData[] | undefined {
  if (n > 4096) return undefined;
  const out: XData[] = [];
  let app: XData | null = null;
  let appHandle = 0;
  let broken = false;
  const close = (): void => {
    if (app && !broken && app.items.length) out.push(app);
    app = null;
    broken = false;
  };
  for (let i = 0; i < n; i++) {
    const rec = eed + 40 * i;
    const h = a.u32At(rec + 16);
    // LibreDWG repeats the handle on every item of an application's data.
    if (h && h !== appHandle) {
      close();
      appHandle = h;
      const name = names.appids.get(h);
      app = name && name.toUpperCase() !== 'ACAD' ? { app: name, items: [] } : null;
    }
    if (!app || broken) continue;
    const data = a.u32At(rec + 32);
    if (!data) {
      broken = true;
      continue;
    }
    const item = eedItem(a, data, names.unicodeEed, names.layers);
    if (item) app.items.push(item);
    else broken = true;
  }
  close();
  return out.length ? out : undefined;
}

/** One EED item at `at` (its code byte, then its value), null for a code this does not decode. */
export function eedItem(a: Access, at: number, unicode: boolean, layers: ReadonlyMap<number, string>): XDataItem | null {
  const k = a.u8At(at);
  const code = 1000 + k;
  switch (k) {
    case 0: {
      const len = a.u16At(at + 1);
      if (len > 4096) return null;
      let s = '';
      if (unicode) for (let i = 0; i < len; i++) s += String.fromCharCode(a.u16At(at + 5 + 2 * i));
      else s = a.decoder.decode(a.w.HEAPU8.slice(at + 5, at + 5 + len));
      return { code, value: s };
    }
    case 2:
      return { code, value: a.u8At(at + 1) ? '}' : '{' };
    case 4: {
      const len = a.u8At(at + 1);
      let hex = '';
      for (let i = 0; i < len; i++)
        hex += a
          .u8At(at + 2 + i)
          .toString(16)
          .padStart(2, '0')
          .toUpperCase();
      return { code, value: hex };
    }
    case 10:
    case 11:
    case 12:
    case 13:
      return { code, value: a.p3At(at + 1) };
    case 40:
    case 41:
    case 42:
      return { code, value: a.f64At(at + 1) };
    case 70:
      return { code, value: a.i16At(at + 1) };
    case 71:
      return { code, value: a.i32At(at + 1) };
    case 3: {
      // A layer by its handle, big endian as in the file (LibreDWG keeps the bytes); DXF names the layer.
      let h = 0;
      for (let i = 0; i < 8; i++) h = h * 256 + a.u8At(at + 1 + i);
      const layer = layers.get(h);
      return layer === undefined ? null : { code, value: layer };
    }
    case 5: {
      // An object's handle (big endian in the file, LibreDWG gives it in the machine's order); DXF writes it in hex.
      let h = 0;
      for (let i = 7; i >= 0; i--) h = h * 256 + a.u8At(at + 1 + i);
      return { code, value: h.toString(16).toUpperCase() };
    }
    default:
      return null;
  }
}
