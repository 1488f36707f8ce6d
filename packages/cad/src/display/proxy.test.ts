import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Drawing, Entity, EntityBase, UnknownEntity } from '../model';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { defaultFontProvider } from '../text/fonts';
import type { DashPattern, DrawContext } from './context';
import { IDENTITY, apply3, isDefaultExtrusion, multiply, ocsToWcs, translation, type Mat } from '../geom/matrix';
import { drawProxyGraphics } from './proxy';
import { PROXY, hexToBytes } from './proxy-decode';
import { testDxf, type TestDrawing } from './test-helpers';

// ---- a tiny metafile encoder --------------------------------------------------------------------

class Bytes {
  readonly b: number[] = [];
  i32(v: number): this {
    const d = new DataView(new ArrayBuffer(4));
    d.setInt32(0, v, true);
    this.b.push(...new Uint8Array(d.buffer));
    return this;
  }
  u32(v: number): this {
    const d = new DataView(new ArrayBuffer(4));
    d.setUint32(0, v >>> 0, true);
    this.b.push(...new Uint8Array(d.buffer));
    return this;
  }
  f64(...vs: number[]): this {
    for (const v of vs) {
      const d = new DataView(new ArrayBuffer(8));
      d.setFloat64(0, v, true);
      this.b.push(...new Uint8Array(d.buffer));
    }
    return this;
  }
  pts(...ps: number[][]): this {
    for (const p of ps) this.f64(p[0] ?? 0, p[1] ?? 0, p[2] ?? 0);
    return this;
  }
  str8(s: string): this {
    const bytes = [...new TextEncoder().encode(s), 0];
    while (bytes.length % 4) bytes.push(0);
    this.b.push(...bytes);
    return this;
  }
  str16(s: string): this {
    const bytes: number[] = [];
    for (const ch of s + '\0') bytes.push(ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8);
    while (bytes.length % 4) bytes.push(0);
    this.b.push(...bytes);
    return this;
  }
  raw(bytes: ArrayLike<number>): this {
    this.b.push(...Array.from(bytes));
    return this;
  }
}

class Meta {
  private cmds: number[][] = [];
  cmd(type: number, data: (w: Bytes) => unknown = () => undefined): this {
    const w = new Bytes();
    data(w);
    this.cmds.push([...new Bytes().i32(8 + w.b.length).i32(type).b, ...w.b]);
    return this;
  }
  bytes(): Uint8Array {
    const body = this.cmds.flat();
    return Uint8Array.from([...new Bytes().i32(8 + body.length).i32(this.cmds.length).b, ...body]);
  }
  hex(): string {
    return Array.from(this.bytes(), (x) => x.toString(16).toUpperCase().padStart(2, '0')).join('');
  }
  polyline(...ps: number[][]): this {
    return this.cmd(PROXY.POLYLINE, (w) => w.i32(ps.length).pts(...ps));
  }
  polygon(...ps: number[][]): this {
    return this.cmd(PROXY.POLYGON, (w) => w.i32(ps.length).pts(...ps));
  }
  fill(on: boolean): this {
    return this.cmd(PROXY.FILL, (w) => w.i32(on ? 1 : 2));
  }
}

/** DWG bit stream writer for the embedded LWPOLYLINE. */
class BitWriter {
  private bits: number[] = [];
  private put(v: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bits.push((v >> i) & 1);
  }
  private bytes(b: ArrayLike<number>): void {
    for (let i = 0; i < b.length; i++) this.put(b[i] as number, 8);
  }
  bs(v: number): this {
    this.put(0, 2);
    this.bytes(new Uint8Array(new Int16Array([v]).buffer));
    return this;
  }
  bl(v: number): this {
    this.put(1, 2);
    this.put(v, 8);
    return this;
  }
  rd(v: number): this {
    this.bytes(new Uint8Array(new Float64Array([v]).buffer));
    return this;
  }
  bd(v: number): this {
    if (v === 0) this.put(2, 2);
    else if (v === 1) this.put(1, 2);
    else {
      this.put(0, 2);
      this.rd(v);
    }
    return this;
  }
  dd(v: number): this {
    this.put(3, 2);
    return this.rd(v);
  }
  done(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((b, i) => {
      if (b) out[i >> 3] = (out[i >> 3] as number) | (0x80 >> (i & 7));
    });
    return out;
  }
}

// ---- a recording DrawContext ----------------------------------------------------------------------

interface StyleRec {
  layer: string;
  aci?: number;
  rgb?: number;
  lineweight: number;
  linetype: string;
}

class Recorder implements DrawContext {
  readonly fonts = defaultFontProvider();
  readonly paperSpace = false;
  readonly styles: StyleRec[] = [];
  readonly strokes: { style: StyleRec; pts: [number, number][]; dashed: boolean }[] = [];
  readonly fills: { style: StyleRec; rings: [number, number][][] }[] = [];
  readonly texts: { style: StyleRec; text: string; matrix: number[]; size: number; font: string }[] = [];
  readonly entities: Entity[] = [];
  constructor(
    readonly drawing: Drawing,
    readonly matrix: Mat = IDENTITY,
  ) {}
  ocs(e: EntityBase, elevation = 0): Mat {
    const o = isDefaultExtrusion(e.extrusion)
      ? translation(0, 0, elevation)
      : multiply(ocsToWcs(e.extrusion), translation(0, 0, elevation));
    return multiply(this.matrix, o);
  }
  style(e: EntityBase): number {
    return this.styleWith(e, e.color);
  }
  styleWith(e: EntityBase, color: { aci?: number; rgb?: number }): number {
    this.styles.push({
      layer: e.layer,
      ...(color.aci !== undefined ? { aci: color.aci } : {}),
      ...(color.rgb !== undefined ? { rgb: color.rgb } : {}),
      lineweight: e.lineweight,
      linetype: e.linetype,
    });
    return this.styles.length - 1;
  }
  dashes(e: EntityBase): DashPattern | null {
    return e.linetype.toUpperCase() === 'DASHED' ? { dashes: [1, -1], total: 2 } : null;
  }
  tolerance(): number {
    return 0.001;
  }
  arcSegments(_r: number, sweep: number): number {
    return Math.max(1, Math.ceil((64 * Math.abs(sweep)) / (2 * Math.PI)));
  }
  stroke(style: number, m: Mat, xy: ArrayLike<number>, closed: boolean, o?: { dashes?: DashPattern | null }): void {
    const xyz: number[] = [];
    for (let i = 0; i + 1 < xy.length; i += 2) xyz.push(xy[i] as number, xy[i + 1] as number, 0);
    this.stroke3(style, m, xyz, closed, o);
  }
  stroke3(style: number, m: Mat, xyz: ArrayLike<number>, closed: boolean, o?: { dashes?: DashPattern | null }): void {
    const pts: [number, number][] = [];
    for (let i = 0; i + 2 < xyz.length; i += 3) {
      const p = apply3(m, xyz[i] as number, xyz[i + 1] as number, xyz[i + 2] as number);
      pts.push([p[0], p[1]]);
    }
    if (closed && pts.length) pts.push(pts[0] as [number, number]);
    this.strokes.push({ style: this.styles[style] as StyleRec, pts, dashed: !!o?.dashes });
  }
  fill(style: number, m: Mat, rings: ArrayLike<number>[]): void {
    this.fills.push({
      style: this.styles[style] as StyleRec,
      rings: rings.map((r) => {
        const out: [number, number][] = [];
        for (let i = 0; i + 1 < r.length; i += 2) {
          const p = apply3(m, r[i] as number, r[i + 1] as number, 0);
          out.push([p[0], p[1]]);
        }
        return out;
      }),
    });
  }
  text(t: { style: number; text: string; matrix: number[]; size: number }, font: { requested: string }): void {
    this.texts.push({ style: this.styles[t.style] as StyleRec, text: t.text, matrix: t.matrix, size: t.size, font: font.requested });
  }
  drawBlock(): void {}
  drawEntity(e: Entity): void {
    this.entities.push(e);
  }
  warn(): void {}
}

// ---- drawings -------------------------------------------------------------------------------------

type G = [number, string | number][];

const LAYERS: TestDrawing['layers'] = [
  ['0', 7],
  ['PROXY', 3],
  ['WALL', 9],
  ['WINDOW', 4],
];

/** An ACAD_PROXY_ENTITY written as AutoCAD does: 92 byte count + 310 graphics, then 93 + 310 object data. */
function proxyEntity(meta: Meta, layer = 'PROXY'): G {
  const hex = meta.hex();
  const g: G = [
    [0, 'ACAD_PROXY_ENTITY'],
    [5, '2A'],
    [100, 'AcDbEntity'],
    [8, layer],
    [100, 'AcDbProxyEntity'],
    [90, 498],
    [91, 500],
    [92, hex.length / 2],
  ];
  for (let i = 0; i < hex.length; i += 254) g.push([310, hex.slice(i, i + 254)]);
  g.push([93, 64], [310, 'DEADBEEFDEADBEEF'], [330, '0'], [94, 0]);
  return g;
}

function drawingWith(meta: Meta, extra: Partial<TestDrawing> = {}): { drawing: Drawing; e: UnknownEntity } {
  const drawing = readDxf(testDxf({ layers: LAYERS, linetypes: [['DASHED', [1, -1]]], ...extra, entities: proxyEntity(meta) })).drawing;
  const e = drawing.modelSpace[0];
  if (e?.type !== 'UNKNOWN') throw new Error('no proxy entity');
  return { drawing, e };
}

function draw(meta: Meta, matrix: Mat = IDENTITY, extra: Partial<TestDrawing> = {}): { rec: Recorder; drawn: boolean; e: UnknownEntity } {
  const { drawing, e } = drawingWith(meta, extra);
  const rec = new Recorder(drawing, matrix);
  const drawn = drawProxyGraphics(e, rec);
  return { rec, drawn, e };
}

const dist = (p: [number, number], c: [number, number]): number => Math.hypot(p[0] - c[0], p[1] - c[1]);

// ---- tests ----------------------------------------------------------------------------------------

describe('proxy graphics: reading', () => {
  it('the DXF reader keeps the 310 run after the byte count as hex, not the object data after 93', () => {
    const meta = new Meta().polyline([0, 0], [1, 1]);
    const { e } = drawingWith(meta);
    expect(e.dxfType).toBe('ACAD_PROXY_ENTITY');
    expect(e.graphics).toBe(meta.hex());
    expect(hexToBytes(e.graphics ?? '')).toEqual(meta.bytes());
  });

  it('a custom entity type with the count in group 160 gets its graphics too; one without has none', () => {
    const hex = new Meta().polyline([0, 0], [5, 0]).hex();
    const entities: G = [
      [0, 'TCH_WALL'],
      [5, '30'],
      [100, 'AcDbEntity'],
      [8, 'WALL'],
      [160, hex.length / 2],
      [310, hex],
      [100, 'TDbWall'],
      [10, 1],
      [20, 2],
      [0, 'TCH_OPENING'],
      [5, '31'],
      [100, 'AcDbEntity'],
      [8, 'WINDOW'],
      [92, 3],
    ];
    const d = readDxf(testDxf({ layers: LAYERS, entities })).drawing;
    const [wall, opening] = d.modelSpace as UnknownEntity[];
    expect(wall?.graphics).toBe(hex);
    expect(opening?.type).toBe('UNKNOWN');
    expect(opening?.graphics).toBeUndefined();
  });
});

describe('proxy graphics: drawing', () => {
  it('draws a polyline in WCS with the entity layer and colour, under the current block matrix', () => {
    const { rec, drawn } = draw(new Meta().polyline([0, 0], [10, 0], [10, 5]), translation(100, 200));
    expect(drawn).toBe(true);
    expect(rec.strokes).toHaveLength(1);
    expect(rec.strokes[0]?.pts).toEqual([
      [100, 200],
      [110, 200],
      [110, 205],
    ]);
    expect(rec.strokes[0]?.style).toMatchObject({ layer: 'PROXY', aci: 256 });
  });

  it('fills a polygon while fill is on, outlines it when off', () => {
    const tri = [
      [0, 0],
      [4, 0],
      [0, 3],
    ];
    const { rec } = draw(
      new Meta()
        .fill(true)
        .polygon(...tri)
        .fill(false)
        .polygon(...tri),
    );
    expect(rec.fills).toHaveLength(1);
    expect(rec.fills[0]?.rings).toEqual([
      [
        [0, 0],
        [4, 0],
        [0, 3],
      ],
    ]);
    expect(rec.strokes).toHaveLength(1);
    expect(rec.strokes[0]?.pts).toEqual([
      [0, 0],
      [4, 0],
      [0, 3],
      [0, 0],
    ]);
  });

  it('draws circles (centre, radius, normal) and circles through three points', () => {
    const meta = new Meta()
      .cmd(PROXY.CIRCLE, (w) => w.pts([10, 5, 0]).f64(2).pts([0, 0, 1]))
      .cmd(PROXY.CIRCLE_3P, (w) => w.pts([1, 0, 0], [0, 1, 0], [-1, 0, 0]));
    const { rec } = draw(meta);
    expect(rec.strokes).toHaveLength(2);
    const [c1, c2] = rec.strokes;
    expect(c1?.pts.length).toBeGreaterThan(32);
    for (const p of c1?.pts ?? []) expect(dist(p, [10, 5])).toBeCloseTo(2, 9);
    const xs = (c1?.pts ?? []).map((p) => p[0]);
    expect(Math.min(...xs)).toBeCloseTo(8, 6);
    expect(Math.max(...xs)).toBeCloseTo(12, 6);
    for (const p of c2?.pts ?? []) expect(dist(p, [0, 0])).toBeCloseTo(1, 9);
  });

  it('draws an arc from its start vector sweeping counter-clockwise; a filled sector closes at the centre', () => {
    const arc = (type: number) => (w: Bytes) =>
      w
        .pts([0, 0, 0])
        .f64(10)
        .pts([0, 0, 1], [0, 5, 0])
        .f64(Math.PI / 2)
        .i32(type);
    const { rec } = draw(new Meta().cmd(PROXY.ARC, arc(0)).fill(true).cmd(PROXY.ARC, arc(1)));
    const pts = rec.strokes[0]?.pts ?? [];
    expect(pts[0]?.[0]).toBeCloseTo(0, 9);
    expect(pts[0]?.[1]).toBeCloseTo(10, 9);
    expect(pts[pts.length - 1]?.[0]).toBeCloseTo(-10, 9);
    expect(pts[pts.length - 1]?.[1]).toBeCloseTo(0, 9);
    for (const p of pts) expect(dist(p, [0, 0])).toBeCloseTo(10, 9);
    // Quarter arc in the second quadrant only.
    for (const p of pts) expect(p[0] <= 1e-9 && p[1] >= -1e-9).toBe(true);
    const sector = rec.fills[0]?.rings[0] ?? [];
    expect(sector[sector.length - 1]).toEqual([0, 0]);
    expect(sector.length).toBe(pts.length + 1);
  });

  it('draws a 3-point arc through its middle point', () => {
    const { rec } = draw(new Meta().cmd(PROXY.ARC_3P, (w) => w.pts([10, 0, 0], [0, 10, 0], [-10, 0, 0]).i32(0)));
    const pts = rec.strokes[0]?.pts ?? [];
    expect(pts[0]?.[0]).toBeCloseTo(10, 9);
    expect(pts[pts.length - 1]?.[0]).toBeCloseTo(-10, 9);
    expect(Math.max(...pts.map((p) => p[1]))).toBeCloseTo(10, 2);
    for (const p of pts) expect(dist(p, [0, 0])).toBeCloseTo(10, 9);
  });

  it('switches layer (by table index), colour, true colour, lineweight and linetype for what follows', () => {
    const meta = new Meta()
      .polyline([0, 0], [1, 0])
      .cmd(PROXY.LAYER, (w) => w.i32(2))
      .cmd(PROXY.COLOR, (w) => w.i32(1))
      .cmd(PROXY.LINEWEIGHT, (w) => w.i32(50))
      .polyline([0, 1], [1, 1])
      .cmd(PROXY.LAYER, (w) => w.i32(3))
      .cmd(PROXY.TRUE_COLOR, (w) => w.u32(0xc2ff8000))
      .cmd(PROXY.LINETYPE, (w) => w.i32(3))
      .polyline([0, 2], [1, 2])
      .cmd(PROXY.TRUE_COLOR, (w) => w.u32(0xc0000000))
      .cmd(PROXY.LINETYPE, (w) => w.i32(0x7fff))
      .cmd(PROXY.LAYER, (w) => w.i32(99))
      .polyline([0, 3], [1, 3]);
    // The LTYPE table in file order: ByBlock, ByLayer, Continuous, DASHED (index 3).
    const { rec } = draw(meta, IDENTITY, {
      linetypes: [
        ['ByBlock', []],
        ['ByLayer', []],
        ['Continuous', []],
        ['DASHED', [1, -1]],
      ],
    });
    expect(rec.strokes.map((s) => s.dashed)).toEqual([false, false, true, false]);
    expect(rec.strokes.map((s) => s.style)).toEqual([
      { layer: 'PROXY', aci: 256, lineweight: -1, linetype: 'BYLAYER' },
      { layer: 'WALL', aci: 1, lineweight: 50, linetype: 'BYLAYER' },
      { layer: 'WINDOW', rgb: 0xff8000, lineweight: 50, linetype: 'DASHED' },
      // An index past the table keeps the layer.
      { layer: 'WINDOW', aci: 256, lineweight: 50, linetype: 'BYLAYER' },
    ]);
  });

  it('finds layers by their place in the table even when names look like numbers', () => {
    const { drawing, e } = drawingWith(new Meta().cmd(PROXY.LAYER, (w) => w.i32(2)).polyline([0, 0], [1, 0]));
    const layer = (name: string, handle: string): Drawing['layers'][string] => ({
      name,
      handle,
      color: { aci: 7 },
      linetype: 'CONTINUOUS',
      lineweight: -3,
      on: true,
      frozen: false,
      locked: false,
      plot: true,
    });
    // Table order 0, WALL, 12; a JavaScript object lists '12' before 'WALL'.
    const layers: Drawing['layers'] = {};
    layers['0'] = layer('0', '10');
    layers.WALL = layer('WALL', '1A');
    layers['12'] = layer('12', '2B');
    expect(Object.keys(layers)).toEqual(['0', '12', 'WALL']);
    const rec = new Recorder({ ...drawing, layers });
    drawProxyGraphics({ ...e }, rec);
    expect(rec.strokes[0]?.style.layer).toBe('12');
  });

  it('applies pushed matrices (row-major, translation in the last column) until they are popped', () => {
    // Rotate 90° about z, then move by (100, 0, 0).
    const m = [0, -1, 0, 100, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const meta = new Meta()
      .cmd(PROXY.PUSH_MATRIX, (w) => w.f64(...m))
      .polyline([1, 0], [2, 0])
      .cmd(PROXY.PUSH_MATRIX, (w) => w.f64(1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1, 0, 0, 0, 0, 1))
      .polyline([1, 0], [2, 0])
      .cmd(PROXY.POP_MATRIX)
      .cmd(PROXY.POP_MATRIX)
      .cmd(PROXY.POP_MATRIX)
      .polyline([1, 0], [2, 0]);
    const { rec } = draw(meta, translation(0, 1000));
    const round = (pts: [number, number][]): number[][] => pts.map((p) => p.map((x) => Math.round(x * 1e9) / 1e9));
    expect(rec.strokes.map((s) => round(s.pts))).toEqual([
      [
        [100, 1001],
        [100, 1002],
      ],
      // The nested matrix applies first: (1, 5) then rotated and moved.
      [
        [95, 1001],
        [95, 1002],
      ],
      [
        [1, 1000],
        [2, 1000],
      ],
    ]);
  });

  it('draws unicode text through the text module with the layer and colour in effect, rotated by its direction', () => {
    const meta = new Meta()
      .cmd(PROXY.LAYER, (w) => w.i32(3))
      .cmd(PROXY.COLOR, (w) => w.i32(2))
      .cmd(PROXY.UNICODE_TEXT2, (w) =>
        w
          .pts([5, 5, 0], [0, 0, 1], [0, 1, 0])
          .str16('轴号A1')
          .i32(-1)
          .i32(0)
          .f64(2.5, 1, 0, 1)
          .i32(0)
          .i32(0)
          .i32(0)
          .i32(0)
          .i32(0)
          .i32(0)
          .i32(0)
          .i32(134)
          .i32(2)
          .str16('宋体')
          .str16('')
          .str16(''),
      )
      .cmd(PROXY.UNICODE_TEXT, (w) => w.pts([0, -10, 0], [0, 0, 1], [1, 0, 0]).f64(3, 1, 0).str16('M0921'));
    const { rec } = draw(meta);
    expect(rec.texts.map((t) => t.text).join('')).toBe('轴号A1M0921');
    const first = rec.texts[0];
    expect(first?.style).toMatchObject({ layer: 'WINDOW', aci: 2 });
    // The drawing's STANDARD style is an SHX font: its Chinese stands in for a big font, raised
    // 0.12 em onto the big font's cell (fonts.ts), i.e. to the left of a baseline along +y.
    expect(first?.matrix[4]).toBeCloseTo(5 - 0.12 * 2.5, 9);
    expect(first?.matrix[5]).toBeCloseTo(5, 9);
    // Baseline along +y: the text-space x axis maps to (0, 1).
    expect(first?.matrix[0]).toBeCloseTo(0, 9);
    expect(first?.matrix[1]).toBeGreaterThan(0);
    const last = rec.texts[rec.texts.length - 1];
    expect(last?.matrix[4]).toBeCloseTo(0, 9);
    expect(last?.matrix[5]).toBeCloseTo(-10, 9);
    expect(last?.matrix[1]).toBeCloseTo(0, 9);
  });

  it('draws 8-bit TEXT2 in the drawing style that uses its font', () => {
    const styles: G = [
      [0, 'STYLE'],
      [2, 'HZ'],
      [70, 0],
      [40, 0],
      [41, 1],
      [50, 0],
      [71, 0],
      [42, 2.5],
      [3, 'simplex.shx'],
      [4, 'gbcbig.shx'],
    ];
    const meta = new Meta().cmd(PROXY.TEXT2, (w) =>
      w
        .pts([1, 2, 0], [0, 0, 1], [1, 0, 0])
        .str8('D100')
        .i32(4)
        .i32(0)
        .f64(3.5, 0.8, 0, 1)
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .i32(0)
        .str8('SIMPLEX.SHX')
        .str8('GBCBIG.SHX'),
    );
    const dxf = new TextDecoder().decode(testDxf({ layers: LAYERS, entities: proxyEntity(meta) }));
    const drawing = readDxf(
      new TextEncoder().encode(
        dxf.replace('0\nTABLE\n2\nLAYER\n', `0\nTABLE\n2\nSTYLE\n${dxfText(styles)}0\nENDTAB\n0\nTABLE\n2\nLAYER\n`),
      ),
    ).drawing;
    expect(drawing.textStyles.HZ?.font).toBe('simplex.shx');
    const rec = new Recorder(drawing);
    expect(drawProxyGraphics(drawing.modelSpace[0] as UnknownEntity, rec)).toBe(true);
    expect(rec.texts.map((t) => t.text).join('')).toBe('D100');
    expect(rec.texts[0]?.font.toLowerCase()).toContain('simplex');
    expect(rec.texts[0]?.matrix[4]).toBeCloseTo(1, 9);
    expect(rec.texts[0]?.matrix[5]).toBeCloseTo(2, 9);
  });

  it('draws the embedded LWPOLYLINE (bit-coded) with its bulges and closed flag', () => {
    // flags: 16 bulges + 512 closed; 2 vertices (0,0) and (10,0); bulge 1 on the first: a half circle below.
    const bits = new BitWriter()
      .bs(16 | 512)
      .bl(2)
      .bl(2)
      .rd(0)
      .rd(0)
      .dd(10)
      .dd(0)
      .bd(1)
      .bd(0)
      .done();
    const { rec } = draw(new Meta().cmd(PROXY.LWPOLYLINE, (w) => w.i32(bits.length).raw(bits)));
    const pts = rec.strokes.flatMap((s) => s.pts);
    expect(pts.length).toBeGreaterThan(10);
    for (const p of pts) expect(p[1]).toBeLessThanOrEqual(1e-9);
    expect(Math.min(...pts.map((p) => p[1]))).toBeCloseTo(-5, 2);
    // Closed: the straight chord back from (10, 0) to (0, 0) is there too.
    const last = rec.strokes[rec.strokes.length - 1]?.pts ?? [];
    expect(last[last.length - 1]?.[0]).toBeCloseTo(0, 9);
  });

  it('a constant-width embedded LWPOLYLINE is filled', () => {
    const bits = new BitWriter().bs(4).bd(2).bl(2).rd(0).rd(0).dd(10).dd(0).done();
    const { rec } = draw(new Meta().cmd(PROXY.LWPOLYLINE, (w) => w.i32(bits.length).raw(bits)));
    const ring = rec.fills[0]?.rings[0] ?? [];
    const ys = ring.map((p) => p[1]);
    expect(Math.min(...ys)).toBeCloseTo(-1, 9);
    expect(Math.max(...ys)).toBeCloseTo(1, 9);
  });

  it('fills shell faces while fill is on (a hole as a second ring) and outlines them otherwise', () => {
    const shell = (w: Bytes) =>
      w
        .i32(8)
        .pts([0, 0], [10, 0], [10, 10], [0, 10], [4, 4], [6, 4], [6, 6], [4, 6])
        .i32(10)
        .i32(4)
        .i32(0)
        .i32(1)
        .i32(2)
        .i32(3)
        .i32(-4)
        .i32(4)
        .i32(5)
        .i32(6)
        .i32(7)
        .i32(0)
        .i32(0)
        .i32(0);
    const { rec } = draw(new Meta().fill(true).cmd(PROXY.SHELL, shell).fill(false).cmd(PROXY.SHELL, shell));
    expect(rec.fills).toHaveLength(1);
    expect(rec.fills[0]?.rings).toHaveLength(2);
    expect(rec.fills[0]?.rings[1]).toEqual([
      [4, 4],
      [6, 4],
      [6, 6],
      [4, 6],
    ]);
    expect(rec.strokes).toHaveLength(2);
  });

  it('skips unknown commands by their size and stops safely on truncated or damaged data', () => {
    const meta = new Meta()
      .cmd(19, (w) => w.i32(7))
      .cmd(77, (w) => w.f64(1, 2, 3))
      .polyline([0, 0], [3, 4])
      .polyline([9, 9], [8, 8], [7, 7]);
    const full = meta.bytes();
    const asHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    const drawing = drawingWith(meta).drawing;
    const run = (b: Uint8Array): Recorder => {
      const rec = new Recorder(drawing);
      const e: UnknownEntity = { ...(drawing.modelSpace[0] as UnknownEntity), graphics: asHex(b) };
      drawProxyGraphics(e, rec);
      return rec;
    };
    expect(run(full).strokes).toHaveLength(2);
    // Cut inside the last polyline: the first is still drawn.
    const cut = run(full.slice(0, full.length - 20));
    expect(cut.strokes.map((s) => s.pts)).toEqual([
      [
        [0, 0],
        [3, 4],
      ],
    ]);
    // A polyline claiming a billion points, a command of size 0, and random bytes.
    const huge = new Meta()
      .cmd(PROXY.POLYLINE, (w) => w.i32(1e9).pts([1, 1], [2, 2]))
      .polyline([5, 5], [6, 6])
      .bytes();
    expect(run(huge).strokes.map((s) => s.pts)).toEqual([
      [
        [1, 1],
        [2, 2],
      ],
      [
        [5, 5],
        [6, 6],
      ],
    ]);
    const zero = Uint8Array.from([...full.slice(0, 8), 0, 0, 0, 0, 6, 0, 0, 0, ...full.slice(8)]);
    expect(run(zero).strokes).toHaveLength(0);
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 8) & 0xff;
    for (let k = 0; k < 50; k++) {
      const junk = Uint8Array.from({ length: 200 }, rnd);
      junk.set(new Uint8Array(new Int32Array([200, 30]).buffer), 0);
      // Plausible sizes and types, garbage data.
      for (let o = 8; o + 8 <= 200; o += 24) junk.set(new Uint8Array(new Int32Array([24, 1 + (rnd() % 40)]).buffer), o);
      expect(() => run(junk)).not.toThrow();
    }
    const { rec, drawn } = draw(new Meta());
    expect(drawn).toBe(false);
    expect(rec.strokes).toHaveLength(0);
  });
});

// ---- the real TArch drawing (when the shared corpus is there) --------------------------------------

const here = path.dirname(fileURLToPath(import.meta.url));
const tarch = path.resolve(here, '../../../../../shared/corpus/dxf/ldwg_2013_gh109_1_zh_tarch.dxf');

// The drawing is GPL-licensed, so it is not committed: this part of the sweep exists only where the
// corpus does (as in CI); the hand-made metafiles above cover every command without it.
if (existsSync(tarch))
  describe('proxy graphics: TArch floor plan (corpus)', () => {
    it('draws the TCH walls as double lines on layer WALL, the openings, axis bubbles and labels', () => {
      const drawing = readDxf(readFileSync(tarch)).drawing;
      const proxies = drawing.modelSpace.filter((e): e is UnknownEntity => e.type === 'UNKNOWN' && e.dxfType === 'ACAD_PROXY_ENTITY');
      expect(proxies).toHaveLength(25);
      const rec = new Recorder(drawing);
      const drawn = proxies.filter((e) => drawProxyGraphics(e, rec)).length;
      // Two proxies carry empty graphics.
      expect(drawn).toBe(23);
      const wall = rec.strokes.filter((s) => s.style.layer === 'WALL');
      expect(wall.length).toBeGreaterThanOrEqual(40);
      // One wall face of the right-hand wall, as TArch saved it.
      const has = (a: [number, number], b: [number, number]): boolean =>
        wall.some(
          (s) => s.pts.length === 2 && dist(s.pts[0] as [number, number], a) < 0.01 && dist(s.pts[1] as [number, number], b) < 0.01,
        );
      expect(has([24250.357, 7774.092], [24250.357, 4915.243])).toBe(true);
      expect(wall.every((s) => s.style.aci === 9)).toBe(true);
      const texts = rec.texts.map((t) => t.text);
      expect(texts).toEqual(expect.arrayContaining(['M0921', 'C1815', '1', '2']));
      // Axis bubbles: circles of radius 400 on layer AXIS.
      const bubbles = rec.strokes.filter((s) => s.pts.length > 30 && Math.abs(dist(s.pts[0] as [number, number], [0, -5400]) - 400) < 1);
      expect(bubbles.length).toBeGreaterThanOrEqual(1);
      // Columns are shells filled on TArch's hatch layer.
      expect(rec.fills.filter((f) => f.style.layer === 'PUB_HATCH').length).toBeGreaterThanOrEqual(3);
      // The three door swings: quarter arcs from the embedded LWPOLYLINEs (bulge ≈ 0.41).
      expect(rec.strokes.filter((s) => s.style.layer === 'WINDOW' && s.pts.length > 8)).toHaveLength(3);
    });
  });
