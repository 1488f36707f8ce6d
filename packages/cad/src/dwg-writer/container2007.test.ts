/**
 * The R2007 container, read here by a decoder of its own, strict about every check value: the
 * Reed-Solomon words of the file header, of the system pages and of the data pages, the R2007
 * compression, the CRC-64s of the header table, the page map and the section map, each page's
 * CRC-64 and checksum, the page map covering the file, the header copy at the end. The same
 * decoder reads AutoCAD's own 2007 files of the corpus (when ../shared/corpus is there, as in CI),
 * so the check values and layouts this writer produces are the ones AutoCAD produces.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SENTINEL } from './constants';
import { rsDeinterleave, rsEncodeWord, rsInterleave, rsSyndromes } from './container2007';
import { crc64Mirrored, crc64Normal, pageChecksum2007 } from './crc2007';
import { compress2007, decompress2007, literalOrder } from './lz77-2007';
import { sampleDrawing } from './test-drawing';
import { writeDwg } from './writer';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = process.env.CAD_CORPUS ?? resolve(here, '../../../../../shared/corpus');
const corpusDir = join(CORPUS, 'dwg');

const u64 = (d: Uint8Array, at: number): bigint => new DataView(d.buffer, d.byteOffset, d.byteLength).getBigUint64(at, true);
const num = (d: Uint8Array, at: number): number => Number(u64(d, at));

const FIELDS = [
  'headerSize',
  'fileSize',
  'pmCrcComp',
  'pmCorrection',
  'pmCrcSeed',
  'pm2Offset',
  'pm2Id',
  'pmOffset',
  'pmId',
  'header2Offset',
  'pmSizeComp',
  'pmSizeUncomp',
  'pagesAmount',
  'pagesMaxId',
  'u1',
  'u2',
  'pmCrcUncomp',
  'u3',
  'u4',
  'u5',
  'sectionsAmount',
  'smCrcUncomp',
  'smSizeComp',
  'sm2Id',
  'smId',
  'smSizeUncomp',
  'smCrcComp',
  'smCorrection',
  'smCrcSeed',
  'streamVersion',
  'crcSeed',
  'crcSeedEncoded',
  'randomSeed',
  'headerCrc',
] as const;
type Fields = Record<(typeof FIELDS)[number], bigint>;

interface Decoded {
  fields: Fields;
  pages: Map<number, { at: number; size: number }>;
  sections: Map<string, { data: Uint8Array; hash: number; encoding: number; pages: number }>;
  /** Every check value that does not hold. */
  problems: string[];
  /** Reed-Solomon words checked. */
  words: number;
  /** Pages of coded sections stored plain (both sizes equal): where they are and what they hold. */
  plainPages: { name: string; at: number; data: Uint8Array }[];
}

/** The data of `blocks` interleaved words at `at`, each word's syndromes checked. */
function words(bytes: Uint8Array, at: number, blocks: number, k: number, label: string, out: Decoded): Uint8Array {
  const raw = bytes.subarray(at, at + blocks * 255);
  if (raw.length < blocks * 255) {
    out.problems.push(`${label}: page runs past the end of the file`);
    return new Uint8Array(blocks * k);
  }
  for (let b = 0; b < blocks; b++) {
    const word = new Uint8Array(255);
    for (let j = 0; j < 255; j++) word[j] = raw[j * blocks + b] as number;
    out.words++;
    if (rsSyndromes(word, k).some((x) => x !== 0)) out.problems.push(`${label}: Reed-Solomon word ${b} damaged`);
  }
  return rsDeinterleave(raw, blocks, k);
}

function decode2007(bytes: Uint8Array): Decoded {
  const out: Decoded = { fields: {} as Fields, pages: new Map(), sections: new Map(), problems: [], words: 0, plainPages: [] };
  const pre = words(bytes, 0x80, 3, 239, 'file header', out);
  const comprCrc = u64(pre, 16);
  const comprLen = new DataView(pre.buffer).getInt32(24, true);
  const packed = pre.subarray(32, 32 + comprLen);
  if (crc64Normal(packed) !== comprCrc) out.problems.push('file header: compressed table CRC');
  const table = decompress2007(packed, 0x110);
  FIELDS.forEach((f, i) => (out.fields[f] = u64(table, i * 8)));
  const F = out.fields;
  const zeroed = table.slice();
  zeroed.fill(0, 0x108);
  if (crc64Normal(zeroed) !== F.headerCrc) out.problems.push('file header: table CRC');

  const systemPage = (
    at: number,
    comp: number,
    uncomp: number,
    correction: number,
    label: string,
    crcComp: bigint,
    crcUncomp: bigint,
  ): Uint8Array => {
    const blocks = Math.ceil((Math.ceil(comp / 8) * 8 * correction) / 239);
    const data = words(bytes, at, blocks, 239, label, out).subarray(0, comp);
    const plain = comp < uncomp ? decompress2007(data, uncomp) : data.subarray(0, uncomp);
    if (crc64Mirrored(data, F.crcSeed) !== crcComp) out.problems.push(`${label}: CRC (stored)`);
    if (crc64Mirrored(plain, F.crcSeed) !== crcUncomp) out.problems.push(`${label}: CRC (data)`);
    return plain;
  };
  const pageMap = systemPage(
    0x480 + Number(F.pmOffset),
    Number(F.pmSizeComp),
    Number(F.pmSizeUncomp),
    Number(F.pmCorrection),
    'page map',
    F.pmCrcComp,
    F.pmCrcUncomp,
  );
  let at = 0x480;
  for (let p = 0; p < pageMap.length; p += 16) {
    const size = num(pageMap, p);
    const id = Number(BigInt.asIntN(64, u64(pageMap, p + 8)));
    out.pages.set(id, { at, size });
    at += size;
  }
  const sm = out.pages.get(Number(F.smId));
  if (!sm) {
    out.problems.push('section map page not in the page map');
    return out;
  }
  const map = systemPage(
    sm.at,
    Number(F.smSizeComp),
    Number(F.smSizeUncomp),
    Number(F.smCorrection),
    'section map',
    F.smCrcComp,
    F.smCrcUncomp,
  );
  for (let p = 0; p + 64 <= map.length;) {
    const size = num(map, p);
    const hash = num(map, p + 24);
    const nameLength = num(map, p + 32);
    const encoding = num(map, p + 48);
    const count = num(map, p + 56);
    p += 64;
    if (p >= map.length) break;
    let name = '';
    for (let k = 0; k + 2 < nameLength; k += 2) name += String.fromCharCode((map[p + k] as number) | ((map[p + k + 1] as number) << 8));
    p += nameLength;
    const data = new Uint8Array(size);
    for (let k = 0; k < count; k++, p += 56) {
      const offset = num(map, p);
      const id = num(map, p + 16);
      const uncomp = num(map, p + 24);
      const comp = num(map, p + 32);
      const checksum = num(map, p + 40);
      const crc = u64(map, p + 48);
      const page = out.pages.get(id);
      const label = `${name} page ${k}`;
      if (!page) {
        out.problems.push(`${label}: not in the page map`);
        continue;
      }
      const stored =
        encoding === 4
          ? words(bytes, page.at, Math.ceil((Math.ceil(comp / 8) * 8) / 251), 251, label, out).subarray(0, comp)
          : bytes.subarray(page.at, page.at + comp);
      let plain: Uint8Array;
      try {
        plain = comp !== uncomp ? decompress2007(stored, uncomp) : stored.subarray(0, uncomp);
      } catch (e) {
        out.problems.push(`${label}: ${(e as Error).message}`);
        continue;
      }
      if (crc64Mirrored(stored) !== crc) out.problems.push(`${label}: CRC`);
      if (pageChecksum2007(plain) !== checksum) out.problems.push(`${label}: checksum`);
      data.set(plain, offset);
      if (encoding === 4 && comp === uncomp) out.plainPages.push({ name, at: page.at, data: plain });
    }
    out.sections.set(name, { data, hash, encoding, pages: count });
  }
  return out;
}

const startsWith = (d: Uint8Array, prefix: Uint8Array): boolean => prefix.every((b, i) => d[i] === b);
const written = writeDwg(sampleDrawing(), { version: '2007' }).bytes;

describe('DWG 2007 container (Reed-Solomon coded, R2007 compression, CRC-64), checked like a strict reader', () => {
  const decoded = decode2007(written);

  it('every Reed-Solomon word, CRC-64 and page checksum holds', () => {
    expect(decoded.problems).toEqual([]);
    expect(decoded.words).toBeGreaterThan(10);
    expect(decoded.fields.headerSize).toBe(0x70n);
    expect(decoded.fields.streamVersion).toBe(0x60100n);
  });

  it('the 0x80-byte plain header: signature, code page, preview and summary addresses on their plain pages', () => {
    expect(String.fromCharCode(...written.subarray(0, 6))).toBe('AC1021');
    const view = new DataView(written.buffer, written.byteOffset);
    expect(written[0x11]).toBe(0x1b);
    expect(view.getUint16(0x13, true)).toBe(39); // ANSI_936
    const preview = view.getUint32(0x0d, true);
    expect(startsWith(written.subarray(preview), SENTINEL.previewStart)).toBe(true);
    const summary = view.getUint32(0x20, true);
    expect(summary).toBeGreaterThanOrEqual(0x480);
    expect(decoded.sections.get('AcDb:SummaryInfo')?.encoding).toBe(1);
    expect(written.subarray(summary, summary + 16)).toEqual(decoded.sections.get('AcDb:SummaryInfo')?.data.subarray(0, 16));
  });

  it('pages tile the file from 0x480 in page map order; the header copy ends the file', () => {
    const F = decoded.fields;
    let end = 0x480;
    for (const p of decoded.pages.values()) {
      expect(p.at).toBe(end);
      expect(p.size % 0x20).toBe(0);
      end += p.size;
    }
    expect(end).toBe(0x480 + Number(F.header2Offset));
    expect(Number(F.fileSize)).toBe(written.length);
    expect(written.length).toBe(end + 0x400);
    expect(written.subarray(end)).toEqual(written.subarray(0x80, 0x480));
    expect(Number(F.pagesAmount)).toBe(decoded.pages.size);
    // Both copies of each map are listed.
    for (const id of [F.pmId, F.pm2Id, F.smId, F.sm2Id]) expect(decoded.pages.has(Number(id))).toBe(true);
  });

  it('sections: the ones a reader needs, with their name hashes; header and classes framed by their sentinels', () => {
    const names = [
      'AcDb:Header',
      'AcDb:AuxHeader',
      'AcDb:Classes',
      'AcDb:SummaryInfo',
      'AcDb:Preview',
      'AcDb:Template',
      'AcDb:ObjFreeSpace',
      'AcDb:RevHistory',
      'AcDb:AcDbObjects',
      'AcDb:Handles',
    ];
    expect([...decoded.sections.keys()].sort()).toEqual([...names].sort());
    expect(decoded.sections.get('AcDb:Header')?.hash).toBe(0x32b803d9);
    expect(decoded.sections.get('AcDb:AcDbObjects')?.hash).toBe(0x674c05a9);
    expect(decoded.sections.get('AcDb:AcDbObjects')?.encoding).toBe(4);
    expect(startsWith(decoded.sections.get('AcDb:Header')?.data as Uint8Array, SENTINEL.headerStart)).toBe(true);
    expect(startsWith(decoded.sections.get('AcDb:Classes')?.data as Uint8Array, SENTINEL.classesStart)).toBe(true);
    const objects = decoded.sections.get('AcDb:AcDbObjects')?.data as Uint8Array;
    expect(new DataView(objects.buffer).getUint32(0, true)).toBe(0x0dca);
  });

  it('a byte changed anywhere in a page is caught by its Reed-Solomon word and its CRC', () => {
    const first = decoded.pages.get(1) as { at: number; size: number };
    const bad = written.slice();
    bad[first.at + 3] = ((bad[first.at + 3] as number) ^ 0x5a) & 0xff;
    const problems = decode2007(bad).problems;
    expect(problems.some((p) => /Reed-Solomon word \d+ damaged/.test(p))).toBe(true);
  });

  it('a piece that does not compress is stored plain, one word per page, its bytes readable at the page address', () => {
    const d = sampleDrawing();
    d.modelSpace = [];
    const smallBytes = writeDwg(d, { version: '2007' }).bytes;
    const small = decode2007(smallBytes);
    expect(small.problems).toEqual([]);
    let plain = 0;
    for (const [bytes, pages] of [
      [written, decoded.plainPages],
      [smallBytes, small.plainPages],
    ] as const)
      for (const p of pages) {
        plain++;
        expect(p.data.length, p.name).toBeLessThanOrEqual(248);
        expect(bytes.subarray(p.at, p.at + p.data.length), p.name).toEqual(p.data);
      }
    expect(plain).toBeGreaterThan(0);
  });

  it('large sections are cut in pages of at most 0xF800 bytes, each read back whole', () => {
    const d = sampleDrawing();
    const base = d.modelSpace[0];
    for (let i = 0; i < 3000; i++) d.modelSpace.push({ ...(base as object), handle: undefined } as never);
    const big = decode2007(writeDwg(d, { version: '2007' }).bytes);
    expect(big.problems).toEqual([]);
    const objects = big.sections.get('AcDb:AcDbObjects');
    expect(objects?.pages).toBeGreaterThan(1);
    expect(objects?.data.length).toBeGreaterThan(0xf800);
  });
});

describe('Reed-Solomon and R2007 compression', () => {
  it('a code word has zero syndromes, data first, and any single changed byte shows', () => {
    const data = Uint8Array.from({ length: 239 }, (_, i) => (i * 37 + 11) & 0xff);
    const word = rsEncodeWord(data, 239);
    expect(word.subarray(0, 239)).toEqual(data);
    expect(rsSyndromes(word, 239).every((s) => s === 0)).toBe(true);
    for (const at of [0, 100, 238, 239, 254]) {
      const bad = word.slice();
      bad[at] = (bad[at] as number) ^ 1;
      expect(rsSyndromes(bad, 239).some((s) => s !== 0)).toBe(true);
    }
    const small = rsEncodeWord(Uint8Array.of(1, 2, 3), 251);
    expect(rsSyndromes(small, 251)).toEqual([0, 0, 0, 0]);
    const interleaved = rsInterleave(
      Uint8Array.from({ length: 600 }, (_, i) => i & 0xff),
      251,
    );
    expect(interleaved.length).toBe(3 * 255);
    expect(rsDeinterleave(interleaved, 3, 251).subarray(0, 600)).toEqual(Uint8Array.from({ length: 600 }, (_, i) => i & 0xff));
  });

  it('literal order is a permutation for every run length', () => {
    for (let n = 0; n < 100; n++) expect([...literalOrder(n)].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('compresses and decompresses back, repetitive data well', () => {
    let seed = 7;
    const random = (n: number): Uint8Array =>
      Uint8Array.from({ length: n }, () => ((seed = (Math.imul(seed, 0x343fd) + 0x269ec3) | 0) >>> 16) & 0xff);
    const text = new TextEncoder().encode('AcDb:AcDbObjects LINE LINE CIRCLE 图层 '.repeat(400));
    const cases = [
      new Uint8Array(8),
      new Uint8Array(0x10000),
      text,
      random(9),
      random(31),
      random(40000),
      new Uint8Array([...random(300), ...random(300).fill(3), ...text.subarray(0, 700)]),
    ];
    for (const data of cases) {
      const packed = compress2007(data);
      expect(decompress2007(packed, data.length)).toEqual(data);
    }
    expect(compress2007(text).length).toBeLessThan(text.length / 10);
    expect(compress2007(new Uint8Array(0x10000)).length).toBeLessThan(0x10000 / 5);
    expect(() => decompress2007(compress2007(text).subarray(0, 40), text.length)).toThrow(RangeError);
  });
});

const autocad = existsSync(corpusDir)
  ? readdirSync(corpusDir)
      .filter((f) => f.endsWith('.dwg'))
      .map((f) => join(corpusDir, f))
      .filter((f) => String.fromCharCode(...readFileSync(f).subarray(0, 6)) === 'AC1021')
  : [];

describe("AutoCAD's 2007 files read by the same decoder", () => {
  it(`(${autocad.length ? `${autocad.length} in the corpus` : 'n/a: no corpus here'}): every word, CRC-64 and checksum holds; section hashes and layout match the writer's`, () => {
    const ours = decode2007(written);
    for (const file of autocad) {
      const d = decode2007(readFileSync(file));
      const label = file.slice(file.lastIndexOf('/') + 1);
      expect(d.problems, label).toEqual([]);
      expect(d.fields.headerSize, label).toBe(0x70n);
      expect(d.fields.streamVersion, label).toBe(0x60100n);
      expect([d.fields.u1, d.fields.u2, d.fields.u3, d.fields.u4, d.fields.u5], label).toEqual([0x20n, 0x40n, 0xf800n, 4n, 1n]);
      for (const [name, s] of ours.sections) {
        const theirs = d.sections.get(name);
        expect(theirs, `${label} ${name}`).toBeDefined();
        expect(theirs?.hash, `${label} ${name} hash`).toBe(s.hash);
        expect(theirs?.encoding, `${label} ${name} encoding`).toBe(s.encoding);
      }
      expect(startsWith(d.sections.get('AcDb:Header')?.data as Uint8Array, SENTINEL.headerStart), label).toBe(true);
      expect(startsWith(d.sections.get('AcDb:Classes')?.data as Uint8Array, SENTINEL.classesStart), label).toBe(true);
    }
    if (autocad.length) console.info(`DWG 2007 container checked on AutoCAD's files: ${autocad.length}`);
    else console.info("DWG 2007 container against AutoCAD's files: not applicable (no ../shared/corpus here)");
  });
});
