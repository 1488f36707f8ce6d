/**
 * convertDrawing, the library call the conversion workers use: which layout is drawn, what comes
 * out per format, and the refusals (empty drawing, unknown layout, contradictory options).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { CadConvertError, convertDrawing, defaultFonts, drawingSummary, writeDrawingAs, type ConvertOptions } from './convert';
import { entitiesDxf, dxfText } from './dxf/test-helpers';
import { CadReadError } from './errors';
import { inkBounds, inkMask } from './ink-compare';
import { openDrawing } from './open';
import type { FontProvider } from './text/fonts';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../test-fixtures');
const line = (x1: number, y1: number, x2: number, y2: number, extra: [number, string | number][] = []): [number, string | number][] => [
  [0, 'LINE'],
  [8, '0'],
  ...extra,
  [10, x1],
  [20, y1],
  [30, 0],
  [11, x2],
  [21, y2],
  [31, 0],
];
/** A 100 x 50 diagonal in model space. */
const modelDxf = entitiesDxf(line(0, 0, 100, 50));
/** Nothing in model space; one line in paper space (group 67 = 1). */
const paperOnlyDxf = entitiesDxf(line(0, 0, 200, 100, [[67, 1]]));

let fonts: FontProvider;
beforeAll(async () => {
  fonts = await defaultFonts([]);
});
const convert = (bytes: Uint8Array, options: ConvertOptions): ReturnType<typeof convertDrawing> =>
  convertDrawing(bytes, { fonts, ...options });

async function refusal(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal');
}

async function decode(png: Uint8Array): Promise<{ width: number; height: number; data: Uint8ClampedArray }> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

describe('convertDrawing: which layout', () => {
  it('draws the model by default; with --width the extents fill the PNG', async () => {
    const r = await convert(modelDxf, { format: 'png', width: 200 });
    expect(r.outputs).toHaveLength(1);
    expect(r.outputs[0]).toMatchObject({ name: 'Model', layouts: ['Model'] });
    expect(r.drawn.LINE).toBe(1);
    const img = await decode(r.outputs[0]?.data ?? new Uint8Array());
    expect(img.width).toBe(200);
    // A 2:1 diagonal: the image is about 100 px high and the line runs corner to corner.
    expect(img.height).toBeGreaterThanOrEqual(98);
    expect(img.height).toBeLessThanOrEqual(102);
    const box = inkBounds(inkMask(img));
    expect(box?.x0).toBeLessThanOrEqual(2);
    expect(box?.x1).toBeGreaterThanOrEqual(197);
  });

  it('takes the first layout with content when the model is empty', async () => {
    const r = await convert(paperOnlyDxf, { format: 'svg' });
    expect(r.outputs).toHaveLength(1);
    expect(r.outputs[0]?.name).toBe('Layout1');
    expect(new TextDecoder().decode(r.outputs[0]?.data)).toContain('<svg');
  });

  it('picks a layout by name, case-insensitively; an unknown name lists the layouts', async () => {
    const bytes = readFileSync(resolve(FIXTURES, 'skydxf_testModelPaperSpace.dxf'));
    const r = await convert(bytes, { format: 'pdf', layout: 'test sheet' });
    expect(r.outputs[0]?.layouts).toEqual(['Test Sheet']);
    const err = await refusal(convert(bytes, { format: 'pdf', layout: 'Sheet 9' }));
    expect(err).toBeInstanceOf(CadConvertError);
    expect(err.message).toBe("no layout named 'Sheet 9' (layouts: Model, Test Sheet)");
  });

  it('all layouts: one PDF with a page each, or one PNG each', async () => {
    const bytes = readFileSync(resolve(FIXTURES, 'skydxf_testModelPaperSpace.dxf'));
    const pdf = await convert(bytes, { format: 'pdf', allLayouts: true });
    expect(pdf.outputs).toHaveLength(1);
    expect(pdf.outputs[0]?.layouts).toEqual(['Model', 'Test Sheet']);
    expect(new TextDecoder('latin1').decode(pdf.outputs[0]?.data).match(/\/Type\s*\/Page\b(?!s)/g)).toHaveLength(2);
    const png = await convert(bytes, { format: 'png', allLayouts: true, width: 64 });
    expect(png.outputs.map((o) => o.name)).toEqual(['Model', 'Test Sheet']);
  });
});

describe('what a conversion reports (decision 0036)', () => {
  it('counts the objects drawn and the types it could not draw', async () => {
    const custom: [number, string | number][] = [
      [0, 'AEC_WALL'],
      [8, '0'],
    ];
    const dxf = entitiesDxf([...line(0, 0, 100, 50), ...custom, ...custom, ...line(0, 50, 100, 0)]);
    const result = await convert(dxf, { format: 'svg' });
    expect(result.drawn).toMatchObject({ LINE: 2 });
    expect(result.skipped).toEqual({ AEC_WALL: 2 });
    expect((await convert(modelDxf, { format: 'svg' })).skipped).toEqual({});
  });

  it('saves a drawing as a DXF or DWG of a version and says what it holds', async () => {
    const { drawing } = await openDrawing(readFileSync(resolve(FIXTURES, 'skydxf_testModelPaperSpace.dxf')), 'ms.dxf');
    const summary = drawingSummary(drawing);
    expect(summary.layouts[0]).toBe('Model');
    expect(summary.layouts.length).toBeGreaterThan(1);
    expect(summary.objects).toBe(drawing.modelSpace.length + drawing.layouts.reduce((n, l) => n + (l.entities?.length ?? 0), 0));
    const dxf = writeDrawingAs(drawing, { format: 'dxf', version: 'R12' });
    expect(new TextDecoder().decode(dxf.bytes.subarray(0, 4000))).toMatch(/\$ACADVER\s+1\s+AC1009/);
    expect(dxf.summary).toEqual(summary);
    const dwg = writeDrawingAs(drawing, { format: 'dwg', version: '2004' });
    expect(new TextDecoder().decode(dwg.bytes.subarray(0, 6))).toBe('AC1018');
    expect(Array.isArray(dwg.changes)).toBe(true);
  });
});

describe('convertDrawing: refusals', () => {
  it("an empty drawing is refused as 'empty', saying so", async () => {
    const err = await refusal(convert(entitiesDxf([]), { format: 'png' }));
    expect(err).toBeInstanceOf(CadReadError);
    expect((err as CadReadError).reason).toBe('empty');
    expect(err.message).toBe('no drawable entities: the drawing is empty');
  });

  it('a drawing whose only line is on a frozen layer is refused with the reason', async () => {
    const bytes = new TextEncoder().encode(
      dxfText([
        [0, 'SECTION'],
        [2, 'TABLES'],
        [0, 'TABLE'],
        [2, 'LAYER'],
        [0, 'LAYER'],
        [2, 'HIDDEN'],
        [70, 1],
        [62, 7],
        [6, 'CONTINUOUS'],
        [0, 'ENDTAB'],
        [0, 'ENDSEC'],
        [0, 'SECTION'],
        [2, 'ENTITIES'],
        ...line(0, 0, 1, 1, [[8, 'HIDDEN']]).filter(([c, v]) => !(c === 8 && v === '0')),
        [0, 'ENDSEC'],
        [0, 'EOF'],
      ]),
    );
    const err = await refusal(convert(bytes, { format: 'pdf', name: 'plan.dxf' }));
    expect((err as CadReadError).reason).toBe('empty');
    expect(err.message).toBe('plan.dxf: no drawable entities: the 1 entity is on layers that are off, frozen or not plotted, or invisible');
  });

  it('contradictory or out-of-range options are refused before reading', async () => {
    for (const options of [
      { format: 'png', width: 100, dpi: 72 },
      { format: 'png', layout: 'Model', allLayouts: true },
      { format: 'png', width: 0 },
      { format: 'jpg', quality: 101 },
      { format: 'bmp' },
    ] as ConvertOptions[]) {
      const err = await refusal(convert(modelDxf, options));
      expect(err, JSON.stringify(options)).toBeInstanceOf(CadConvertError);
    }
  });
});

describe('openDrawing: by content, not by name', () => {
  it('reads DXF whatever the file is called', async () => {
    const r = await openDrawing(modelDxf, 'drawing.dwg');
    expect(r.format).toBe('dxf');
    expect(r.drawing.modelSpace).toHaveLength(1);
  });

  it.each([
    ['a PDF', '%PDF-1.7\n%', 'unsupported', /PDF, not a DWG or DXF drawing \(converting PDF to CAD is a separate tool\)/],
    ['a PNG image', '\x89PNG\r\n\x1a\n....', 'unsupported', /PNG image, not a DWG or DXF drawing/],
    ['an empty file', '', 'empty', /the file is empty/],
    ['blank lines', '\n\n  \r\n', 'empty', /the file is empty/],
    ['text', 'hello, this is not a drawing', 'not-dxf', /not a DWG or DXF drawing/],
  ])('refuses %s', async (_what, content, reason, message) => {
    const err = await refusal(
      openDrawing(
        Uint8Array.from(content, (c) => c.charCodeAt(0)),
        'x.dxf',
      ),
    );
    expect(err).toBeInstanceOf(CadReadError);
    expect((err as CadReadError).reason).toBe(reason);
    expect(err.message).toMatch(/^x\.dxf: /);
    expect(err.message).toMatch(message);
  });
});
