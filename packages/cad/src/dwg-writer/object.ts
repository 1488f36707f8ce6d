/**
 * One object of the objects section being encoded. R2000/R2004 merge an object's data and handle
 * streams: type (BS), size of the data in bits (RL), own handle, extended data, data, then the
 * handle references. R2007 and later split a third stream off for the strings (TU, UTF-16): it
 * follows the data, then comes its size in bits and a flag bit saying it is there (the last bit
 * of the data part), then the handle stream. R2010+ write the type as OT and no bit size: the
 * frame carries the handle stream's size instead (UMC after the MS size), the data part being
 * everything before it. R2013+ add a "has data-store data" bit to the common data.
 */
import { BitWriter, modularShort, Ref, unsignedModularChar } from './bits';
import { crc16 } from './crc';
import type { XDataItem } from '../model';

/** What every encoder needs: the release year and the 8-bit encoding of strings before R2007. */
export interface WriteContext {
  year: number;
  /** A string in the file's code page (R13-R2004 TV strings). */
  text(s: string): Uint8Array;
}

/** Extended data of one application: its APPID handle and the items' raw bytes. */
export interface Eed {
  app: number;
  data: Uint8Array;
}

export class ObjWriter {
  /** Data stream. */
  readonly d = new BitWriter(64);
  /** Handle stream. */
  readonly h = new BitWriter(16);
  /** String stream (R2007+). */
  private readonly s: BitWriter | null;
  private readonly sizeAt: number;
  readonly year: number;

  constructor(
    type: number,
    readonly handle: number,
    readonly ctx: WriteContext,
    eed: Eed[] = [],
  ) {
    this.year = ctx.year;
    this.s = this.year >= 2007 ? new BitWriter(32) : null;
    if (this.year >= 2010) this.d.ot(type);
    else this.d.bs(type);
    this.sizeAt = this.d.bitLength;
    if (this.year < 2010) this.d.rl(0);
    this.d.h(Ref.Plain, handle);
    for (const e of eed) {
      this.d.bs(e.data.length);
      this.d.h(Ref.HardPointer, e.app);
      this.d.bytes(e.data);
    }
    this.d.bs(0);
  }

  /** A string field: TV in the data stream before R2007, TU in the string stream from R2007. */
  t(value: string): this {
    if (this.s) this.s.tu(value);
    else this.d.tv(this.ctx.text(value));
    return this;
  }

  /** Handle reference into the handle stream. */
  ref(code: number, handle: number): this {
    this.h.h(code, handle);
    return this;
  }

  /** The framed object: MS size, (R2010+) UMC handle-stream size, data + strings + handles, CRC. */
  finish(): Uint8Array {
    if (this.s) appendStrings(this.d, this.s);
    if (this.year < 2010) this.d.patchRl(this.sizeAt, this.d.bitLength);
    const dataBits = this.d.bitLength;
    this.d.append(this.h);
    const body = this.d.toBytes();
    const size = modularShort(body.length);
    const handleBits = this.year >= 2010 ? unsignedModularChar(body.length * 8 - dataBits) : [];
    const head = size.length + handleBits.length;
    const out = new Uint8Array(head + body.length + 2);
    out.set(size, 0);
    out.set(handleBits, size.length);
    out.set(body, head);
    const crc = crc16(out, 0xc0c1, 0, head + body.length);
    out[out.length - 2] = crc & 0xff;
    out[out.length - 1] = crc >> 8;
    return out;
  }
}

/**
 * Closes an R2007+ data stream: the string stream's bits, their count (RS, or two RS with the
 * high bit of the low one set when 0x8000 or more) and the flag bit, 1 when strings are present.
 */
export function appendStrings(d: BitWriter, s: BitWriter): void {
  const n = s.bitLength;
  if (n === 0) {
    d.b(0);
    return;
  }
  d.append(s);
  if (n < 0x8000) d.rs(n);
  else d.rs(Math.floor(n / 0x8000) & 0xffff).rs((n & 0x7fff) | 0x8000);
  d.b(1);
}

/** Common data of a non-entity object: reactor count now, owner/reactors/xdictionary handles. */
export function objectCommon(o: ObjWriter, owner: number, reactors: number[] = []): void {
  o.d.bl(reactors.length);
  if (o.year >= 2004) o.d.b(1); // no extension dictionary
  if (o.year >= 2013) o.d.b(0); // no data-store data
  o.ref(Ref.SoftPointer, owner);
  for (const r of reactors) o.ref(Ref.SoftPointer, r);
  if (o.year < 2004) o.ref(Ref.HardOwner, 0);
}

/**
 * The fields every symbol table record starts with (after the common data). R2007+ keep two bits
 * only, the xref index following when the second is set; AutoCAD writes 1 and 0 there for every
 * record (the bits a reader of the older layout also takes as "BS 0").
 */
export function tableRecordStart(o: ObjWriter, name: string, referenced = false): void {
  o.t(name);
  if (o.year >= 2007) {
    o.d.b(1).b(0);
    return;
  }
  o.d.b(referenced); // 64-flag
  o.d.bs(0); // xref index + 1
  o.d.b(0); // xref dependent
}

/** EED item: a string (code 0): length, code page and bytes before R2007; length and UTF-16 units from R2007. */
/**
 * One application's extended data items as DWG stores them (a code byte, code - 1000, then the
 * value: a string as `eedString`, a control byte 0 "{" / 1 "}", a binary chunk as its length and
 * bytes, a point as three doubles, a real as a double, 1070 as a short, 1071 as a long, all little
 * endian; a 1005 object or 1003 layer as its handle in eight bytes, big endian: AutoCAD's files and
 * LibreDWG agree on it).
 * `refs` gives the new file's handle of a source object (1005) or a layer (1003), 0 when there is
 * none: then, or for a code this does not know, null (the application's data is not carried).
 */
export function eedItems(
  items: readonly XDataItem[],
  ctx: WriteContext,
  codePage: number,
  refs: { object(sourceHandle: string): number; layer(name: string): number },
): Uint8Array | null {
  const parts: Uint8Array[] = [];
  const handle8 = (k: number, h: number): Uint8Array => {
    const out = new Uint8Array(9);
    out[0] = k;
    for (let i = 8; i >= 1; i--) {
      out[i] = h % 256;
      h = Math.floor(h / 256);
    }
    return out;
  };
  for (const { code, value } of items) {
    const k = code - 1000;
    if (code === 1000 && typeof value === 'string') parts.push(eedString(value, ctx, codePage));
    else if ((code === 1003 || code === 1005) && typeof value === 'string') {
      const h = code === 1003 ? refs.layer(value) : refs.object(value);
      if (!h) return null;
      parts.push(handle8(k, h));
    } else if (code === 1002) parts.push(Uint8Array.of(2, value === '}' ? 1 : 0));
    else if (code === 1004 && typeof value === 'string') {
      const hex = value.replace(/[^0-9a-f]/gi, '');
      const n = Math.min(hex.length >> 1, 255);
      const out = new Uint8Array(2 + n);
      out[0] = 4;
      out[1] = n;
      for (let i = 0; i < n; i++) out[2 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
      parts.push(out);
    } else if (code >= 1010 && code <= 1013 && Array.isArray(value)) {
      const out = new DataView(new ArrayBuffer(25));
      out.setUint8(0, k);
      value.forEach((v, i) => out.setFloat64(1 + 8 * i, v, true));
      parts.push(new Uint8Array(out.buffer));
    } else if (code >= 1040 && code <= 1042 && typeof value === 'number') {
      const out = new DataView(new ArrayBuffer(9));
      out.setUint8(0, k);
      out.setFloat64(1, value, true);
      parts.push(new Uint8Array(out.buffer));
    } else if (code === 1070 && typeof value === 'number') {
      const out = new DataView(new ArrayBuffer(3));
      out.setUint8(0, k);
      out.setInt16(1, value, true);
      parts.push(new Uint8Array(out.buffer));
    } else if (code === 1071 && typeof value === 'number') {
      const out = new DataView(new ArrayBuffer(5));
      out.setUint8(0, k);
      out.setInt32(1, value, true);
      parts.push(new Uint8Array(out.buffer));
    } else return null;
  }
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    data.set(p, at);
    at += p.length;
  }
  return data;
}

export function eedString(value: string, ctx: WriteContext, codePage: number): Uint8Array {
  if (ctx.year >= 2007) {
    const units = Math.min(value.length, 0xffff);
    const out = new Uint8Array(3 + units * 2);
    out[0] = 0;
    out[1] = units & 0xff;
    out[2] = units >> 8;
    for (let i = 0; i < units; i++) {
      const c = value.charCodeAt(i);
      out[3 + i * 2] = c & 0xff;
      out[4 + i * 2] = c >> 8;
    }
    return out;
  }
  const bytes = ctx.text(value).subarray(0, 255);
  const out = new Uint8Array(4 + bytes.length);
  out[0] = 0;
  out[1] = bytes.length & 0xff;
  out[2] = codePage & 0xff;
  out[3] = (codePage >> 8) & 0xff;
  out.set(bytes, 4);
  return out;
}
