/**
 * TrueType subsets for browsers (browser-safe; decision 0025): the glyphs of a set of characters
 * cut out of a 'glyf' font, with a cmap, as a standalone font a browser loads with FontFace, and
 * WOFF 1.0 packing (each table deflated). The viewer draws CJK text from the shipped fonts this
 * way, fetching only the characters a drawing has (a few hundred glyphs of a 30,000-glyph font).
 *
 * Kept: head, hhea, maxp, OS/2, hmtx, cmap (format 4 for the BMP, 12 for everything), loca
 * (long), glyf (components of composite glyphs renumbered), name (the copyright and licence
 * travel with the font, OFL-1.1), post (version 3: no glyph names), and the hinting tables
 * (cvt, fpgm, prep, gasp). Layout tables (GSUB, GPOS, GDEF, BASE) and vertical metrics are left
 * out: the viewer sets one character at a time.
 */
import { Reader, readCmap, tables } from './sfnt';

export class FontSubsetError extends Error {
  override readonly name = 'FontSubsetError';
}

const KEPT = ['OS/2', 'name', 'cvt ', 'fpgm', 'prep', 'gasp'];
const ARG_WORDS = 0x0001,
  HAVE_SCALE = 0x0008,
  MORE = 0x0020,
  HAVE_XY_SCALE = 0x0040,
  HAVE_2X2 = 0x0080;

/** A copy (Buffer's slice() would share the source's memory). */
const copy = (b: Uint8Array): Uint8Array => new Uint8Array(b);

function u32(v: number): Uint8Array {
  return new Uint8Array([(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]);
}

function checksum(b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < b.length; i += 4)
    sum = (sum + (((b[i] ?? 0) << 24) | ((b[i + 1] ?? 0) << 16) | ((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0))) >>> 0;
  return sum;
}

/** The tables of the face whose directory is at `offset` (0 for a single-face file), as views. */
export function sfntTables(bytes: Uint8Array, offset = 0): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [tag, t] of tables(new Reader(bytes), offset)) {
    if (t.offset + t.length > bytes.length) throw new FontSubsetError(`table ${tag} runs past the end of the font`);
    out.set(tag, bytes.subarray(t.offset, t.offset + t.length));
  }
  return out;
}

/** An sfnt file of these tables: directory sorted by tag, tables 4-byte aligned, checksums and head's adjustment set. */
export function writeSfnt(input: ReadonlyMap<string, Uint8Array>, version = 0x00010000): Uint8Array {
  const tags = [...input.keys()].sort();
  const n = tags.length;
  let pow = 1,
    log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  const headerSize = 12 + 16 * n;
  let size = headerSize;
  for (const tag of tags) size += ((input.get(tag) as Uint8Array).length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, version);
  view.setUint16(4, n);
  view.setUint16(6, pow * 16);
  view.setUint16(8, log);
  view.setUint16(10, n * 16 - pow * 16);
  let at = headerSize;
  let headAt = -1;
  tags.forEach((tag, i) => {
    const data = input.get(tag) as Uint8Array;
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) out[r + k] = tag.charCodeAt(k);
    out.set(data, at);
    if (tag === 'head' && data.length >= 12) {
      // The adjustment is summed as zero, then set so that the whole file sums to 0xB1B0AFBA.
      view.setUint32(at + 8, 0);
      headAt = at;
    }
    view.setUint32(r + 4, checksum(out.subarray(at, at + data.length)));
    view.setUint32(r + 8, at);
    view.setUint32(r + 12, data.length);
    at += (data.length + 3) & ~3;
  });
  if (headAt >= 0) view.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}

/**
 * WOFF 1.0 of an sfnt: every table deflated (zlib format) where that makes it smaller. `deflate`
 * is the host's (node:zlib's deflateSync on the server).
 */
export function toWoff(sfnt: Uint8Array, deflate: (data: Uint8Array) => Uint8Array): Uint8Array {
  const r = new Reader(sfnt);
  const dir = [...tables(r, 0)].sort(([a], [b]) => (a < b ? -1 : 1));
  const entries = dir.map(([tag, t]) => {
    const orig = sfnt.subarray(t.offset, t.offset + t.length);
    const packed = deflate(orig);
    return { tag, orig, data: packed.length < orig.length ? packed : orig, checksum: checksum(orig) };
  });
  const headerSize = 44 + 20 * entries.length;
  let size = headerSize;
  for (const e of entries) size += (e.data.length + 3) & ~3;
  let sfntSize = 12 + 16 * entries.length;
  for (const e of entries) sfntSize += (e.orig.length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set([0x77, 0x4f, 0x46, 0x46], 0); // 'wOFF'
  view.setUint32(4, r.u32(0));
  view.setUint32(8, size);
  view.setUint16(12, entries.length);
  view.setUint32(16, sfntSize);
  view.setUint16(20, 1);
  let at = headerSize;
  entries.forEach((e, i) => {
    const d = 44 + 20 * i;
    for (let k = 0; k < 4; k++) out[d + k] = e.tag.charCodeAt(k);
    view.setUint32(d + 4, at);
    view.setUint32(d + 8, e.data.length);
    view.setUint32(d + 12, e.orig.length);
    view.setUint32(d + 16, e.checksum);
    out.set(e.data, at);
    at += (e.data.length + 3) & ~3;
  });
  return out;
}

/** Glyph ids a composite glyph's components use (`glyph` is the glyph's data). */
function components(glyph: Uint8Array, visit: (at: number, id: number) => void): void {
  if (glyph.length < 10) return;
  const r = new Reader(glyph);
  if (r.i16(0) >= 0) return;
  let p = 10;
  for (let more = true; more && p + 4 <= glyph.length;) {
    const flags = r.u16(p);
    visit(p + 2, r.u16(p + 2));
    p += 4 + (flags & ARG_WORDS ? 4 : 2);
    if (flags & HAVE_SCALE) p += 2;
    else if (flags & HAVE_XY_SCALE) p += 4;
    else if (flags & HAVE_2X2) p += 8;
    more = (flags & MORE) !== 0;
  }
}

/** cmap with a format 4 subtable (3,1) for the BMP and a format 12 one (3,10) for every code point. */
function writeCmap(map: readonly [number, number][]): Uint8Array {
  // Runs of consecutive code points with consecutive glyph ids.
  const runs: [number, number, number][] = [];
  for (const [cp, gid] of map) {
    const last = runs[runs.length - 1];
    if (last && cp === last[1] + 1 && gid === last[2] + (cp - last[0])) last[1] = cp;
    else runs.push([cp, cp, gid]);
  }
  const bmp = runs.filter(([a]) => a <= 0xffff).map(([a, b, g]): [number, number, number] => [a, Math.min(b, 0xfffe), g]);
  bmp.push([0xffff, 0xffff, 1]);
  const seg = bmp.length;
  const f4 = new DataView(new ArrayBuffer(16 + 8 * seg));
  let pow = 1,
    log = 0;
  while (pow * 2 <= seg) {
    pow *= 2;
    log++;
  }
  f4.setUint16(0, 4);
  f4.setUint16(2, f4.byteLength);
  f4.setUint16(6, seg * 2);
  f4.setUint16(8, pow * 2);
  f4.setUint16(10, log);
  f4.setUint16(12, seg * 2 - pow * 2);
  bmp.forEach(([a, b, g], i) => {
    f4.setUint16(14 + 2 * i, b);
    f4.setUint16(16 + 2 * seg + 2 * i, a);
    // The last segment (0xFFFF) maps to glyph 0: delta 1 wraps 0xFFFF to 0.
    f4.setUint16(16 + 4 * seg + 2 * i, (g - a) & 0xffff);
    f4.setUint16(16 + 6 * seg + 2 * i, 0);
  });
  const f12 = new DataView(new ArrayBuffer(16 + 12 * runs.length));
  f12.setUint16(0, 12);
  f12.setUint32(4, f12.byteLength);
  f12.setUint32(12, runs.length);
  runs.forEach(([a, b, g], i) => {
    f12.setUint32(16 + 12 * i, a);
    f12.setUint32(20 + 12 * i, b);
    f12.setUint32(24 + 12 * i, g);
  });
  const header = new DataView(new ArrayBuffer(4 + 8 * 2));
  header.setUint16(2, 2);
  header.setUint16(4, 3);
  header.setUint16(6, 1);
  header.setUint32(8, header.byteLength);
  header.setUint16(12, 3);
  header.setUint16(14, 10);
  header.setUint32(16, header.byteLength + f4.byteLength);
  const out = new Uint8Array(header.byteLength + f4.byteLength + f12.byteLength);
  out.set(new Uint8Array(header.buffer), 0);
  out.set(new Uint8Array(f4.buffer), header.byteLength);
  out.set(new Uint8Array(f12.buffer), header.byteLength + f4.byteLength);
  return out;
}

/**
 * A TrueType font of just the glyphs of `codePoints` that the font has (and the parts of composite
 * glyphs), numbered in code point order after the empty glyph 0. Throws FontSubsetError for a
 * font without 'glyf' outlines or with damaged tables.
 */
export function subsetTrueType(bytes: Uint8Array, codePoints: Iterable<number>): Uint8Array {
  const src = sfntTables(bytes);
  const need = (tag: string): Uint8Array => {
    const t = src.get(tag);
    if (!t) throw new FontSubsetError(`the font has no ${tag} table`);
    return t;
  };
  const head = need('head'),
    hhea = need('hhea'),
    maxp = need('maxp'),
    hmtx = need('hmtx'),
    loca = need('loca'),
    glyf = need('glyf'),
    post = need('post');
  const h = new Reader(head);
  const longLoca = h.i16(50) === 1;
  const numGlyphs = new Reader(maxp).u16(4);
  const nMetrics = Math.max(1, new Reader(hhea).u16(34));
  const lr = new Reader(loca);
  const span = (gid: number): Uint8Array => {
    if (gid >= numGlyphs) return new Uint8Array(0);
    const a = longLoca ? lr.u32(gid * 4) : lr.u16(gid * 2) * 2;
    const b = longLoca ? lr.u32(gid * 4 + 4) : lr.u16(gid * 2 + 2) * 2;
    if (!(b > a) || b > glyf.length) return new Uint8Array(0);
    return glyf.subarray(a, b);
  };
  const whole = new Reader(bytes);
  const cmapAt = tables(whole, 0).get('cmap');
  if (!cmapAt) throw new FontSubsetError('the font has no cmap table');
  const lookup = readCmap(whole, cmapAt.offset);

  // New glyph ids: 0, the characters' glyphs by code point, then composite parts.
  const order: number[] = [0];
  const newId = new Map<number, number>([[0, 0]]);
  const add = (gid: number): void => {
    if (newId.has(gid)) return;
    newId.set(gid, order.length);
    order.push(gid);
  };
  const map: [number, number][] = [];
  for (const cp of [...new Set(codePoints)].sort((a, b) => a - b)) {
    const gid = cp >= 0 && cp <= 0x10ffff ? lookup(cp) : 0;
    if (!gid || gid >= numGlyphs) continue;
    add(gid);
    map.push([cp, newId.get(gid) as number]);
  }
  for (let i = 0; i < order.length; i++) components(span(order[i] as number), (_, id) => id < numGlyphs && add(id));

  // glyf and loca (long offsets), composite components renumbered.
  const parts = order.map((gid) => {
    const data = copy(span(gid));
    const view = new DataView(data.buffer);
    components(data, (at, id) => view.setUint16(at, newId.get(id) ?? 0));
    return data;
  });
  let glyfSize = 0;
  for (const p of parts) glyfSize += (p.length + 3) & ~3;
  const newGlyf = new Uint8Array(glyfSize);
  const newLoca = new DataView(new ArrayBuffer(4 * (order.length + 1)));
  let at = 0;
  parts.forEach((p, i) => {
    newLoca.setUint32(4 * i, at);
    newGlyf.set(p, at);
    at += (p.length + 3) & ~3;
  });
  newLoca.setUint32(4 * order.length, at);

  // hmtx: a full metric for every glyph.
  const mr = new Reader(hmtx);
  const newHmtx = new DataView(new ArrayBuffer(4 * order.length));
  order.forEach((gid, i) => {
    const m = Math.min(gid, nMetrics - 1);
    newHmtx.setUint16(4 * i, mr.u16(4 * m));
    const lsbAt = gid < nMetrics ? 4 * gid + 2 : 4 * nMetrics + 2 * (gid - nMetrics);
    newHmtx.setInt16(4 * i + 2, lsbAt + 2 <= hmtx.length ? mr.i16(lsbAt) : 0);
  });

  const newHead = copy(head);
  new DataView(newHead.buffer).setInt16(50, 1);
  const newHhea = copy(hhea);
  new DataView(newHhea.buffer).setUint16(34, order.length);
  const newMaxp = copy(maxp);
  new DataView(newMaxp.buffer).setUint16(4, order.length);
  const newPost = copy(post.subarray(0, 32));
  newPost.set(u32(0x00030000), 0);

  const out = new Map<string, Uint8Array>([
    ['head', newHead],
    ['hhea', newHhea],
    ['maxp', newMaxp],
    ['hmtx', new Uint8Array(newHmtx.buffer)],
    ['cmap', writeCmap(map)],
    ['loca', new Uint8Array(newLoca.buffer)],
    ['glyf', newGlyf],
    ['post', newPost],
  ]);
  for (const tag of KEPT) {
    const t = src.get(tag);
    if (t) out.set(tag, t);
  }
  return writeSfnt(out);
}
