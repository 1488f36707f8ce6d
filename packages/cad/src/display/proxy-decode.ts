/**
 * Proxy entity graphics, decoding: the bytes of the little metafile a custom entity (TArch's
 * TCH_WALL / TCH_OPENING, Architecture's AEC_WALL, ...) saves with itself so that programs without
 * its code can still show it; proxy.ts paints what it says.
 *
 * Layout (little-endian): int32 total size, int32 command count, then the commands, each
 * `int32 size` (of the whole command, these 8 bytes included; not always a multiple of 4),
 * `int32 type`, data. Doubles are IEEE 8-byte, points three doubles, strings zero-terminated and
 * padded to 4 bytes (8-bit in the drawing's code page, or UTF-16LE). Geometry is in WCS (the
 * coordinates of the block the entity lives in); attribute commands change the layer, colour,
 * linetype, lineweight and fill of what follows; matrices pushed apply to what follows until popped.
 *
 * Unknown commands are skipped by their size; a command running past the end stops the drawing
 * there (what came before is kept); every count is bounded by the bytes left, so damaged data can
 * neither throw out of `drawProxyGraphics` nor loop.
 */
import type { Drawing, LwVertex, UnknownEntity } from '../model';
import type { Vec3 } from '../geom/vector';

/** Command types of the metafile (the ODA / AcGi numbering). */
export const PROXY = {
  EXTENTS: 1,
  CIRCLE: 2,
  CIRCLE_3P: 3,
  ARC: 4,
  ARC_3P: 5,
  POLYLINE: 6,
  POLYGON: 7,
  MESH: 8,
  SHELL: 9,
  TEXT: 10,
  TEXT2: 11,
  XLINE: 12,
  RAY: 13,
  COLOR: 14,
  LAYER: 16,
  LINETYPE: 18,
  MARKER: 19,
  FILL: 20,
  TRUE_COLOR: 22,
  LINEWEIGHT: 23,
  LTSCALE: 24,
  THICKNESS: 25,
  PLOT_STYLE: 26,
  PUSH_CLIP: 27,
  POP_CLIP: 28,
  PUSH_MATRIX: 29,
  PUSH_MATRIX2: 30,
  POP_MATRIX: 31,
  POLYLINE_NORMALS: 32,
  LWPOLYLINE: 33,
  MATERIAL: 34,
  MAPPER: 35,
  UNICODE_TEXT: 36,
  UNICODE_TEXT2: 38,
} as const;

// ---- hex ----------------------------------------------------------------------------------------

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** Hex text → bytes; stops at the first character that is not a hex digit (whitespace is skipped). */
export function hexToBytes(hex: string): Uint8Array {
  const s = /\s/.test(hex) ? hex.replace(/\s+/g, '') : hex;
  const n = s.length >> 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const hi = nibble(s.charCodeAt(2 * i)),
      lo = nibble(s.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return out.subarray(0, i);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

const decoded = new WeakMap<UnknownEntity, Uint8Array>();

export function bytesOf(e: UnknownEntity): Uint8Array {
  let b = decoded.get(e);
  if (!b) {
    b = hexToBytes(e.graphics ?? '');
    decoded.set(e, b);
  }
  return b;
}

// ---- drawing tables in storage order -------------------------------------------------------------

export interface Tables {
  layers: string[];
  linetypes: string[];
  decoder: { decode(b: Uint8Array): string };
}

const tableCache = new WeakMap<Drawing, Tables>();

/** Canonical array-index strings: JavaScript objects list such keys first, ascending, whatever the insertion order. */
const INDEX_KEY = /^(0|[1-9]\d{0,8})$/;

/**
 * Table records in file order. The model's records keep insertion order, except that names such as
 * '12' come first; when such names exist (besides '0', which is first anyway) the order is rebuilt
 * from the handles, which grow as records are added.
 */
function tableOrder<T extends { name: string; handle?: string }>(records: Record<string, T>): string[] {
  const list = Object.values(records);
  const disturbed = Object.keys(records).some((k) => k !== '0' && INDEX_KEY.test(k));
  if (disturbed && list.every((r) => r.handle && /^[0-9a-f]+$/i.test(r.handle))) {
    const key = (h: string): string => h.replace(/^0+/, '').toUpperCase().padStart(16, '0');
    list.sort((a, b) => (key(a.handle as string) < key(b.handle as string) ? -1 : 1));
  }
  return list.map((r) => r.name);
}

export function tablesOf(drawing: Drawing): Tables {
  let t = tableCache.get(drawing);
  if (!t) {
    let decoder: { decode(b: Uint8Array): string };
    try {
      decoder = new TextDecoder(drawing.header.encoding || 'utf-8');
    } catch {
      decoder = new TextDecoder('latin1');
    }
    t = { layers: tableOrder(drawing.layers), linetypes: tableOrder(drawing.linetypes), decoder };
    tableCache.set(drawing, t);
  }
  return t;
}

const styleCache = new WeakMap<Drawing, Map<string, string>>();

/** The text style of the drawing using this font (file or TrueType face), else the default style. */
export function styleForFont(drawing: Drawing, font: string, bigFont: string, typeface: string): string {
  let cache = styleCache.get(drawing);
  if (!cache) {
    cache = new Map();
    styleCache.set(drawing, cache);
  }
  const key = `${font}|${bigFont}|${typeface}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const base = (f: string): string =>
    f
      .trim()
      .toLowerCase()
      .replace(/\.(shx|ttf|ttc|otf)$/, '');
  const f = base(font),
    bf = base(bigFont),
    tf = typeface.trim().toLowerCase();
  let best = '';
  let bestScore = 0;
  for (const s of Object.values(drawing.textStyles)) {
    let score = 0;
    if (f && base(s.font) === f) score = bf && base(s.bigFont) === bf ? 4 : 3;
    else if (tf && ((s.fontFamily ?? '').toLowerCase() === tf || base(s.font) === tf)) score = 2;
    if (score > bestScore) {
      bestScore = score;
      best = s.name;
    }
  }
  cache.set(key, best);
  return best;
}

// ---- byte reading -------------------------------------------------------------------------------

/** Sequential reads inside one command's data; `ok` turns false (and reads return 0) once past its end. */
export class Cursor {
  pos: number;
  ok = true;
  constructor(
    private readonly dv: DataView,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  left(): number {
    return this.end - this.pos;
  }
  private take(n: number): number {
    const p = this.pos;
    if (p + n > this.end) {
      this.ok = false;
      this.pos = this.end;
      return -1;
    }
    this.pos = p + n;
    return p;
  }
  i32(): number {
    const p = this.take(4);
    return p < 0 ? 0 : this.dv.getInt32(p, true);
  }
  u32(): number {
    const p = this.take(4);
    return p < 0 ? 0 : this.dv.getUint32(p, true);
  }
  f64(): number {
    const p = this.take(8);
    if (p < 0) return 0;
    const v = this.dv.getFloat64(p, true);
    return Number.isFinite(v) ? v : 0;
  }
  pt(): Vec3 {
    return [this.f64(), this.f64(), this.f64()];
  }
  /** `n` points as x, y, z triples (n bounded by the bytes left). */
  points(n: number): number[] {
    const k = Math.max(0, Math.min(n, Math.floor(this.left() / 24)));
    if (k < n) this.ok = false;
    const out = new Array<number>(k * 3);
    for (let i = 0; i < k * 3; i++) out[i] = this.f64();
    return out;
  }
  /** An 8-bit string, zero-terminated, padded to 4 bytes. */
  str8(decoder: { decode(b: Uint8Array): string }): string {
    const start = this.pos;
    const u8 = new Uint8Array(this.dv.buffer, this.dv.byteOffset, this.dv.byteLength);
    let e = start;
    while (e < this.end && u8[e] !== 0) e++;
    const s = e > start ? decoder.decode(u8.subarray(start, e)) : '';
    this.pos = Math.min(this.end, start + (((e - start + 1 + 3) >> 2) << 2));
    if (e >= this.end) this.ok = false;
    return s;
  }
  /** A UTF-16LE string, zero-terminated, padded to 4 bytes. */
  str16(): string {
    const start = this.pos;
    let e = start;
    let terminated = false;
    const chars: number[] = [];
    while (e + 1 < this.end) {
      const c = this.dv.getUint16(e, true);
      e += 2;
      if (c === 0) {
        terminated = true;
        break;
      }
      chars.push(c);
    }
    let s = '';
    for (let i = 0; i < chars.length; i += 4096) s += String.fromCharCode(...chars.slice(i, i + 4096));
    this.pos = Math.min(this.end, start + (((e - start + 3) >> 2) << 2));
    if (!terminated) this.ok = false;
    return s;
  }
}

// ---- DWG bit stream (the LWPOLYLINE command embeds an entity's bit-coded data) -----------------

class Bits {
  private bit = 0;
  bad = false;
  constructor(
    private readonly u8: Uint8Array,
    private readonly start: number,
    private readonly bytes: number,
  ) {}
  get used(): number {
    return this.bit;
  }
  private b(): number {
    if (this.bit >= this.bytes * 8) {
      this.bad = true;
      return 0;
    }
    const v = ((this.u8[this.start + (this.bit >> 3)] as number) >> (7 - (this.bit & 7))) & 1;
    this.bit++;
    return v;
  }
  private bb(): number {
    return (this.b() << 1) | this.b();
  }
  rc(): number {
    let v = 0;
    for (let i = 0; i < 8; i++) v = (v << 1) | this.b();
    return v;
  }
  private raw(n: number): DataView {
    const a = new Uint8Array(8);
    for (let i = 0; i < n; i++) a[i] = this.rc();
    return new DataView(a.buffer);
  }
  bs(): number {
    switch (this.bb()) {
      case 0:
        return this.raw(2).getInt16(0, true);
      case 1:
        return this.rc();
      case 2:
        return 0;
      default:
        return 256;
    }
  }
  bl(): number {
    switch (this.bb()) {
      case 0:
        return this.raw(4).getInt32(0, true);
      case 1:
        return this.rc();
      case 2:
        return 0;
      default:
        this.bad = true;
        return 0;
    }
  }
  rd(): number {
    const v = this.raw(8).getFloat64(0, true);
    if (!Number.isFinite(v)) this.bad = true;
    return v;
  }
  bd(): number {
    switch (this.bb()) {
      case 0:
        return this.rd();
      case 1:
        return 1;
      case 2:
        return 0;
      default:
        this.bad = true;
        return 0;
    }
  }
  /** A double coded relative to `def` (DD). */
  dd(def: number): number {
    const code = this.bb();
    if (code === 0) return def;
    if (code === 3) return this.rd();
    const d = new DataView(new ArrayBuffer(8));
    d.setFloat64(0, def, true);
    if (code === 2) {
      d.setUint8(4, this.rc());
      d.setUint8(5, this.rc());
    }
    for (let i = 0; i < 4; i++) d.setUint8(i, this.rc());
    const v = d.getFloat64(0, true);
    if (!Number.isFinite(v)) this.bad = true;
    return v;
  }
}

interface LwData {
  flags: number;
  constantWidth: number;
  elevation: number;
  thickness: number;
  extrusion: Vec3;
  vertices: LwVertex[];
}

/** LWPOLYLINE data as a DWG writes it: R2000+ (first point raw, the rest relative) or R13/R14 (all raw). */
function decodeLw(u8: Uint8Array, start: number, bytes: number, r14: boolean): { data: LwData; used: number } | null {
  const s = new Bits(u8, start, bytes);
  const flags = s.bs();
  const constantWidth = flags & 4 ? s.bd() : 0;
  const elevation = flags & 8 ? s.bd() : 0;
  const thickness = flags & 2 ? s.bd() : 0;
  const extrusion: Vec3 = flags & 1 ? [s.bd(), s.bd(), s.bd()] : [0, 0, 1];
  const maxCount = bytes * 4;
  const np = s.bl();
  const nb = flags & 16 ? s.bl() : 0;
  const nid = flags & 1024 ? s.bl() : 0;
  const nw = flags & 32 ? s.bl() : 0;
  if (s.bad || np < 1 || np > maxCount || nb < 0 || nb > maxCount || nid < 0 || nid > maxCount || nw < 0 || nw > maxCount) return null;
  const vertices: LwVertex[] = [];
  let x = s.rd(),
    y = s.rd();
  vertices.push({ x, y, bulge: 0, startWidth: 0, endWidth: 0 });
  for (let i = 1; i < np && !s.bad; i++) {
    if (r14) {
      x = s.rd();
      y = s.rd();
    } else {
      x = s.dd(x);
      y = s.dd(y);
    }
    vertices.push({ x, y, bulge: 0, startWidth: 0, endWidth: 0 });
  }
  for (let i = 0; i < nb && !s.bad; i++) {
    const b = s.bd();
    const v = vertices[i];
    if (v) v.bulge = b;
  }
  for (let i = 0; i < nid && !s.bad; i++) s.bl();
  for (let i = 0; i < nw && !s.bad; i++) {
    const w0 = s.bd(),
      w1 = s.bd();
    const v = vertices[i];
    if (v) {
      v.startWidth = w0;
      v.endWidth = w1;
    }
  }
  if (s.bad) return null;
  return { data: { flags, constantWidth, elevation, thickness, extrusion, vertices }, used: s.used };
}

/** The LWPOLYLINE command: int32 byte count, then the bit-coded entity data (the variant that fits the count exactly wins). */
export function readLwPolyline(u8: Uint8Array, start: number, end: number, preferR14: boolean): LwData | null {
  if (end - start < 5) return null;
  const n = new DataView(u8.buffer, u8.byteOffset + start, 4).getInt32(0, true);
  const bytes = n > 0 && n <= end - start - 4 ? n : end - start - 4;
  let fallback: LwData | null = null;
  for (const r14 of preferR14 ? [true, false] : [false, true]) {
    const got = decodeLw(u8, start + 4, bytes, r14);
    if (!got) continue;
    if (Math.ceil(got.used / 8) === bytes) return got.data;
    fallback ??= got.data;
  }
  return fallback;
}
