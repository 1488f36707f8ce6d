/**
 * Group streams → DXF bytes: ASCII (CRLF, as AutoCAD writes) or binary, strings as UTF-8 (2007+)
 * or GBK with `\U+XXXX` escapes for what GBK cannot hold (before 2007, $DWGCODEPAGE ANSI_936).
 */
import { BINARY_SENTINEL, valueKind } from '../dxf/tokenizer';
import type { XData } from '../model';

export type GroupValue = string | number | boolean;

/** Parallel arrays of group codes and values: cheaper than an object per group. */
export class Groups {
  readonly codes: number[] = [];
  readonly vals: GroupValue[] = [];

  g(code: number, value: GroupValue): this {
    this.codes.push(code);
    this.vals.push(value);
    return this;
  }

  /** A point as x (code), y (code + 10) and, unless `twoD`, z (code + 20). */
  pt(code: number, p: readonly number[], twoD = false): this {
    this.g(code, p[0] ?? 0).g(code + 10, p[1] ?? 0);
    if (!twoD) this.g(code + 20, p[2] ?? 0);
    return this;
  }

  /** The groups of `other` from index `from` up to `to` (default: all). */
  append(other: Groups, from = 0, to = other.codes.length): this {
    for (let i = from; i < to; i++) this.g(other.codes[i] as number, other.vals[i] as GroupValue);
    return this;
  }
}

/**
 * One application's extended data as DXF groups: 1001 and its items (a point as its x, y and z
 * codes; a 1005 handle as the written file's handle of the object it named, through `ref`).
 */
export function xdataGroups(out: Groups, x: XData, ref: (sourceHandle: string) => string): void {
  out.g(1001, x.app);
  for (const { code, value } of x.items) {
    if (Array.isArray(value)) out.pt(code, value);
    else if (code === 1005 && typeof value === 'string') out.g(code, ref(value));
    else out.g(code, value);
  }
}

let gbkTable: Map<number, number> | null = null;

/**
 * Unicode code point → GBK double-byte value, built once from TextDecoder('gbk') (the same
 * table the reader decodes with, so what is written reads back as it was).
 */
function gbk(): Map<number, number> {
  if (gbkTable) return gbkTable;
  const table = new Map<number, number>();
  const dec = new TextDecoder('gbk', { fatal: true });
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    pair[0] = lead;
    for (let trail = 0x40; trail <= 0xfe; trail++) {
      if (trail === 0x7f) continue;
      pair[1] = trail;
      let s: string;
      try {
        s = dec.decode(pair);
      } catch {
        continue;
      }
      const cp = s.codePointAt(0);
      if (cp !== undefined && s.length === 1 && !table.has(cp)) table.set(cp, (lead << 8) | trail);
    }
  }
  gbkTable = table;
  return table;
}

const utf8 = new TextEncoder();

/** A string's bytes in the file's encoding. */
export function encodeString(s: string, unicode: boolean): Uint8Array {
  if (unicode) return utf8.encode(s);
  let ascii = true;
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii) {
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  const table = gbk();
  const out: number[] = [];
  const escape = (unit: number): void => {
    for (const ch of `\\U+${unit.toString(16).toUpperCase().padStart(4, '0')}`) out.push(ch.charCodeAt(0));
  };
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out.push(cp);
    else {
      const code = table.get(cp);
      if (code !== undefined) out.push(code >> 8, code & 0xff);
      else if (cp > 0xffff) {
        // Outside the BMP: both UTF-16 halves, as AutoCAD writes them.
        escape(ch.charCodeAt(0));
        escape(ch.charCodeAt(1));
      } else escape(cp);
    }
  }
  return Uint8Array.from(out);
}

/** Shortest text that reads back as the same double; always with a decimal point or exponent. */
function formatDouble(n: number): string {
  if (!Number.isFinite(n)) return '0.0';
  const s = String(n);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** Strings may not hold line breaks: DXF is line based. */
const flat = (s: string): string => (/[\r\n]/.test(s) ? s.replace(/\r\n|[\r\n]/g, ' ') : s);

class ByteSink {
  private chunks: Uint8Array[] = [];
  private buf = new Uint8Array(1 << 16);
  private pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.chunks.push(this.buf.subarray(0, this.pos));
    this.buf = new Uint8Array(Math.max(1 << 16, n));
    this.pos = 0;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  ascii(s: string): void {
    this.ensure(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.pos++] = s.charCodeAt(i) & 0xff;
  }

  number(kind: 'u8' | 'u16' | 'i16' | 'i32' | 'i64' | 'f64', v: number): void {
    const size = kind === 'u8' ? 1 : kind === 'u16' || kind === 'i16' ? 2 : kind === 'i32' ? 4 : 8;
    this.ensure(size);
    const dv = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, size);
    if (kind === 'u8') dv.setUint8(0, v);
    else if (kind === 'u16') dv.setUint16(0, v, true);
    else if (kind === 'i16') dv.setInt16(0, v, true);
    else if (kind === 'i32') dv.setInt32(0, v, true);
    else if (kind === 'i64') dv.setBigInt64(0, BigInt(v), true);
    else dv.setFloat64(0, v, true);
    this.pos += size;
  }

  finish(): Uint8Array {
    this.chunks.push(this.buf.subarray(0, this.pos));
    const total = this.chunks.reduce((t, c) => t + c.length, 0);
    const out = new Uint8Array(total);
    let p = 0;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
    return out;
  }
}

const int = (v: GroupValue): number =>
  typeof v === 'number' ? Math.round(v) || 0 : typeof v === 'boolean' ? (v ? 1 : 0) : Number.parseInt(v, 10) || 0;
const dbl = (v: GroupValue): number => (typeof v === 'number' ? v : typeof v === 'boolean' ? (v ? 1 : 0) : Number(v) || 0);
const clamp16 = (n: number): number => Math.max(-32768, Math.min(32767, n));
const clamp32 = (n: number): number => Math.max(-2147483648, Math.min(2147483647, n));

/** ASCII DXF: "code\r\nvalue\r\n" per group, codes right-aligned to three places. */
export function toAscii(gs: Groups, unicode: boolean): Uint8Array {
  const sink = new ByteSink();
  const { codes, vals } = gs;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] as number;
    const v = vals[i] as GroupValue;
    sink.ascii(`${String(c).padStart(3)}\r\n`);
    const kind = valueKind(c);
    if (kind === 0) sink.bytes(encodeString(flat(String(v)), unicode));
    else if (kind === 1) sink.ascii(formatDouble(dbl(v)));
    else if (kind === 6) sink.ascii(String(v));
    else sink.ascii(String(int(v)));
    sink.ascii('\r\n');
  }
  return sink.finish();
}

/** Binary DXF: the sentinel, then per group a little-endian code (1 byte in R12) and a typed value. */
export function toBinary(gs: Groups, unicode: boolean, r12: boolean): Uint8Array {
  const sink = new ByteSink();
  sink.ascii(BINARY_SENTINEL);
  const { codes, vals } = gs;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i] as number;
    const v = vals[i] as GroupValue;
    if (!r12) sink.number('u16', c);
    else if (c < 255) sink.number('u8', c);
    else {
      sink.number('u8', 255);
      sink.number('u16', c);
    }
    switch (valueKind(c)) {
      case 0:
        sink.bytes(encodeString(flat(String(v)), unicode));
        sink.number('u8', 0);
        break;
      case 1:
        sink.number('f64', dbl(v));
        break;
      case 2:
        sink.number('i16', clamp16(int(v)));
        break;
      case 3:
        sink.number('i32', clamp32(int(v)));
        break;
      case 4:
        sink.number('i64', int(v));
        break;
      case 5:
        sink.number('u8', int(v) ? 1 : 0);
        break;
      default: {
        const hex = String(v).replace(/[^0-9a-f]/gi, '');
        const n = Math.min(127, hex.length >> 1);
        sink.number('u8', n);
        for (let k = 0; k < n; k++) sink.number('u8', Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16));
      }
    }
  }
  return sink.finish();
}
