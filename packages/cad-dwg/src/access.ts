/**
 * Reads LibreDWG's C structs. Numbers and strings come straight from the WebAssembly heap at the
 * field offsets LibreDWG's dynamic API reports (cached per object type), which is an order of
 * magnitude faster than one Embind call per field; colours and nested structs go through the API.
 */
import type { Vec3 } from '@xcad/cad/geom';
import { decodeEscapes, type Decoder } from './text';
import type { DwgColor, DwgPoint, Wasm } from './wasm';

export const RAD2DEG = 180 / Math.PI;

export class Access {
  private h8: Uint8Array;
  private h16: Uint16Array;
  private hi16: Int16Array;
  private h32: Uint32Array;
  private hi32: Int32Array;
  private hf64: Float64Array;
  private dv: DataView;
  private readonly offsets = new Map<string, number>();
  private readonly fieldOffsets = new Map<number, Map<string, number>>();
  private readonly utf16 = new TextDecoder('utf-16le');

  constructor(
    readonly w: Wasm,
    readonly dwg: number,
    /** R2007+: every string is UTF-16LE. */
    readonly unicode: boolean,
    /** Decoder of 8-bit strings (the drawing's code page). */
    readonly decoder: Decoder,
  ) {
    this.h8 = w.HEAPU8;
    const b = this.h8.buffer;
    this.h16 = new Uint16Array(b);
    this.hi16 = new Int16Array(b);
    this.h32 = new Uint32Array(b);
    this.hi32 = new Int32Array(b);
    this.hf64 = new Float64Array(b);
    this.dv = new DataView(b);
  }

  /** Re-creates the views when the heap has grown (LibreDWG allocates while we read). */
  private heap(): void {
    if (this.w.HEAPU8 === this.h8) return;
    this.h8 = this.w.HEAPU8;
    const b = this.h8.buffer;
    this.h16 = new Uint16Array(b);
    this.hi16 = new Int16Array(b);
    this.h32 = new Uint32Array(b);
    this.hi32 = new Int32Array(b);
    this.hf64 = new Float64Array(b);
    this.dv = new DataView(b);
  }

  // -- raw memory -------------------------------------------------------------------------------

  f64At(addr: number): number {
    this.heap();
    const v = (addr & 7) === 0 ? (this.hf64[addr >>> 3] as number) : this.dv.getFloat64(addr, true);
    return Number.isFinite(v) ? v : 0;
  }
  u32At(addr: number): number {
    this.heap();
    return (addr & 3) === 0 ? (this.h32[addr >>> 2] as number) : this.dv.getUint32(addr, true);
  }
  i32At(addr: number): number {
    this.heap();
    return (addr & 3) === 0 ? (this.hi32[addr >>> 2] as number) : this.dv.getInt32(addr, true);
  }
  u16At(addr: number): number {
    this.heap();
    return (addr & 1) === 0 ? (this.h16[addr >>> 1] as number) : this.dv.getUint16(addr, true);
  }
  i16At(addr: number): number {
    this.heap();
    return (addr & 1) === 0 ? (this.hi16[addr >>> 1] as number) : this.dv.getInt16(addr, true);
  }
  u8At(addr: number): number {
    this.heap();
    return this.h8[addr] as number;
  }
  p3At(addr: number): Vec3 {
    return [this.f64At(addr), this.f64At(addr + 8), this.f64At(addr + 16)];
  }
  p2At(addr: number): [number, number] {
    return [this.f64At(addr), this.f64At(addr + 8)];
  }
  doublesAt(addr: number, n: number): number[] {
    const out: number[] = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.f64At(addr + 8 * i);
    return out;
  }

  /** A NUL-terminated string at `ptr`: UTF-16LE in R2007+ files, else the code page; escapes decoded. */
  /** `n` bytes at `addr` as upper-case hex (binary fields: OLE data). */
  hexAt(addr: number, n: number): string {
    this.heap();
    const u8 = this.h8;
    const end = Math.min(u8.length, addr + Math.max(0, n));
    let out = '';
    for (let i = addr; i < end; i++) out += ((u8[i] as number) | 0x100).toString(16).slice(1);
    return out.toUpperCase();
  }
  strAt(ptr: number, unicode = this.unicode): string {
    if (!ptr) return '';
    this.heap();
    const u8 = this.h8;
    let s: string;
    if (unicode) {
      let e = ptr;
      const limit = Math.min(u8.length - 1, ptr + (1 << 24));
      while (e < limit && (u8[e] !== 0 || u8[e + 1] !== 0)) e += 2;
      s = this.utf16.decode(u8.subarray(ptr, e));
    } else {
      let e = ptr;
      const limit = Math.min(u8.length, ptr + (1 << 24));
      while (e < limit && u8[e] !== 0) e++;
      let ascii = true;
      for (let i = ptr; i < e; i++)
        if ((u8[i] as number) >= 0x80) {
          ascii = false;
          break;
        }
      if (ascii) {
        s = '';
        for (let i = ptr; i < e; i += 4096) s += String.fromCharCode(...u8.subarray(i, Math.min(e, i + 4096)));
      } else s = this.decoder.decode(u8.subarray(ptr, e));
    }
    return s.indexOf('\\') >= 0 ? decodeEscapes(s) : s;
  }

  // -- struct fields ----------------------------------------------------------------------------

  /** Byte offset of `field` in the struct of object type `type` (-1 when the struct has no such field). */
  off(tio: number, type: number, field: string): number {
    let byField = this.fieldOffsets.get(type);
    if (!byField) {
      byField = new Map();
      this.fieldOffsets.set(type, byField);
    }
    let o = byField.get(field);
    if (o === undefined) {
      o = this.w.dwg_dynapi_entity_field_offset(tio, field);
      byField.set(field, o);
    }
    return o;
  }

  /** Offset of `field` in the named sub-struct ('HATCH_Path', 'LEADER_Node', ...). */
  subOff(subclass: string, field: string): number {
    const key = `@${subclass}|${field}`;
    let o = this.offsets.get(key);
    if (o === undefined) {
      o = this.w.dwg_dynapi_subclass_field_offset(subclass, field);
      this.offsets.set(key, o);
    }
    return o;
  }

  subSize(subclass: string): number {
    const key = `#${subclass}`;
    let o = this.offsets.get(key);
    if (o === undefined) {
      o = this.w.dwg_dynapi_subclass_size(subclass);
      this.offsets.set(key, o);
    }
    return o;
  }

  /** BD / RD / BT (double). */
  d(tio: number, type: number, field: string, def = 0): number {
    const o = this.off(tio, type, field);
    return o < 0 ? def : this.f64At(tio + o);
  }
  /** 3BD / BE / 3DPOINT. */
  p3(tio: number, type: number, field: string, def: Vec3 = [0, 0, 0]): Vec3 {
    const o = this.off(tio, type, field);
    return o < 0 ? [def[0], def[1], def[2]] : this.p3At(tio + o);
  }
  /** 2RD / 2BD / 2DPOINT. */
  p2(tio: number, type: number, field: string): [number, number] {
    const o = this.off(tio, type, field);
    return o < 0 ? [0, 0] : this.p2At(tio + o);
  }
  /** RC / B / BB. */
  u8(tio: number, type: number, field: string, def = 0): number {
    const o = this.off(tio, type, field);
    return o < 0 ? def : this.u8At(tio + o);
  }
  /** BS / RS. */
  u16(tio: number, type: number, field: string, def = 0): number {
    const o = this.off(tio, type, field);
    return o < 0 ? def : this.u16At(tio + o);
  }
  /** BSd / RSd. */
  i16(tio: number, type: number, field: string, def = 0): number {
    const o = this.off(tio, type, field);
    return o < 0 ? def : this.i16At(tio + o);
  }
  /** BL / RL. */
  u32(tio: number, type: number, field: string, def = 0): number {
    const o = this.off(tio, type, field);
    return o < 0 ? def : this.u32At(tio + o);
  }
  /** A pointer field (H, arrays, strings). */
  ptr(tio: number, type: number, field: string): number {
    const o = this.off(tio, type, field);
    return o < 0 ? 0 : this.u32At(tio + o);
  }
  /** T / TV / TU. */
  str(tio: number, type: number, field: string): string {
    return this.strAt(this.ptr(tio, type, field));
  }

  // -- through the API --------------------------------------------------------------------------

  /** A field LibreDWG returns as an object (colours, points) or a value of unknown width. */
  value<T>(tio: number, field: string): T | undefined {
    try {
      const v = this.w.dwg_dynapi_entity_value(tio, field);
      return v.success ? (v.data as T) : undefined;
    } catch {
      return undefined;
    }
  }
  color(tio: number, field: string): DwgColor | undefined {
    return this.value<DwgColor>(tio, field);
  }
  common<T>(tio: number, field: string): T | undefined {
    try {
      const v = this.w.dwg_dynapi_common_value(tio, field);
      return v.success ? (v.data as T) : undefined;
    } catch {
      return undefined;
    }
  }
  header<T>(field: string): T | undefined {
    try {
      const v = this.w.dwg_dynapi_header_value(this.dwg, field);
      return v.success ? (v.data as T) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The handle a reference points to (its absolute_ref), 0 when null. */
  refHandle(ref: number): number {
    if (!ref) return 0;
    try {
      return this.w.dwg_ref_get_absref(ref) || 0;
    } catch {
      return 0;
    }
  }
}

export function pt(p: DwgPoint | undefined, z = 0): Vec3 {
  return p ? [p.x ?? 0, p.y ?? 0, p.z ?? z] : [0, 0, z];
}

/** Handle number → the model's hex string ('1F'). */
export function hex(h: number | bigint): string {
  return h.toString(16).toUpperCase();
}
