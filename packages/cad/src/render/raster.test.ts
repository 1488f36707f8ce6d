import { describe, expect, it } from 'vitest';
import { renderScenes } from './index';
import { rasterLayout } from './node-raster';
import type { PathPrimitive, Primitive } from '../display/types';
import {
  CJK_FONT,
  LATIN_FONT,
  STYLES,
  decode,
  fill,
  layoutScene,
  list,
  modelScene,
  sampleScene,
  stroke,
  text,
  type Pixels,
} from './test-scenes';
import type { FontRef } from '../text/fonts';

const isInk = (p: [number, number, number], bg = 255): boolean => Math.abs(p[0] - bg) + Math.abs(p[1] - bg) + Math.abs(p[2] - bg) > 60;
const isRed = (p: [number, number, number]): boolean => p[0] > 180 && p[0] - p[1] > 80 && p[0] - p[2] > 80;

/** Does some pixel within `r` of (x, y) satisfy `pred` (thin antialiased lines straddle pixels)? */
function near(img: Pixels, x: number, y: number, pred: (p: [number, number, number]) => boolean, r = 1): boolean {
  for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) if (pred(img.at(x + dx, y + dy))) return true;
  return false;
}

/** The sample scene (200 × 100) at width 400 × 200: 1.995 px per unit, the extents' sides on the edge pixels' centres. */
const sx = (x: number): number => 0.5 + 1.995 * x;
const sy = (y: number): number => 0.25 + 1.995 * (100 - y);

function column(img: Pixels, x: number): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let y = 0; y < img.height; y++) out.push(img.at(x, y));
  return out;
}

describe('PNG/JPG', () => {
  it('fills the requested width with the extents, no margin; the height follows the aspect ratio', async () => {
    const png = await renderScenes([sampleScene()], { format: 'png', width: 400 });
    expect([...png.subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const img = await decode(png);
    expect(img.width).toBe(400);
    expect(img.height).toBe(200);
    // The frame (0..200 × 0..100) runs along the image edges.
    expect(column(img, 0).filter((p) => isInk(p)).length).toBeGreaterThan(150);
    expect(column(img, 399).filter((p) => isInk(p)).length).toBeGreaterThan(150);
    // Lines are thin: the frame's left side is at most 2 px wide.
    expect(isInk(img.at(3, 100))).toBe(false);
  });

  it('lands a red line where the geometry says and hides hidden layers', async () => {
    const img = await decode(await renderScenes([sampleScene()], { format: 'png', width: 400 }));
    // Red line at model y = 50, x from 20 to 180.
    expect(near(img, sx(100), sy(50), isRed)).toBe(true);
    expect(near(img, sx(170), sy(50), isRed)).toBe(true);
    expect(near(img, sx(100), sy(45), (p) => isInk(p), 2)).toBe(false);
    expect(near(img, sx(10), sy(50), (p) => isInk(p), 2)).toBe(false);
    // The hidden-layer diagonal (0, 0)–(200, 100) would cross (60, 30).
    expect(near(img, sx(60), sy(30), (p) => isInk(p), 2)).toBe(false);
    // The blue 0.5 mm line at x = 150 (0.5 mm ≈ 2.4 px at 4.8 px/mm): solid blue at its centre.
    const blue = img.at(sx(150), sy(30));
    expect(blue[2]).toBeGreaterThan(180);
    expect(blue[0]).toBeLessThan(100);
  });

  it('draws white on black: black corners, foreground lines white', async () => {
    const img = await decode(await renderScenes([sampleScene()], { format: 'png', width: 400, background: 'black' }));
    const corner = img.at(0, 0);
    expect(corner[0] + corner[1] + corner[2]).toBeGreaterThan(300);
    const inside = img.at(sx(100), sy(90));
    expect(inside[0] + inside[1] + inside[2]).toBeLessThan(30);
    // The frame's bottom edge (y = 0) runs along the last row: white.
    expect(Math.min(...img.at(sx(100), img.height - 1))).toBeGreaterThan(150);
    // Mono on black: the red line turns white.
    const mono = await decode(await renderScenes([sampleScene()], { format: 'png', width: 400, background: 'black', color: 'mono' }));
    expect(near(mono, sx(100), sy(50), (p) => Math.min(...p) > 120)).toBe(true);
    expect(near(mono, sx(100), sy(50), isRed, 2)).toBe(false);
    // Truly black corners where nothing is drawn: an empty corner of a frame-less drawing.
    const lines = modelScene(list([stroke(1, [0, 0, 100, 100]), stroke(0, [0, 100, 10, 90])], STYLES));
    const dark = await decode(await renderScenes([lines], { format: 'png', width: 200, background: 'black' }));
    // The red diagonal runs from the bottom-left to the top-right corner; the bottom-right one is empty.
    expect(dark.at(199, 199)).toEqual([0, 0, 0]);
    expect(dark.at(199, 120)).toEqual([0, 0, 0]);
    expect(near(dark, 199, 0, isRed)).toBe(true);
    expect(near(dark, 5, 5, (p) => Math.min(...p) > 200)).toBe(true);
  });

  it('sizes by dpi: an A4 layout at 100 dpi is 827 × 1169 px', async () => {
    const img = await decode(await renderScenes([layoutScene()], { format: 'png', dpi: 100 }));
    expect([img.width, img.height]).toEqual([827, 1169]);
    expect(rasterLayout(layoutScene(), {}).width).toBe(Math.round((210 / 25.4) * 150));
  });

  it('clips a viewport: model geometry outside it stays background, inside it is drawn', async () => {
    const img = await decode(await renderScenes([layoutScene()], { format: 'png', dpi: 100 }));
    const px = (mmX: number, mmY: number): [number, number, number] => img.at((mmX * 100) / 25.4, ((297 - mmY) * 100) / 25.4);
    // The diagonal through paper (100, 150): inside the viewport at (120, 170), outside at (170, 220) and (30, 80).
    expect(isInk(px(120, 170))).toBe(true);
    expect(isInk(px(170, 220))).toBe(false);
    expect(isInk(px(30, 80))).toBe(false);
    // The red line at paper y = 150: inside at x = 60..140, not at x = 160 or 40.
    expect(isRed(px(70, 150)) || isRed(px(70, 150.2)) || isRed(px(70, 149.8))).toBe(true);
    expect(isInk(px(160, 150))).toBe(false);
    expect(isInk(px(40, 150))).toBe(false);
    // The layer frozen in the viewport (paper y = 170) is not drawn.
    expect(isInk(px(70, 170))).toBe(false);
    // The paper-space frame at x = 10 mm is drawn.
    expect(isInk(px(10, 150))).toBe(true);
  });

  it('writes JPG at the requested size and quality', async () => {
    const jpg = await renderScenes([sampleScene()], { format: 'jpg', width: 300, quality: 80 });
    expect([jpg[0], jpg[1]]).toEqual([0xff, 0xd8]);
    const img = await decode(jpg);
    expect([img.width, img.height]).toEqual([300, 150]);
    const small = await renderScenes([sampleScene()], { format: 'jpg', width: 300, quality: 10 });
    expect(small.length).toBeLessThan(jpg.length);
  });

  it('draws Chinese text as glyphs (ink inside the text box)', async () => {
    const scene = modelScene(list([text(0, '中文', 0, 0, 10, 1), stroke(0, [0, -2, 20, -2])], STYLES));
    const img = await decode(await renderScenes([scene], { format: 'png', width: 200 }));
    let ink = 0;
    for (let y = 0; y < img.height - 25; y++) for (let x = 0; x < img.width; x++) if (isInk(img.at(x, y))) ink++;
    expect(ink).toBeGreaterThan(500);
  });

  it('sets text in a TrueType font from its outlines: cap height, baseline and stretched width where the font puts them', async () => {
    const liberation: FontRef = {
      requested: 'arial.ttf',
      family: 'Liberation Sans',
      file: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
      substituted: true,
    };
    // 'HHHH' 10 units tall, stretched to 24 units wide; drawn 10 px a unit (the text's box fills 241 px).
    const scene = modelScene(list([text(0, 'HHHH', 0, 0, 10, 2)], STYLES, [LATIN_FONT, CJK_FONT, liberation]));
    const img = await decode(await renderScenes([scene], { format: 'png', width: 241 }));
    let top = Infinity,
      bottom = -Infinity,
      left = Infinity,
      right = -Infinity;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++)
        if (isInk(img.at(x, y))) {
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
          left = Math.min(left, x);
          right = Math.max(right, x);
        }
    // Liberation's H: cap height 1409/2048 em, side bearings 158 units of its 1479 advance.
    expect(top).toBeGreaterThanOrEqual(Math.floor(100 - 68.8) - 1);
    expect(top).toBeLessThanOrEqual(Math.ceil(100 - 68.8) + 1);
    expect(bottom).toBeGreaterThanOrEqual(98);
    const stretch = 24 / ((4 * 1479 * 10) / 2048);
    expect(left).toBeCloseTo(((158 * 10) / 2048) * stretch * 10, -0.5);
    expect(right).toBeCloseTo(240 - ((158 * 10) / 2048) * stretch * 10, -0.5);
    // Four separate letters: columns without ink between them.
    let gaps = 0;
    for (let x = left, wasInk = true; x <= right; x++) {
      let ink = false;
      for (let y = top; y <= bottom && !ink; y++) ink = isInk(img.at(x, y));
      if (wasInk && !ink) gaps++;
      wasInk = ink;
    }
    expect(gaps).toBe(3);
  });

  it('scales lineweights by dpi and keeps thin lines 1 px with a width', async () => {
    const thick = modelScene(list([stroke(2, [0, 0, 100, 0]), stroke(0, [0, 50, 100, 50])], STYLES));
    // On A4 landscape (287 mm for 100 units) at 254 dpi, 10 px/mm: 0.5 mm = 5 px, 0.25 mm = 2.5 px.
    const img = await decode(await renderScenes([thick], { format: 'png', dpi: 254, paper: 'A4' }));
    const col = column(img, Math.round(img.width / 2));
    const half = Math.round(img.height / 2);
    const lower = col.slice(half).filter((p) => isInk(p)).length;
    const upper = col.slice(0, half).filter((p) => isInk(p)).length;
    expect(lower).toBeGreaterThanOrEqual(5);
    expect(lower).toBeLessThanOrEqual(7);
    expect(upper).toBeGreaterThanOrEqual(2);
    expect(upper).toBeLessThanOrEqual(4);
    const thin = await decode(await renderScenes([thick], { format: 'png', width: 1000, lineweights: false }));
    expect(column(thin, 500).filter((p) => isInk(p)).length).toBeLessThanOrEqual(4);
  });

  it('fills with the even-odd or non-zero rule, paints wipeouts in the background colour and draws gradients', async () => {
    const ring = (x0: number, y0: number, x1: number, y1: number): number[] => [x0, y0, x1, y0, x1, y1, x0, y1];
    const holed = (dx: number, rule?: 'nonzero'): PathPrimitive => ({
      kind: 'path',
      mode: 'fill',
      style: 0,
      coords: Float64Array.from([...ring(dx, 0, dx + 100, 100), ...ring(dx + 25, 25, dx + 75, 75)]),
      starts: Uint32Array.from([0, 4]),
      ...(rule ? { rule } : {}),
    });
    const g: Primitive = {
      ...(fill(1, ring(200, 0, 300, 100)) as PathPrimitive),
      gradient: { name: 'LINEAR', colors: [0xff0000, 0x0000ff], angle: 0 },
    };
    const scene = modelScene(
      list([holed(0), holed(100, 'nonzero'), g, fill(0, ring(0, 0, 40, 40)), fill(0, ring(10, 10, 30, 30), 'wipeout')], STYLES),
    );
    const img = await decode(await renderScenes([scene], { format: 'png', width: 301 }));
    // 1 px per unit; y flipped (row = 100 - y).
    const at = (x: number, y: number): [number, number, number] => img.at(x, 100 - y);
    expect(at(50, 50)).toEqual([255, 255, 255]); // even-odd hole
    expect(at(80, 80)).toEqual([0, 0, 0]);
    expect(at(150, 50)).toEqual([0, 0, 0]); // non-zero: the inner ring (same winding) does not cut a hole
    expect(at(20, 20)).toEqual([255, 255, 255]); // wipeout over the black square
    expect(at(5, 5)).toEqual([0, 0, 0]);
    const left = at(203, 50),
      right = at(297, 50);
    expect(left[0]).toBeGreaterThan(200);
    expect(left[2]).toBeLessThan(60);
    expect(right[2]).toBeGreaterThan(200);
    expect(right[0]).toBeLessThan(60);
    const mid = at(250, 50);
    expect(mid[0]).toBeGreaterThan(80);
    expect(mid[2]).toBeGreaterThan(80);
  });

  it('refuses images above 100 megapixels with a clear error', async () => {
    await expect(renderScenes([sampleScene()], { format: 'png', width: 30000 })).rejects.toThrow(/megapixels/);
  });
});
