/**
 * The R2007+ object layouts this writer uses, checked against AutoCAD: a decoder written here for
 * the entity and table types the writer emits reads each object field by field, in the order and
 * with the codes of the release (data, UTF-16 string stream, R2013 data-store bit, R2018 MTEXT
 * frame copy, ...), and must land exactly on the end of the object's data and of its strings.
 * It runs over the files this writer produces and, when ../shared/corpus is there (as in CI), over
 * every AutoCAD-written 2007/2010/2013/2018 DWG of the corpus (R2007: the BS type and the RL bit
 * size of R2000 with the string stream of R2010, in its own Reed-Solomon coded container): a layout that AutoCAD's own objects do
 * not fit to the last bit would fail there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAGIC } from './container2004';
import { rsDeinterleave } from './container2007';
import { decompress2007 } from './lz77-2007';
import { sampleDrawing } from './test-drawing';
import { writeDwg } from './writer';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = process.env.CAD_CORPUS ?? resolve(here, '../../../../../shared/corpus');
const corpusDir = join(CORPUS, 'dwg');

class Bits {
  constructor(
    readonly d: Uint8Array,
    public pos = 0,
  ) {}
  bit(): number {
    const v = ((this.d[this.pos >> 3] as number) >> (7 - (this.pos & 7))) & 1;
    this.pos++;
    return v;
  }
  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }
  rc(): number {
    return this.bits(8);
  }
  rs(): number {
    return this.rc() | (this.rc() << 8);
  }
  rl(): number {
    return (this.rs() | (this.rs() << 16)) >>> 0;
  }
  skip(bits: number): void {
    this.pos += bits;
  }
  bs(): number {
    const p = this.bits(2);
    return p === 0 ? this.rs() : p === 1 ? this.rc() : p === 2 ? 0 : 256;
  }
  bl(): number {
    const p = this.bits(2);
    return p === 0 ? this.rl() : p === 1 ? this.rc() : 0;
  }
  bd(): void {
    if (this.bits(2) === 0) this.skip(64);
  }
  bd3(): void {
    this.bd();
    this.bd();
    this.bd();
  }
  rd(n = 1): void {
    this.skip(64 * n);
  }
  dd(): void {
    this.skip([0, 32, 48, 64][this.bits(2)] as number);
  }
  /** BLL: a 3-bit byte count, then the value, least significant byte first. */
  bll(): number {
    let v = 0;
    for (let i = 0, n = this.bits(3); i < n; i++) v += this.rc() * 2 ** (8 * i);
    return v;
  }
  h(): void {
    this.skip((this.rc() & 15) * 8);
  }
  cmc(): void {
    this.bs();
    this.bl();
    this.rc();
  }
  tu(): string {
    const n = this.bs();
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.rs());
    return s;
  }
  ot(): number {
    const p = this.bits(2);
    return p === 0 ? this.rc() : p === 1 ? this.rc() + 0x1f0 : this.rs();
  }
}

function decompress(src: Uint8Array): Uint8Array {
  const dst: number[] = [];
  let p = 0;
  const rd = (): number => src[p++] as number;
  const count = (n0: number, extra: number): number => {
    let n = n0;
    if (n === 0) {
      let b = rd();
      for (; b === 0; b = rd()) n += 0xff;
      n += extra + b;
    }
    return n;
  };
  const literals = (n: number): number => {
    for (let k = 0; k < n; k++) dst.push(rd());
    return rd();
  };
  let op = rd();
  if ((op & 0xf0) === 0) op = literals(count(op & 0x0f, 0x0f) + 3);
  while (op !== 0x11 && p < src.length) {
    let len: number, off: number;
    if (op < 0x10 || op >= 0x40) {
      len = (op >> 4) - 1;
      off = (((op >> 2) & 3) | (rd() << 2)) + 1;
    } else if (op < 0x20) {
      len = count(op & 7, 7) + 2;
      const b1 = rd(),
        b2 = rd();
      off = ((op & 8) << 11) + ((b1 >> 2) | (b2 << 6)) + 0x4000;
      op = b1;
    } else {
      len = count(op & 0x1f, 0x1f) + 2;
      const b1 = rd(),
        b2 = rd();
      off = ((b1 >> 2) | (b2 << 6)) + 1;
      op = b1;
    }
    for (let k = 0; k < len; k++) dst.push(dst[dst.length - off] as number);
    let lit = op & 3;
    if (lit === 0) {
      op = rd();
      if ((op & 0xf0) !== 0) continue;
      lit = count(op & 0x0f, 0x0f) + 3;
    }
    op = literals(lit);
  }
  return Uint8Array.from(dst);
}

/** The named sections of an R2007 file (the data words of its pages, decompressed). */
function sections2007(bytes: Uint8Array): Map<string, Uint8Array> {
  const u64 = (d: Uint8Array, at: number): number => Number(new DataView(d.buffer, d.byteOffset, d.byteLength).getBigUint64(at, true));
  const pre = rsDeinterleave(bytes.subarray(0x80, 0x80 + 3 * 255), 3, 239);
  const table = decompress2007(pre.subarray(32, 32 + new DataView(pre.buffer).getInt32(24, true)), 0x110);
  const system = (at: number, comp: number, uncomp: number, correction: number): Uint8Array => {
    const blocks = Math.ceil((Math.ceil(comp / 8) * 8 * correction) / 239);
    const data = rsDeinterleave(bytes.subarray(at, at + blocks * 255), blocks, 239).subarray(0, comp);
    return comp < uncomp ? decompress2007(data, uncomp) : data.subarray(0, uncomp);
  };
  const pm = system(0x480 + u64(table, 7 * 8), u64(table, 10 * 8), u64(table, 11 * 8), u64(table, 3 * 8));
  const address = new Map<number, number>();
  for (let k = 0, at = 0x480; k < pm.length; k += 16) {
    address.set(u64(pm, k + 8), at);
    at += u64(pm, k);
  }
  const sm = system(address.get(u64(table, 24 * 8)) as number, u64(table, 22 * 8), u64(table, 25 * 8), u64(table, 27 * 8));
  const sections = new Map<string, Uint8Array>();
  for (let p = 0; p + 64 < sm.length;) {
    const size = u64(sm, p),
      nameLength = u64(sm, p + 32),
      encoding = u64(sm, p + 48),
      pages = u64(sm, p + 56);
    const name = String.fromCharCode(...new Uint16Array(sm.slice(p + 64, p + 64 + nameLength).buffer)).replace(/\0.*$/s, '');
    p += 64 + nameLength;
    const data = new Uint8Array(size);
    for (let j = 0; j < pages; j++, p += 56) {
      const at = address.get(u64(sm, p + 16)) as number,
        uncomp = u64(sm, p + 24),
        comp = u64(sm, p + 32);
      const blocks = Math.ceil((Math.ceil(comp / 8) * 8) / 251);
      const stored =
        encoding === 4
          ? rsDeinterleave(bytes.subarray(at, at + blocks * 255), blocks, 251).subarray(0, comp)
          : bytes.subarray(at, at + comp);
      data.set(comp < uncomp ? decompress2007(stored, uncomp) : stored.subarray(0, uncomp), u64(sm, p));
    }
    sections.set(name, data);
  }
  return sections;
}

/** The objects section and the object map (handle → offset) of an R2004-style or R2007 file. */
function objectsOf(bytes: Uint8Array): { objects: Uint8Array; offsets: number[] } {
  if (String.fromCharCode(...bytes.subarray(0, 6)) === 'AC1021') return mapped(sections2007(bytes));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = new DataView(Uint8Array.from(bytes.subarray(0x80, 0xec), (b, k) => b ^ (MAGIC[k] as number)).buffer);
  const system = (at: number): DataView => {
    const data = decompress(bytes.subarray(at + 20, at + 20 + view.getUint32(at + 8, true))).subarray(0, view.getUint32(at + 4, true));
    return new DataView(data.buffer, data.byteOffset, data.byteLength);
  };
  const pm = system(head.getUint32(0x54, true) + 0x100);
  const address = new Map<number, number>();
  for (let k = 0, at = 0x100; k + 8 <= pm.byteLength; k += 8) {
    const number = pm.getInt32(k, true);
    if (number >= 0) address.set(number, at);
    else k += 16; // a gap (free pages) entry carries four more longs
    at += pm.getUint32(k + 4 - (number >= 0 ? 0 : 16), true);
  }
  const sm = system(address.get(head.getUint32(0x5c, true)) as number);
  const sections = new Map<string, Uint8Array>();
  for (let k = 0, p = 20; k < sm.getUint32(0, true); k++) {
    const size = Number(sm.getBigUint64(p, true));
    const pages = sm.getUint32(p + 8, true),
      max = sm.getUint32(p + 12, true),
      compressed = sm.getUint32(p + 20, true);
    const name = String.fromCharCode(...new Uint8Array(sm.buffer, sm.byteOffset + p + 32, 64)).replace(/\0.*$/s, '');
    p += 96;
    const data = new Uint8Array(Math.max(pages * max, size));
    for (let j = 0; j < pages; j++, p += 16) {
      const at = address.get(sm.getUint32(p, true)) as number;
      const payload = bytes.subarray(at + 32, at + 32 + sm.getUint32(p + 4, true));
      data.set(compressed === 2 ? decompress(payload) : payload, Number(sm.getBigUint64(p + 8, true)));
    }
    sections.set(name, data.subarray(0, size));
  }
  return mapped(sections);
}

/** The objects section and the offsets the object map gives. */
function mapped(sections: Map<string, Uint8Array>): { objects: Uint8Array; offsets: number[] } {
  const map = sections.get('AcDb:Handles') as Uint8Array;
  const offsets: number[] = [];
  for (let q = 0; ;) {
    const size = ((map[q] as number) << 8) | (map[q + 1] as number);
    let offset = 0;
    for (let r = q + 2; r < q + size;) {
      [, r] = modular(map, r, false);
      let delta: number;
      [delta, r] = modular(map, r, true);
      offset += delta;
      offsets.push(offset);
    }
    q += size + 2;
    if (size <= 2 || q >= map.length) break;
  }
  return { objects: sections.get('AcDb:AcDbObjects') as Uint8Array, offsets };
}

function modular(d: Uint8Array, p: number, signed: boolean): [number, number] {
  let v = 0,
    shift = 1,
    q = p;
  for (;;) {
    const b = d[q++] as number;
    if (b & 0x80) {
      v += (b & 0x7f) * shift;
      shift *= 128;
    } else if (signed) return [(v + (b & 0x3f) * shift) * (b & 0x40 ? -1 : 1), q];
    else return [v + (b & 0x7f) * shift, q];
  }
}

/** Thrown for objects of a kind this writer never emits (multi-line attributes): not counted. */
class NotWritten extends Error {}

type Decode = (r: Bits, s: Bits, year: number) => void;

const textData = (r: Bits, s: Bits): void => {
  const df = r.rc();
  if (!(df & 1)) r.rd();
  r.rd(2);
  if (!(df & 2)) {
    r.dd();
    r.dd();
  }
  if (!r.bit()) r.bd3(); // extrusion
  if (!r.bit()) r.bd(); // thickness
  if (!(df & 4)) r.rd();
  if (!(df & 8)) r.rd();
  r.rd();
  if (!(df & 16)) r.rd();
  s.tu();
  if (!(df & 32)) r.bs();
  if (!(df & 64)) r.bs();
  if (!(df & 128)) r.bs();
};
const attribute =
  (definition: boolean): Decode =>
  (r, s, year) => {
    textData(r, s);
    if (year >= 2010) r.rc();
    if (year >= 2018 && r.rc() > 1) throw new NotWritten();
    s.tu();
    r.bs();
    r.rc();
    r.bit();
    if (definition) {
      if (year >= 2010) r.rc();
      s.tu();
    }
  };
const dimension =
  (tail: (r: Bits) => void): Decode =>
  (r, s, year) => {
    if (year >= 2010) r.rc();
    r.bd3();
    r.rd(2);
    r.bd();
    r.rc();
    s.tu();
    r.bd();
    r.bd();
    r.bd3();
    r.bd();
    r.bs();
    r.bs();
    r.bd();
    r.bd();
    r.skip(3);
    r.rd(2);
    tail(r);
  };
/** Table records from R2007: name in the strings, two flag bits. Records of an xref ('XREF|NAME') are never written here. */
const record = (r: Bits, s: Bits): void => {
  if (s.tu().includes('|')) throw new NotWritten();
  r.bit();
  r.bit();
};

const ENTITIES: Record<number, [string, Decode]> = {
  1: ['TEXT', textData],
  2: ['ATTRIB', attribute(false)],
  3: ['ATTDEF', attribute(true)],
  10: [
    'VERTEX_2D',
    (r, _s, year) => {
      r.rc();
      r.bd3();
      let width = 0;
      if (r.bits(2) === 0) width = new DataView(Uint8Array.from({ length: 8 }, () => r.rc()).buffer).getFloat64(0, true);
      if (width >= 0) r.bd();
      r.bd();
      if (year >= 2010) r.bl();
      r.bd();
    },
  ],
  20: ['DIMENSION_ORDINATE', dimension((r) => (r.bd3(), r.bd3(), r.bd3(), r.rc()))],
  21: ['DIMENSION_LINEAR', dimension((r) => (r.bd3(), r.bd3(), r.bd3(), r.bd(), r.bd()))],
  22: ['DIMENSION_ALIGNED', dimension((r) => (r.bd3(), r.bd3(), r.bd3(), r.bd()))],
  25: ['DIMENSION_RADIUS', dimension((r) => (r.bd3(), r.bd3(), r.bd()))],
  26: ['DIMENSION_DIAMETER', dimension((r) => (r.bd3(), r.bd3(), r.bd()))],
  34: [
    'VIEWPORT',
    (r, s) => {
      r.bd3();
      r.bd();
      r.bd();
      r.bd3();
      r.bd3();
      for (let i = 0; i < 6; i++) r.bd();
      r.rd(8);
      r.bs();
      r.bs(); // grid major (R2007+)
      r.bl();
      r.bl();
      s.tu();
      r.rc();
      r.skip(2);
      r.bd3();
      r.bd3();
      r.bd3();
      r.bd();
      r.bs();
      r.bs(); // shade plot mode
      r.bit();
      r.rc();
      r.bd();
      r.bd();
      r.cmc();
    },
  ],
  36: [
    'SPLINE',
    (r, _s, year) => {
      let scenario = r.bl();
      if (year >= 2013) {
        const flags = r.bl();
        const knotParameter = r.bl();
        if (flags & 1) scenario = 2;
        if (knotParameter === 15) scenario = 1;
      }
      r.bl();
      if (scenario & 1) {
        r.skip(3);
        r.bd();
        r.bd();
        const knots = r.bl(),
          points = r.bl(),
          weighted = r.bit();
        for (let i = 0; i < knots; i++) r.bd();
        for (let i = 0; i < points; i++) {
          r.bd3();
          if (weighted) r.bd();
        }
      } else {
        r.bd();
        r.bd3();
        r.bd3();
        const n = r.bl();
        for (let i = 0; i < n; i++) r.bd3();
      }
    },
  ],
  44: [
    'MTEXT',
    (r, s, year) => {
      r.bd3();
      r.bd3();
      r.bd3();
      for (let i = 0; i < 3; i++) r.bd();
      r.bs();
      r.bs();
      r.bd();
      r.bd();
      s.tu();
      r.bs();
      r.bd();
      r.bit();
      if (r.bl() & 1) {
        r.bd(); // border offset factor: a double in AutoCAD's files
        r.cmc();
        r.bl();
      }
      if (year >= 2018 && r.bit()) {
        r.bs();
        r.bit();
        r.bl();
        r.bd3();
        r.bd3();
        for (let i = 0; i < 4; i++) r.bd();
        const columns = r.bs();
        if (columns) {
          const n = r.bl();
          r.bd();
          r.bd();
          const auto = r.bit();
          r.bit();
          if (!auto && columns === 2) for (let i = 0; i < n; i++) r.bd();
        }
      }
    },
  ],
  78: [
    'HATCH',
    (r, s, year) => {
      r.bl();
      r.bl();
      r.bd();
      r.bd();
      r.bl();
      r.bd();
      for (let n = r.bl(); n > 0; n--) {
        r.bd();
        r.cmc();
      }
      s.tu();
      r.bd();
      r.bd3();
      s.tu();
      const solid = r.bit();
      r.bit();
      let pixel = false;
      for (let paths = r.bl(); paths > 0; paths--) {
        const flags = r.bl();
        if (flags & 4) pixel = true;
        if (flags & 2) {
          const bulges = r.bit();
          r.bit();
          for (let n = r.bl(); n > 0; n--) {
            r.rd(2);
            if (bulges) r.bd();
          }
        } else
          for (let edges = r.bl(); edges > 0; edges--) {
            const kind = r.rc();
            if (kind === 1) r.rd(4);
            else if (kind === 2 || kind === 3) {
              r.rd(kind === 2 ? 2 : 4); // centre (and major axis)
              r.bd();
              r.bd();
              r.bd();
              r.bit();
            } else {
              r.bl();
              const rational = r.bit();
              r.bit();
              const knots = r.bl(),
                points = r.bl();
              for (let i = 0; i < knots; i++) r.bd();
              for (let i = 0; i < points; i++) {
                r.rd(2);
                if (rational) r.bd();
              }
              if (year >= 2010) {
                const fit = r.bl();
                r.rd(2 * fit);
                if (fit) r.rd(4); // start and end tangents
              }
            }
          }
        r.bl(); // source boundary objects
      }
      r.bs();
      r.bs();
      if (!solid) {
        r.bd();
        r.bd();
        r.bit();
        for (let lines = r.bs(); lines > 0; lines--) {
          for (let i = 0; i < 5; i++) r.bd();
          for (let n = r.bs(); n > 0; n--) r.bd();
        }
      }
      if (pixel) r.bd();
      r.rd(2 * r.bl());
    },
  ],
};

const OBJECTS: Record<number, [string, Decode]> = {
  42: [
    'DICTIONARY',
    (r, s) => {
      const items = r.bl();
      r.bs(); // cloning
      r.rc(); // hard owner
      for (let i = 0; i < items; i++) s.tu();
    },
  ],
  53: ['STYLE', (r, s) => (record(r, s), r.skip(2), r.bd(), r.bd(), r.bd(), r.rc(), r.bd(), s.tu(), s.tu())],
  57: [
    'LTYPE',
    (r, s) => {
      record(r, s);
      s.tu();
      r.bd();
      r.rc();
      let text = false;
      for (let n = r.rc(); n > 0; n--) {
        r.bd();
        r.bs();
        r.rd(2);
        r.bd();
        r.bd();
        if (r.bs() & 2) text = true;
      }
      if (text) r.skip(512 * 8);
    },
  ],
  65: [
    'VPORT',
    (r, s) => {
      record(r, s);
      r.bd();
      r.bd();
      r.rd(2);
      r.bd3();
      r.bd3();
      for (let i = 0; i < 4; i++) r.bd();
      r.skip(4);
      r.rc();
      r.bit();
      r.rc();
      r.bd();
      r.bd();
      r.cmc();
      r.rd(4);
      r.bit(); // UCSFOLLOW
      r.bs(); // circle zoom
      r.skip(4); // fast zoom, UCS icon (2 bits), grid on
      r.rd(2); // grid spacing
      r.skip(2);
      r.bs();
      r.bd();
      r.rd(4);
      r.skip(2);
      r.bd3();
      r.bd3();
      r.bd3();
      r.bd();
      r.bs();
      r.bs();
      r.bs();
    },
  ],
  67: ['APPID', (r, s) => (record(r, s), r.rc())],
  69: [
    'DIMSTYLE',
    (r, s, year) => {
      record(r, s);
      s.tu();
      s.tu();
      for (let i = 0; i < 11; i++) r.bd();
      r.bs();
      r.cmc();
      r.skip(6);
      for (let i = 0; i < 4; i++) r.bs();
      for (let i = 0; i < 9; i++) r.bd();
      r.bit();
      r.bs();
      r.skip(4);
      r.cmc();
      r.cmc();
      r.cmc();
      for (let i = 0; i < 11; i++) r.bs();
      r.skip(2);
      for (let i = 0; i < 4; i++) r.bs();
      r.bit();
      r.bs();
      r.bit();
      if (year >= 2010) {
        r.bit();
        r.bd();
        s.tu();
        r.bd();
        s.tu();
      }
      r.bs();
      r.bs();
      r.bit();
    },
  ],
  73: [
    'MLINESTYLE',
    (r, s, year) => {
      s.tu();
      s.tu();
      r.bs();
      r.cmc();
      r.bd();
      r.bd();
      for (let n = r.rc(); n > 0; n--) {
        r.bd();
        r.cmc();
        if (year < 2018) r.bs();
      }
    },
  ],
};

interface Tally {
  checked: number;
  bad: string[];
}

/** Decodes every object of the kinds above; each must end on its data end and string-stream end. */
function check(bytes: Uint8Array, year: number, label: string, tally: Map<string, Tally>): void {
  const { objects, offsets } = objectsOf(bytes);
  for (const offset of offsets) {
    let size = 0,
      q = offset,
      shift = 1;
    for (;;) {
      const w = (objects[q] as number) | ((objects[q + 1] as number) << 8);
      q += 2;
      size += (w & 0x7fff) * shift;
      shift *= 32768;
      if (!(w & 0x8000)) break;
    }
    // R2010+: the handle stream's size, then the type as OT; R2007: the type as BS, then the
    // size in bits of data and strings.
    let handleBits = 0;
    if (year >= 2010) [handleBits, q] = modular(objects, q, false);
    const r = new Bits(objects, q * 8);
    const type = year >= 2010 ? r.ot() : r.bs();
    const end = year >= 2010 ? q * 8 + size * 8 - handleBits : q * 8 + r.rl();
    const known = ENTITIES[type] ?? OBJECTS[type];
    if (!known) continue;
    const [name, decode] = known;
    const strings = new Bits(objects, end - 1);
    let stringsStart = end - 1,
      stringsEnd = end - 1;
    if (strings.bit()) {
      strings.pos = end - 17;
      let n = strings.rs();
      stringsEnd = end - 17;
      if (n & 0x8000) {
        strings.pos = end - 33;
        n = (n & 0x7fff) | (strings.rs() << 15);
        stringsEnd = end - 33;
      }
      stringsStart = stringsEnd - n;
    }
    const s = new Bits(objects, stringsStart);
    r.h();
    for (let n = r.bs(); n > 0; n = r.bs()) {
      r.h(); // extended data: application, then its bytes
      r.skip(n * 8);
    }
    if (ENTITIES[type]) {
      if (r.bit()) r.skip(r.bll() * 8); // graphics
      r.skip(2); // entity mode
      r.bl(); // reactors
      r.bit(); // no extension dictionary
      if (year >= 2013) r.bit();
      const colour = r.bs() >> 8;
      if (colour & 0x20) r.bl();
      if (!(colour & 0x40) && colour & 0x80) r.bl();
      if ((colour & 0x41) === 0x41) s.tu();
      if ((colour & 0x42) === 0x42) s.tu();
      r.bd(); // linetype scale
      r.skip(2 + 2 + 2 + 8 + (year >= 2010 ? 3 : 0)); // linetype, plot style, material, shadow, (R2010+) visual styles
      r.bs();
      r.rc();
    } else {
      r.bl();
      r.bit();
      if (year >= 2013) r.bit();
    }
    const t = tally.get(name) ?? { checked: 0, bad: [] };
    tally.set(name, t);
    try {
      decode(r, s, year);
    } catch (e) {
      if (e instanceof NotWritten) continue;
      throw e;
    }
    t.checked++;
    if (r.pos !== stringsStart || s.pos !== stringsEnd)
      t.bad.push(`${label}@${offset}: data ${r.pos - stringsStart}, strings ${s.pos - stringsEnd}`);
  }
}

const RELEASES: [version: '2007' | '2010' | '2013' | '2018', signature: string][] = [
  ['2007', 'AC1021'],
  ['2010', 'AC1024'],
  ['2013', 'AC1027'],
  ['2018', 'AC1032'],
];

describe.each(RELEASES)('DWG %s object layouts', (version, signature) => {
  const year = Number(version);

  it('every object of the written kinds decodes to the last bit of its data and of its strings', () => {
    const tally = new Map<string, Tally>();
    check(writeDwg(sampleDrawing(), { version }).bytes, year, 'sample', tally);
    expect([...tally.entries()].flatMap(([k, t]) => t.bad.map((b) => `${k} ${b}`))).toEqual([]);
    expect([...tally.keys()].sort()).toEqual([
      'APPID',
      'ATTDEF',
      'ATTRIB',
      'DICTIONARY',
      'DIMENSION_LINEAR',
      'DIMENSION_RADIUS',
      'DIMSTYLE',
      'HATCH',
      'LTYPE',
      'MLINESTYLE',
      'MTEXT',
      'SPLINE',
      'STYLE',
      'TEXT',
      'VERTEX_2D',
      'VIEWPORT',
      'VPORT',
    ]);
  });

  // The same layouts over AutoCAD's own files (the corpus, when present): the writer's field order is AutoCAD's.
  const autocad = existsSync(corpusDir)
    ? readdirSync(corpusDir)
        .filter((f) => f.endsWith('.dwg') && !f.startsWith('gen_'))
        .map((f) => join(corpusDir, f))
        .filter((f) => String.fromCharCode(...readFileSync(f).subarray(0, 6)) === signature)
    : [];
  it(`AutoCAD's ${version} files (${autocad.length ? `${autocad.length} in the corpus` : 'n/a: no corpus here'}) fit the same layouts to the last bit`, () => {
    const tally = new Map<string, Tally>();
    for (const file of autocad) check(readFileSync(file), year, file.slice(file.lastIndexOf('/') + 1), tally);
    expect([...tally.entries()].flatMap(([k, t]) => t.bad.map((b) => `${k} ${b}`))).toEqual([]);
    if (autocad.length) {
      const checked = Object.fromEntries([...tally].map(([k, t]) => [k, t.checked]));
      console.info(`DWG ${version} layouts checked on AutoCAD's files: ${JSON.stringify(checked)}`);
      expect(tally.get('TEXT')?.checked ?? tally.get('MTEXT')?.checked).toBeGreaterThan(0);
    } else console.info(`DWG ${version} layouts against AutoCAD's files: not applicable (no ../shared/corpus here)`);
  });
});
