/**
 * The R13-R2000 file container (used for AC1015): file header with its section locators and CRC,
 * the auxiliary header, an empty preview, the header variables and classes sections (each between
 * sentinels, with its size and CRC), the objects, the object map (pages of at most 2032 bytes with a
 * big-endian CRC), the second header and the template section holding MEASUREMENT.
 */
import { BitWriter, modularChar, unsignedModularChar } from './bits';
import { appendStrings } from './object';
import { SENTINEL } from './constants';
import { crc16 } from './crc';

export interface DwgClass {
  number: number;
  proxyFlags: number;
  appName: string;
  cppName: string;
  dxfName: string;
  isEntity: boolean;
  /** Number of objects of this class in the file (R2004+). */
  instances?: number;
}

export interface EncodedObject {
  handle: number;
  bytes: Uint8Array;
}

export interface Container2000 {
  signature: string;
  /** AutoCAD's internal number of the release (0x17 for R2000). */
  release: number;
  codePage: number;
  measurement: number;
  handseed: number;
  /** The header variables section body (bit stream, padded to bytes). */
  headerVars: Uint8Array;
  classes: DwgClass[];
  /** Sorted by handle. */
  objects: EncodedObject[];
  /**
   * The second header's handle list: HANDSEED, the nine table controls, the viewport entity
   * header control, the named objects, ACAD_MLINESTYLE and ACAD_GROUP dictionaries.
   */
  secondHeaderHandles: number[];
  text: (s: string) => Uint8Array;
}

/** Byte pieces appended in order; `put` answers where a piece starts. Shared by every container. */
export class ByteOut {
  private chunks: Uint8Array[] = [];
  length = 0;
  put(b: Uint8Array): number {
    const at = this.length;
    this.chunks.push(b);
    this.length += b.length;
    return at;
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let p = 0;
    for (const c of this.chunks) {
      out.set(c, p);
      p += c.length;
    }
    return out;
  }
}

const le32 = (v: number): Uint8Array => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
const le16 = (v: number): Uint8Array => Uint8Array.of(v & 0xff, (v >> 8) & 0xff);

/**
 * A section framed by sentinels: start sentinel, RL size, data, RS CRC of size + data, end
 * sentinel. `highSize` adds the RL that R2010+ files with a maintenance release above 3 (and every
 * R2018 file) carry after the size (the size's high half, 0), inside the CRC.
 */
export function framedSection(start: Uint8Array, data: Uint8Array, end: Uint8Array, highSize = false): Uint8Array {
  const head = highSize ? 24 : 20;
  const out = new Uint8Array(16 + (head - 16) + data.length + 2 + 16);
  out.set(start, 0);
  out.set(le32(data.length), 16);
  out.set(data, head);
  const crc = crc16(out, 0xc0c1, 16, head + data.length);
  out.set(le16(crc), head + data.length);
  out.set(end, head + 2 + data.length);
  return out;
}

/**
 * An R2007+ section body made of streams (header variables, classes): RL size in bits of the data
 * and strings (counting the RL itself), the data, the strings with their size and flag bit, then
 * the handles if any.
 */
export function streamedSection(data: BitWriter, strings: BitWriter, handles: BitWriter | null): Uint8Array {
  const out = new BitWriter(data.byteLength + strings.byteLength + 16);
  out.rl(0);
  out.append(data);
  appendStrings(out, strings);
  out.patchRl(0, out.bitLength);
  if (handles) out.append(handles);
  return out.toBytes();
}

export interface ClassesOptions {
  year: number;
  /** The release number and maintenance release stored in each class record (R2004+). */
  release: number;
  maintenance: number;
}

/**
 * The class records (R2004+ add instance count, release and two unknown longs to each). From
 * R2007 the three names go to `strings` (UTF-16) instead of the data stream.
 */
export function classesData(
  classes: DwgClass[],
  text: (s: string) => Uint8Array,
  options: ClassesOptions = { year: 2000, release: 0x17, maintenance: 0 },
  w: BitWriter = new BitWriter(256),
  strings: BitWriter | null = null,
): BitWriter {
  for (const c of classes) {
    w.bs(c.number).bs(c.proxyFlags);
    for (const name of [c.appName, c.cppName, c.dxfName]) {
      if (strings) strings.tu(name);
      else w.tv(text(name));
    }
    w.b(0).bs(c.isEntity ? 0x1f2 : 0x1f3);
    if (options.year >= 2004)
      w.bl(c.instances ?? 0)
        .bs(options.release)
        .bs(options.maintenance)
        .bl(0)
        .bl(0);
  }
  return w;
}

/**
 * The object map: (handle delta, offset delta) pairs as modular chars, in pages of at most 2032
 * bytes; each page starts with its big-endian size (counting those two bytes) and ends with a
 * big-endian CRC of the page; an empty page closes the map.
 */
export function objectMap(entries: { handle: number; offset: number }[]): Uint8Array {
  const out: number[] = [];
  let i = 0;
  const page = (body: number[]): void => {
    const size = body.length + 2;
    const bytes = [size >> 8, size & 0xff, ...body];
    const crc = crc16(Uint8Array.from(bytes), 0xc0c1);
    out.push(...bytes, crc >> 8, crc & 0xff);
  };
  while (i < entries.length) {
    const body: number[] = [];
    let lastHandle = 0;
    let lastOffset = 0;
    while (i < entries.length) {
      const e = entries[i] as { handle: number; offset: number };
      const pair = [...unsignedModularChar(e.handle - lastHandle), ...modularChar(e.offset - lastOffset)];
      if (body.length + pair.length + 2 > 2032) break;
      body.push(...pair);
      lastHandle = e.handle;
      lastOffset = e.offset;
      i++;
    }
    page(body);
  }
  page([]);
  return Uint8Array.from(out);
}

export function assemble2000(c: Container2000): Uint8Array {
  const out = new ByteOut();
  const HEADER_SIZE = 0x61;
  out.put(new Uint8Array(HEADER_SIZE));

  // Section 5: the auxiliary header (no sentinels).
  const aux = new BitWriter(128);
  aux.rc(0xff).rc(0x77).rc(0x01).rs(c.release).rs(0).rl(1).rl(0xffffffff).rs(1).rs(0).rl(0);
  aux.rs(c.release).rs(0).rs(c.release).rs(0);
  for (const v of [4, 0x565, 0, 0, 2, 1]) aux.rs(v);
  for (const v of [0, 0, 0, 256, 393218]) aux.rl(v);
  const now = Date.now();
  const day = Math.floor(now / 86_400_000);
  for (let k = 0; k < 2; k++) aux.rl(day + 2_440_588).rl(now - day * 86_400_000);
  aux.rl(c.handseed).rl(0).rs(0).rs(1).rl(0).rl(0).rl(0).rl(1).rl(0).rl(0).rl(0).rl(0);
  const auxBytes = aux.toBytes();
  const auxAt = out.put(auxBytes);

  // An empty preview: no images.
  const previewAt = out.length;
  out.put(SENTINEL.previewStart);
  out.put(le32(1));
  out.put(Uint8Array.of(0));
  out.put(SENTINEL.previewEnd);

  const header = framedSection(SENTINEL.headerStart, c.headerVars, SENTINEL.headerEnd);
  const headerAt = out.put(header);
  const classes = framedSection(SENTINEL.classesStart, classesData(c.classes, c.text).toBytes(), SENTINEL.classesEnd);
  const classesAt = out.put(classes);

  const map: { handle: number; offset: number }[] = [];
  for (const o of c.objects) map.push({ handle: o.handle, offset: out.put(o.bytes) });
  const mapBytes = objectMap(map);
  const mapAt = out.put(mapBytes);

  // The second header repeats the section locators and the main handles.
  const secondAt = out.length;
  const sw = new BitWriter(128);
  sw.bl(secondAt);
  for (const ch of c.signature) sw.rc(ch.charCodeAt(0));
  sw.rc(0).rc(0).rc(0).rc(0).rc(0).rc(15).rc(1).bs(c.release).rs(c.codePage);
  const locators: [number, number, number][] = [
    [0, headerAt, header.length],
    [1, classesAt, classes.length],
    [2, mapAt, mapBytes.length],
    [3, 0, 0],
    [4, 0, 0],
    [5, auxAt, auxBytes.length],
  ];
  sw.bs(locators.length);
  for (const [n, at, size] of locators) sw.rc(n).bl(at).bl(size);
  sw.bs(c.secondHeaderHandles.length);
  c.secondHeaderHandles.forEach((h, i) => {
    const bytes: number[] = [];
    for (let v = h; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    sw.rc(bytes.length).rc(i).bytes(bytes);
  });
  const body = sw.toBytes();
  const second = new Uint8Array(16 + 4 + body.length + 2 + 8 + 16);
  second.set(SENTINEL.secondHeaderStart, 0);
  second.set(le32(4 + body.length + 2 + 8), 16);
  second.set(body, 20);
  second.set(le16(crc16(second, 0xc0c1, 16, 20 + body.length)), 20 + body.length);
  second.set(SENTINEL.secondHeaderEnd, 20 + body.length + 2 + 8);
  out.put(second);

  // Section 4: the template: an empty description and MEASUREMENT.
  const templateAt = out.put(Uint8Array.of(0, 0, c.measurement & 0xff, 0));

  const bytes = out.finish();
  // The file header: signature, maintenance bytes, preview address, release, code page, locators, CRC.
  const fh = new Uint8Array(HEADER_SIZE);
  for (let k = 0; k < 6; k++) fh[k] = c.signature.charCodeAt(k);
  fh.set([0, 0, 0, 0, 0, 15, 1], 6);
  fh.set(le32(previewAt), 0x0d);
  fh[0x11] = c.release;
  fh[0x12] = 0;
  fh.set(le16(c.codePage), 0x13);
  fh.set(le32(6), 0x15);
  const records: [number, number, number][] = [
    [0, headerAt, header.length],
    [1, classesAt, classes.length],
    [2, mapAt, mapBytes.length],
    [3, 0, 0],
    [4, templateAt, 4],
    [5, auxAt, auxBytes.length],
  ];
  records.forEach(([n, at, size], k) => {
    const p = 0x19 + 9 * k;
    fh[p] = n;
    fh.set(le32(at), p + 1);
    fh.set(le32(size), p + 5);
  });
  const crcAt = 0x19 + 9 * records.length;
  fh.set(le16(crc16(fh, 0xc0c1, 0, crcAt)), crcAt);
  fh.set(SENTINEL.fileHeaderEnd, crcAt + 2);
  bytes.set(fh, 0);
  return bytes;
}
