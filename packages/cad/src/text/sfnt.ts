/**
 * A minimal TrueType/OpenType reader (browser-safe): the faces of a .ttf/.otf/.ttc file, their
 * names, vertical metrics and advance widths. Enough to measure text set in a font a drawing names
 * and a font folder holds; glyph outlines are the back ends' business.
 */

export interface SfntFace {
  family: string;
  /** Typographic subfamily ('Regular', 'Bold', ...). */
  subfamily: string;
  postscriptName: string;
  unitsPerEm: number;
  /** In em units (1 = the em). */
  capHeight: number;
  ascent: number;
  descent: number;
  /** Advance width in em units, undefined when the font has no glyph for the code point. */
  advance(codePoint: number): number | undefined;
}

/** Big-endian reads over font bytes. */
export class Reader {
  private view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  u8(o: number): number {
    return this.view.getUint8(o);
  }
  u16(o: number): number {
    return this.view.getUint16(o, false);
  }
  i16(o: number): number {
    return this.view.getInt16(o, false);
  }
  u32(o: number): number {
    return this.view.getUint32(o, false);
  }
  tag(o: number): string {
    return String.fromCharCode(this.u8(o), this.u8(o + 1), this.u8(o + 2), this.u8(o + 3));
  }
}

/** The table directory of the face whose header is at `offset`: tag → where the table is. */
export function tables(r: Reader, offset: number): Map<string, { offset: number; length: number }> {
  const n = r.u16(offset + 4);
  const map = new Map<string, { offset: number; length: number }>();
  for (let i = 0; i < n; i++) {
    const rec = offset + 12 + i * 16;
    map.set(r.tag(rec), { offset: r.u32(rec + 8), length: r.u32(rec + 12) });
  }
  return map;
}

function readNames(r: Reader, off: number): Map<number, string> {
  const count = r.u16(off + 2);
  const strings = off + r.u16(off + 4);
  const found = new Map<number, { score: number; text: string }>();
  for (let i = 0; i < count; i++) {
    const rec = off + 6 + i * 12;
    const platform = r.u16(rec),
      encoding = r.u16(rec + 2),
      lang = r.u16(rec + 4),
      id = r.u16(rec + 6);
    const len = r.u16(rec + 8),
      start = strings + r.u16(rec + 10);
    let text = '';
    let score = 0;
    if (platform === 3 || platform === 0) {
      for (let k = 0; k + 1 < len; k += 2) text += String.fromCharCode(r.u16(start + k));
      score = platform === 3 && lang === 0x409 ? 3 : platform === 3 ? 2 : 1;
    } else if (platform === 1 && encoding === 0) {
      for (let k = 0; k < len; k++) text += String.fromCharCode(r.u8(start + k));
      score = lang === 0 ? 1.5 : 0.5;
    } else continue;
    const prev = found.get(id);
    if (!prev || score > prev.score) found.set(id, { score, text });
  }
  return new Map([...found].map(([k, v]) => [k, v.text]));
}

/** cmap subtable → code point lookup (formats 4 and 12). */
export function readCmap(r: Reader, off: number): (cp: number) => number {
  const n = r.u16(off + 2);
  let best = -1,
    bestScore = -1,
    bestFormat = 0;
  for (let i = 0; i < n; i++) {
    const rec = off + 4 + i * 8;
    const platform = r.u16(rec),
      encoding = r.u16(rec + 2);
    const sub = off + r.u32(rec + 4);
    const format = r.u16(sub);
    let score = -1;
    if (format === 12 && (platform === 3 || platform === 0)) score = 3;
    else if (format === 4 && platform === 3 && (encoding === 1 || encoding === 0)) score = 2;
    else if (format === 4 && platform === 0) score = 1;
    if (score > bestScore) {
      bestScore = score;
      best = sub;
      bestFormat = format;
    }
  }
  if (best < 0) return () => 0;
  if (bestFormat === 12) {
    const groups = r.u32(best + 12);
    return (cp) => {
      let lo = 0,
        hi = groups - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const g = best + 16 + mid * 12;
        const start = r.u32(g),
          end = r.u32(g + 4);
        if (cp < start) hi = mid - 1;
        else if (cp > end) lo = mid + 1;
        else return r.u32(g + 8) + (cp - start);
      }
      return 0;
    };
  }
  const segX2 = r.u16(best + 6);
  const ends = best + 14,
    starts = ends + segX2 + 2,
    deltas = starts + segX2,
    rangeOffs = deltas + segX2;
  return (cp) => {
    if (cp > 0xffff) return 0;
    let lo = 0,
      hi = segX2 / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const end = r.u16(ends + mid * 2);
      const start = r.u16(starts + mid * 2);
      if (cp > end) lo = mid + 1;
      else if (cp < start) hi = mid - 1;
      else {
        const delta = r.i16(deltas + mid * 2);
        const ro = r.u16(rangeOffs + mid * 2);
        if (ro === 0) return (cp + delta) & 0xffff;
        const gi = r.u16(rangeOffs + mid * 2 + ro + (cp - start) * 2);
        return gi ? (gi + delta) & 0xffff : 0;
      }
    }
    return 0;
  };
}

function readFace(r: Reader, offset: number): SfntFace | null {
  const t = tables(r, offset);
  const head = t.get('head'),
    hhea = t.get('hhea'),
    hmtx = t.get('hmtx'),
    cmap = t.get('cmap'),
    name = t.get('name');
  if (!head || !hhea || !hmtx || !cmap) return null;
  const upm = r.u16(head.offset + 18) || 1000;
  const ascent = r.i16(hhea.offset + 4) / upm;
  const descent = r.i16(hhea.offset + 6) / upm;
  const nMetrics = r.u16(hhea.offset + 34);
  const os2 = t.get('OS/2');
  let capHeight = 0;
  if (os2 && os2.length >= 90 && r.u16(os2.offset) >= 2) capHeight = r.i16(os2.offset + 88) / upm;
  const names = name ? readNames(r, name.offset) : new Map<number, string>();
  const lookup = readCmap(r, cmap.offset);
  const advanceOf = (gid: number): number => {
    const i = Math.min(gid, nMetrics - 1);
    return r.u16(hmtx.offset + i * 4) / upm;
  };
  if (!(capHeight > 0)) {
    // No OS/2 cap height: the top of 'H' from the glyph table, else an estimate.
    const loca = t.get('loca'),
      glyf = t.get('glyf');
    const gid = lookup(0x48);
    if (loca && glyf && gid) {
      const long = r.i16(head.offset + 50) === 1;
      const start = long ? r.u32(loca.offset + gid * 4) : r.u16(loca.offset + gid * 2) * 2;
      const end = long ? r.u32(loca.offset + gid * 4 + 4) : r.u16(loca.offset + gid * 2 + 2) * 2;
      if (end > start) capHeight = r.i16(glyf.offset + start + 8) / upm;
    }
    if (!(capHeight > 0.3 && capHeight < 1.2)) capHeight = Math.max(0.5, Math.min(0.8, ascent * 0.76));
  }
  return {
    family: names.get(16) ?? names.get(1) ?? '',
    subfamily: names.get(17) ?? names.get(2) ?? '',
    postscriptName: names.get(6) ?? '',
    unitsPerEm: upm,
    capHeight,
    ascent,
    descent,
    advance(cp) {
      const gid = lookup(cp);
      return gid ? advanceOf(gid) : undefined;
    },
  };
}

/** Every face of a font file (one for .ttf/.otf, several for a .ttc collection). Empty when unreadable. */
export function readSfnt(bytes: Uint8Array): SfntFace[] {
  try {
    const r = new Reader(bytes);
    if (bytes.length < 12) return [];
    const tag = r.tag(0);
    const offsets: number[] = [];
    if (tag === 'ttcf') {
      const n = Math.min(r.u32(8), 256);
      for (let i = 0; i < n; i++) offsets.push(r.u32(12 + i * 4));
    } else offsets.push(0);
    const faces: SfntFace[] = [];
    for (const o of offsets) {
      const f = readFace(r, o);
      if (f) faces.push(f);
    }
    return faces;
  } catch {
    return [];
  }
}

/**
 * Family names of the faces of a font file from its first bytes and name tables, for font
 * discovery without reading whole files: `read(offset, length)` returns bytes of the file.
 */
export function sfntFamilies(
  read: (offset: number, length: number) => Uint8Array,
): { family: string; subfamily: string; postscriptName: string; index: number; codePages: number }[] {
  try {
    const head = new Reader(read(0, 12 + 4 * 64));
    const offsets: number[] = [];
    if (head.tag(0) === 'ttcf') {
      const n = Math.min(head.u32(8), 64);
      for (let i = 0; i < n; i++) offsets.push(head.u32(12 + i * 4));
    } else offsets.push(0);
    const out: { family: string; subfamily: string; postscriptName: string; index: number; codePages: number }[] = [];
    offsets.forEach((o, index) => {
      const dirHead = new Reader(read(o, 12));
      const n = dirHead.u16(4);
      const dir = new Reader(read(o, 12 + n * 16));
      const t = tables(dir, 0);
      const name = t.get('name');
      if (!name) return;
      const names = readNames(new Reader(read(name.offset, name.length)), 0);
      // OS/2 version 1 and later: ulCodePageRange1 at byte 78.
      const os2 = t.get('OS/2');
      const os2Head = os2 && os2.length >= 82 ? new Reader(read(os2.offset, 82)) : null;
      const codePages = os2Head && os2Head.bytes.length >= 82 && os2Head.u16(0) >= 1 ? os2Head.u32(78) : 0;
      out.push({
        family: names.get(16) ?? names.get(1) ?? '',
        subfamily: names.get(17) ?? names.get(2) ?? '',
        postscriptName: names.get(6) ?? '',
        index,
        codePages,
      });
    });
    return out;
  } catch {
    return [];
  }
}

// ---- glyph outlines (TrueType 'glyf' fonts) --------------------------------------------------------

/** Receives a glyph's contours: quadratic B-splines as TrueType stores them. */
export interface OutlineSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void;
  closePath(): void;
}

/** A face's glyphs, for drawing text as paths. Coordinates and advances are in font units (y up). */
export interface GlyphOutlines {
  unitsPerEm: number;
  /** The glyph of a code point, 0 when the face has none. */
  glyphOf(codePoint: number): number;
  /** Horizontal advance of a glyph, font units. */
  advanceOf(glyph: number): number;
  /** Sends the glyph's contours, scaled by `scale`, y flipped (y down) and moved by (dx, dy). */
  outline(glyph: number, sink: OutlineSink, scale: number, dx: number, dy: number): void;
}

const ON_CURVE = 0x01,
  X_SHORT = 0x02,
  Y_SHORT = 0x04,
  REPEAT = 0x08,
  X_SAME = 0x10,
  Y_SAME = 0x20;
const ARG_WORDS = 0x0001,
  ARGS_XY = 0x0002,
  HAVE_SCALE = 0x0008,
  MORE = 0x0020,
  HAVE_XY_SCALE = 0x0040,
  HAVE_2X2 = 0x0080;

/**
 * The glyph outlines of the face whose table directory is at `offset` (0 for a single-face file), or
 * null when it has none in 'glyf' form (CFF fonts, damaged tables). Glyphs are decoded on each use:
 * a text drawing asks for a few hundred.
 */
export function readGlyphOutlines(bytes: Uint8Array, offset = 0): GlyphOutlines | null {
  try {
    const r = new Reader(bytes);
    const t = tables(r, offset);
    const head = t.get('head'),
      hhea = t.get('hhea'),
      hmtx = t.get('hmtx'),
      cmap = t.get('cmap'),
      loca = t.get('loca'),
      glyf = t.get('glyf'),
      maxp = t.get('maxp');
    if (!head || !hhea || !hmtx || !cmap || !loca || !glyf || !maxp) return null;
    const end = bytes.length;
    if (glyf.offset + glyf.length > end || loca.offset + loca.length > end) return null;
    const upm = r.u16(head.offset + 18) || 1000;
    const longLoca = r.i16(head.offset + 50) === 1;
    const numGlyphs = r.u16(maxp.offset + 4);
    const nMetrics = Math.max(1, r.u16(hhea.offset + 34));
    const lookup = readCmap(r, cmap.offset);
    const span = (gid: number): [number, number] => {
      if (gid < 0 || gid >= numGlyphs) return [0, 0];
      const a = longLoca ? r.u32(loca.offset + gid * 4) : r.u16(loca.offset + gid * 2) * 2;
      const b = longLoca ? r.u32(loca.offset + gid * 4 + 4) : r.u16(loca.offset + gid * 2 + 2) * 2;
      return b > a && glyf.offset + b <= end ? [glyf.offset + a, glyf.offset + b] : [0, 0];
    };
    // Point buffers reused across glyphs.
    let xs = new Float64Array(256),
      ys = new Float64Array(256),
      on = new Uint8Array(256);

    const simple = (at: number, contours: number, m: number[], sink: OutlineSink): void => {
      const endsAt = at + 10;
      const count = r.u16(endsAt + (contours - 1) * 2) + 1;
      if (count > 65535) return;
      if (count > xs.length) {
        xs = new Float64Array(count);
        ys = new Float64Array(count);
        on = new Uint8Array(count);
      }
      let p = endsAt + contours * 2;
      p += 2 + r.u16(p);
      const flags = new Uint8Array(count);
      for (let i = 0; i < count;) {
        const f = r.u8(p++);
        flags[i++] = f;
        if (f & REPEAT) for (let n = r.u8(p++); n > 0 && i < count; n--) flags[i++] = f;
      }
      let v = 0;
      for (let i = 0; i < count; i++) {
        const f = flags[i] as number;
        if (f & X_SHORT) v += f & X_SAME ? r.u8(p++) : -r.u8(p++);
        else if (!(f & X_SAME)) {
          v += r.i16(p);
          p += 2;
        }
        xs[i] = v;
      }
      v = 0;
      for (let i = 0; i < count; i++) {
        const f = flags[i] as number;
        if (f & Y_SHORT) v += f & Y_SAME ? r.u8(p++) : -r.u8(p++);
        else if (!(f & Y_SAME)) {
          v += r.i16(p);
          p += 2;
        }
        ys[i] = v;
        on[i] = f & ON_CURVE;
      }
      const [a, b, c, d, e, f] = m as [number, number, number, number, number, number];
      const X = (i: number): number => a * (xs[i] as number) + c * (ys[i] as number) + e;
      const Y = (i: number): number => b * (xs[i] as number) + d * (ys[i] as number) + f;
      let first = 0;
      for (let k = 0; k < contours; k++) {
        const last = r.u16(endsAt + k * 2);
        if (last < first || last >= count) return;
        const n = last - first + 1;
        // Start on an on-curve point: the first, else the last, else the midpoint of the two.
        const from = on[first] ? first : on[last] ? last : -1;
        const sx = from >= 0 ? X(from) : (X(first) + X(last)) / 2;
        const sy = from >= 0 ? Y(from) : (Y(first) + Y(last)) / 2;
        const startAt = from === first ? 1 : 0;
        sink.moveTo(sx, sy);
        let cx = NaN,
          cy = NaN;
        const stop = on[first] || !on[last] ? n : n - 1;
        for (let j = startAt; j <= stop; j++) {
          // The point after the last is the start again.
          const i = first + (j % n);
          const px = j === stop ? sx : X(i),
            py = j === stop ? sy : Y(i);
          if (j === stop || on[i]) {
            if (Number.isNaN(cx)) sink.lineTo(px, py);
            else sink.quadraticCurveTo(cx, cy, px, py);
            cx = NaN;
          } else if (Number.isNaN(cx)) {
            cx = px;
            cy = py;
          } else {
            // Two off-curve points in a row: an on-curve point halfway between them.
            const mx = (cx + px) / 2,
              my = (cy + py) / 2;
            sink.quadraticCurveTo(cx, cy, mx, my);
            cx = px;
            cy = py;
          }
        }
        sink.closePath();
        first = last + 1;
      }
    };

    const draw = (gid: number, m: number[], sink: OutlineSink, depth: number): void => {
      const [at, stop] = span(gid);
      if (!at || stop - at < 10) return;
      const contours = r.i16(at);
      if (contours > 0) {
        simple(at, contours, m, sink);
        return;
      }
      if (contours === 0 || depth > 8) return;
      // A composite: components placed by offset and an optional 2x2 matrix.
      let p = at + 10;
      for (let more = true; more && p + 4 <= stop;) {
        const flags = r.u16(p),
          child = r.u16(p + 2);
        p += 4;
        let dx = 0,
          dy = 0;
        // Offsets (point-matching anchors, the other meaning, are not used by text fonts: no offset).
        const words = (flags & ARG_WORDS) !== 0;
        if (flags & ARGS_XY) {
          dx = words ? r.i16(p) : (r.u8(p) << 24) >> 24;
          dy = words ? r.i16(p + 2) : (r.u8(p + 1) << 24) >> 24;
        }
        p += words ? 4 : 2;
        let a = 1,
          b = 0,
          c = 0,
          d = 1;
        const f2 = (o: number): number => r.i16(o) / 16384;
        if (flags & HAVE_SCALE) {
          a = d = f2(p);
          p += 2;
        } else if (flags & HAVE_XY_SCALE) {
          a = f2(p);
          d = f2(p + 2);
          p += 4;
        } else if (flags & HAVE_2X2) {
          a = f2(p);
          b = f2(p + 2);
          c = f2(p + 4);
          d = f2(p + 6);
          p += 8;
        }
        const [pa, pb, pc, pd, pe, pf] = m as [number, number, number, number, number, number];
        draw(
          child,
          [pa * a + pc * b, pb * a + pd * b, pa * c + pc * d, pb * c + pd * d, pa * dx + pc * dy + pe, pb * dx + pd * dy + pf],
          sink,
          depth + 1,
        );
        more = (flags & MORE) !== 0;
      }
    };

    return {
      unitsPerEm: upm,
      glyphOf: (cp) => {
        const g = lookup(cp);
        return g < numGlyphs ? g : 0;
      },
      advanceOf: (gid) => r.u16(hmtx.offset + Math.min(gid, nMetrics - 1) * 4),
      outline(gid, sink, scale, dx, dy) {
        try {
          draw(gid, [scale, 0, 0, -scale, dx, dy], sink, 0);
        } catch {
          // A damaged glyph draws what it could.
        }
      },
    };
  } catch {
    return null;
  }
}
