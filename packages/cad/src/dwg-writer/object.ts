/**
 * One object of the objects section being encoded: its data stream and its handle stream, merged
 * as R2000/R2004 store them (type, size of the data in bits, own handle, extended data, data, then
 * the handle references), framed by the modular-short size and the object CRC.
 */
import { BitWriter, modularShort, Ref } from './bits';
import { crc16 } from './crc';

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
  private readonly sizeAt: number;

  constructor(
    type: number,
    readonly handle: number,
    readonly year: number,
    eed: Eed[] = [],
  ) {
    this.d.bs(type);
    this.sizeAt = this.d.bitLength;
    this.d.rl(0);
    this.d.h(Ref.Plain, handle);
    for (const e of eed) {
      this.d.bs(e.data.length);
      this.d.h(Ref.HardPointer, e.app);
      this.d.bytes(e.data);
    }
    this.d.bs(0);
  }

  /** Handle reference into the handle stream. */
  ref(code: number, handle: number): this {
    this.h.h(code, handle);
    return this;
  }

  /** The framed object: MS size, data + handles, CRC. */
  finish(): Uint8Array {
    this.d.patchRl(this.sizeAt, this.d.bitLength);
    this.d.append(this.h);
    const body = this.d.toBytes();
    const size = modularShort(body.length);
    const out = new Uint8Array(size.length + body.length + 2);
    out.set(size, 0);
    out.set(body, size.length);
    const crc = crc16(out, 0xc0c1, 0, size.length + body.length);
    out[out.length - 2] = crc & 0xff;
    out[out.length - 1] = crc >> 8;
    return out;
  }
}

/** Common data of a non-entity object: reactor count now, owner/reactors/xdictionary handles. */
export function objectCommon(o: ObjWriter, owner: number, reactors: number[] = []): void {
  o.d.bl(reactors.length);
  if (o.year >= 2004) o.d.b(1); // no extension dictionary
  o.ref(Ref.SoftPointer, owner);
  for (const r of reactors) o.ref(Ref.SoftPointer, r);
  if (o.year < 2004) o.ref(Ref.HardOwner, 0);
}

/** The fields every symbol table record starts with (after the common data). */
export function tableRecordStart(o: ObjWriter, name: Uint8Array, referenced = false): void {
  o.d.tv(name);
  o.d.b(referenced); // 64-flag
  o.d.bs(0); // xref index + 1
  o.d.b(0); // xref dependent
}

/** EED items: a string (code 0) in the code page, as R2000/R2004 store it. */
export function eedString(bytes: Uint8Array, codePage: number): Uint8Array {
  const out = new Uint8Array(4 + bytes.length);
  out[0] = 0;
  out[1] = bytes.length & 0xff;
  out[2] = codePage & 0xff;
  out[3] = (codePage >> 8) & 0xff;
  out.set(bytes, 4);
  return out;
}

/** EED item: a 16-bit integer (1070). */
export function eedShort(v: number): Uint8Array {
  return Uint8Array.of(70, v & 0xff, (v >> 8) & 0xff);
}
