import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertDrawing, defaultFonts } from '../convert';
import { dxfText } from '../dxf/test-helpers';
import { pdfToDrawing } from '../pdf';
import { compareInk, type RgbaImage } from '../ink-compare';
import type { FontProvider } from '../text/fonts';

type G = [number, string | number][];

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN = resolve(here, '../../test-fixtures/golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

let fonts: FontProvider;
/** A one-page PDF made here by the engine: a 100 × 60 mm frame with a circle and a diagonal. */
let pagePdf: Uint8Array;

function drawing(entities: G, objects: G = []): Uint8Array {
  const g: G = [[0, 'SECTION'], [2, 'ENTITIES'], ...entities, [0, 'ENDSEC']];
  if (objects.length) g.push([0, 'SECTION'], [2, 'OBJECTS'], ...objects, [0, 'ENDSEC']);
  g.push([0, 'EOF']);
  return new TextEncoder().encode(dxfText(g));
}

/** A PDFUNDERLAY at (10, 20), scale 2, with clip points (11/21) and flags 280. */
function underlay(flags: number, clip: [number, number][] = []): G {
  const g: G = [
    [0, 'PDFUNDERLAY'],
    [5, 'A1'],
    [8, '0'],
    [62, 5],
    [100, 'AcDbUnderlayReference'],
    [340, 'A0'],
  ];
  g.push([10, 10], [20, 20], [30, 0], [41, 2], [42, 2], [43, 2], [280, flags], [281, 100], [282, 0]);
  if (clip.length) g.push([91, clip.length]);
  for (const [x, y] of clip) g.push([11, x], [21, y]);
  return g;
}
const DEFINITION: G = [
  [0, 'PDFDEFINITION'],
  [5, 'A0'],
  [100, 'AcDbUnderlayDefinition'],
  [1, 'C:\\plans\\Page.PDF'],
  [2, '1'],
];

beforeAll(async () => {
  fonts = await defaultFonts([]);
  const src = drawing([
    [0, 'LWPOLYLINE'],
    [8, '0'],
    [90, 4],
    [70, 1],
    [10, 0],
    [20, 0],
    [10, 100],
    [20, 0],
    [10, 100],
    [20, 60],
    [10, 0],
    [20, 60],
    [0, 'CIRCLE'],
    [8, '0'],
    [10, 50],
    [20, 30],
    [30, 0],
    [40, 20],
    [0, 'LINE'],
    [8, '0'],
    [10, 0],
    [20, 0],
    [30, 0],
    [11, 100],
    [21, 60],
    [31, 0],
  ]);
  const pdf = await convertDrawing(src, { format: 'pdf', fonts, name: 'page.dxf' });
  pagePdf = pdf.outputs[0]?.data as Uint8Array;
}, 60_000);

async function decode(png: Uint8Array): Promise<RgbaImage> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

describe('PDFUNDERLAY', () => {
  it('draws the page of the PDF given with the drawing, found by its file name whatever folder it recorded', async () => {
    const asked: string[] = [];
    const r = await convertDrawing(drawing(underlay(2), DEFINITION), {
      format: 'png',
      width: 512,
      fonts,
      name: 'u.dxf',
      underlayPages: async (name, page) => {
        asked.push(`${name}#${page}`);
        return /(^|[\\/])page\.pdf$/i.test(name) ? (await pdfToDrawing(pagePdf, { pages: page })).drawing : null;
      },
    });
    expect(asked).toEqual(['C:\\plans\\Page.PDF#1']);
    expect(r.drawn.PDFUNDERLAY).toBe(1);
    expect(r.skipped).toEqual({});
    expect(r.warnings.join('\n')).not.toMatch(/not loaded|not drawn/);
    const png = r.outputs[0]?.data as Uint8Array;
    const goldenFile = join(GOLDEN, 'underlay-pdf.png');
    if (UPDATE) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(goldenFile, png);
      return;
    }
    expect(existsSync(goldenFile)).toBe(true);
    const score = compareInk(await decode(png), await decode(readFileSync(goldenFile)), { width: 512, tolerance: 1 });
    expect(score?.f1).toBeGreaterThanOrEqual(0.97);
  }, 60_000);

  it('clips the page to its clip boundary and frames it there', async () => {
    // Clip rectangle in the underlay's inches: the lower-left 2 × 1.5 inches of the page.
    const r = await convertDrawing(
      drawing(
        underlay(3, [
          [0, 0],
          [2, 1.5],
        ]),
        DEFINITION,
      ),
      {
        format: 'svg',
        fonts,
        name: 'u.dxf',
        underlayPages: async (_name, page) => (await pdfToDrawing(pagePdf, { pages: page })).drawing,
      },
    );
    expect(r.drawn.PDFUNDERLAY).toBe(1);
    const svg = new TextDecoder().decode(r.outputs[0]?.data);
    expect(svg).toMatch(/clip/i);
  }, 60_000);

  it('without its file: the clip boundary as a frame and a notice; with neither, not drawn with the reason', async () => {
    const framed = await convertDrawing(
      drawing(
        [
          ...underlay(3, [
            [0, 0],
            [4, 3],
          ]),
          [0, 'LINE'],
          [8, '0'],
          [10, 0],
          [20, 0],
          [30, 0],
          [11, 1],
          [21, 1],
          [31, 0],
        ],
        DEFINITION,
      ),
      {
        format: 'png',
        width: 256,
        fonts,
        name: 'u.dxf',
      },
    );
    expect(framed.drawn.PDFUNDERLAY).toBe(1);
    expect(framed.warnings.join('\n')).toMatch(/PDFUNDERLAY "C:\\plans\\Page.PDF" is not loaded: only its frame is drawn/);
    const bare = await convertDrawing(
      drawing([...underlay(2), [0, 'LINE'], [8, '0'], [10, 0], [20, 0], [30, 0], [11, 1], [21, 1], [31, 0]], DEFINITION),
      {
        format: 'png',
        width: 256,
        fonts,
        name: 'u.dxf',
      },
    );
    expect(bare.skipped.PDFUNDERLAY).toBe(1);
    expect(bare.warnings.join('\n')).toMatch(/PDFUNDERLAY not drawn: its file "C:\\plans\\Page.PDF" was not given/);
  }, 60_000);

  it('a file that is not a PDF leaves the frame and says why', async () => {
    const r = await convertDrawing(
      drawing(
        underlay(3, [
          [0, 0],
          [4, 3],
        ]),
        DEFINITION,
      ),
      {
        format: 'png',
        width: 256,
        fonts,
        name: 'u.dxf',
        underlayPages: async (_name, page) => (await pdfToDrawing(new TextEncoder().encode('not a pdf'), { pages: page })).drawing,
      },
    );
    expect(r.drawn.PDFUNDERLAY).toBe(1);
    expect(r.warnings.join('\n')).toMatch(/PDF underlay "C:\\plans\\Page.PDF" page 1 could not be read/);
  }, 60_000);
});
