/**
 * Decision 0044: feature control frames (TOLERANCE), shapes (SHAPE and complex linetypes) and OLE
 * preview pictures, on the hand-made fixtures (scripts/gen-gdt-fixtures.py) and hand-made bytes.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDxf } from '../dxf/reader';
import type { Drawing, Ole2FrameEntity } from '../model';
import { defaultFonts } from '../convert';
import type { FontProvider } from '../text/fonts';
import { buildScenes } from './builder';
import { parseFrame } from './tolerance';
import { decodeDib, olePreview } from '../codec/ole';
import { pictureCells } from './ole';
import { subpaths } from './test-helpers';
import type { DisplayList } from './types';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): Drawing => readDxf(readFileSync(resolve(here, '../../test-fixtures', name))).drawing;

let fonts: FontProvider;
beforeAll(async () => {
  fonts = await defaultFonts([]);
});

function model(d: Drawing): { list: DisplayList; drawn: Record<string, number>; warnings: string[] } {
  const r = buildScenes(d, { layouts: 'model', fonts });
  const scene = r.scenes[0];
  if (!scene) throw new Error('no model scene');
  return { list: scene.list, drawn: r.counts.drawn, warnings: r.warnings.map((w) => `${w.code}: ${w.message}`) };
}

const texts = (list: DisplayList): string[] => list.primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
const near = (a: number, b: number, eps = 1e-6): boolean => Math.abs(a - b) <= eps;

describe('TOLERANCE', () => {
  it('splits the text into rows, boxes and gdt symbols', () => {
    const rows = parseFrame('{\\Fgdt;j}%%v{\\Fgdt;n}0.05{\\Fgdt;m}%%vA%%vB^J{\\Fgdt;u}%%v0.01');
    expect(rows).toEqual([
      [[{ sym: 'j' }], [{ sym: 'n' }, { text: '0.05' }, { sym: 'm' }], [{ text: 'A' }], [{ text: 'B' }]],
      [[{ sym: 'u' }], [{ text: '0.01' }]],
    ]);
    // Empty boxes stay empty (not drawn); a line feed read as such splits rows too.
    expect(parseFrame('{\\Fgdt;r}%%v%%v\nA')).toEqual([[[{ sym: 'r' }], [], []], [[{ text: 'A' }]]]);
  });

  it('reads the frame from DXF: style, insertion, direction and text', () => {
    const d = fixture('gen_tolerance.dxf');
    const t = d.modelSpace.filter((e) => e.type === 'TOLERANCE');
    expect(t).toHaveLength(4);
    expect(t[0]).toMatchObject({ style: 'ISO-25', insertion: [0, 0, 0], direction: [1, 0, 0] });
    expect(t[2]?.type === 'TOLERANCE' && t[2].direction[1]).toBeCloseTo(0.5, 9);
  });

  it('draws the boxes by the dimension style: a row is text height + 2 gaps high, lines in DIMCLRD, values and datums in DIMCLRT', () => {
    const { list, drawn, warnings } = model(fixture('gen_tolerance.dxf'));
    expect(drawn.TOLERANCE).toBe(4);
    expect(warnings.filter((w) => w.startsWith('unsupported-entity'))).toEqual([]);
    // The first frame: four boxes (position symbol, tolerance, A, B) side by side on one row 3.75 high.
    const boxes = subpaths(list)
      .filter((s) => s.points.length === 5 && s.points.every((p) => p[0] < 40 && (near(p[1], 1.875) || near(p[1], -1.875))))
      .map((s) => s.points);
    expect(boxes).toHaveLength(4);
    const lefts = boxes.map((b) => Math.min(...b.map((p) => p[0]))).sort((a, b) => a - b);
    expect(lefts[0]).toBeCloseTo(0, 9);
    // Boxes follow each other without gaps.
    const rights = boxes.map((b) => Math.max(...b.map((p) => p[0]))).sort((a, b) => a - b);
    for (let i = 1; i < 4; i++) expect(lefts[i]).toBeCloseTo(rights[i - 1] as number, 9);
    // The frame lines are red (DIMCLRD 1).
    const boxStyle = subpaths(list).find((s) => s.points.length === 5 && near(s.points[0]![1], 1.875))!.style;
    expect(list.styles[boxStyle]?.color).toBe(0xff0000);
    const all = texts(list).join(' ');
    for (const s of ['0.05', 'A', 'B', '0.02', '0.01', '0.1']) expect(all).toContain(s);
    // Values are blue (DIMCLRT 5).
    const value = list.primitives.find((p) => p.kind === 'text' && p.text.includes('0.05'));
    expect(value && list.styles[value.style]?.color).toBe(0x0000ff);
  });

  it('draws gdt symbols from outlines: the position symbol is a circle with a cross in the first box', () => {
    const { list } = model(fixture('gen_tolerance.dxf'));
    // Strokes inside the first box (x 0..3.75, y -1.875..1.875) other than the box itself.
    const inFirst = subpaths(list).filter(
      (s) => s.points.length !== 5 && s.points.every((p) => p[0] > 0 && p[0] < 3.75 && Math.abs(p[1]) < 1.875),
    );
    // A circle (many points) and two straight lines.
    expect(inFirst.some((s) => s.points.length > 20)).toBe(true);
    expect(inFirst.filter((s) => s.points.length === 2)).toHaveLength(2);
  });

  it('turns the frame with its direction', () => {
    const { list } = model(fixture('gen_tolerance.dxf'));
    // The flatness frame at (40, -25), 30 degrees: its first box edge runs at 30 degrees from the insertion's corner.
    const h = 3.75 / 2;
    const corner = [40 - Math.sin(Math.PI / 6) * h, -25 + Math.cos(Math.PI / 6) * h];
    const box = subpaths(list).find(
      (s) => s.points.length === 5 && near(s.points[0]![0], corner[0]!, 1e-6) && near(s.points[0]![1], corner[1]!, 1e-6),
    );
    expect(box).toBeDefined();
    const [a, b] = box!.points;
    expect((Math.atan2(b![1] - a![1], b![0] - a![0]) * 180) / Math.PI).toBeCloseTo(30, 6);
  });
});

describe('SHAPE and complex linetypes', () => {
  it('draws the shapes of ltypeshp.shx (made here) along fence, track, zigzag and batting lines, and the text of GAS_LINE', () => {
    const d = fixture('gen_linetype_shapes.dxf');
    const { list, drawn } = model(d);
    expect(drawn.LINE).toBe(7);
    const strokes = subpaths(list);
    // FENCELINE1 at y = 6: circles of radius 0.1 centred on the line, one per 1.45 of pattern.
    const circles = strokes.filter((s) => s.points.length > 10 && s.points.every((p) => Math.abs(p[1] - 6) <= 0.1 + 1e-9));
    expect(circles.length).toBeGreaterThanOrEqual(3);
    for (const c of circles) {
      const cx = (Math.min(...c.points.map((p) => p[0])) + Math.max(...c.points.map((p) => p[0]))) / 2;
      for (const p of c.points) expect(Math.hypot(p[0] - cx, p[1] - 6)).toBeCloseTo(0.1, 2);
    }
    // TRACKS at y = 4: cross ties 0.5 long across the line.
    const ties = strokes.filter(
      (s) => s.points.length === 2 && near(s.points[0]![0], s.points[1]![0]) && near(Math.abs(s.points[0]![1] - s.points[1]![1]), 0.5),
    );
    expect(ties.length).toBeGreaterThanOrEqual(10);
    // The vertical FENCELINE2 turns its boxes with it: squares 0.2 wide around x = 5.5.
    const squares = strokes.filter((s) => s.points.length === 5 && s.points.every((p) => near(Math.abs(p[0] - 5.5), 0.1)));
    expect(squares.length).toBeGreaterThanOrEqual(3);
    // GAS_LINE: its text along the line.
    expect(
      texts(list).filter((t) => t === 'GAS').length + strokes.filter((s) => s.points.every((p) => p[1] > 0.9 && p[1] < 1.1)).length,
    ).toBeGreaterThan(0);
  });

  it('draws a SHAPE entity from the shape file its drawing loads, sized and rotated', () => {
    const { list, drawn } = model(fixture('gen_linetype_shapes.dxf'));
    expect(drawn.SHAPE).toBe(1);
    // BOX of size 0.3 at (1, -0.5), turned 15 degrees: a closed square of side 0.6 (two units wide).
    const sq = subpaths(list).find((s) => s.points.length === 5 && s.points.every((p) => p[1] < 0));
    expect(sq).toBeDefined();
    const [a, b] = sq!.points;
    expect(Math.hypot(b![0] - a![0], b![1] - a![1])).toBeCloseTo(0.6, 6);
  });

  it('reports a shape whose file is missing as a missing file, not as an object type it cannot draw', () => {
    const d = fixture('gen_linetype_shapes.dxf');
    const shape = d.modelSpace.find((e) => e.type === 'SHAPE')!;
    if (shape.type === 'SHAPE') shape.name = 'NO-SUCH-SHAPE';
    for (const s of Object.values(d.textStyles)) if (s.flags & 1) s.font = 'D:\\shapes\\test_shape.shx';
    const { drawn, warnings } = model(d);
    expect(drawn.SHAPE).toBeUndefined();
    expect(warnings).toContain(
      'missing-font: Shape "NO-SUCH-SHAPE" is not drawn: its shape file test_shape.shx is not in the font folders',
    );
    expect(warnings.some((w) => w.startsWith('unsupported-entity'))).toBe(false);
  });
});

// ---- a hand-made OLE object: a compound document with a presentation stream holding a DIB ----------

/** A 2 x 2 24-bit DIB, bottom-up: red, green / blue, white (top row first as seen). */
function dib(): Uint8Array {
  const b = new Uint8Array(40 + 2 * 8);
  const v = new DataView(b.buffer);
  v.setUint32(0, 40, true);
  v.setInt32(4, 2, true);
  v.setInt32(8, 2, true);
  v.setUint16(12, 1, true);
  v.setUint16(14, 24, true);
  // Bottom row (stored first): blue, white; top row: red, green. BGR, rows padded to 8 bytes.
  b.set([255, 0, 0, 255, 255, 255, 0, 0], 40);
  b.set([0, 0, 255, 0, 255, 0, 0, 0], 48);
  return b;
}

/** MS-OLEDS presentation stream: CF_DIB, no target device. */
function presentation(data: Uint8Array): Uint8Array {
  const b = new Uint8Array(40 + data.length);
  const v = new DataView(b.buffer);
  v.setInt32(0, -1, true);
  v.setUint32(4, 8, true);
  v.setUint32(8, 4, true);
  v.setUint32(12, 1, true);
  v.setInt32(16, -1, true);
  v.setUint32(36, data.length, true);
  b.set(data, 40);
  return b;
}

/** A compound document of 512-byte sectors: FAT in sector 0, directory in 1, the stream from 2. */
function compound(name: string, stream: Uint8Array): Uint8Array {
  const sectors = Math.ceil(stream.length / 512);
  const b = new Uint8Array(512 * (3 + sectors));
  const v = new DataView(b.buffer);
  b.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  v.setUint16(0x1e, 9, true);
  v.setUint16(0x20, 6, true);
  v.setUint32(0x2c, 1, true);
  v.setUint32(0x30, 1, true);
  v.setUint32(0x38, 0, true); // mini stream cutoff 0: every stream in regular sectors
  v.setUint32(0x3c, 0xfffffffe, true);
  v.setUint32(0x44, 0xfffffffe, true);
  for (let i = 0; i < 109; i++) v.setUint32(0x4c + 4 * i, 0xffffffff, true);
  v.setUint32(0x4c, 0, true);
  const fat = 512;
  for (let i = 0; i < 128; i++) v.setUint32(fat + 4 * i, 0xffffffff, true);
  v.setUint32(fat, 0xfffffffd, true);
  v.setUint32(fat + 4, 0xfffffffe, true);
  for (let s = 0; s < sectors; s++) v.setUint32(fat + 4 * (2 + s), s === sectors - 1 ? 0xfffffffe : 3 + s, true);
  const dir = 1024;
  const entry = (o: number, n: string, type: number, start: number, size: number): void => {
    for (let i = 0; i < n.length; i++) v.setUint16(o + 2 * i, n.charCodeAt(i), true);
    v.setUint16(o + 64, (n.length + 1) * 2, true);
    b[o + 66] = type;
    v.setUint32(o + 68, 0xffffffff, true);
    v.setUint32(o + 72, 0xffffffff, true);
    v.setUint32(o + 76, type === 5 ? 1 : 0xffffffff, true);
    v.setUint32(o + 116, start, true);
    v.setUint32(o + 120, size, true);
  };
  entry(dir, 'Root Entry', 5, 0xfffffffe, 0);
  entry(dir + 128, name, 2, 2, stream.length);
  b.set(stream, 512 * 3);
  return b;
}

const hex = (b: Uint8Array): string =>
  [...b]
    .map((x) => x.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();

describe('OLE2FRAME', () => {
  it('decodes a DIB, bottom-up rows and BGR order', () => {
    const p = decodeDib(dib());
    expect(p).toMatchObject({ width: 2, height: 2 });
    expect([...p!.rgba]).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
  });

  it('finds the preview picture in the object data (after the corner points AutoCAD writes first)', () => {
    const data = new Uint8Array(128 + 0);
    const doc = compound('\u0002OlePres000', presentation(dib()));
    const all = new Uint8Array(data.length + doc.length);
    all.set(data);
    all.set(doc, data.length);
    expect(olePreview(hex(all))).toMatchObject({ width: 2, height: 2 });
    // No compound document, or none with a picture: null.
    expect(olePreview(hex(new Uint8Array(700)))).toBeNull();
    expect(olePreview(hex(compound('CONTENTS', dib())))).toBeNull();
  });

  it('draws the picture in the frame as filled cells of its colours (white left to the paper), no frame; without one, the frame and a notice', () => {
    const e: Ole2FrameEntity = {
      type: 'OLE2FRAME',
      layer: '0',
      color: { aci: 256 },
      linetype: 'BYLAYER',
      ltscale: 1,
      lineweight: -1,
      visible: true,
      extrusion: [0, 0, 1],
      paperSpace: false,
      corner1: [10, 20, 0],
      corner2: [30, 0, 0],
      data: hex(compound('\u0002OlePres000', presentation(dib()))),
    };
    const d = fixture('gen_tolerance.dxf');
    d.modelSpace = [e];
    const { list, drawn } = model(d);
    expect(drawn.OLE2FRAME).toBe(1);
    const fills = subpaths(list, 'fill');
    const colorAt = (x: number, y: number): number | undefined =>
      fills.find(
        (f) =>
          x > Math.min(...f.points.map((p) => p[0])) &&
          x < Math.max(...f.points.map((p) => p[0])) &&
          y > Math.min(...f.points.map((p) => p[1])) &&
          y < Math.max(...f.points.map((p) => p[1])),
      )?.style;
    const rgb = (x: number, y: number): number | undefined => list.styles[colorAt(x, y) ?? -1]?.color;
    expect(rgb(15, 15)).toBe(0xff0000);
    expect(rgb(25, 15)).toBe(0x00ff00);
    expect(rgb(15, 5)).toBe(0x0000ff);
    // White is left to the paper (a renderer would draw it in the foreground colour).
    expect(colorAt(25, 5)).toBeUndefined();
    expect(subpaths(list, 'stroke')).toEqual([]);

    const { list: bare, warnings } = model({ ...d, modelSpace: [{ ...e, data: '' }] });
    expect(subpaths(bare, 'stroke').map((s) => s.points)).toEqual([
      [
        [10, 20],
        [30, 20],
        [30, 0],
        [10, 0],
        [10, 20],
      ],
    ]);
    expect(warnings).toContain('image: An OLE object holds no preview picture this viewer can show: only its frame is drawn');
  });

  it('merges runs of one colour into one cell and samples big pictures down', () => {
    const rgba = new Uint8Array(600 * 10 * 4).fill(255);
    const cells = pictureCells({ width: 600, height: 10, rgba });
    expect([cells.cols, cells.rows]).toEqual([200, 4]);
    expect(cells.byColor.get(0xffffff)).toEqual([0, 0, 200, 1, 0, 1, 200, 2, 0, 2, 200, 3, 0, 3, 200, 4]);
  });
});
