/**
 * PDF -> drawing extraction asserted to the millimetre on PDFs made here, whose geometry is known
 * exactly: transforms with save/restore, dashes under a scale, Beziers as SPLINE or polylines,
 * filled Beziers as HATCH spline edges, fills as SOLID/HATCH/hairlines, text under transforms,
 * clipping (clipping paths, the page edge, a form's bounding box), the page background, form
 * XObjects with and without a transparency group, page ranges with an image-only page between.
 */
import { describe, expect, it } from 'vitest';
import type { Entity, EntityOf, HatchEdge } from '../model';
import { bezierAt, clipFill, clipStroke, intersectRegions, type ConvexPolygon } from './clip';
import { CJK_CAP_RATIO } from './graphics';
import { MM_PER_PT, PAGE_GAP_MM, pdfToDrawing, type PdfToDrawingResult } from './index';
import { CJK_FONT, darkPlotFixture, PAGE, pdfBytes } from './test-helpers';
import { encodeOpaquePng } from '../codec/png';
import type { Vec3 } from '../geom/vector';
import type { Pt, Subpath } from './path';

const K = MM_PER_PT;
/** pdfkit's y-down point on a PAGE-sized page -> model mm (page 1). */
const mm = (x: number, y: number): [number, number] => [x * K, (PAGE[1] - y) * K];
const of = <T extends Entity['type']>(list: Entity[], type: T): EntityOf<T>[] => list.filter((e) => e.type === type) as EntityOf<T>[];
/** Every coordinate within `tol` mm (default 0.001 mm). */
const near = (actual: ArrayLike<number> | undefined, expected: number[], tol = 0.001): void => {
  expect(actual, 'a point').toBeDefined();
  expected.forEach((v, i) => expect(Math.abs((actual?.[i] ?? NaN) - v), `coordinate ${i}: ${actual?.[i]} vs ${v}`).toBeLessThan(tol));
};
const xy = (p: Vec3 | [number, number]): [number, number] => [p[0], p[1]];
const convert = async (
  draw: (doc: PDFKit.PDFDocument) => void,
  options: Parameters<typeof pdfToDrawing>[1] = {},
): Promise<PdfToDrawingResult> => pdfToDrawing(await pdfBytes(PAGE, draw), options);

describe('transforms with save and restore', () => {
  it('places lines through nested translate, rotate and scale, and restores the state after', async () => {
    const r = await convert((doc) => {
      doc.save().translate(100, 50).rotate(90).scale(2);
      // (10, 0) scaled 2 = (20, 0), rotated 90 degrees in pdfkit's y-down space = (0, 20), moved = (100, 70).
      doc.moveTo(0, 0).lineTo(10, 0).lineWidth(1).dash(5, { space: 5 }).strokeColor('#ff0000').stroke();
      doc.save().translate(10, 0);
      // Inside the nested state: (0, 0) -> (10, 0) -> (20, 0) -> (0, 20) -> (100, 70); (0, 5) -> (10, 5) -> (20, 10) -> (-10, 20) -> (90, 70).
      doc.moveTo(0, 0).lineTo(0, 5).undash().strokeColor('#00ff00').stroke();
      doc.restore();
      doc.restore();
      // Back to the page's own state: no transform, width 1, no dash.
      doc.moveTo(200, 200).lineTo(250, 200).strokeColor('#0000ff').stroke();
    });
    const lines = of(r.drawing.modelSpace, 'LINE');
    const red = lines.find((l) => l.layer === 'PDF_255_0_0');
    near(red?.start, mm(100, 50));
    near(red?.end, mm(100, 70));
    // The width and the dashes scale with the transform: 2 pt wide, 10 pt dashes and gaps.
    expect(red?.lineweight).toBe(70);
    near(
      r.drawing.linetypes[red?.linetype ?? '']?.elements.map((e) => e.length),
      [10 * K, -10 * K],
    );
    const green = lines.find((l) => l.layer === 'PDF_0_255_0');
    near(green?.start, mm(100, 70));
    near(green?.end, mm(90, 70));
    expect(green?.linetype).toBe('BYLAYER');
    const blue = lines.find((l) => l.layer === 'PDF_0_0_255');
    near(blue?.start, mm(200, 200));
    near(blue?.end, mm(250, 200));
    expect(blue?.lineweight).toBe(35);
    expect(blue?.linetype).toBe('BYLAYER');
  });

  it('repeats an odd dash array and keeps a dash phase-independent pattern in mm', async () => {
    const r = await convert((doc) => {
      doc.moveTo(20, 20).lineTo(300, 20).dash(4, { space: 4 }).stroke();
      doc.undash().moveTo(20, 40).lineTo(300, 40).lineWidth(0.25).stroke();
    });
    const [dashed, solid] = of(r.drawing.modelSpace, 'LINE');
    near(
      r.drawing.linetypes[dashed?.linetype ?? '']?.elements.map((e) => e.length),
      [4 * K, -4 * K],
    );
    expect(solid?.linetype).toBe('BYLAYER');
    expect(solid?.lineweight).toBe(9);
  });
});

describe('Beziers', () => {
  it('writes a circle (four Beziers) as one SPLINE of four spans through the circle', async () => {
    const r = await convert((doc) => doc.circle(200, 150, 50).lineWidth(0.5).stroke());
    const [s] = of(r.drawing.modelSpace, 'SPLINE');
    expect(s?.knots).toEqual([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4]);
    expect(s?.controlPoints).toHaveLength(13);
    const [cx, cy] = mm(200, 150);
    // The span ends are on the circle; the first control point is at the start.
    for (const i of [0, 3, 6, 9, 12]) {
      const p = s?.controlPoints[i] as Vec3;
      expect(Math.abs(Math.hypot(p[0] - cx, p[1] - cy) - 50 * K)).toBeLessThan(0.001);
    }
    near(s?.controlPoints[0], s?.controlPoints[12] as number[]);
  });

  it('fills a Bezier shape as a HATCH with spline edges, or a flattened loop within 0.05 mm on request', async () => {
    const draw = (doc: PDFKit.PDFDocument): void => {
      doc.moveTo(100, 200).bezierCurveTo(120, 100, 280, 100, 300, 200).lineTo(100, 200).fillColor('#008000').fill();
    };
    const r = await convert(draw);
    const [h] = of(r.drawing.modelSpace, 'HATCH');
    expect(h?.solid).toBe(true);
    expect(h?.paths).toHaveLength(1);
    const edges = h?.paths[0]?.edges ?? [];
    expect(edges.map((e) => e.kind)).toEqual(['spline', 'line']);
    const spline = edges[0] as Extract<HatchEdge, { kind: 'spline' }>;
    expect(spline.knots).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    [mm(100, 200), mm(120, 100), mm(280, 100), mm(300, 200)].forEach((p, i) => near(spline.controlPoints[i], p));
    const line = edges[1] as Extract<HatchEdge, { kind: 'line' }>;
    near(line.start, mm(300, 200));
    near(line.end, mm(100, 200));

    const flat = await convert(draw, { curves: 'polyline' });
    const [fh] = of(flat.drawing.modelSpace, 'HATCH');
    const vs = fh?.paths[0]?.polyline?.vertices ?? [];
    expect(vs.length).toBeGreaterThan(10);
    // Every vertex is on the curve or the closing line; the curve's top (t = 0.5) is within 0.05 mm of the loop.
    const top = bezierAt(mm(100, 200), mm(120, 100), mm(280, 100), mm(300, 200), 0.5);
    const dist = Math.min(
      ...vs.map((v, i) => {
        const w = vs[(i + 1) % vs.length] ?? v;
        const dx = w.x - v.x,
          dy = w.y - v.y;
        const t = Math.max(0, Math.min(1, ((top[0] - v.x) * dx + (top[1] - v.y) * dy) / (dx * dx + dy * dy || 1)));
        return Math.hypot(v.x + t * dx - top[0], v.y + t * dy - top[1]);
      }),
    );
    expect(dist).toBeLessThan(0.05);
  });
});

describe('fills', () => {
  it('writes a triangle as a SOLID, a concave loop as a HATCH and a zero-area fill as a hairline', async () => {
    const r = await convert((doc) => {
      doc.polygon([20, 20], [80, 20], [50, 60]).fillColor('#ff0000').fill();
      doc.polygon([100, 20], [200, 20], [200, 100], [150, 50], [100, 100]).fillColor('#0000ff').fill();
      // Out and back along the same points: no area, yet PDF viewers paint the pixels it touches.
      doc.moveTo(250, 20).lineTo(300, 40).lineTo(350, 20).lineTo(300, 40).closePath().fillColor('#00ff00').fill();
    });
    const [solid] = of(r.drawing.modelSpace, 'SOLID');
    expect(solid?.layer).toBe('PDF_255_0_0');
    // Corners in "Z" order; a triangle repeats its third corner.
    [mm(20, 20), mm(80, 20), mm(50, 60), mm(50, 60)].forEach((p, i) => near(solid?.points[i], p));
    const [hatch] = of(r.drawing.modelSpace, 'HATCH');
    expect(hatch?.layer).toBe('PDF_0_0_255');
    expect(hatch?.paths[0]?.polyline?.vertices.map((v) => [v.x, v.y])).toHaveLength(5);
    near(xy([hatch?.paths[0]?.polyline?.vertices[3]?.x ?? NaN, hatch?.paths[0]?.polyline?.vertices[3]?.y ?? NaN]), mm(150, 50));
    const hair = of(r.drawing.modelSpace, 'LWPOLYLINE').find((p) => p.layer === 'PDF_0_255_0');
    expect(hair?.lineweight).toBe(0);
    expect(hair?.vertices.map((v) => [v.x, v.y])).toHaveLength(4);
    near([hair?.vertices[2]?.x ?? NaN, hair?.vertices[2]?.y ?? NaN], mm(350, 20));
  });
});

describe('text under transforms', () => {
  it('keeps position, height and rotation of rotated and scaled text, Chinese included', async () => {
    const r = await convert((doc) => {
      doc.save().translate(100, 200).rotate(-90).scale(1.5);
      doc.font('Helvetica').fontSize(10).fillColor('#000000').text('Up 1', 0, 0, { lineBreak: false });
      doc.restore();
      doc.font('Helvetica').fontSize(10).text('Flat', 200, 250, { lineBreak: false });
      doc.save().translate(300, 100).scale(2);
      doc.font(CJK_FONT).fontSize(8).text('中文', 0, 0, { lineBreak: false });
      doc.restore();
    });
    const texts = of(r.drawing.modelSpace, 'TEXT');
    const up = texts.find((t) => t.text === 'Up 1');
    // pdfkit puts the top of the line at y; the baseline is the ascender (0.718 em) lower, along the rotated y axis.
    const baseline = 0.718 * 10 * 1.5;
    near(up?.insertion, mm(100 + baseline, 200), 0.01);
    expect(up?.rotation).toBeCloseTo(90, 6);
    expect(up?.height).toBeCloseTo(10 * 1.5 * K * 0.72, 6);
    const flat = texts.find((t) => t.text === 'Flat');
    near(flat?.insertion, mm(200, 250 + 0.718 * 10), 0.01);
    expect(flat?.rotation).toBeCloseTo(0, 6);
    expect(flat?.height).toBeCloseTo(10 * K * 0.72, 6);
    const zh = texts.find((t) => t.text === '中文');
    expect(zh?.height).toBeCloseTo(8 * 2 * K * CJK_CAP_RATIO, 6);
    expect(zh?.rotation).toBeCloseTo(0, 6);
    expect(zh?.insertion[0]).toBeCloseTo(300 * K, 3);
  });
});

describe('clipping', () => {
  it('cuts lines, Beziers, fills and text to a clipping rectangle, and only until the state is restored', async () => {
    const r = await convert((doc) => {
      doc.save().rect(50, 50, 100, 100).clip();
      doc.moveTo(0, 100).lineTo(200, 100).strokeColor('#ff0000').stroke();
      doc.moveTo(100, 140).bezierCurveTo(130, 60, 170, 60, 200, 140).strokeColor('#00ff00').stroke();
      doc.rect(120, 120, 100, 100).fillColor('#0000ff').fill();
      doc.font('Helvetica').fontSize(10).fillColor('#ff00ff').text('inside', 60, 60, { lineBreak: false });
      doc.text('outside', 250, 60, { lineBreak: false });
      doc.restore();
      doc.moveTo(0, 250).lineTo(200, 250).strokeColor('#00ffff').stroke();
    });
    const lines = of(r.drawing.modelSpace, 'LINE');
    const red = lines.find((l) => l.layer === 'PDF_255_0_0');
    near(red?.start, mm(50, 100));
    near(red?.end, mm(150, 100));
    // After restore nothing is clipped.
    const cyan = lines.find((l) => l.layer === 'PDF_0_255_255');
    near(cyan?.start, mm(0, 250));
    near(cyan?.end, mm(200, 250));
    // The Bezier is cut where it leaves x = 150: what is left is the same curve, split there.
    const [s] = of(r.drawing.modelSpace, 'SPLINE');
    const [p0, c1, c2, p3] = (s?.controlPoints ?? []).map(xy) as [number, number][];
    near(p0, mm(100, 140));
    expect(Math.abs((p3?.[0] ?? NaN) - 150 * K)).toBeLessThan(0.001);
    const original = [mm(100, 140), mm(130, 60), mm(170, 60), mm(200, 140)] as const;
    for (const t of [0.25, 0.5, 0.75]) {
      const q = bezierAt(p0 as [number, number], c1 as [number, number], c2 as [number, number], p3 as [number, number], t);
      // On the original curve: the nearest of 2000 samples is within 0.01 mm.
      let best = Infinity;
      for (let k = 0; k <= 2000; k++) {
        const o = bezierAt(...original, k / 2000);
        best = Math.min(best, Math.hypot(o[0] - q[0], o[1] - q[1]));
      }
      expect(best).toBeLessThan(0.01);
    }
    // The fill keeps its part inside the clip: the square 120..150.
    const [solid] = of(r.drawing.modelSpace, 'SOLID');
    const xs = solid?.points.map((p) => p[0]) ?? [],
      ys = solid?.points.map((p) => p[1]) ?? [];
    near(
      [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)],
      [120 * K, 150 * K, (PAGE[1] - 150) * K, (PAGE[1] - 120) * K],
    );
    expect(of(r.drawing.modelSpace, 'TEXT').map((t) => t.text)).toEqual(['inside']);
    expect(r.notes.join('\n')).toMatch(/page 1: \d+ paths or text items cut to the visible area/);
  });

  it('cuts what runs off the page at the page edge', async () => {
    const r = await convert((doc) =>
      doc
        .moveTo(-100, 100)
        .lineTo(PAGE[0] + 100, 100)
        .stroke(),
    );
    const [line] = of(r.drawing.modelSpace, 'LINE');
    near(line?.start, mm(0, 100));
    near(line?.end, mm(PAGE[0], 100));
  });
});

describe('the page background and dark pages', () => {
  it('leaves out the background fills and makes white the foreground colour of a dark page', async () => {
    const r = await pdfToDrawing(await darkPlotFixture());
    expect(r.notes.join('\n')).toMatch(/page 1: 2 page background fills \(#212830\) left out: a dark page/);
    // Nothing page-sized is left.
    for (const e of r.drawing.modelSpace)
      expect(e.type === 'SOLID' && Math.abs(e.points[1][0] - e.points[0][0]) > PAGE[0] * K * 0.9).toBe(false);
    expect(r.drawing.layers.PDF_255_255_255?.color).toEqual({ aci: 7 });
    expect(r.drawing.layers.PDF_255_0_0?.color).toEqual({ aci: 1 });
    // The white line crosses the page; the clipping rectangle 10 pt in from the edge cuts it.
    const white = of(r.drawing.modelSpace, 'LINE').find((l) => l.layer === 'PDF_255_255_255');
    near(white?.start, mm(10, 100));
    near(white?.end, mm(PAGE[0] - 10, 100));
    // The white filled shape keeps its two Beziers as spline edges.
    const [h] = of(r.drawing.modelSpace, 'HATCH');
    expect(h?.layer).toBe('PDF_255_255_255');
    expect(h?.paths[0]?.edges.map((e) => e.kind)).toEqual(['spline']);
    expect((h?.paths[0]?.edges[0] as Extract<HatchEdge, { kind: 'spline' }>).knots).toEqual([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2]);
  });

  it('keeps black as the foreground colour of a light page, and a fill that does not cover the page', async () => {
    const r = await convert((doc) => {
      doc
        .rect(0, 0, PAGE[0], PAGE[1] / 2)
        .fillColor('#ffffff')
        .fill();
      doc.moveTo(10, 10).lineTo(100, 10).strokeColor('#000000').stroke();
    });
    expect(r.notes.join('\n')).not.toMatch(/background/);
    expect(of(r.drawing.modelSpace, 'SOLID')).toHaveLength(1);
    expect(r.drawing.layers.PDF_0_0_0?.color).toEqual({ aci: 7 });
    expect(r.drawing.layers.PDF_255_255_255?.color).toEqual({ aci: 255 });
  });
});

/** A PDF written object by object (for what pdfkit cannot make: form XObjects, groups). */
function handMadePdf(content: string, xobjects: Record<string, { dict: string; stream: string }>): Uint8Array {
  const objects: string[] = [];
  const names = Object.keys(xobjects);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push('<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  const xobjRefs = names.map((n, i) => `/${n} ${5 + i} 0 R`).join(' ');
  objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Contents 4 0 R /Resources << /XObject << ${xobjRefs} >> >> >>`);
  objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  for (const n of names) {
    const x = xobjects[n] as { dict: string; stream: string };
    objects.push(`<< /Type /XObject /Subtype /Form ${x.dict} /Length ${x.stream.length} >>\nstream\n${x.stream}\nendstream`);
  }
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

describe('form XObjects', () => {
  it('applies the form matrix once (with or without a transparency group) and clips to its bounding box', async () => {
    // In its own space the form draws a short line, and a long one its box (0..50) cuts at x = 50;
    // its matrix doubles everything.
    const lines = '0 0 m 20 10 l S 0 40 m 100 40 l S';
    const form = { dict: '/BBox [0 0 50 50] /Matrix [2 0 0 2 0 0]', stream: lines };
    const grouped = { dict: '/BBox [0 0 50 50] /Matrix [2 0 0 2 0 0] /Group << /S /Transparency >>', stream: `1 0 0 RG ${lines}` };
    const pdf = handMadePdf('q 1 0 0 1 20 30 cm /F1 Do Q q 1 0 0 1 200 30 cm /F2 Do Q', { F1: form, F2: grouped });
    const r = await pdfToDrawing(pdf);
    // PDF space is y up here; each form is placed at (20, 30) and (200, 30).
    for (const [layer, x0] of [
      ['PDF_0_0_0', 20],
      ['PDF_255_0_0', 200],
    ] as const) {
      const [short, long] = of(r.drawing.modelSpace, 'LINE').filter((l) => l.layer === layer);
      near(short?.start, [x0 * K, 30 * K]);
      near(short?.end, [(x0 + 40) * K, 50 * K]);
      near(long?.start, [x0 * K, 110 * K]);
      near(long?.end, [(x0 + 100) * K, 110 * K]);
    }
  });
});

describe('page ranges and image-only pages', () => {
  async function threePages(): Promise<Uint8Array> {
    const png = await encodeOpaquePng({ width: 4, height: 4, rows: (_y, count) => new Uint8Array(4 * 4 * count).fill(90) });
    return pdfBytes(PAGE, (doc) => {
      doc.moveTo(10, 10).lineTo(110, 10).strokeColor('#ff0000').stroke();
      doc.addPage({ size: PAGE, margin: 0 });
      doc.image(png, 0, 0, { width: 100 });
      doc.addPage({ size: PAGE, margin: 0 });
      doc.moveTo(10, 10).lineTo(110, 10).strokeColor('#0000ff').stroke();
    });
  }

  it('converts pages 1 and 3 side by side and reports the image-only page 2', async () => {
    const all = await pdfToDrawing(await threePages());
    expect(all.rasterOnlyPages).toEqual([2]);
    expect(all.notes.join('\n')).toMatch(/page 2: scanned or image-only/);
    const lines = of(all.drawing.modelSpace, 'LINE');
    const third = lines.find((l) => l.layer === 'PDF_0_0_255');
    // Page 2 held nothing converted, so page 3 comes right after page 1.
    near(third?.start, [PAGE[0] * K + PAGE_GAP_MM + 10 * K, (PAGE[1] - 10) * K]);

    const picked = await pdfToDrawing(await threePages(), { pages: '1,3' });
    expect(picked.rasterOnlyPages).toEqual([]);
    expect(of(picked.drawing.modelSpace, 'LINE').map((l) => l.layer)).toEqual(['PDF_255_0_0', 'PDF_0_0_255']);
    const only3 = await pdfToDrawing(await threePages(), { pages: '3-' });
    near(of(only3.drawing.modelSpace, 'LINE')[0]?.start, mm(10, 10));
    await expect(pdfToDrawing(await threePages(), { pages: '2' })).rejects.toMatchObject({ name: 'CadReadError', reason: 'empty' });
  });
});

describe('clip geometry', () => {
  const square = (x0: number, y0: number, x1: number, y1: number): ConvexPolygon => [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
  const loop = (pts: Pt[]): Subpath => ({
    start: pts[0] as Pt,
    segments: pts.slice(1).map((to) => ({ kind: 'line' as const, to })),
    closed: true,
  });

  it('intersects convex regions exactly', () => {
    const r = intersectRegions(square(0, 0, 10, 10), square(5, -5, 20, 5));
    const xs = r.map((p) => p[0]),
      ys = r.map((p) => p[1]);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([5, 10, 0, 5]);
    expect(intersectRegions(square(0, 0, 1, 1), square(2, 2, 3, 3))).toEqual([]);
    // A diamond inside a square: the diamond itself.
    const diamond: ConvexPolygon = [
      [5, 1],
      [9, 5],
      [5, 9],
      [1, 5],
    ];
    expect(intersectRegions(square(0, 0, 10, 10), diamond)).toHaveLength(4);
  });

  it('cuts a closed outline open where it leaves the region, joining the piece through its start', () => {
    // A square outline from (0,0); the region keeps x <= 5: the left half, one open piece from (5,10) round to (5,0).
    const { subpaths, cut } = clipStroke(
      [
        loop([
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
        ]),
      ],
      square(-1, -1, 5, 11),
    );
    expect(cut).toBe(true);
    expect(subpaths).toHaveLength(1);
    const piece = subpaths[0] as Subpath;
    expect(piece.closed).toBe(false);
    const pts = [piece.start, ...piece.segments.map((s) => s.to)];
    expect(pts).toHaveLength(4);
    [
      [5, 10],
      [0, 10],
      [0, 0],
      [5, 0],
    ].forEach((p, i) => near(pts[i], p, 1e-9));
  });

  it('keeps what lies inside untouched and cuts a fill to the region', () => {
    const inside = loop([
      [1, 1],
      [4, 1],
      [4, 4],
    ]);
    const kept = clipStroke([inside], square(0, 0, 10, 10));
    expect(kept.cut).toBe(false);
    expect(kept.subpaths[0]).toBe(inside);
    const { subpaths } = clipFill(
      [
        loop([
          [0, 0],
          [10, 0],
          [10, 10],
          [0, 10],
        ]),
      ],
      square(5, 5, 20, 20),
    );
    const pts = [subpaths[0]?.start, ...(subpaths[0]?.segments.map((s) => s.to) ?? [])] as Pt[];
    const xs = pts.map((p) => p[0]),
      ys = pts.map((p) => p[1]);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([5, 10, 5, 10]);
  });
});
