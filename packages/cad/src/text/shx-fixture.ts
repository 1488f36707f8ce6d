/**
 * Test helper: writes tiny but valid SHX fonts ('AutoCAD-86 shapes 1.0', 'AutoCAD-86 unifont 1.0'
 * and 'AutoCAD-86 bigfont 1.0'), since Autodesk's fonts cannot be shipped. Glyphs are shape byte
 * codes as in a .shp file (the terminating 0 is added).
 */

export interface ShxGlyphDef {
  code: number;
  name?: string;
  bytes: number[];
}

/** A length/direction vector byte: `len` 1..15 units along direction 0..15 (0 east, 4 north, 8 west, 12 south). */
export function vec(len: number, dir: number): number {
  return ((len & 15) << 4) | (dir & 15);
}

/** A signed byte for codes 8, 9, 12, 13. */
export function sb(v: number): number {
  return v < 0 ? 256 + v : v;
}

class Writer {
  private out: number[] = [];
  ascii(s: string): void {
    for (const ch of s) this.out.push(ch.charCodeAt(0) & 0xff);
  }
  u8(v: number): void {
    this.out.push(v & 0xff);
  }
  u16(v: number): void {
    this.out.push(v & 0xff, (v >> 8) & 0xff);
  }
  u32(v: number): void {
    this.out.push(v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff);
  }
  bytes(b: number[]): void {
    for (const v of b) this.out.push(v & 0xff);
  }
  get length(): number {
    return this.out.length;
  }
  patch32(at: number, v: number): void {
    this.out[at] = v & 0xff;
    this.out[at + 1] = (v >> 8) & 0xff;
    this.out[at + 2] = (v >> 16) & 0xff;
    this.out[at + 3] = (v >>> 24) & 0xff;
  }
  result(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

function record(name: string, bytes: number[]): number[] {
  const r: number[] = [];
  for (const ch of name) r.push(ch.charCodeAt(0) & 0xff);
  r.push(0, ...bytes, 0);
  return r;
}

/** A classic text font ('AutoCAD-86 shapes 1.0'): shape 0 holds the name, above, below and modes. */
export function makeShapesFont(opts: { name: string; above: number; below: number; glyphs: ShxGlyphDef[] }): Uint8Array {
  const shapes = [
    { code: 0, rec: record(opts.name, [opts.above, opts.below, 0]) },
    ...opts.glyphs.map((g) => ({ code: g.code, rec: record(g.name ?? '', g.bytes) })),
  ].sort((a, b) => a.code - b.code);
  const w = new Writer();
  w.ascii('AutoCAD-86 shapes 1.0\r\n');
  w.u8(0x1a);
  w.u16(shapes[0]?.code ?? 0);
  w.u16(shapes[shapes.length - 1]?.code ?? 0);
  w.u16(shapes.length);
  for (const s of shapes) {
    w.u16(s.code);
    w.u16(s.rec.length);
  }
  for (const s of shapes) w.bytes(s.rec);
  w.ascii('EOF');
  return w.result();
}

/** A Unicode font ('AutoCAD-86 unifont 1.0'). */
export function makeUnifont(opts: { name: string; above: number; below: number; glyphs: ShxGlyphDef[] }): Uint8Array {
  const w = new Writer();
  w.ascii('AutoCAD-86 unifont 1.0\r\n');
  w.u8(0x1a);
  w.u32(opts.glyphs.length + 1);
  const info: number[] = [];
  for (const ch of opts.name) info.push(ch.charCodeAt(0) & 0xff);
  info.push(0, opts.above, opts.below, 0, 0, 0, 0);
  w.u16(info.length);
  w.bytes(info);
  for (const g of opts.glyphs) {
    const rec = record(g.name ?? '', g.bytes);
    w.u16(g.code);
    w.u16(rec.length);
    w.bytes(rec);
  }
  return w.result();
}

/** A big font ('AutoCAD-86 bigfont 1.0') for double-byte codes with lead bytes in `ranges`. */
export function makeBigFont(opts: {
  name: string;
  height: number;
  width: number;
  ranges: [number, number][];
  glyphs: ShxGlyphDef[];
}): Uint8Array {
  const shapes = [
    { code: 0, rec: record(opts.name, [opts.height, 0, 0, opts.width, 0]) },
    ...opts.glyphs.map((g) => ({ code: g.code, rec: record(g.name ?? '', g.bytes) })),
  ];
  const w = new Writer();
  w.ascii('AutoCAD-86 bigfont 1.0\r\n');
  w.u8(0x1a);
  const headerLen = 4 + opts.ranges.length * 4;
  w.u16(headerLen);
  w.u16(shapes.length);
  w.u16(opts.ranges.length);
  for (const [a, b] of opts.ranges) {
    w.u16(a);
    w.u16(b);
  }
  const indexAt = w.length;
  for (const s of shapes) {
    w.u16(s.code);
    w.u16(s.rec.length);
    w.u32(0);
  }
  shapes.forEach((s, i) => {
    w.patch32(indexAt + i * 8 + 4, w.length);
    w.bytes(s.rec);
  });
  return w.result();
}

/** Glyph definitions of the test fonts: 'I', 'L', 'O' (a circle), space; 6 units high. */
export const TEST_GLYPHS: ShxGlyphDef[] = [
  // I: a vertical stroke, advance 2.
  { code: 0x49, name: 'I', bytes: [1, vec(6, 4), 2, 8, sb(2), sb(-6)] },
  // L: down stroke then the foot, advance 6.
  { code: 0x4c, name: 'L', bytes: [2, vec(6, 4), 1, vec(6, 12), vec(4, 0), 2, vec(2, 0)] },
  // O: a full circle of radius 3 (octant arc from the bottom, counter-clockwise), advance 7.
  { code: 0x4f, name: 'O', bytes: [2, vec(3, 0), 1, 10, 3, 0x60, 2, 8, sb(4), 0] },
  // space: advance 4.
  { code: 0x20, name: 'SPACE', bytes: [2, vec(4, 0)] },
];

/** '中' as a box with a vertical bar (for big fonts: GBK code 0xD6D0; for unifonts U+4E2D). */
export const TEST_CJK_BYTES = [
  1,
  vec(6, 0),
  vec(6, 4),
  vec(6, 8),
  vec(6, 12),
  2,
  vec(3, 0),
  8,
  sb(0),
  sb(-1),
  1,
  8,
  sb(0),
  sb(8),
  2,
  8,
  sb(5),
  sb(-7),
];
