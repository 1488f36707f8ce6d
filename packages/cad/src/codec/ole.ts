/**
 * The preview picture of an OLE object (an OLE2FRAME's data): the object's compound document
 * (MS-CFB), its presentation stream `\x02OlePres000` (MS-OLEDS 2.3.4) and the device-independent
 * bitmap it holds, directly (CF_DIB) or inside the metafile it holds (CF_METAFILEPICT: the DIB of a
 * StretchDIBits / DIBStretchBlt / DIBBitBlt record; CF_ENHMETAFILE: of an EMR_STRETCHDIBITS).
 * Vector-only metafiles (an Excel range pasted as a picture of lines and text) give no bitmap.
 *
 * Browser-safe, no dependencies; every offset is checked, a damaged object gives null.
 */

/** A decoded picture: RGBA, rows top to bottom. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const END = 0xfffffffe;
/** Largest picture decoded (pixels): bigger ones are sampled down while decoding. */
const MAX_SIDE = 4096;

function hexBytes(hex: string): Uint8Array {
  const n = hex.length >> 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

function findMagic(b: Uint8Array): number {
  const limit = Math.min(b.length - 512, 4096);
  for (let i = 0; i <= limit; i++) {
    let ok = true;
    for (let k = 0; k < 8 && ok; k++) ok = b[i + k] === CFB_MAGIC[k];
    if (ok) return i;
  }
  return -1;
}

/** The streams of a compound document by name; null when it is not one. */
export function compoundStreams(b: Uint8Array): Map<string, Uint8Array> | null {
  if (b.length < 512) return null;
  for (let k = 0; k < 8; k++) if (b[k] !== CFB_MAGIC[k]) return null;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const shift = dv.getUint16(0x1e, true);
  const miniShift = dv.getUint16(0x20, true);
  if (shift < 7 || shift > 16 || miniShift > shift) return null;
  const size = 1 << shift;
  const sectorAt = (n: number): number => (n + 1) * size;
  const u32 = (o: number): number => (o + 4 <= b.length ? dv.getUint32(o, true) : END);
  // The FAT: its sectors from the header's 109 DIFAT entries and the DIFAT chain.
  const fatSectors: number[] = [];
  for (let i = 0; i < 109; i++) {
    const s = u32(0x4c + 4 * i);
    if (s < END - 1) fatSectors.push(s);
  }
  let difat = u32(0x44);
  for (let guard = 0; difat < END - 1 && guard < 1 << 16; guard++) {
    const o = sectorAt(difat);
    for (let i = 0; i < size / 4 - 1; i++) {
      const s = u32(o + 4 * i);
      if (s < END - 1) fatSectors.push(s);
    }
    difat = u32(o + size - 4);
  }
  const perSector = size / 4;
  const fat = (n: number): number => {
    const s = fatSectors[Math.floor(n / perSector)];
    return s === undefined ? END : u32(sectorAt(s) + 4 * (n % perSector));
  };
  const chain = (first: number, limit: number, next: (n: number) => number, read: (n: number) => Uint8Array | null): Uint8Array | null => {
    const parts: Uint8Array[] = [];
    let total = 0;
    const seen = new Set<number>();
    for (let n = first; n < END - 1 && total < limit; n = next(n)) {
      if (seen.has(n)) return null;
      seen.add(n);
      const p = read(n);
      if (!p) return null;
      parts.push(p);
      total += p.length;
    }
    const out = new Uint8Array(Math.min(total, limit));
    let at = 0;
    for (const p of parts) {
      const take = Math.min(p.length, out.length - at);
      out.set(p.subarray(0, take), at);
      at += take;
    }
    return out;
  };
  const sector = (n: number): Uint8Array | null => {
    const o = sectorAt(n);
    return o + size <= b.length ? b.subarray(o, o + size) : o < b.length ? b.subarray(o) : null;
  };
  const dir = chain(u32(0x30), 1 << 24, fat, sector);
  if (!dir) return null;
  const entries: { name: string; type: number; start: number; size: number }[] = [];
  for (let o = 0; o + 128 <= dir.length; o += 128) {
    const len = Math.min(64, dir[o + 64]! | (dir[o + 65]! << 8));
    let name = '';
    for (let i = 0; i + 1 < len - 1; i += 2) name += String.fromCharCode(dir[o + i]! | (dir[o + i + 1]! << 8));
    const ev = new DataView(dir.buffer, dir.byteOffset + o, 128);
    entries.push({ name, type: dir[o + 66]!, start: ev.getUint32(116, true), size: ev.getUint32(120, true) });
  }
  const root = entries.find((e) => e.type === 5);
  if (!root) return null;
  const cutoff = u32(0x38);
  const mini = chain(root.start, root.size, fat, sector) ?? new Uint8Array(0);
  const miniSize = 1 << miniShift;
  const miniFat = chain(u32(0x3c), 1 << 24, fat, sector) ?? new Uint8Array(0);
  const mfv = new DataView(miniFat.buffer, miniFat.byteOffset, miniFat.byteLength);
  const miniNext = (n: number): number => (4 * n + 4 <= miniFat.length ? mfv.getUint32(4 * n, true) : END);
  const miniSector = (n: number): Uint8Array | null =>
    n * miniSize < mini.length ? mini.subarray(n * miniSize, (n + 1) * miniSize) : null;
  const out = new Map<string, Uint8Array>();
  for (const e of entries) {
    if (e.type !== 2) continue;
    const data = e.size < cutoff ? chain(e.start, e.size, miniNext, miniSector) : chain(e.start, e.size, fat, sector);
    if (data) out.set(e.name, data);
  }
  return out;
}

/** The DIB (BITMAPINFOHEADER and bits) a presentation stream holds, directly or in its metafile. */
function presentationDib(p: Uint8Array): Uint8Array | null {
  if (p.length < 40) return null;
  const dv = new DataView(p.buffer, p.byteOffset, p.byteLength);
  let o = 0;
  const marker = dv.getInt32(o, true);
  o += 4;
  let format = 0;
  if (marker === -1 || marker === -2) {
    format = dv.getUint32(o, true);
    o += 4;
  } else if (marker > 0)
    o += marker; // a registered format's name: not a picture we know
  else return null;
  if (o + 4 > p.length) return null;
  const td = dv.getUint32(o, true);
  o += td >= 4 ? td : 4;
  o += 16; // aspect, lindex, advf, reserved
  if (o + 12 > p.length) return null;
  o += 8; // width, height (HIMETRIC)
  const size = dv.getUint32(o, true);
  o += 4;
  const data = p.subarray(o, Math.min(p.length, o + size));
  if (format === 8) return data;
  if (format !== 3 && format !== 14) return null;
  // A metafile either way: OLE keeps CF_ENHMETAFILE pictures as Windows metafiles too (the EMF in
  // a comment record), so the data says which it is (an EMF starts with its header record, type 1).
  return data.length >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === 1 ? emfDib(data) : metafileDib(data);
}

function isDibHeader(b: Uint8Array, o: number): boolean {
  if (o < 0 || o + 40 > b.length) return false;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const hs = dv.getUint32(o, true);
  const planes = dv.getUint16(o + 12, true);
  const bits = dv.getUint16(o + 14, true);
  return (hs === 40 || hs === 108 || hs === 124) && planes === 1 && [1, 4, 8, 16, 24, 32].includes(bits);
}

/** The first DIB of a Windows metafile's bitmap records. */
function metafileDib(w: Uint8Array): Uint8Array | null {
  if (w.length < 18) return null;
  const dv = new DataView(w.buffer, w.byteOffset, w.byteLength);
  let o = 0;
  if (dv.getUint32(0, true) === 0x9ac6cdd7) o = 22; // placeable header
  o += dv.getUint16(o + 2, true) * 2; // METAHEADER size in words
  while (o + 6 <= w.length) {
    const words = dv.getUint32(o, true);
    const fn = dv.getUint16(o + 4, true);
    if (words < 3 || fn === 0) break;
    const end = Math.min(w.length, o + words * 2);
    // StretchDIBits, DIBStretchBlt, DIBBitBlt: the DIB after their fixed parameters.
    const at = fn === 0x0f43 ? o + 28 : fn === 0x0b41 ? o + 26 : fn === 0x0940 ? o + 22 : -1;
    if (at > 0 && isDibHeader(w, at)) return w.subarray(at, end);
    o += words * 2;
  }
  return null;
}

/** The first DIB of an enhanced metafile's EMR_STRETCHDIBITS / EMR_BITBLT / EMR_STRETCHBLT records. */
function emfDib(w: Uint8Array): Uint8Array | null {
  const dv = new DataView(w.buffer, w.byteOffset, w.byteLength);
  let o = 0;
  while (o + 8 <= w.length) {
    const type = dv.getUint32(o, true);
    const size = dv.getUint32(o + 4, true);
    if (size < 8 || type === 14) break;
    // EMR_STRETCHDIBITS (81): offBmiSrc at 48, cbBmiSrc 52, offBitsSrc 56, cbBitsSrc 60.
    if (type === 81 && o + 64 <= w.length) {
      const bmi = o + dv.getUint32(o + 48, true);
      const bits = o + dv.getUint32(o + 56, true);
      const cbBits = dv.getUint32(o + 60, true);
      if (isDibHeader(w, bmi) && bits + cbBits <= w.length) {
        const header = w.subarray(bmi, bits);
        const out = new Uint8Array(header.length + cbBits);
        out.set(header);
        out.set(w.subarray(bits, bits + cbBits), header.length);
        return out;
      }
    }
    o += size;
  }
  return null;
}

/** Decodes an uncompressed (or bit-field) DIB of 1, 4, 8, 16, 24 or 32 bits; null otherwise. */
export function decodeDib(d: Uint8Array): Picture | null {
  if (!isDibHeader(d, 0)) return null;
  const dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
  const hs = dv.getUint32(0, true);
  const width = dv.getInt32(4, true);
  const rawH = dv.getInt32(8, true);
  const bits = dv.getUint16(14, true);
  const compression = dv.getUint32(16, true);
  const height = Math.abs(rawH);
  if (!(width > 0 && height > 0) || width > 1 << 15 || height > 1 << 15 || (compression !== 0 && compression !== 3)) return null;
  let o = hs;
  let masks: [number, number, number] = bits === 16 ? [0x7c00, 0x3e0, 0x1f] : [0xff0000, 0xff00, 0xff];
  if (compression === 3) {
    if (hs === 40) {
      if (o + 12 > d.length) return null;
      masks = [dv.getUint32(o, true), dv.getUint32(o + 4, true), dv.getUint32(o + 8, true)];
      o += 12;
    } else masks = [dv.getUint32(40, true), dv.getUint32(44, true), dv.getUint32(48, true)];
  }
  const used = dv.getUint32(32, true);
  const paletteSize = bits <= 8 ? Math.min(used || 1 << bits, 256) : 0;
  const palette = d.subarray(o, o + paletteSize * 4);
  o += paletteSize * 4;
  const stride = (((width * bits + 31) >>> 5) << 2) >>> 0;
  if (o + stride * height > d.length) return null;
  // Sampled down to MAX_SIDE on the long side.
  const step = Math.max(1, Math.ceil(Math.max(width, height) / MAX_SIDE));
  const w = Math.ceil(width / step);
  const h = Math.ceil(height / step);
  const rgba = new Uint8Array(w * h * 4);
  const channel = (v: number, mask: number): number => {
    if (!mask) return 0;
    const shift = 31 - Math.clz32(mask & -mask);
    const max = mask >>> shift;
    return Math.round((((v & mask) >>> shift) * 255) / max);
  };
  for (let y = 0; y < h; y++) {
    const srcY = y * step;
    const row = o + (rawH > 0 ? height - 1 - srcY : srcY) * stride;
    for (let x = 0; x < w; x++) {
      const srcX = x * step;
      let r = 0,
        g = 0,
        b = 0;
      if (bits <= 8) {
        const bitPos = srcX * bits;
        const byte = d[row + (bitPos >> 3)]!;
        const idx = (byte >> (8 - bits - (bitPos & 7))) & ((1 << bits) - 1);
        b = palette[idx * 4] ?? 0;
        g = palette[idx * 4 + 1] ?? 0;
        r = palette[idx * 4 + 2] ?? 0;
      } else if (bits === 24 || (bits === 32 && compression === 0)) {
        const p = row + srcX * (bits / 8);
        b = d[p]!;
        g = d[p + 1]!;
        r = d[p + 2]!;
      } else {
        const v = bits === 16 ? dv.getUint16(row + srcX * 2, true) : dv.getUint32(row + srcX * 4, true);
        r = channel(v, masks[0]);
        g = channel(v, masks[1]);
        b = channel(v, masks[2]);
      }
      const q = (y * w + x) * 4;
      rgba[q] = r;
      rgba[q + 1] = g;
      rgba[q + 2] = b;
      rgba[q + 3] = 255;
    }
  }
  return { width: w, height: h, rgba };
}

/** The preview picture of an OLE2FRAME's data (hex, as the readers keep it); null when it holds none we can decode. */
export function olePreview(hex: string): Picture | null {
  if (!hex) return null;
  try {
    const b = hexBytes(hex);
    const at = findMagic(b);
    if (at < 0) return null;
    const streams = compoundStreams(b.subarray(at));
    if (!streams) return null;
    const names = [...streams.keys()].filter((n) => n.charCodeAt(0) === 2 && /^OlePres\d{3}$/.test(n.slice(1))).sort();
    for (const n of names) {
      const dib = presentationDib(streams.get(n)!);
      const pic = dib ? decodeDib(dib) : null;
      if (pic) return pic;
    }
    return null;
  } catch {
    return null;
  }
}
