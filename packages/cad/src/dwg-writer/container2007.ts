/**
 * The R2007 file container (AC1021), used by that release alone: the same named sections as
 * R2004 (built by `sectionContents`), laid out differently.
 *
 * - 0x00: the 0x80-byte plain file header (signature, preview and summary addresses, code page).
 * - 0x80: 0x3d8 bytes holding three Reed-Solomon (255,239) code words, interleaved byte by byte
 *   (byte j of word i at 3 * j + i): a 32-byte prefix (check values, the length of what follows)
 *   and the 0x110-byte table of 64-bit fields locating
 *   the page map and the section map, compressed; then filler up to 0x480, where the pages begin.
 * - Pages follow each other from 0x480 in the order of the page map, every one a multiple of
 *   0x20 bytes. Data pages are a section's piece compressed (the R2007 LZ77 variant, lz77-2007.ts;
 *   a piece that does not compress is stored plain in pages of one word each), padded to 8 bytes, cut in 251-byte blocks each given 4 Reed-Solomon parity bytes (255,251)
 *   and interleaved like the file header ("encoding 4"); the small summary and preview sections
 *   are stored plain ("encoding 1") so the addresses in the file header point at readable bytes.
 *   System pages (the section map, the page map, each written twice) use (255,239) code words the
 *   same way.
 * - The page map lists (size, id) pairs in file order; the section map lists each section (sizes,
 *   hash of its name, encoding, UTF-16 name) and its pages (offset in the section, id, sizes).
 * - A copy of the 0x400 bytes at 0x80 ends the file.

 */
import { ByteOut } from './container2000';
import { Le, MAGIC, sectionContents, type Container2004 } from './container2004';
import { crc64Mirrored, crc64Normal, pageChecksum2007 } from './crc2007';
import { compress2007 } from './lz77-2007';

/**
 * GF(256) arithmetic for one field polynomial. The two codes of the container live in different
 * fields, as AutoCAD's files show: (255,239) words (file header, system pages) in the field of
 * x^8 + x^6 + x^5 + x^4 + 1 (0x169), (255,251) words (data pages) in that of x^8 + x^4 + x^3 + x^2 + 1
 * (0x11D). In both, a word read as the polynomial sum(w[i] x^i), data at w[0..k) and parity at
 * w[k..255), vanishes at a^1 .. a^(255-k).
 */
class Field {
  readonly exp = new Uint8Array(512);
  readonly log = new Uint8Array(256);
  private readonly generators = new Map<number, Uint8Array>();

  constructor(poly: number) {
    let x = 1;
    for (let i = 0; i < 255; i++) {
      this.exp[i] = x;
      this.log[x] = i;
      x <<= 1;
      if (x & 0x100) x ^= poly;
    }
    for (let i = 255; i < 512; i++) this.exp[i] = this.exp[i - 255] as number;
  }

  mul(a: number, b: number): number {
    return a === 0 || b === 0 ? 0 : (this.exp[(this.log[a] as number) + (this.log[b] as number)] as number);
  }

  /**
   * The monic generator whose roots are a^-1 .. a^-parity (g[j] the coefficient of x^j): reversing
   * a word turns its conditions into the usual systematic division by this polynomial.
   */
  generator(parity: number): Uint8Array {
    let g = this.generators.get(parity);
    if (g) return g;
    g = new Uint8Array(parity + 1);
    g[0] = 1;
    for (let r = 1; r <= parity; r++) {
      const root = this.exp[255 - r] as number;
      for (let j = r; j >= 0; j--) g[j] = (j > 0 ? (g[j - 1] as number) : 0) ^ this.mul(g[j] as number, root);
    }
    this.generators.set(parity, g);
    return g;
  }
}

const SYSTEM_FIELD = new Field(0x169);
const DATA_FIELD = new Field(0x11d);
const fieldOf = (k: number): Field => (k === 251 ? DATA_FIELD : SYSTEM_FIELD);

/** Encodes `data` (at most k bytes, zero-filled) into a 255-byte code word: k = 239 or 251. */
export function rsEncodeWord(data: Uint8Array, k: number): Uint8Array {
  const field = fieldOf(k);
  const parity = 255 - k;
  const g = field.generator(parity);
  // The reversed word holds data[0] at its highest power, the parity at its lowest: LFSR division.
  const reg = new Uint8Array(parity);
  for (let i = 0; i < k; i++) {
    const feedback = (data[i] ?? 0) ^ (reg[parity - 1] as number);
    for (let j = parity - 1; j > 0; j--) reg[j] = (reg[j - 1] as number) ^ field.mul(feedback, g[j] as number);
    reg[0] = field.mul(feedback, g[0] as number);
  }
  const word = new Uint8Array(255);
  word.set(data.subarray(0, k));
  // reg[j] is the reversed word's coefficient of x^j, i.e. the word's coefficient of x^(254 - j).
  for (let j = 0; j < parity; j++) word[254 - j] = reg[j] as number;
  return word;
}

/** The syndromes of a code word (all zero when it is intact): used by the tests. */
export function rsSyndromes(word: Uint8Array, k: number): number[] {
  const field = fieldOf(k);
  const out: number[] = [];
  for (let r = 1; r <= 255 - k; r++) {
    let y = 0;
    for (let i = 254; i >= 0; i--) y = field.mul(y, field.exp[r] as number) ^ (word[i] as number);
    out.push(y);
  }
  return out;
}

/**
 * `data` cut in k-byte blocks (the last one zero-filled), each made a code word, the words
 * interleaved byte by byte. Returns the interleaved bytes (blocks * 255 long).
 */
export function rsInterleave(data: Uint8Array, k: number): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / k));
  const out = new Uint8Array(blocks * 255);
  for (let b = 0; b < blocks; b++) {
    const word = rsEncodeWord(data.subarray(b * k, Math.min(data.length, (b + 1) * k)), k);
    for (let j = 0; j < 255; j++) out[j * blocks + b] = word[j] as number;
  }
  return out;
}

/** The inverse of `rsInterleave` for `blocks` words, keeping the data bytes. */
export function rsDeinterleave(bytes: Uint8Array, blocks: number, k: number): Uint8Array {
  const out = new Uint8Array(blocks * k);
  for (let b = 0; b < blocks; b++) for (let j = 0; j < k; j++) out[b * k + j] = bytes[j * blocks + b] as number;
  return out;
}

/** The names' hash codes the section map carries, as AutoCAD writes them. */
const SECTION_HASH: Record<string, number> = {
  'AcDb:Header': 0x32b803d9,
  'AcDb:AuxHeader': 0x54f0050a,
  'AcDb:Classes': 0x3f54045f,
  'AcDb:Handles': 0x3f6e0450,
  'AcDb:Template': 0x4a1404ce,
  'AcDb:ObjFreeSpace': 0x77e2061f,
  'AcDb:AcDbObjects': 0x674c05a9,
  'AcDb:RevHistory': 0x60a205b3,
  'AcDb:SummaryInfo': 0x717a060f,
  'AcDb:Preview': 0x40aa0473,
  'AcDb:AppInfo': 0x3fa0043e,
  'AcDb:FileDepList': 0x6c4205ca,
};

/** Sections stored plain: the file header points at them. */
const PLAIN = new Set(['AcDb:SummaryInfo', 'AcDb:Preview']);

/** The largest piece of a section in one data page, as AutoCAD cuts them. */
const MAX_PAGE_DATA = 0xf800;

const align = (n: number, to: number): number => Math.ceil(n / to) * to;

/**
 * A system page: `data` compressed when that makes it smaller (readers take a compressed size
 * below the uncompressed one as compressed), padded to 8 bytes, as (255,239) words, the page
 * rounded up to 0x20 bytes.
 */
function systemPage(data: Uint8Array): { page: Uint8Array; stored: number; crcStored: bigint; crcData: bigint } {
  const packed = data.length >= 8 ? compress2007(data) : data;
  const stored = packed.length < data.length ? packed : data;
  const padded = new Uint8Array(align(Math.max(stored.length, 1), 8));
  padded.set(stored);
  const coded = rsInterleave(padded, 239);
  const page = new Uint8Array(align(coded.length, 0x20));
  page.set(coded);
  return { page, stored: stored.length, crcStored: crc64Mirrored(stored), crcData: crc64Mirrored(data) };
}

/** The largest piece one (255,251) word holds once padded to 8 bytes. */
const ONE_WORD = 248;

/**
 * A data page holding `piece` as stored: compressed (its compressed size below its size), or
 * plain. Plain pages of coded sections hold one word at most: readers take a page whose two sizes
 * are equal as the bytes at its address, which for a single word are its data bytes, so such a
 * page reads the same with or without decoding the word. Plain sections' pages are not coded.
 * Pages are rounded up to 0x20 bytes (plain sections' pages to at least 0x100).
 */
function dataPage(piece: Uint8Array, stored: Uint8Array, plainSection: boolean): { page: Uint8Array; checksum: number; crc: bigint } {
  const padded = new Uint8Array(align(Math.max(stored.length, 1), 8));
  padded.set(stored);
  const coded = plainSection ? padded : rsInterleave(padded, 251);
  const page = new Uint8Array(plainSection ? Math.max(0x100, align(coded.length, 0x20)) : align(coded.length, 0x20));
  page.set(coded);
  return { page, checksum: pageChecksum2007(piece), crc: crc64Mirrored(stored) };
}

/**
 * How a coded section's piece is stored: compressed when that makes it smaller, else cut in
 * plain pieces of one word each.
 */
function storedPieces(piece: Uint8Array): { at: number; piece: Uint8Array; stored: Uint8Array }[] {
  if (piece.length >= 8) {
    const packed = compress2007(piece);
    if (packed.length < piece.length) return [{ at: 0, piece, stored: packed }];
  }
  const out: { at: number; piece: Uint8Array; stored: Uint8Array }[] = [];
  for (let at = 0; at < piece.length || at === 0; at += ONE_WORD) {
    const part = piece.subarray(at, Math.min(piece.length, at + ONE_WORD));
    out.push({ at, piece: part, stored: part });
  }
  return out;
}

interface PlacedSection {
  name: string;
  data: Uint8Array;
  maxSize: number;
  plain: boolean;
  pages: { offset: number; id: number; size: number; stored: number; checksum: number; crc: bigint }[];
}

/** UTF-16LE bytes of `s` and a terminating NUL. */
function utf16z(s: string): Uint8Array {
  const out = new Uint8Array((s.length + 1) * 2);
  for (let i = 0; i < s.length; i++) {
    out[i * 2] = s.charCodeAt(i) & 0xff;
    out[i * 2 + 1] = s.charCodeAt(i) >> 8;
  }
  return out;
}

export function assemble2007(c: Container2004): Uint8Array {
  const out = new ByteOut();
  out.put(new Uint8Array(0x480));
  const pageList: { id: number; size: number; at: number }[] = [];
  const putPage = (page: Uint8Array): number => {
    const id = pageList.length + 1;
    pageList.push({ id, size: page.length, at: out.put(page) });
    return id;
  };

  // Data pages, each section cut in pieces of at most its page size.
  const sections: PlacedSection[] = sectionContents(c).map((s) => {
    const plain = PLAIN.has(s.name);
    const maxSize = plain ? align(Math.max(s.data.length, 1), 0x20) : Math.min(MAX_PAGE_DATA, align(Math.max(s.data.length, 1), 0x100));
    return { name: s.name, data: s.data, maxSize, plain, pages: [] };
  });
  for (const s of sections) {
    for (let offset = 0; offset < s.data.length || offset === 0; offset += s.maxSize) {
      const piece = s.data.subarray(offset, Math.min(s.data.length, offset + s.maxSize));
      for (const part of s.plain ? [{ at: 0, piece, stored: piece }] : storedPieces(piece)) {
        const page = dataPage(part.piece, part.stored, s.plain);
        const id = putPage(page.page);
        s.pages.push({
          offset: offset + part.at,
          id,
          size: part.piece.length,
          stored: part.stored.length,
          checksum: page.checksum,
          crc: page.crc,
        });
      }
    }
  }

  // The section map: each section, then its pages; an empty description closes it (as AutoCAD writes it).
  const map = new Le();
  for (const s of sections) {
    const name = utf16z(s.name);
    map
      .u64(s.data.length)
      .u64(s.maxSize)
      .u64(0)
      .u64(SECTION_HASH[s.name] ?? 0)
      .u64(name.length)
      .u64(0)
      .u64(s.plain ? 1 : 4)
      .u64(s.pages.length);
    map.raw(name);
    for (const p of s.pages) map.u64(p.offset).u64(p.size).u64(p.id).u64(p.size).u64(p.stored).u64(p.checksum).big(p.crc);
  }
  for (let k = 0; k < 8; k++) map.u64(0);
  const sectionMap = map.u8;
  const sectionMapPage = systemPage(sectionMap);
  const sectionMapId = putPage(sectionMapPage.page);
  const sectionMap2Id = putPage(sectionMapPage.page);

  // The page map: (size, id) of every page in file order, its own two copies included.
  // Its own size depends on how well it compresses, which depends on that size: settle it.
  const pageMapId = pageList.length + 1;
  const pageMap2Id = pageList.length + 2;
  const pageMapOf = (ownSize: number): Uint8Array => {
    const pm = new Le();
    for (const p of pageList) pm.u64(p.size).u64(p.id);
    return pm.u64(ownSize).u64(pageMapId).u64(ownSize).u64(pageMap2Id).u8;
  };
  let ownSize = 0;
  let pageMap = pageMapOf(ownSize);
  let pageMapPage = systemPage(pageMap);
  while (pageMapPage.page.length > ownSize) {
    ownSize = pageMapPage.page.length;
    pageMap = pageMapOf(ownSize);
    pageMapPage = systemPage(pageMap);
  }
  if (pageMapPage.page.length < ownSize) {
    // A page may be longer than its words: keep the size the map gives it.
    const grown = new Uint8Array(ownSize);
    grown.set(pageMapPage.page);
    pageMapPage = { ...pageMapPage, page: grown };
  }
  const pageMapAt = out.put(pageMapPage.page);
  const pageMap2At = out.put(pageMapPage.page);
  pageList.push({ id: pageMapId, size: ownSize, at: pageMapAt }, { id: pageMap2Id, size: ownSize, at: pageMap2At });

  const header2At = out.length;
  const fileSize = header2At + 0x400;
  const fields = new Le()
    .u64(0x70)
    .u64(fileSize)
    .big(pageMapPage.crcStored)
    .u64(1) // page map correction (repeat count)
    .u64(0) // page map CRC seed
    .u64(pageMap2At - 0x480)
    .u64(pageMap2Id)
    .u64(pageMapAt - 0x480)
    .u64(pageMapId)
    .u64(header2At - 0x480)
    .u64(pageMapPage.stored)
    .u64(pageMap.length)
    .u64(pageList.length)
    .u64(pageList.length)
    .u64(0x20)
    .u64(0x40)
    .big(pageMapPage.crcData)
    .u64(MAX_PAGE_DATA)
    .u64(4)
    .u64(1)
    .u64(sections.length + 1)
    .big(sectionMapPage.crcData)
    .u64(sectionMapPage.stored)
    .u64(sectionMap2Id)
    .u64(sectionMapId)
    .u64(sectionMap.length)
    .big(sectionMapPage.crcStored)
    .u64(1) // section map correction
    .u64(0) // section map CRC seed
    .u64(0x60100)
    .u64(0) // CRC seed
    .u64(0) // encoded CRC seed
    .u64(0) // random seed
    .u64(0).u8; // this table's CRC, set below
  // The 32-byte prefix: check values, then the compressed table's length; the table follows.
  fields.set(new Le().big(crc64Normal(fields)).u8, 0x108);
  const packed = compress2007(fields);
  const prefix = new Le().u64(0).u64(0).big(crc64Normal(packed)).u32(packed.length).u32(0).u8;
  const pre = new Uint8Array(3 * 239);
  pre.set(prefix, 0);
  pre.set(packed, prefix.length);
  const coded = rsInterleave(pre, 239);
  const block = new Uint8Array(0x400);
  block.set(coded);
  // Filler after the code words: the format's pseudo-random sequence.
  for (let i = coded.length; i < 0x400; i++) block[i] = MAGIC[i & 0xff] as number;
  out.put(block);

  const bytes = out.finish();
  bytes.set(block, 0x80);
  const at = (name: string): number => {
    const id = sections.find((s) => s.name === name)?.pages[0]?.id;
    return pageList.find((p) => p.id === id)?.at ?? 0;
  };
  const fh = new Le();
  fh.raw(Array.from(c.signature, (ch) => ch.charCodeAt(0))).raw([0, 0, 0, 0, 0, 0, 3]);
  fh.u32(at('AcDb:Preview'));
  fh.raw([c.release, 0]).u16(c.codePage).raw([0, 0, 0]).u32(0).u32(0);
  fh.u32(at('AcDb:SummaryInfo')).u32(0).u32(0x80).u32(0);
  bytes.set(fh.u8, 0);
  return bytes;
}
