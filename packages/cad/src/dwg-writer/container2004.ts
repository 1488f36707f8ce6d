/**
 * The R2004 file container (AC1018; R2010+ keep it): a 0x100-byte file header whose second part is
 * XOR-masked with the format's pseudo-random sequence and checked by CRC-32, then pages aligned
 * to 32 bytes: data pages (32-byte header masked with 0x4164536B ^ file offset, LZ77-compressed
 * body, Adler-like checksums) holding each named section cut in pieces of at most its page size,
 * the section map (what section has which pages) and the page map (every page's number and size)
 * as compressed system pages, and a copy of the masked header at the end of the file.
 *
 * R2010+ files differ in the details: the saving application's release and maintenance numbers
 * in the file header (a maintenance release above 3 gives the header and classes sections an
 * extra size word), header variables and classes as R2007 streams (strings in UTF-16 after the
 * data), the AcDb:AppInfo section (and its address at 0x2C) and the empty AcDb:FileDepList
 * AutoCAD writes, and (R2018) 32-bit maintenance numbers in the auxiliary header.
 */
import { BitWriter } from './bits';
import { SENTINEL } from './constants';
import { crc32 } from 'node:zlib';
import { pageChecksum } from './crc';
import { compress2004 } from './lz77';
import { ByteOut, classesData, framedSection, objectMap, streamedSection, type DwgClass, type EncodedObject } from './container2000';

/** The saving application's numbers AutoCAD writes into the file header, per release. */
interface Maintenance {
  /** Byte 0x0B. */
  isMaint: number;
  /** Bytes 0x11 / 0x12: release and maintenance release of the application that saved the file. */
  dwgVersion: number;
  maint: number;
  /** Bytes 0x16 / 0x17. */
  appVersion: number;
  appMaint: number;
}

/**
 * As AutoCAD 2013 (2010, 2013) and AutoCAD 2018 (2018) write them; R2004 as this writer always
 * did. The maintenance release of 2010/2013 files is above 3, as in every AutoCAD-written file of
 * the corpus, so their header and classes sections carry the size's high word (readers decide on
 * that number).
 */
function maintenanceOf(year: number, release: number): Maintenance {
  if (year >= 2018) return { isMaint: 0, dwgVersion: 0x21, maint: 0, appVersion: 0, appMaint: 0 };
  if (year >= 2013) return { isMaint: 8, dwgVersion: 0x1f, maint: 8, appVersion: 0x1f, appMaint: 8 };
  if (year >= 2010) return { isMaint: 109, dwgVersion: 0x1f, maint: 8, appVersion: 0x1f, appMaint: 8 };
  return { isMaint: 0, dwgVersion: release, maint: 0, appVersion: 0, appMaint: 0 };
}

export interface Container2004 {
  year: number;
  signature: string;
  release: number;
  codePage: number;
  measurement: number;
  handseed: number;
  /** The header variables section body: one bit stream (R2004), or R2007 streams already merged. */
  headerVars: Uint8Array;
  classes: DwgClass[];
  objects: EncodedObject[];
  text: (s: string) => Uint8Array;
  /** Who wrote the file (AcDb:AppInfo, R2010+). */
  appInfo: { name: string; version: string; comment: string };
}

/** The format's pseudo-random sequence (an LCG seeded with 1): masks and padding. */
export const MAGIC = (() => {
  const out = new Uint8Array(256);
  let seed = 1;
  for (let i = 0; i < 256; i++) {
    seed = (Math.imul(seed, 0x343fd) + 0x269ec3) | 0;
    out[i] = (seed >> 16) & 0xff;
  }
  return out;
})();

const DATA_PAGE = 0x4163043b;
const SECTION_MAP = 0x4163003b;
const PAGE_MAP = 0x41630e3b;

interface Section {
  name: string;
  data: Uint8Array;
  pageSize: number;
  compressed: boolean;
  id: number;
  pages: { number: number; offset: number; size: number; dataSize: number }[];
}

export class Le {
  readonly bytes: number[] = [];
  u32(v: number): this {
    this.bytes.push(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
    return this;
  }
  u64(v: number): this {
    return this.u32(v % 0x100000000).u32(Math.floor(v / 0x100000000));
  }
  u16(v: number): this {
    this.bytes.push(v & 0xff, (v >> 8) & 0xff);
    return this;
  }
  /** An unsigned 64-bit value given as a bigint. */
  big(v: bigint): this {
    return this.u32(Number(v & 0xffffffffn)).u32(Number((v >> 32n) & 0xffffffffn));
  }
  raw(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.bytes.push(b[i] as number);
    return this;
  }
  get u8(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Bytes to reach the next multiple of 32. */
const pad32 = (n: number): number => (32 - (n % 32)) % 32;

/** A named section's content before it is cut into pages. */
export interface SectionContent {
  name: string;
  data: Uint8Array;
  pageSize: number;
  compressed: boolean;
}

/**
 * The named sections of an R2004+ file (R2007 stores the same ones in its own container): header
 * variables, auxiliary header, classes, summary, preview, (R2010+) application info and file
 * dependencies, template, free space, revision history, objects and the object map.
 */
export function sectionContents(c: Container2004): SectionContent[] {
  // Section contents.
  const objects = new ByteOut();
  objects.put(new Le().u32(0x0dca).u8);
  const map: { handle: number; offset: number }[] = [];
  for (const o of c.objects) map.push({ handle: o.handle, offset: objects.put(o.bytes) });
  const objectsData = objects.finish();

  const m = maintenanceOf(c.year, c.release);
  // The header and classes sections' high size word (R2010/R2013 with maintenance release > 3, R2018).
  const highSize = (c.year >= 2010 && m.maint > 3) || c.year >= 2018;
  const streams = c.year >= 2007;

  const classes = new BitWriter(256);
  const maxClass = c.classes.reduce((mx, k) => Math.max(mx, k.number), 0);
  classes.bs(maxClass).rc(0).rc(0).b(1);
  const classOptions = { year: c.year, release: m.dwgVersion, maintenance: m.maint };
  let classesBody: Uint8Array;
  if (streams) {
    const strings = new BitWriter(256);
    classesData(c.classes, c.text, classOptions, classes, strings);
    classesBody = streamedSection(classes, strings, null);
  } else classesBody = concatBits(classes, classesData(c.classes, c.text, classOptions));
  const classesSection = new ByteOut();
  classesSection.put(framedSection(SENTINEL.classesStart, classesBody, SENTINEL.classesEnd, highSize));
  classesSection.put(new Uint8Array(8));

  // The auxiliary header (123 bytes); R2018 widens its three maintenance numbers to 32 bits (129 bytes, as AutoCAD 2018 writes it).
  const aux = new BitWriter(128);
  const maint = (v: number): void => void (c.year >= 2018 ? aux.rl(v) : aux.rs(v));
  aux.rc(0xff).rc(0x77).rc(0x01).rs(m.dwgVersion);
  maint(m.maint);
  aux.rl(1).rl(0xffffffff).rs(1).rs(0).rl(0);
  aux.rs(m.dwgVersion);
  maint(m.maint);
  aux.rs(m.dwgVersion);
  maint(m.maint);
  for (const v of [4, 0x565, 0, 0, 2, 1]) aux.rs(v);
  for (const v of [0, 0, 0, 256, 393218]) aux.rl(v);
  const now = Date.now();
  const day = Math.floor(now / 86_400_000);
  for (let k = 0; k < 2; k++) aux.rl(day + 2_440_588).rl(now - day * 86_400_000);
  aux.rl(c.handseed).rl(0).rs(0).rs(1).rl(0).rl(0).rl(0).rl(1).rl(0).rl(0).rl(0).rl(0);

  const summary = new Le();
  for (let k = 0; k < 8; k++) summary.u16(0); // title .. hyperlink base: empty strings
  summary.u32(0).u32(0); // editing time
  for (let k = 0; k < 2; k++) summary.u32(day + 2_440_588).u32(now - day * 86_400_000);
  summary.u16(0).u32(0).u32(0);

  const preview = new Le().raw(SENTINEL.previewStart).u32(1).raw([0]).raw(SENTINEL.previewEnd);
  const freeSpace = new Le()
    .u32(0)
    .u32(c.objects.length)
    .u32(day + 2_440_588)
    .u32(now - day * 86_400_000)
    .u32(0);
  freeSpace.raw([4]).u32(0x32).u32(0).u32(0x64).u32(0).u32(0x200).u32(0).u32(0xffffffff).u32(0);

  const sections: SectionContent[] = [];
  const add = (name: string, data: Uint8Array, pageSize: number, compressed: boolean): void => {
    sections.push({ name, data, pageSize, compressed });
  };
  add('AcDb:Header', framedSection(SENTINEL.headerStart, c.headerVars, SENTINEL.headerEnd, highSize), 0x7400, true);
  add('AcDb:AuxHeader', aux.toBytes(), 0x7400, true);
  add('AcDb:Classes', classesSection.finish(), 0x7400, true);
  add('AcDb:SummaryInfo', summary.u8, 0x100, false);
  add('AcDb:Preview', preview.u8, 0x400, false);
  if (c.year >= 2010) {
    const info = appInfo(c.appInfo);
    add('AcDb:AppInfo', info, Math.ceil(info.length / 0x80) * 0x80, false);
    // No file dependencies (fonts, xrefs, images are not listed): feature and file counts 0.
    add('AcDb:FileDepList', new Le().u32(0).u32(0).u8, 0x80, false);
  }
  add('AcDb:Template', new Le().u16(0).u16(c.measurement).u8, 0x7400, true);
  add('AcDb:ObjFreeSpace', freeSpace.u8, 0x7400, true);
  add('AcDb:RevHistory', new Le().u32(0).u32(0).u32(0).u8, 0x7400, true);
  add('AcDb:AcDbObjects', objectsData, 0x7400, true);
  add('AcDb:Handles', objectMap(map), 0x7400, true);
  return sections;
}

export function assemble2004(c: Container2004): Uint8Array {
  const m = maintenanceOf(c.year, c.release);
  const sections: Section[] = sectionContents(c).map((s, k) => ({ ...s, id: k + 1, pages: [] }));

  const out = new ByteOut();
  out.put(new Uint8Array(0x100));
  const pages: { number: number; size: number }[] = [];
  for (const s of sections) {
    for (let offset = 0; offset < s.data.length || offset === 0; offset += s.pageSize) {
      const piece = new Uint8Array(s.pageSize);
      piece.set(s.data.subarray(offset, Math.min(s.data.length, offset + s.pageSize)));
      const payload = s.compressed ? compress2004(piece) : piece;
      const address = out.length;
      const number = pages.length + 1;
      const pad = pad32(payload.length);
      const dataSum = pageChecksum(0, payload);
      const header = new Le()
        .u32(DATA_PAGE)
        .u32(s.id)
        .u32(payload.length)
        .u32(32 + payload.length + pad)
        .u32(offset)
        .u32(0)
        .u32(0)
        .u32(dataSum);
      const clear = header.u8;
      const headerSum = pageChecksum(dataSum, clear);
      clear.set(new Le().u32(headerSum).u8, 24);
      const mask = (0x4164536b ^ address) >>> 0;
      const masked = new Uint8Array(32);
      for (let k = 0; k < 32; k++) masked[k] = (clear[k] as number) ^ ((mask >>> (8 * (k & 3))) & 0xff);
      out.put(masked);
      out.put(payload);
      out.put(MAGIC.subarray(0, pad));
      pages.push({ number, size: 32 + payload.length + pad });
      s.pages.push({ number, offset, size: 32 + payload.length + pad, dataSize: payload.length });
    }
  }

  const systemPage = (type: number, data: Uint8Array): Uint8Array => {
    const payload = compress2004(data);
    const header = new Le().u32(type).u32(data.length).u32(payload.length).u32(2).u32(0).u8;
    const sum = pageChecksum(pageChecksum(0, header), payload);
    header.set(new Le().u32(sum).u8, 16);
    const page = new Uint8Array(20 + payload.length);
    page.set(header, 0);
    page.set(payload, 20);
    return page;
  };

  // The section map: an empty first description, then each section and its pages.
  const descriptions = new Le()
    .u32(sections.length + 1)
    .u32(2)
    .u32(0x7400)
    .u32(0)
    .u32(sections.length + 1);
  const describe = (s: Section | null): void => {
    descriptions
      .u64(s ? s.data.length : 0)
      .u32(s ? s.pages.length : 0)
      .u32(s ? s.pageSize : 0x7400)
      .u32(1)
      .u32(s && !s.compressed ? 1 : 2)
      .u32(s ? s.id : 0)
      .u32(0);
    const name = new Uint8Array(64);
    if (s) for (let k = 0; k < s.name.length; k++) name[k] = s.name.charCodeAt(k);
    descriptions.raw(name);
    if (s) for (const p of s.pages) descriptions.u32(p.number).u32(p.dataSize).u64(p.offset);
  };
  describe(null);
  for (const s of sections) describe(s);
  const sectionMapNumber = pages.length + 1;
  const sectionMapPage = systemPage(SECTION_MAP, descriptions.u8);
  out.put(sectionMapPage);
  const sectionMapPad = pad32(sectionMapPage.length);
  out.put(MAGIC.subarray(0, sectionMapPad));
  pages.push({ number: sectionMapNumber, size: sectionMapPage.length + sectionMapPad });

  // The page map lists every page, itself last (its own size rounded up to 32 bytes).
  const pageMapNumber = pages.length + 1;
  const entries = pages.length + 1;
  const pageMapSize = entries * 8 + pad32(entries * 8);
  const pageMap = new Le();
  for (const p of pages) pageMap.u32(p.number).u32(p.size);
  pageMap.u32(pageMapNumber).u32(pageMapSize);
  const pageMapAt = out.length;
  const pageMapPage = systemPage(PAGE_MAP, pageMap.u8);
  out.put(pageMapPage);
  const pageMapPad = pad32(pageMapPage.length);
  out.put(MAGIC.subarray(0, pageMapPad));

  // The masked header, at 0x80 and again at the end of the file.
  const secondAt = out.length;
  const fields = new Le()
    .raw([0x41, 0x63, 0x46, 0x73, 0x73, 0x46, 0x63, 0x41, 0x4a, 0x4d, 0x42, 0])
    .u32(0)
    .u32(0x6c)
    .u32(4)
    .u32(0)
    .u32(0)
    .u32(0)
    .u32(1)
    .u32(pageMapNumber)
    .u64(pageMapAt + pageMapSize - 0x100)
    .u64(secondAt)
    .u32(0)
    .u32(entries)
    .u32(0x20)
    .u32(0x80)
    .u32(0x40)
    .u32(pageMapNumber)
    .u64(pageMapAt - 0x100)
    .u32(sectionMapNumber)
    .u32(entries)
    .u32(0)
    .u32(0).u8;
  fields.set(new Le().u32(crc32(fields)).u8, 0x68);
  const masked = fields.map((b, k) => b ^ (MAGIC[k] as number));
  out.put(masked);

  const bytes = out.finish();
  const fh = new Le();
  fh.raw(Array.from(c.signature, (ch) => ch.charCodeAt(0))).raw([0, 0, 0, 0, 0, m.isMaint, 3]);
  const pageOf = (name: string): { number: number } | undefined => sections.find((s) => s.name === name)?.pages[0];
  const sectionAt = (name: string): number => {
    const page = pageOf(name);
    return page ? addressOf(pages, page.number) + 0x20 : 0;
  };
  fh.u32(sectionAt('AcDb:Preview'));
  fh.raw([m.dwgVersion, m.maint]).u16(c.codePage).raw([0, m.appVersion, m.appMaint]).u32(0).u32(0);
  fh.u32(sectionAt('AcDb:SummaryInfo')).u32(0).u32(0x80).u32(sectionAt('AcDb:AppInfo'));
  const head = fh.u8;
  bytes.set(head, 0);
  bytes.set(masked, 0x80);
  bytes.set(MAGIC.subarray(236, 256), 0x80 + 0x6c);
  return bytes;
}

/** File offset of a page: pages follow each other from 0x100 in number order. */
function addressOf(pages: { number: number; size: number }[], number: number): number {
  let at = 0x100;
  for (const p of pages) {
    if (p.number === number) return at;
    at += p.size;
  }
  return at;
}

/**
 * AcDb:AppInfo as R2007+ store it: class version 3, the list name, three (checksum, string) pairs
 * for version, comment and product; strings as RS length (counting the NUL) and UTF-16 units.
 */
function appInfo(info: { name: string; version: string; comment: string }): Uint8Array {
  const out = new Le().u32(3);
  const t16 = (s: string): void => {
    out.u16(s.length + 1);
    for (let i = 0; i < s.length; i++) out.u16(s.charCodeAt(i));
    out.u16(0);
  };
  const checksum = new Array<number>(16).fill(0);
  t16('AppInfoDataList');
  out.u32(3);
  out.raw(checksum);
  t16(info.version);
  out.raw(checksum);
  t16(info.comment);
  out.raw(checksum);
  t16(
    `<ProductInformation name ="${info.name}" build_version="${info.version}" registry_version="${info.version}" install_id_string="${info.name}" registry_localeID="1033"/>`,
  );
  return out.u8;
}

function concatBits(head: BitWriter, tail: BitWriter): Uint8Array {
  head.append(tail);
  return head.toBytes();
}
