/**
 * AutoCAD compiled shape fonts (.shx), browser-safe: 'AutoCAD-86 shapes 1.0/1.1' (shape and
 * classic text fonts), 'AutoCAD-86 unifont 1.0' (Unicode text fonts) and 'AutoCAD-86 bigfont 1.0'
 * (double-byte Asian fonts, extended big fonts included). Glyphs come out as polylines in units of
 * the font's height ('above' = 1), with the pen position at the end as the advance.
 */

export type ShxKind = 'shapes' | 'unifont' | 'bigfont';

export interface ShxGlyph {
  /** Polylines as x, y pairs; the baseline is y = 0 and the capital height 1. */
  strokes: number[][];
  /** Pen x at the end of the glyph (where the next glyph starts). */
  advance: number;
}

export interface ShxFont {
  kind: ShxKind;
  /** Font name from the font information shape. */
  name: string;
  /** Vector units above / below the baseline: text height h scales the vectors by h / above. */
  above: number;
  below: number;
  /** Big fonts: ranges of lead bytes that start a two-byte code. */
  ranges: [number, number][];
  /** Character codes defined (shape 0, the font information, excluded). */
  has(code: number): boolean;
  glyph(code: number): ShxGlyph | undefined;
  /** Shape files: the number of the shape named `name` (case-insensitive), as a SHAPE entity names it. */
  codeOf(name: string): number | undefined;
  /** False when the file has no font information shape (a shape file): glyph units are then 1 / `above` vector units. */
  fontInfo: boolean;
}

const MAGIC: Record<string, ShxKind> = {
  'AutoCAD-86 shapes 1.0': 'shapes',
  'AutoCAD-86 shapes 1.1': 'shapes',
  'AutoCAD-86 unifont 1.0': 'unifont',
  'AutoCAD-86 bigfont 1.0': 'bigfont',
};

// The 16 standard direction vectors of a length/direction byte.
const DX = [1, 1, 1, 0.5, 0, -0.5, -1, -1, -1, -1, -1, -0.5, 0, 0.5, 1, 1];
const DY = [0, 0.5, 1, 1, 1, 1, 1, 0.5, 0, -0.5, -1, -1, -1, -1, -1, -0.5];

const ARC_STEP = Math.PI / 16;

function sbyte(b: number): number {
  return b > 127 ? b - 256 : b;
}

/** Reads the header line ("AutoCAD-86 shapes 1.0") of an SHX file; null when it is none. */
export function shxKind(bytes: Uint8Array): ShxKind | null {
  let s = '';
  for (let i = 0; i < Math.min(bytes.length, 30); i++) {
    const b = bytes[i] as number;
    if (b === 13 || b === 10 || b === 26) break;
    s += String.fromCharCode(b);
  }
  return MAGIC[s.trim()] ?? null;
}

interface Parsed {
  kind: ShxKind;
  defs: Map<number, Uint8Array>;
  ranges: [number, number][];
  info?: Uint8Array;
}

function afterHeader(bytes: Uint8Array): number {
  for (let i = 0; i < Math.min(bytes.length, 40); i++) if (bytes[i] === 26) return i + 1;
  throw new Error('not an SHX file');
}

/** Split a definition record into name and shape bytes. */
function splitName(rec: Uint8Array): { name: string; bytes: Uint8Array } {
  let i = 0;
  let name = '';
  while (i < rec.length && rec[i] !== 0) name += String.fromCharCode(rec[i++] as number);
  return { name, bytes: rec.subarray(i + 1) };
}

function parse(bytes: Uint8Array): Parsed {
  const kind = shxKind(bytes);
  if (!kind) throw new Error('not an SHX font');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = afterHeader(bytes);
  const defs = new Map<number, Uint8Array>();
  const ranges: [number, number][] = [];
  if (kind === 'shapes') {
    p += 4; // first and last shape number
    const count = view.getUint16(p, true);
    p += 2;
    const index: [number, number][] = [];
    for (let i = 0; i < count; i++, p += 4) index.push([view.getUint16(p, true), view.getUint16(p + 2, true)]);
    for (const [code, len] of index) {
      if (p + len > bytes.length) break;
      defs.set(code, bytes.subarray(p, p + len));
      p += len;
    }
    return { kind, defs, ranges };
  }
  if (kind === 'unifont') {
    const count = view.getUint32(p, true);
    const infoLen = view.getUint16(p + 4, true);
    p += 6;
    const info = bytes.subarray(p, p + infoLen);
    p += infoLen;
    for (let i = 1; i < count && p + 4 <= bytes.length; i++) {
      const code = view.getUint16(p, true);
      const len = view.getUint16(p + 2, true);
      p += 4;
      if (p + len > bytes.length) break;
      defs.set(code, bytes.subarray(p, p + len));
      p += len;
    }
    return { kind, defs, ranges, info };
  }
  // bigfont
  p += 2; // header record length
  const count = view.getUint16(p, true);
  const nRanges = view.getUint16(p + 2, true);
  p += 4;
  for (let i = 0; i < nRanges; i++, p += 4) ranges.push([view.getUint16(p, true), view.getUint16(p + 2, true)]);
  for (let i = 0; i < count && p + 8 <= bytes.length; i++, p += 8) {
    const code = view.getUint16(p, true);
    const len = view.getUint16(p + 2, true);
    const off = view.getUint32(p + 4, true);
    if (!len || off + len > bytes.length) continue;
    defs.set(code, bytes.subarray(off, off + len));
  }
  return { kind, defs, ranges };
}

interface PenState {
  x: number;
  y: number;
  down: boolean;
  scale: number;
  stack: [number, number][];
  strokes: number[][];
  cur: number[] | null;
}

export function loadShx(bytes: Uint8Array): ShxFont {
  const parsed = parse(bytes);
  const { kind, defs } = parsed;
  const shapes = new Map<number, Uint8Array>();
  let name = '';
  let above = 0,
    below = 0,
    width = 0;
  let extended = false;
  const names = new Map<string, number>();
  let fontInfo = !!parsed.info;
  for (const [code, rec] of defs) {
    const r = splitName(rec);
    if (r.name && code !== 0 && !names.has(r.name.toUpperCase())) names.set(r.name.toUpperCase(), code);
    if (code === 0) {
      fontInfo = true;
      name = r.name;
      above = r.bytes[0] ?? 0;
      below = r.bytes[1] ?? 0;
      if (kind === 'bigfont') {
        // Big font info: height, 0, modes, width[, 0] (the width byte marks an extended big font).
        width = r.bytes.length >= 5 ? (r.bytes[3] ?? 0) : 0;
        extended = width > 0;
      }
    } else shapes.set(code, r.bytes);
  }
  if (parsed.info) {
    const r = splitName(parsed.info);
    name = r.name;
    above = r.bytes[0] ?? 0;
    below = r.bytes[1] ?? 0;
  }
  if (!(above > 0)) above = kind === 'bigfont' ? 127 : 8;
  if (!width) width = above;
  const cache = new Map<number, ShxGlyph | null>();

  const flush = (st: PenState): void => {
    if (st.cur && st.cur.length >= 4) st.strokes.push(st.cur);
    st.cur = null;
  };
  const lineTo = (st: PenState, x: number, y: number): void => {
    if (st.down) {
      if (!st.cur) st.cur = [st.x, st.y];
      st.cur.push(x, y);
    }
    st.x = x;
    st.y = y;
  };
  const moveBy = (st: PenState, dx: number, dy: number): void => {
    const x = st.x + dx * st.scale,
      y = st.y + dy * st.scale;
    if (st.down) lineTo(st, x, y);
    else {
      st.x = x;
      st.y = y;
    }
  };
  const arc = (st: PenState, cx: number, cy: number, r: number, a0: number, sweep: number): void => {
    const n = Math.max(2, Math.ceil(Math.abs(sweep) / ARC_STEP));
    for (let k = 1; k <= n; k++) {
      const a = a0 + (sweep * k) / n;
      const x = cx + r * Math.cos(a),
        y = cy + r * Math.sin(a);
      if (st.down) lineTo(st, x, y);
      else {
        st.x = x;
        st.y = y;
      }
    }
  };
  const bulge = (st: PenState, dx: number, dy: number, b: number): void => {
    if (!b) {
      moveBy(st, dx, dy);
      return;
    }
    const x0 = st.x,
      y0 = st.y;
    const x1 = x0 + dx * st.scale,
      y1 = y0 + dy * st.scale;
    const chord = Math.hypot(x1 - x0, y1 - y0);
    if (!(chord > 0)) return;
    const t = b / 127; // tan(sweep / 4), signed (positive = counter-clockwise)
    const sweep = 4 * Math.atan(t);
    const r = chord / (2 * Math.sin(Math.abs(sweep) / 2));
    const mx = (x0 + x1) / 2,
      my = (y0 + y1) / 2;
    // Centre: from the chord midpoint along the left normal (ccw) by the apothem.
    const d = r * Math.cos(sweep / 2);
    const nx = -(y1 - y0) / chord,
      ny = (x1 - x0) / chord;
    const s = Math.sign(sweep);
    const cx = mx + s * nx * d,
      cy = my + s * ny * d;
    arc(st, cx, cy, r, Math.atan2(y0 - cy, x0 - cx), sweep);
    st.x = x1;
    st.y = y1;
  };

  const run = (code: number, st: PenState, depth: number): void => {
    const b = shapes.get(code);
    if (!b || depth > 8) return;
    st.down = true;
    let i = 0;
    let skip = false;
    const n = b.length;
    while (i < n) {
      const c = b[i++] as number;
      const exec = !skip;
      skip = false;
      if (c === 0) break;
      if (c >= 16) {
        if (exec) moveBy(st, DX[c & 15]! * (c >> 4), DY[c & 15]! * (c >> 4));
        continue;
      }
      switch (c) {
        case 1:
          if (exec) st.down = true;
          break;
        case 2:
          if (exec) {
            st.down = false;
            flush(st);
          }
          break;
        case 3:
        case 4: {
          const f = b[i++] ?? 1;
          if (exec && f) st.scale = c === 3 ? st.scale / f : st.scale * f;
          break;
        }
        case 5:
          if (exec && st.stack.length < 16) st.stack.push([st.x, st.y]);
          break;
        case 6:
          if (exec) {
            const top = st.stack.pop();
            if (top) {
              flush(st);
              [st.x, st.y] = top;
            }
          }
          break;
        case 7: {
          let sub = 0;
          let placed: { x: number; y: number; sx: number; sy: number } | null = null;
          if (kind === 'unifont') {
            sub = ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
            i += 2;
          } else if (kind === 'bigfont') {
            sub = b[i++] ?? 0;
            if (sub === 0) {
              sub = ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
              const ox = sbyte(b[i + 2] ?? 0),
                oy = sbyte(b[i + 3] ?? 0);
              const w = b[i + 4] ?? 0;
              const h = extended ? (b[i + 5] ?? 0) : w;
              i += extended ? 6 : 5;
              placed = { x: ox, y: oy, sx: w / width, sy: h / above };
            }
          } else sub = b[i++] ?? 0;
          if (!exec || !sub) break;
          flush(st);
          if (placed) {
            // Extended big font: the primitive is scaled into a box at (x, y) of the cell.
            const sx0 = st.x + placed.x * st.scale,
              sy0 = st.y + placed.y * st.scale;
            const inner: PenState = { x: 0, y: 0, down: true, scale: 1, stack: [], strokes: [], cur: null };
            run(sub, inner, depth + 1);
            flush(inner);
            const kx = placed.sx * st.scale,
              ky = placed.sy * st.scale;
            for (const s of inner.strokes) {
              const t = new Array<number>(s.length);
              for (let k = 0; k < s.length; k += 2) {
                t[k] = sx0 + (s[k] as number) * kx;
                t[k + 1] = sy0 + (s[k + 1] as number) * ky;
              }
              st.strokes.push(t);
            }
            break;
          }
          const saved: boolean = st.down;
          run(sub, st, depth + 1);
          flush(st);
          st.down = saved;
          break;
        }
        case 8: {
          const dx = sbyte(b[i] ?? 0),
            dy = sbyte(b[i + 1] ?? 0);
          i += 2;
          if (exec) moveBy(st, dx, dy);
          break;
        }
        case 9:
          while (i + 1 < n) {
            const dx = sbyte(b[i] ?? 0),
              dy = sbyte(b[i + 1] ?? 0);
            i += 2;
            if (!dx && !dy) break;
            if (exec) moveBy(st, dx, dy);
          }
          break;
        case 10: {
          const r = (b[i] ?? 0) * st.scale;
          const spec = b[i + 1] ?? 0;
          i += 2;
          if (!exec || !(r > 0)) break;
          const cw = (spec & 0x80) !== 0;
          const start = ((spec >> 4) & 7) * (Math.PI / 4);
          const span = (spec & 7 || 8) * (Math.PI / 4);
          const cx = st.x - r * Math.cos(start),
            cy = st.y - r * Math.sin(start);
          arc(st, cx, cy, r, start, cw ? -span : span);
          break;
        }
        case 11: {
          const startOff = b[i] ?? 0;
          let endOff = b[i + 1] ?? 0;
          const r = (((b[i + 2] ?? 0) << 8) | (b[i + 3] ?? 0)) * st.scale;
          const spec = b[i + 4] ?? 0;
          i += 5;
          if (!exec || !(r > 0)) break;
          const cw = (spec & 0x80) !== 0;
          const so = (spec >> 4) & 7;
          const span = spec & 7 || 8;
          if (endOff === 0) endOff = 256;
          const unit = Math.PI / 4 / 256;
          let a0: number, a1: number;
          if (!cw) {
            a0 = so * (Math.PI / 4) + startOff * unit;
            a1 = (so + span - 1) * (Math.PI / 4) + endOff * unit;
          } else {
            a0 = so * (Math.PI / 4) - startOff * unit;
            a1 = (so - span + 1) * (Math.PI / 4) - endOff * unit;
          }
          let sweep = a1 - a0;
          if (!cw && sweep <= 0) sweep += 2 * Math.PI;
          if (cw && sweep >= 0) sweep -= 2 * Math.PI;
          const cx = st.x - r * Math.cos(a0),
            cy = st.y - r * Math.sin(a0);
          arc(st, cx, cy, r, a0, sweep);
          break;
        }
        case 12: {
          const dx = sbyte(b[i] ?? 0),
            dy = sbyte(b[i + 1] ?? 0),
            bu = sbyte(b[i + 2] ?? 0);
          i += 3;
          if (exec) bulge(st, dx, dy, bu);
          break;
        }
        case 13:
          while (i + 1 < n) {
            const dx = sbyte(b[i] ?? 0),
              dy = sbyte(b[i + 1] ?? 0);
            i += 2;
            if (!dx && !dy) break;
            const bu = sbyte(b[i++] ?? 0);
            if (exec) bulge(st, dx, dy, bu);
          }
          break;
        case 14:
          // The next command is for vertical text only.
          skip = true;
          break;
        default:
          break;
      }
    }
    flush(st);
  };

  return {
    kind,
    name,
    above,
    below,
    ranges: parsed.ranges,
    fontInfo,
    codeOf: (n) => names.get(n.trim().toUpperCase()),
    has: (code) => code !== 0 && shapes.has(code),
    glyph(code) {
      let g = cache.get(code);
      if (g === undefined) {
        g = null;
        if (code !== 0 && shapes.has(code)) {
          const st: PenState = { x: 0, y: 0, down: true, scale: 1, stack: [], strokes: [], cur: null };
          try {
            run(code, st, 0);
          } catch {
            /* a damaged glyph keeps what was drawn */
          }
          flush(st);
          const k = 1 / above;
          for (const s of st.strokes) for (let j = 0; j < s.length; j++) s[j] = (s[j] as number) * k;
          g = { strokes: st.strokes, advance: st.x * k };
        }
        cache.set(code, g);
      }
      return g ?? undefined;
    },
  };
}
