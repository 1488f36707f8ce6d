/**
 * The R2000 container checked the way a strict reader checks it, independently of LibreDWG: the
 * file header CRC and locators, every sentinel, the CRC of each section, of each object-map page
 * (big-endian) and of each object, the map sorted by handle and pointing at objects that carry
 * that handle, the second header, and HANDSEED above every handle. Then ezdxf's own DWG header
 * loader (Debian python3-ezdxf) decodes the header variables with its CRC checks on.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SENTINEL } from './constants';
import { MAGIC } from './container2004';
import { crc32 } from 'node:zlib';
import { crc16, pageChecksum } from './crc';
import { sampleDrawing } from './test-drawing';
import { writeDwg } from './writer';

const tmp = mkdtempSync(join(tmpdir(), 'dwg-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

class Bits {
  pos: number;
  constructor(
    private readonly d: Uint8Array,
    byte: number,
  ) {
    this.pos = byte * 8;
  }
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
  bl(): number {
    const p = this.bits(2);
    return p === 0 ? this.rl() : p === 1 ? this.rc() : 0;
  }
  bs(): number {
    const p = this.bits(2);
    return p === 0 ? this.rs() : p === 1 ? this.rc() : p === 2 ? 0 : 256;
  }
  handle(): { code: number; value: number } {
    const x = this.rc();
    let value = 0;
    for (let i = 0; i < (x & 15); i++) value = value * 256 + this.rc();
    return { code: x >> 4, value };
  }
}

const le32 = (d: Uint8Array, p: number): number =>
  ((d[p] as number) | ((d[p + 1] as number) << 8) | ((d[p + 2] as number) << 16) | ((d[p + 3] as number) << 24)) >>> 0;
const le16 = (d: Uint8Array, p: number): number => (d[p] as number) | ((d[p + 1] as number) << 8);
const same = (d: Uint8Array, p: number, s: Uint8Array): boolean => s.every((b, i) => d[p + i] === b);

function modular(d: Uint8Array, p: number, signed: boolean): [number, number] {
  let v = 0,
    shift = 1,
    q = p;
  for (;;) {
    const b = d[q++] as number;
    if (b & 0x80) {
      v += (b & 0x7f) * shift;
      shift *= 128;
      continue;
    }
    if (signed) {
      v += (b & 0x3f) * shift;
      return [b & 0x40 ? -v : v, q];
    }
    return [v + (b & 0x7f) * shift, q];
  }
}

describe('R2000 container, checked like a strict reader', () => {
  const { bytes } = writeDwg(sampleDrawing(), { version: '2000' });

  it('file header: signature, locators inside the file, CRC, end sentinel', () => {
    expect(String.fromCharCode(...bytes.subarray(0, 6))).toBe('AC1015');
    expect(le16(bytes, 0x13)).toBe(39); // ANSI_936
    expect(le32(bytes, 0x15)).toBe(6);
    for (let k = 0; k < 6; k++) {
      const p = 0x19 + 9 * k;
      expect(bytes[p]).toBe(k);
      expect(le32(bytes, p + 1) + le32(bytes, p + 5)).toBeLessThanOrEqual(bytes.length);
    }
    expect(le16(bytes, 0x4f)).toBe(crc16(bytes, 0xc0c1, 0, 0x4f));
    expect(same(bytes, 0x51, SENTINEL.fileHeaderEnd)).toBe(true);
    // The preview address points at the preview's sentinel.
    expect(same(bytes, le32(bytes, 0x0d), SENTINEL.previewStart)).toBe(true);
  });

  it('header variables and classes: sentinels, sizes and CRCs', () => {
    for (const [n, start, end] of [
      [0, SENTINEL.headerStart, SENTINEL.headerEnd],
      [1, SENTINEL.classesStart, SENTINEL.classesEnd],
    ] as const) {
      const at = le32(bytes, 0x19 + 9 * n + 1);
      const size = le32(bytes, 0x19 + 9 * n + 5);
      expect(same(bytes, at, start)).toBe(true);
      const dataSize = le32(bytes, at + 16);
      expect(size).toBe(dataSize + 38);
      expect(le16(bytes, at + 20 + dataSize)).toBe(crc16(bytes, 0xc0c1, at + 16, at + 20 + dataSize));
      expect(same(bytes, at + 22 + dataSize, end)).toBe(true);
    }
  });

  it('object map: pages of at most 2032 bytes with big-endian CRCs, sorted handles, objects whose CRC and own handle match', () => {
    const at = le32(bytes, 0x19 + 9 * 2 + 1);
    const size = le32(bytes, 0x19 + 9 * 2 + 5);
    let p = at;
    const entries: [number, number][] = [];
    for (;;) {
      const pageSize = ((bytes[p] as number) << 8) | (bytes[p + 1] as number);
      expect(pageSize).toBeLessThanOrEqual(2032);
      const crc = ((bytes[p + pageSize] as number) << 8) | (bytes[p + pageSize + 1] as number);
      expect(crc).toBe(crc16(bytes, 0xc0c1, p, p + pageSize));
      let q = p + 2,
        handle = 0,
        offset = 0;
      while (q < p + pageSize) {
        const [dh, q1] = modular(bytes, q, false);
        const [dofs, q2] = modular(bytes, q1, true);
        q = q2;
        handle += dh;
        offset += dofs;
        entries.push([handle, offset]);
      }
      p += pageSize + 2;
      if (pageSize === 2) break;
    }
    expect(p - at).toBe(size);
    expect(entries.length).toBeGreaterThan(100);
    let last = 0;
    let maxHandle = 0;
    for (const [handle, offset] of entries) {
      expect(handle).toBeGreaterThan(last);
      last = handle;
      maxHandle = Math.max(maxHandle, handle);
      // MS size, then the object; its CRC covers size and data.
      let objSize = 0,
        q = offset,
        shift = 1;
      for (;;) {
        const w = le16(bytes, q);
        q += 2;
        objSize += (w & 0x7fff) * shift;
        shift *= 32768;
        if (!(w & 0x8000)) break;
      }
      expect(le16(bytes, q + objSize)).toBe(crc16(bytes, 0xc0c1, offset, q + objSize));
      const r = new Bits(bytes, q);
      const type = r.bs();
      expect(type).toBeGreaterThan(0);
      const bitSize = r.rl();
      expect(bitSize).toBeLessThanOrEqual(objSize * 8);
      const own = r.handle();
      expect(own).toEqual({ code: 0, value: handle });
    }
    // HANDSEED (in the second header, first handle) is above every handle.
    const second = p;
    expect(same(bytes, second, SENTINEL.secondHeaderStart)).toBe(true);
    const secondSize = le32(bytes, second + 16);
    const r = new Bits(bytes, second + 20);
    expect(r.bl()).toBe(second);
    expect(String.fromCharCode(...[0, 1, 2, 3, 4, 5].map(() => r.rc()))).toBe('AC1015');
    const dataEnd = second + 16 + secondSize - 10;
    expect(le16(bytes, dataEnd)).toBe(crc16(bytes, 0xc0c1, second + 16, dataEnd));
    expect(same(bytes, second + 16 + secondSize, SENTINEL.secondHeaderEnd)).toBe(true);
    for (let k = 0; k < 5; k++) r.rc();
    r.rc();
    r.rc();
    r.bs();
    r.rs();
    const nSections = r.bs();
    for (let k = 0; k < nSections; k++) {
      r.rc();
      r.bl();
      r.bl();
    }
    expect(r.bs()).toBe(14);
    const n = r.rc();
    expect(r.rc()).toBe(0);
    let seed = 0;
    for (let k = 0; k < n; k++) seed = seed * 256 + r.rc();
    expect(seed).toBeGreaterThan(maxHandle);
    // The template section: MEASUREMENT 1 (metric).
    const template = le32(bytes, 0x19 + 9 * 4 + 1);
    expect(le16(bytes, template + 2)).toBe(1);
  });

  it("ezdxf's DWG loader reads the header variables and classes with its CRC checks on", () => {
    const file = join(tmp, 'sample.dwg');
    writeFileSync(file, bytes);
    const script = [
      'import json, sys',
      'from ezdxf.addons.dwg.fileheader import FileHeader',
      'from ezdxf.addons.dwg.header_section import load_header_section',
      'from ezdxf.addons.dwg.classes_section import load_classes_section',
      'data = open(sys.argv[1], "rb").read()',
      'fh = FileHeader(data, crc_check=True)',
      'v = load_header_section(fh, data, True).load_header_vars()',
      'classes = [c.dxf.name.rstrip("\\x00") for _, c in load_classes_section(fh, data, True).load_classes()]',
      'print(json.dumps({"version": fh.version, "encoding": fh.encoding, "handseed": v["$HANDSEED"], "insunits": v["$INSUNITS"], "ltscale": v["$LTSCALE"], "extmax": list(v["$EXTMAX"]), "count": len(v), "classes": classes}))',
    ].join('\n');
    const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, file], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out.version).toBe('AC1015');
    expect(out.encoding).toBe('gbk');
    expect(out.insunits).toBe(4);
    expect(out.ltscale).toBe(2);
    expect(out.extmax).toEqual([200, 120, 0]);
    expect(Number.parseInt(out.handseed as string, 16)).toBeGreaterThan(100);
    expect(out.count).toBeGreaterThan(200);
    expect(out.classes).toEqual(expect.arrayContaining(['ACDBDICTIONARYWDFLT', 'IMAGE', 'IMAGEDEF', 'IMAGEDEF_REACTOR', 'WIPEOUT']));
  });
});

/** The R2004 LZ77 variant, decompressing side, written from the format description for this test. */
function decompress2004(src: Uint8Array): Uint8Array {
  const dst: number[] = [];
  let p = 0;
  const rd = (): number => src[p++] as number;
  const literalLength = (op: number): number => {
    let n = op & 0x0f;
    if (n === 0) {
      let b = rd();
      for (; b === 0; b = rd()) n += 0xff;
      n += 0x0f + b;
    }
    return n + 3;
  };
  const extended = (n0: number, bits: number): number => {
    let n = n0;
    if (n === 0) {
      let b = rd();
      for (; b === 0; b = rd()) n += 0xff;
      n += b + bits;
    }
    return n + 2;
  };
  const literals = (n: number): number => {
    for (let k = 0; k < n; k++) dst.push(rd());
    return rd();
  };
  let op = rd();
  if ((op & 0xf0) === 0) op = literals(literalLength(op));
  while (op !== 0x11) {
    let len: number, off: number;
    if (op < 0x10 || op >= 0x40) {
      len = (op >> 4) - 1;
      off = (((op >> 2) & 3) | (rd() << 2)) + 1;
    } else if (op < 0x20) {
      len = extended(op & 7, 7);
      const b1 = rd(),
        b2 = rd();
      off = ((op & 8) << 11) + ((b1 >> 2) | (b2 << 6)) + 0x4000;
      op = b1;
    } else {
      len = extended(op & 0x1f, 0x1f);
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
      lit = literalLength(op);
    }
    op = literals(lit);
  }
  return Uint8Array.from(dst);
}

/** Every named section of an R2004-style file, each page checked on the way as a strict reader checks it. */
function pagedSections(bytes: Uint8Array, signature: string): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (p: number): number => view.getUint32(p, true);
  expect(String.fromCharCode(...bytes.subarray(0, 6))).toBe(signature);
  expect(bytes[0x0c]).toBe(3);
  const clear = Uint8Array.from(bytes.subarray(0x80, 0x80 + 0x6c), (b, k) => b ^ (MAGIC[k] as number));
  expect(String.fromCharCode(...clear.subarray(0, 11))).toBe('AcFssFcAJMB');
  const h = new DataView(clear.buffer);
  const crc = h.getUint32(0x68, true);
  clear.set([0, 0, 0, 0], 0x68);
  expect(crc32(clear)).toBe(crc);
  // The copy at the end of the file is the same masked block.
  const second = h.getUint32(0x34, true);
  expect(Buffer.from(bytes.subarray(second, second + 0x6c)).equals(Buffer.from(bytes.subarray(0x80, 0x80 + 0x6c)))).toBe(true);

  const systemPage = (at: number, type: number): Uint8Array => {
    expect(u32(at)).toBe(type);
    const size = u32(at + 4),
      comp = u32(at + 8);
    expect(u32(at + 12)).toBe(2);
    const header = Uint8Array.from(bytes.subarray(at, at + 20));
    header.set([0, 0, 0, 0], 16);
    expect(pageChecksum(pageChecksum(0, header), bytes.subarray(at + 20, at + 20 + comp))).toBe(u32(at + 16));
    const data = decompress2004(bytes.subarray(at + 20, at + 20 + comp));
    expect(data.length).toBe(size);
    return data;
  };
  const pageMapAt = h.getUint32(0x54, true) + 0x100;
  const pm = new DataView(systemPage(pageMapAt, 0x41630e3b).buffer);
  const address = new Map<number, number>();
  let at = 0x100;
  for (let k = 0; k < pm.byteLength; k += 8) {
    address.set(pm.getInt32(k, true), at);
    at += pm.getUint32(k + 4, true);
  }
  expect(address.get(h.getUint32(0x50, true))).toBe(pageMapAt);
  expect(at).toBe(h.getUint32(0x2c, true) + 0x100);
  expect(address.size).toBe(h.getUint32(0x40, true));
  const sm = new DataView(systemPage(address.get(h.getUint32(0x5c, true)) as number, 0x4163003b).buffer);
  const count = sm.getUint32(0, true);
  let p = 20;
  const sections = new Map<string, Uint8Array>();
  for (let k = 0; k < count; k++) {
    const size = Number(sm.getBigUint64(p, true));
    const pages = sm.getUint32(p + 8, true),
      max = sm.getUint32(p + 12, true),
      compressed = sm.getUint32(p + 20, true),
      id = sm.getUint32(p + 24, true);
    const name = String.fromCharCode(...new Uint8Array(sm.buffer, p + 32, 64)).replace(/\0+$/, '');
    p += 96;
    const data = new Uint8Array(pages * max);
    for (let j = 0; j < pages; j++) {
      const number = sm.getUint32(p, true),
        dataSize = sm.getUint32(p + 4, true),
        offset = Number(sm.getBigUint64(p + 8, true));
      p += 16;
      const pageAt = address.get(number) as number;
      const mask = (0x4164536b ^ pageAt) >>> 0;
      const head = new DataView(new ArrayBuffer(32));
      for (let w = 0; w < 8; w++) head.setUint32(w * 4, (u32(pageAt + w * 4) ^ mask) >>> 0, true);
      expect([head.getUint32(0, true), head.getUint32(4, true), head.getUint32(8, true), head.getUint32(16, true)]).toEqual([
        0x4163043b,
        id,
        dataSize,
        offset,
      ]);
      const payload = bytes.subarray(pageAt + 32, pageAt + 32 + dataSize);
      const dataSum = pageChecksum(0, payload);
      expect(head.getUint32(28, true)).toBe(dataSum);
      const headerSum = head.getUint32(24, true);
      head.setUint32(24, 0, true);
      expect(pageChecksum(dataSum, new Uint8Array(head.buffer))).toBe(headerSum);
      const piece = compressed === 2 ? decompress2004(payload) : payload;
      expect(piece.length).toBe(max);
      data.set(piece, offset);
    }
    if (name) sections.set(name, data.subarray(0, size));
  }
  return sections;
}

/** A section between sentinels: its data (after the size words), checked for size and CRC. */
function framed(s: Uint8Array, start: Uint8Array, highSize: boolean): Uint8Array {
  expect(same(s, 0, start)).toBe(true);
  const size = le32(s, 16);
  const head = highSize ? 24 : 20;
  if (highSize) expect(le32(s, 20)).toBe(0);
  expect(le16(s, head + size)).toBe(crc16(s, 0xc0c1, 16, head + size));
  return s.subarray(head, head + size);
}

/** The string stream of an R2007+ stream set ending at bit `end` (its flag bit is the last one before). */
function stringStream(d: Uint8Array, end: number): { start: number; stop: number } | null {
  const flag = new Bits(d, 0);
  flag.pos = end - 1;
  if (!flag.bit()) return null;
  const r = new Bits(d, 0);
  r.pos = end - 17;
  let size = r.rs();
  let stop = end - 17;
  if (size & 0x8000) {
    r.pos = end - 33;
    size = (size & 0x7fff) | (r.rs() << 15);
    stop = end - 33;
  }
  return { start: stop - size, stop };
}

const PAGED: [version: '2004' | '2010' | '2013' | '2018', signature: string][] = [
  ['2004', 'AC1018'],
  ['2010', 'AC1024'],
  ['2013', 'AC1027'],
  ['2018', 'AC1032'],
];

describe.each(PAGED)('DWG %s paged container, checked like a strict reader', (version, signature) => {
  const year = Number(version);
  const { bytes } = writeDwg(sampleDrawing(), { version });
  const sections = pagedSections(bytes, signature);
  // The saving application's release and maintenance release: above 3 from R2010, so the header
  // and classes sections carry the high size word (always in R2018).
  const highSize = year >= 2010;

  it('masked header, page map, section map and every page checksum right; the sections a reader needs are there', () => {
    const names = [
      'AcDb:Header',
      'AcDb:AuxHeader',
      'AcDb:Classes',
      'AcDb:Handles',
      'AcDb:AcDbObjects',
      'AcDb:Template',
      'AcDb:ObjFreeSpace',
      'AcDb:Preview',
      'AcDb:SummaryInfo',
    ];
    if (year >= 2010) names.push('AcDb:AppInfo', 'AcDb:FileDepList');
    for (const name of names) expect(sections.has(name), name).toBe(true);
    if (year >= 2010) {
      expect([bytes[0x11], bytes[0x12]]).toEqual(year >= 2018 ? [0x21, 0] : [0x1f, 8]);
      // The AppInfo address at 0x2C points at its page's data.
      const info = sections.get('AcDb:AppInfo') as Uint8Array;
      const at = le32(bytes, 0x2c);
      expect(Buffer.from(bytes.subarray(at, at + 64)).equals(Buffer.from(info.subarray(0, 64)))).toBe(true);
      expect(le32(info, 0)).toBe(3);
      expect(le16(info, 4)).toBe(16);
      expect(Buffer.from(info.subarray(6, 6 + 30)).toString('utf16le')).toBe('AppInfoDataList');
    } else expect(le32(bytes, 0x2c)).toBe(0);
  });

  it('header variables: sentinel, size words and CRC; from R2010 the data, the UTF-16 strings and the handles as separate streams', () => {
    const body = framed(sections.get('AcDb:Header') as Uint8Array, SENTINEL.headerStart, highSize);
    if (year < 2007) return;
    const r = new Bits(body, 0);
    const bitsize = r.rl();
    expect(bitsize).toBeLessThanOrEqual(body.length * 8);
    const strings = stringStream(body, bitsize) as { start: number; stop: number };
    expect(strings).not.toBeNull();
    const s = new Bits(body, 0);
    s.pos = strings.start;
    const tu = (): string => {
      const n = s.bs();
      let out = '';
      for (let i = 0; i < n; i++) out += String.fromCharCode(s.rs());
      return out;
    };
    // Unit names, MENU, DIMPOST, DIMAPOST, DIMALTMZS, DIMMZS, HYPERLINKBASE, STYLESHEET, FINGERPRINTGUID, VERSIONGUID, PROJECTNAME.
    const values = Array.from({ length: 14 }, tu);
    expect(s.pos).toBe(strings.stop);
    expect(values.slice(0, 4)).toEqual(['m', '', '', '']);
    expect(values[11]).toMatch(/^\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}$/);
    expect(values[12]).toMatch(/^\{[0-9A-F]{8}-/);
    // The handle stream follows: references to objects of the file, then fewer than 8 padding bits.
    const map = handleMap(sections.get('AcDb:Handles') as Uint8Array);
    const hs = new Bits(body, 0);
    hs.pos = bitsize;
    let refs = 0;
    while (body.length * 8 - hs.pos >= 8) {
      const ref = hs.handle();
      expect([2, 3, 4, 5]).toContain(ref.code);
      if (ref.value) expect(map.has(ref.value), ref.value.toString(16)).toBe(true);
      refs++;
    }
    expect(refs).toBe(year >= 2013 ? 47 : 46);
  });

  it('classes: sentinel, size words, CRC, then every record with its names (UTF-16 from R2010)', () => {
    const body = framed(sections.get('AcDb:Classes') as Uint8Array, SENTINEL.classesStart, highSize);
    const r = new Bits(body, 0);
    const bitsize = year >= 2007 ? r.rl() : 0;
    const max = r.bs();
    expect([r.rc(), r.rc(), r.bit()]).toEqual([0, 0, 1]);
    const strings = year >= 2007 ? stringStream(body, bitsize) : null;
    const s = new Bits(body, 0);
    if (strings) s.pos = strings.start;
    const text = (): string => {
      const n = (strings ? s : r).bs();
      let out = '';
      for (let i = 0; i < n; i++) out += String.fromCharCode(strings ? s.rs() : r.rc());
      return out.replace(/\0$/, '');
    };
    const names: string[] = [];
    for (let n = 500; n <= max; n++) {
      expect(r.bs()).toBe(n);
      r.bs();
      text();
      text();
      names.push(text());
      r.bit();
      expect([0x1f2, 0x1f3]).toContain(r.bs());
      r.bl();
      r.bs();
      r.bs();
      r.bl();
      r.bl();
    }
    expect(names.sort()).toEqual(['ACDBDICTIONARYWDFLT', 'IMAGE', 'IMAGEDEF', 'IMAGEDEF_REACTOR', 'WIPEOUT']);
    if (strings) {
      expect(r.pos).toBe(strings.start);
      expect(s.pos).toBe(strings.stop);
    }
  });

  it('objects: every map entry points at an object whose frame, CRC, type, own handle and string stream are right', () => {
    const objects = sections.get('AcDb:AcDbObjects') as Uint8Array;
    expect(le32(objects, 0)).toBe(0x0dca);
    let n = 0;
    let withStrings = 0;
    for (const [handle, offset] of handleMap(sections.get('AcDb:Handles') as Uint8Array)) {
      const { size, handleBits, q } = frame(objects, offset, year);
      expect(le16(objects, q + size)).toBe(crc16(objects, 0xc0c1, offset, q + size));
      const b = new Bits(objects, q);
      const type = year >= 2010 ? [() => b.rc(), () => b.rc() + 0x1f0, () => b.rs(), () => b.rs()][b.bits(2)]?.() : b.bs();
      expect(type).toBeGreaterThan(0);
      const dataEnd = year >= 2010 ? q * 8 + size * 8 - handleBits : q * 8 + b.rl();
      if (year >= 2010) expect(handleBits).toBeLessThanOrEqual(size * 8);
      expect(b.handle()).toEqual({ code: 0, value: handle });
      if (year >= 2007) {
        const strings = stringStream(objects, dataEnd);
        if (strings) {
          expect(strings.start).toBeGreaterThan(b.pos);
          withStrings++;
        }
      }
      n++;
    }
    expect(n).toBeGreaterThan(100);
    // Table records, dictionaries, layouts, text entities, blocks: each with its names in the string stream.
    if (year >= 2007) expect(withStrings).toBeGreaterThan(40);
  });

  it('text: from R2010 the TEXT value is stored as UTF-16 in the string stream (Hangul, Greek, an astral character), no code page', () => {
    if (year < 2010) return;
    const value = '中文 한글 Ελληνικά ½ 𝑥²';
    const d = sampleDrawing();
    const t = d.modelSpace.find((e) => e.type === 'TEXT') as { text: string };
    t.text = value;
    const all = pagedSections(writeDwg(d, { version }).bytes, signature);
    const objects = all.get('AcDb:AcDbObjects') as Uint8Array;
    const found: string[] = [];
    for (const offset of handleMap(all.get('AcDb:Handles') as Uint8Array).values()) {
      const f = frame(objects, offset, year);
      if (new Bits(objects, f.q).bits(10) !== 1) continue; // OT: BB 0 + RC 1 (TEXT)
      const strings = stringStream(objects, f.q * 8 + f.size * 8 - f.handleBits);
      expect(strings).not.toBeNull();
      const r = new Bits(objects, 0);
      r.pos = (strings as { start: number }).start;
      const n = r.bs();
      found.push(String.fromCharCode(...Array.from({ length: n }, () => r.rs())));
    }
    expect(found).toContain(value);
  });

  it('LEADER: from R2010 the flags follow the end projection point and the annotation box size is gone, as AutoCAD writes them', () => {
    if (year < 2010) return;
    const objects = sections.get('AcDb:AcDbObjects') as Uint8Array;
    const leaders = [...handleMap(sections.get('AcDb:Handles') as Uint8Array).values()]
      .map((offset) => frame(objects, offset, year))
      .filter((f) => new Bits(objects, f.q).bits(10) === 45); // OT: BB 0 + RC 45
    expect(leaders).toHaveLength(1);
    const { size, handleBits, q } = leaders[0] as ReturnType<typeof frame>;
    const r = new Bits(objects, q);
    r.bits(10);
    r.handle();
    expect(r.bs()).toBe(0); // no extended data
    expect(r.bit()).toBe(0); // no graphics
    r.bits(2); // entity mode
    expect(r.bl()).toBe(0); // reactors
    expect(r.bit()).toBe(1); // no extension dictionary
    if (year >= 2013) expect(r.bit()).toBe(0);
    r.bs(); // colour (ByLayer)
    const bd = (): number => {
      const prefix = r.bits(2);
      if (prefix === 1) return 1;
      if (prefix === 2) return 0;
      const bytes = Uint8Array.from({ length: 8 }, () => r.rc());
      return new DataView(bytes.buffer).getFloat64(0, true);
    };
    bd(); // linetype scale
    r.bits(2 + 2 + 2 + 8 + 3); // linetype, plot style, material flags, shadow flags, visual styles
    r.bs(); // invisibility
    r.rc(); // lineweight
    expect(r.bit()).toBe(0); // unknown bit
    r.bs(); // path type
    r.bs(); // annotation type
    const points = r.bl();
    expect(points).toBe(3);
    for (let i = 0; i < points * 3 + 5 * 3; i++) bd(); // points, origin, extrusion, x direction, block offset, end projection
    // Hook line on the x direction, arrowhead on, arrowhead type 0, hook line off, unknown: then the string flag (no strings).
    expect([r.bit(), r.bit(), r.bs(), r.bit(), r.bit(), r.bit()]).toEqual([1, 1, 0, 0, 0, 0]);
    expect(r.pos).toBe(q * 8 + size * 8 - handleBits);
  });
});

/** The object map: handle → offset in the objects section, pages and CRCs checked. */
function handleMap(map: Uint8Array): Map<number, number> {
  const out = new Map<number, number>();
  let q = 0;
  for (;;) {
    const size = ((map[q] as number) << 8) | (map[q + 1] as number);
    expect((((map[q + size] as number) << 8) | (map[q + size + 1] as number)) >>> 0).toBe(crc16(map, 0xc0c1, q, q + size));
    let r = q + 2,
      handle = 0,
      offset = 0;
    while (r < q + size) {
      const [dh, r1] = modular(map, r, false);
      const [dofs, r2] = modular(map, r1, true);
      r = r2;
      handle += dh;
      offset += dofs;
      out.set(handle, offset);
    }
    q += size + 2;
    if (size === 2) break;
  }
  return out;
}

/** An object's frame: MS size (15-bit words), then (R2010+) the handle stream's size in bits (UMC); `q` is where the object starts. */
function frame(objects: Uint8Array, offset: number, year: number): { size: number; handleBits: number; q: number } {
  let size = 0,
    q = offset,
    shift = 1;
  for (;;) {
    const w = le16(objects, q);
    q += 2;
    size += (w & 0x7fff) * shift;
    shift *= 32768;
    if (!(w & 0x8000)) break;
  }
  let handleBits = 0;
  if (year >= 2010) [handleBits, q] = modular(objects, q, false);
  return { size, handleBits, q };
}
