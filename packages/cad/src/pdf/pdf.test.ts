import { beforeAll, describe, expect, it } from 'vitest';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Entity, EntityOf } from '../model';
import { convertDrawing, CadConvertError } from '../convert';
import { CadReadError } from '../errors';
import { entitiesDxf } from '../dxf/test-helpers';
import { nearestAci } from '../geom/color';
import type { Affine2D } from '../geom/matrix';
import { CJK_CAP_RATIO, OP, replayPage, type StrokeMark } from './graphics';
import { MM_PER_PT, PAGE_GAP_MM, pdfToDrawing, RASTER_ONLY_MESSAGE, type PdfToDrawingResult } from './index';
import { parsePageRange } from './pages';
import { mainFixture, PAGE, pdfBytes, rasterFixture } from './test-helpers';
import type { Vec3 } from '../geom/vector';

const K = MM_PER_PT;
/** pdfkit's y-down point -> model mm on page 1. */
const mm = (x: number, y: number): [number, number] => [x * K, (PAGE[1] - y) * K];
const of = <T extends Entity['type']>(list: Entity[], type: T): EntityOf<T>[] => list.filter((e) => e.type === type) as EntityOf<T>[];
const dist = (a: Vec3 | number[], b: Vec3 | number[]): number => Math.hypot((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0));
const near = (actual: ArrayLike<number>, expected: number[], tol = 0.01): void => {
  expected.forEach((v, i) => expect(Math.abs((actual[i] ?? NaN) - v), `coordinate ${i}: ${actual[i]} vs ${v}`).toBeLessThan(tol));
};

it('uses the operator numbers of the installed pdf.js', () => {
  for (const [name, value] of Object.entries(OP)) expect(OPS[name as keyof typeof OPS], name).toBe(value);
});

describe('a PDF written by our own back end, converted back', () => {
  let result: PdfToDrawingResult;
  beforeAll(async () => {
    const line = (a: [number, number], b: [number, number]): [number, string | number][] => [
      [0, 'LINE'],
      [8, '0'],
      [10, a[0]],
      [20, a[1]],
      [30, 0],
      [11, b[0]],
      [21, b[1]],
      [31, 0],
    ];
    const dxf = entitiesDxf(
      [
        ...line([0, 0], [410, 0]),
        ...line([410, 0], [410, 200]),
        ...line([410, 200], [0, 200]),
        ...line([0, 200], [0, 0]),
        ...line([50, 50], [150, 120]),
        ...([
          [0, 'CIRCLE'],
          [8, '0'],
          [10, 300],
          [20, 100],
          [30, 0],
          [40, 40],
        ] as [number, string | number][]),
        ...([
          [0, 'TEXT'],
          [8, '0'],
          [10, 20],
          [20, 150],
          [30, 0],
          [40, 10],
          [1, '中文标注 ABC'],
        ] as [number, string | number][]),
      ],
      [
        [9, '$ACADVER'],
        [1, 'AC1021'],
        [9, '$INSUNITS'],
        [70, 4],
      ],
    );
    // Extents 410 mm wide: plotted to fit A3 (420 mm with 5 mm margins) that is 1:1.
    const pdf = (await convertDrawing(dxf, { format: 'pdf' })).outputs[0]?.data;
    if (!pdf) throw new Error('no PDF written');
    result = await pdfToDrawing(pdf);
  });

  it('keeps every line with its length in millimetres', () => {
    const d = result.drawing;
    expect(d.header.insUnits).toBe(4);
    const lines = of(d.modelSpace, 'LINE');
    expect(lines).toHaveLength(5);
    const lengths = lines.map((l) => dist(l.start, l.end)).sort((a, b) => a - b);
    near(lengths, [Math.hypot(100, 70), 200, 200, 410, 410], 0.05);
    // Positions relative to the rectangle's corner (the page adds a margin).
    const corner = lines.map((l) => l.start).reduce((a, b) => (a[0] + a[1] <= b[0] + b[1] ? a : b));
    const diagonal = lines.find((l) => Math.abs(dist(l.start, l.end) - Math.hypot(100, 70)) < 0.1);
    near([(diagonal?.start[0] ?? 0) - corner[0], (diagonal?.start[1] ?? 0) - corner[1]], [50, 50], 0.05);
  });

  it('brings the circle back as one closed outline of the right radius', () => {
    const polys = of(result.drawing.modelSpace, 'LWPOLYLINE');
    expect(polys).toHaveLength(1);
    const circle = polys[0];
    expect(circle?.closed).toBe(true);
    const xs = circle?.vertices.map((v) => v.x) ?? [];
    const ys = circle?.vertices.map((v) => v.y) ?? [];
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2,
      cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    for (const v of circle?.vertices ?? []) expect(Math.abs(Math.hypot(v.x - cx, v.y - cy) - 40)).toBeLessThan(0.1);
  });

  it('brings the text back, Chinese included, at its height', () => {
    const texts = of(result.drawing.modelSpace, 'TEXT');
    const zh = texts.find((t) => t.text.includes('中文标注'));
    const latin = texts.find((t) => t.text.includes('ABC'));
    expect(zh).toBeDefined();
    expect(latin).toBeDefined();
    expect(Math.abs((zh?.height ?? 0) - 10)).toBeLessThan(0.3);
    expect(Math.abs((latin?.height ?? 0) - 10)).toBeLessThan(0.3);
    expect(zh?.rotation).toBeCloseTo(0, 3);
  });
});

describe('a pdfkit PDF with known geometry', () => {
  let r: PdfToDrawingResult;
  beforeAll(async () => {
    r = await pdfToDrawing(await mainFixture());
  });
  const page1 = (): Entity[] => r.drawing.modelSpace.filter((e) => !('start' in e) || (e.start as Vec3)[0] < PAGE[0] * K);

  it('reads the dashed red line as a LINE on a red layer with a dash linetype', () => {
    const red = of(r.drawing.modelSpace, 'LINE').filter((l) => l.layer === 'PDF_255_0_0');
    expect(red).toHaveLength(1);
    near(red[0]?.start ?? [], mm(72, 72));
    near(red[0]?.end ?? [], mm(216, 72));
    expect(r.drawing.layers.PDF_255_0_0?.color).toEqual({ aci: 1 });
    expect(red[0]?.color).toEqual({ aci: 256 });
    expect(red[0]?.lineweight).toBe(35);
    const lt = r.drawing.linetypes[red[0]?.linetype ?? ''];
    near(lt?.elements.map((e) => e.length) ?? [], [6 * K, -3 * K], 1e-6);
  });

  it('reads the filled rectangle as a SOLID and the even-odd ring as a two-loop HATCH in true colour', () => {
    const solids = of(r.drawing.modelSpace, 'SOLID');
    expect(solids).toHaveLength(1);
    expect(solids[0]?.layer).toBe('PDF_0_0_255');
    expect(r.drawing.layers.PDF_0_0_255?.color).toEqual({ aci: 5 });
    // SOLID corners in "Z" order.
    const [a, b, c, d] = mm(100, 150).concat(mm(172, 186));
    [
      [a, b],
      [c, b],
      [a, d],
      [c, d],
    ].forEach((p, i) => near(solids[0]?.points[i] ?? [], p as number[]));
    const hatches = of(r.drawing.modelSpace, 'HATCH');
    expect(hatches).toHaveLength(1);
    expect(hatches[0]?.solid).toBe(true);
    expect(hatches[0]?.paths).toHaveLength(2);
    expect(hatches[0]?.paths.map((p) => p.polyline?.vertices.length)).toEqual([4, 4]);
    expect(r.drawing.layers.PDF_255_128_64?.color).toEqual({ aci: nearestAci(0xff8040), rgb: 0xff8040 });
    expect(hatches[0]?.layer).toBe('PDF_255_128_64');
  });

  it('reads the Bezier as a degree-3 SPLINE with its control points, or as a polyline on request', async () => {
    const splines = of(r.drawing.modelSpace, 'SPLINE');
    expect(splines).toHaveLength(1);
    const s = splines[0];
    expect(s?.degree).toBe(3);
    expect(s?.knots).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    [mm(200, 250), mm(250, 200), mm(300, 300), mm(350, 250)].forEach((p, i) => near(s?.controlPoints[i] ?? [], p));
    expect(s?.layer).toBe('PDF_0_255_0');

    const flat = await pdfToDrawing(await mainFixture(), { curves: 'polyline', pages: '1' });
    expect(of(flat.drawing.modelSpace, 'SPLINE')).toHaveLength(0);
    const curve = of(flat.drawing.modelSpace, 'LWPOLYLINE').find((p) => p.layer === 'PDF_0_255_0');
    expect(curve?.vertices.length).toBeGreaterThan(8);
    near([curve?.vertices[0]?.x ?? 0, curve?.vertices[0]?.y ?? 0], mm(200, 250));
    const last = curve?.vertices[curve.vertices.length - 1];
    near([last?.x ?? 0, last?.y ?? 0], mm(350, 250));
    // The midpoint of the Bezier (t = 0.5) is on the polyline (within the flattening tolerance).
    const [mx, my] = mm(275, 250);
    const vs = curve?.vertices ?? [];
    const gaps = vs.slice(1).map((b, i) => {
      const a = vs[i] ?? b;
      const t = Math.max(0, Math.min(1, ((mx - a.x) * (b.x - a.x) + (my - a.y) * (b.y - a.y)) / ((b.x - a.x) ** 2 + (b.y - a.y) ** 2)));
      return Math.hypot(a.x + t * (b.x - a.x) - mx, a.y + t * (b.y - a.y) - my);
    });
    expect(Math.min(...gaps)).toBeLessThan(0.05);
  });

  it('reads text with its position, height, rotation and font', () => {
    const texts = of(r.drawing.modelSpace, 'TEXT');
    const hello = texts.find((t) => t.text === 'Hello PDF');
    expect(hello).toBeDefined();
    // pdfkit puts the top of the line at y: the baseline is the ascender (0.718 em) lower.
    near(hello?.insertion ?? [], mm(20, 20 + 0.718 * 12), 0.02);
    expect(hello?.height).toBeCloseTo(12 * K * 0.72, 4);
    expect(hello?.rotation).toBeCloseTo(0, 4);
    expect(hello?.style).toBe('Helvetica');
    expect(r.drawing.textStyles.Helvetica?.font).toBe('arial.ttf');
    const rotated = texts.find((t) => t.text === '旋转文字');
    expect(rotated?.rotation).toBeCloseTo(30, 3);
    expect(rotated?.height).toBeCloseTo(20 * K * CJK_CAP_RATIO, 4);
    expect(rotated?.layer).toBe('PDF_0_0_0');
    expect(r.drawing.layers.PDF_0_0_0?.color).toEqual({ aci: 7 });
    // The baseline start lies below the rotation origin, square to the text direction.
    const o = mm(250, 120);
    const v = [(rotated?.insertion[0] ?? 0) - o[0], (rotated?.insertion[1] ?? 0) - o[1]] as const;
    const dir = [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)] as const;
    expect(Math.abs(v[0] * dir[0] + v[1] * dir[1])).toBeLessThan(0.01);
    expect(dir[0] * v[1] - dir[1] * v[0]).toBeLessThan(-1);
  });

  it('places page 2 to the right of page 1 and keeps its square, line and wide line', () => {
    const x0 = PAGE[0] * K + PAGE_GAP_MM;
    expect(page1().length).toBeGreaterThan(0);
    const polys = of(r.drawing.modelSpace, 'LWPOLYLINE');
    const square = polys.find((p) => p.closed);
    expect(square?.vertices.map((v) => [v.x, v.y])).toHaveLength(4);
    near([square?.vertices[0]?.x ?? 0, square?.vertices[0]?.y ?? 0], [x0 + 50 * K, (PAGE[1] - 50) * K]);
    expect(square?.lineweight).toBe(70);
    const magenta = of(r.drawing.modelSpace, 'LINE').find((l) => l.layer === 'PDF_255_0_255');
    near(magenta?.start ?? [], [x0 + 200 * K, (PAGE[1] - 50) * K]);
    // 10 pt is wider than any lineweight: a constant-width polyline.
    const wide = polys.find((p) => p.constantWidth > 0);
    expect(wide?.constantWidth).toBeCloseTo(10 * K, 6);
    expect(wide?.vertices).toHaveLength(2);
    expect(r.pageCount).toBe(2);
    expect(r.notes.join('\n')).toMatch(/page 2 placed to the right/);
    expect(r.drawing.header.extMax?.[0]).toBeCloseTo(2 * PAGE[0] * K + PAGE_GAP_MM, 6);
  });

  it('converts only the pages asked for', async () => {
    const two = await pdfToDrawing(await mainFixture(), { pages: '2' });
    expect(of(two.drawing.modelSpace, 'TEXT')).toHaveLength(0);
    // The only page converted starts at the origin.
    const square = of(two.drawing.modelSpace, 'LWPOLYLINE').find((p) => p.closed);
    near([square?.vertices[0]?.x ?? 0], [50 * K]);
    const one = await pdfToDrawing(await mainFixture(), { pages: '1-1' });
    expect(of(one.drawing.modelSpace, 'LINE').map((l) => l.layer)).toEqual(['PDF_255_0_0']);
    await expect(pdfToDrawing(await mainFixture(), { pages: '3' })).rejects.toThrow(CadConvertError);
  });

  it('falls back to colour layers when asked for PDF layers the file does not have', async () => {
    const byPdf = await pdfToDrawing(await mainFixture(), { layers: 'pdf', pages: '1' });
    expect(byPdf.notes.join('\n')).toMatch(/no layers/);
    expect(Object.keys(byPdf.drawing.layers)).toContain('PDF_255_0_0');
  });
});

describe('raster-only and unreadable PDFs', () => {
  it('refuses a PDF of images only with a clear message', async () => {
    const err = await pdfToDrawing(await rasterFixture(2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CadReadError);
    expect((err as CadReadError).reason).toBe('empty');
    expect((err as CadReadError).message).toBe(RASTER_ONLY_MESSAGE);
  });

  it('lists image-only pages of a mixed PDF and converts the rest', async () => {
    const r = await pdfToDrawing(await rasterFixture(1, true));
    expect(r.rasterOnlyPages).toEqual([1]);
    expect(of(r.drawing.modelSpace, 'LINE')).toHaveLength(1);
    expect(r.notes.join('\n')).toMatch(/page 1: scanned or image-only/);
    expect(r.notes.join('\n')).toMatch(/page 2: 1 image not converted/);
  });

  it('refuses broken, foreign and password-protected files clearly', async () => {
    const broken = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ntrailer\n%%EOF');
    await expect(pdfToDrawing(broken)).rejects.toMatchObject({ name: 'CadReadError', reason: 'corrupt' });
    await expect(pdfToDrawing(new TextEncoder().encode('hello'))).rejects.toMatchObject({
      reason: 'corrupt',
      message: '文件不是PDF格式，无法转换',
    });
    const locked = await pdfBytes(PAGE, (doc) => doc.moveTo(0, 0).lineTo(10, 10).stroke(), { userPassword: 'secret', pdfVersion: '1.7' });
    await expect(pdfToDrawing(locked)).rejects.toMatchObject({ reason: 'unsupported', message: expect.stringContaining('密码') });
  });
});

describe('the graphics state replay', () => {
  const none = (): null => null;
  it('scales widths and dashes by the transform and restores them with the state', () => {
    const scale2: Affine2D = [2, 0, 0, 2, 0, 0];
    const path = [
      [OP.moveTo, OP.lineTo],
      [0, 0, 10, 0],
      [0, 0, 10, 0],
    ];
    const ops = [OP.save, OP.transform, OP.setLineWidth, OP.setDash, OP.constructPath, OP.stroke, OP.restore, OP.constructPath, OP.stroke];
    const args = [null, scale2, [3], [[4, 1], 0], path, null, null, path, null];
    const marks = replayPage(ops, args, [1, 0, 0, 1, 0, 0], none).marks as StrokeMark[];
    expect(marks.map((m) => m.width)).toEqual([6, 1]);
    expect(marks.map((m) => m.dashes)).toEqual([[8, 2], []]);
    expect(marks[0]?.subpaths[0]?.segments[0]?.to).toEqual([20, 0]);
    expect(marks[1]?.subpaths[0]?.segments[0]?.to).toEqual([10, 0]);
  });

  it('tags marks with their optional content group', () => {
    const path = [[OP.rectangle], [0, 0, 5, 5], [0, 0, 5, 5]];
    const ops = [OP.beginMarkedContentProps, OP.setFillRGBColor, OP.constructPath, OP.fill, OP.endMarkedContent, OP.constructPath, OP.fill];
    const args = [['OC', { type: 'OCG', id: '12R' }], [255, 0, 0], path, null, null, path, null];
    const marks = replayPage(ops, args, [1, 0, 0, 1, 0, 0], none).marks;
    expect(marks.map((m) => [m.kind, m.ocg, m.rgb])).toEqual([
      ['fill', '12R', 0xff0000],
      ['fill', undefined, 0xff0000],
    ]);
  });

  it('parses page ranges', () => {
    expect(parsePageRange('1-3,5', 6)).toEqual([1, 2, 3, 5]);
    expect(parsePageRange('4-', 5)).toEqual([4, 5]);
    expect(parsePageRange(undefined, 2)).toEqual([1, 2]);
    expect(parsePageRange('3-1', 5)).toMatch(/bad page range/);
    expect(parsePageRange('9', 5)).toMatch(/does not exist/);
  });
});
