/**
 * Bit-level writer for the DWG object encoding (R13 and later): data is a stream of bits, most
 * significant bit of each byte first, and the "bit codes" of the Open Design Specification choose
 * the shortest form of each value (a 2-bit prefix saying "zero", "one", "a byte follows" or "the
 * full value follows"). Raw values (RC, RS, RL, RD) are little-endian but not byte-aligned.
 */

const f64 = new DataView(new ArrayBuffer(8));

/** Handle reference codes (the high nibble of a handle reference). */
export const enum Ref {
  /** The object's own handle, and HANDSEED. */
  Plain = 0,
  SoftOwner = 2,
  HardOwner = 3,
  SoftPointer = 4,
  HardPointer = 5,
}

export class BitWriter {
  private buf: Uint8Array;
  /** Position in bits. */
  private pos = 0;

  constructor(capacity = 256) {
    this.buf = new Uint8Array(Math.max(16, capacity));
  }

  /** Number of bits written. */
  get bitLength(): number {
    return this.pos;
  }

  get byteLength(): number {
    return (this.pos + 7) >> 3;
  }

  private grow(bits: number): void {
    const need = (this.pos + bits + 7) >> 3;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, (this.pos + 7) >> 3));
    this.buf = next;
  }

  /** The low `n` bits of `v` (n <= 32), most significant first. */
  bits(v: number, n: number): this {
    this.grow(n);
    for (let i = n - 1; i >= 0; i--) {
      if ((v >>> i) & 1) this.buf[this.pos >> 3] = (this.buf[this.pos >> 3] as number) | (0x80 >> (this.pos & 7));
      this.pos++;
    }
    return this;
  }

  /** B: one bit. */
  b(v: boolean | number): this {
    return this.bits(v ? 1 : 0, 1);
  }

  /** BB: two bits. */
  bb(v: number): this {
    return this.bits(v & 3, 2);
  }

  /** RC: a raw byte. */
  rc(v: number): this {
    if ((this.pos & 7) === 0) {
      this.grow(8);
      this.buf[this.pos >> 3] = v & 0xff;
      this.pos += 8;
      return this;
    }
    return this.bits(v & 0xff, 8);
  }

  /** Raw bytes, each as an RC. */
  bytes(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.rc(b[i] as number);
    return this;
  }

  /** RS: raw 16-bit integer, little-endian. */
  rs(v: number): this {
    return this.rc(v & 0xff).rc((v >> 8) & 0xff);
  }

  /** RL: raw 32-bit integer, little-endian. */
  rl(v: number): this {
    return this.rc(v & 0xff)
      .rc((v >>> 8) & 0xff)
      .rc((v >>> 16) & 0xff)
      .rc((v >>> 24) & 0xff);
  }

  /** RD: raw IEEE double, little-endian. */
  rd(v: number): this {
    f64.setFloat64(0, v, true);
    for (let i = 0; i < 8; i++) this.rc(f64.getUint8(i));
    return this;
  }

  /** BS: 00 + RS, 01 + RC (0..255), 10 = 0, 11 = 256. */
  bs(v: number): this {
    const n = v & 0xffff;
    if (n === 0) return this.bb(2);
    if (n === 256) return this.bb(3);
    if (n < 256) return this.bb(1).rc(n);
    return this.bb(0).rs(n);
  }

  /** BL: 00 + RL, 01 + RC (0..255), 10 = 0. */
  bl(v: number): this {
    const n = v >>> 0;
    if (n === 0) return this.bb(2);
    if (n < 256) return this.bb(1).rc(n);
    return this.bb(0).rl(n);
  }

  /** BD: 00 + RD, 01 = 1.0, 10 = 0.0. */
  bd(v: number): this {
    const x = Number.isFinite(v) ? v : 0;
    if (x === 1) return this.bb(1);
    if (x === 0 && !Object.is(x, -0)) return this.bb(2);
    return this.bb(0).rd(x);
  }

  /**
   * DD: a double relative to a default: 00 = the default, 01 = its low 4 bytes replaced, 10 = bytes
   * 5-6 and then 1-4 replaced, 11 = a full RD.
   */
  dd(v: number, def: number): this {
    const x = Number.isFinite(v) ? v : 0;
    f64.setFloat64(0, x, true);
    const a = new Uint8Array(8);
    for (let i = 0; i < 8; i++) a[i] = f64.getUint8(i);
    f64.setFloat64(0, def, true);
    const d = new Uint8Array(8);
    for (let i = 0; i < 8; i++) d[i] = f64.getUint8(i);
    const same = (from: number, to: number): boolean => {
      for (let i = from; i < to; i++) if (a[i] !== d[i]) return false;
      return true;
    };
    if (same(0, 8)) return this.bb(0);
    if (same(4, 8)) return this.bb(1).bytes(a.subarray(0, 4));
    if (same(6, 8))
      return this.bb(2)
        .rc(a[4] as number)
        .rc(a[5] as number)
        .bytes(a.subarray(0, 4));
    return this.bb(3).bytes(a);
  }

  /** 2RD / 3RD: raw doubles. */
  rd2(p: readonly number[]): this {
    return this.rd(p[0] ?? 0).rd(p[1] ?? 0);
  }
  rd3(p: readonly number[]): this {
    return this.rd(p[0] ?? 0)
      .rd(p[1] ?? 0)
      .rd(p[2] ?? 0);
  }

  /** 2BD / 3BD: bit doubles. */
  bd2(p: readonly number[]): this {
    return this.bd(p[0] ?? 0).bd(p[1] ?? 0);
  }
  bd3(p: readonly number[]): this {
    return this.bd(p[0] ?? 0)
      .bd(p[1] ?? 0)
      .bd(p[2] ?? 0);
  }

  /** 2DD: a point relative to a default point. */
  dd2(p: readonly number[], def: readonly number[]): this {
    return this.dd(p[0] ?? 0, def[0] ?? 0).dd(p[1] ?? 0, def[1] ?? 0);
  }

  /** BE: extrusion, 1 bit when it is (0, 0, 1), else 0 and 3BD (R2000+). */
  be(v: readonly number[]): this {
    if (v[0] === 0 && v[1] === 0 && v[2] === 1) return this.b(1);
    return this.b(0).bd3(v);
  }

  /** BT: thickness, 1 bit when it is 0, else 0 and BD (R2000+). */
  bt(v: number): this {
    if (!v) return this.b(1);
    return this.b(0).bd(v);
  }

  /**
   * H: a handle reference: code nibble, byte-count nibble, then the handle's bytes, most
   * significant first (no bytes for handle 0).
   */
  h(code: number, handle: number): this {
    const bytes: number[] = [];
    let v = handle;
    while (v > 0) {
      bytes.unshift(v % 256);
      v = Math.floor(v / 256);
    }
    this.rc(((code & 0xf) << 4) | bytes.length);
    return this.bytes(bytes);
  }

  /** TV for R13-R2004: BS length (terminating NUL counted, as AutoCAD writes it) and the code-page bytes. */
  tv(encoded: Uint8Array): this {
    if (encoded.length === 0) return this.bs(0);
    this.bs(encoded.length + 1);
    return this.bytes(encoded).rc(0);
  }

  /** OT (R2010+ object type): BB 0 + RC for 0..255, BB 1 + RC for 0x1F0..0x2EF, else BB 2 + RS. */
  ot(type: number): this {
    if (type >= 0 && type <= 0xff) return this.bb(0).rc(type);
    if (type >= 0x1f0 && type <= 0x2ef) return this.bb(1).rc(type - 0x1f0);
    return this.bb(2).rs(type);
  }

  /** BLL: a 3-bit byte count, then that many bytes, least significant first (values up to 2^53). */
  bll(v: number): this {
    const bytes: number[] = [];
    for (let n = Math.max(0, Math.floor(v)); n > 0; n = Math.floor(n / 256)) bytes.push(n % 256);
    return this.bits(bytes.length, 3).bytes(bytes);
  }

  /** TU for R2007+: BS length in UTF-16 units, then the units (no NUL). */
  tu(s: string): this {
    this.bs(s.length);
    for (let i = 0; i < s.length; i++) this.rs(s.charCodeAt(i));
    return this;
  }

  /** Pads with zero bits to the next byte boundary. */
  align(): this {
    this.grow(8);
    this.pos = (this.pos + 7) & ~7;
    return this;
  }

  /** Appends another stream's bits. */
  append(other: BitWriter): this {
    const n = other.bitLength;
    const src = other.buf;
    let i = 0;
    for (; i + 8 <= n; i += 8) this.rc(src[i >> 3] as number);
    if (i < n) this.bits((src[i >> 3] as number) >> (8 - (n - i)), n - i);
    return this;
  }

  /** Overwrites 32 bits at a bit position already written (a raw long, as RL). */
  patchRl(bitPos: number, v: number): void {
    const save = this.pos;
    this.pos = bitPos;
    // Clear the 32 bits first: `bits` only sets ones.
    for (let i = 0; i < 32; i++) {
      const p = bitPos + i;
      this.buf[p >> 3] = (this.buf[p >> 3] as number) & ~(0x80 >> (p & 7));
    }
    this.rl(v);
    this.pos = save;
  }

  /** The bytes written; a last partial byte is padded with zero bits. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.byteLength);
  }
}

/** MC: modular char, 7 bits a byte, low groups first; bit 0x80 = more follows, 0x40 of the last = negative. */
export function modularChar(v: number): number[] {
  const neg = v < 0;
  let n = Math.abs(v);
  const out: number[] = [];
  for (;;) {
    const low = n % 128;
    n = Math.floor(n / 128);
    if (n === 0 && low < 64) {
      out.push(low | (neg ? 0x40 : 0));
      return out;
    }
    out.push(low | 0x80);
  }
}

/** Unsigned modular char (no sign bit): the object map's handle offsets. */
export function unsignedModularChar(v: number): number[] {
  let n = v;
  const out: number[] = [];
  do {
    const low = n % 128;
    n = Math.floor(n / 128);
    out.push(low | (n > 0 ? 0x80 : 0));
  } while (n > 0);
  return out;
}

/** MS: modular short, 15 bits a little-endian word; bit 0x8000 = another word follows. */
export function modularShort(v: number): number[] {
  let n = v;
  const out: number[] = [];
  do {
    const low = n % 32768;
    n = Math.floor(n / 32768);
    const word = low | (n > 0 ? 0x8000 : 0);
    out.push(word & 0xff, word >> 8);
  } while (n > 0);
  return out;
}
