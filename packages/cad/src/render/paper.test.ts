import { describe, expect, it } from 'vitest';
import { FOREGROUND } from '../geom/color';
import { displayColor, displayRgb, layoutSheet, lineweightMm, scenePage } from './paper';
import { layoutScene, sampleScene } from './test-scenes';
import type { Affine2D } from '../geom/matrix';

const apply = (m: Affine2D, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];

describe('scenePage', () => {
  it('fits model space to a page the shape of the extents, long side A3, 5 mm margin, y flipped', () => {
    const page = scenePage(sampleScene());
    // Extents 200 × 100 (the text stays inside): 410 mm for 200 units.
    expect(page.width).toBeCloseTo(420);
    expect(page.scale).toBeCloseTo(410 / 200);
    expect(page.height).toBeCloseTo(100 * page.scale + 10);
    const [x0, y0] = apply(page.matrix, 0, 0);
    const [x1, y1] = apply(page.matrix, 200, 100);
    expect(x0).toBeCloseTo(5);
    expect(y0).toBeCloseTo(page.height - 5);
    expect(x1).toBeCloseTo(415);
    expect(y1).toBeCloseTo(5);
  });

  it('puts a wide drawing on A3 landscape, centred, and honours a forced orientation', () => {
    const land = scenePage(sampleScene(), { paper: 'A3' });
    expect([land.width, land.height]).toEqual([420, 297]);
    const [cx, cy] = apply(land.matrix, 100, 50);
    expect(cx).toBeCloseTo(210);
    expect(cy).toBeCloseTo(148.5);
    expect(land.scale).toBeCloseTo(410 / 200);
    const port = scenePage(sampleScene(), { paper: 'A3', orientation: 'portrait' });
    expect([port.width, port.height]).toEqual([297, 420]);
    expect(port.scale).toBeCloseTo(287 / 200);
  });

  it('places a layout on its own sheet at 1:1 with the origin inside the margins', () => {
    const scene = layoutScene();
    scene.paper = { width: 210, height: 297, rotation: 0, margins: [7, 9, 7, 9] };
    const page = scenePage(scene);
    expect([page.width, page.height]).toEqual([210, 297]);
    expect(page.scale).toBeCloseTo(1);
    const [x, y] = apply(page.matrix, 0, 0);
    expect(x).toBeCloseTo(7);
    expect(y).toBeCloseTo(297 - 9);
  });

  it('turns a layout sheet by its plot rotation and fits it onto a chosen paper', () => {
    expect(layoutSheet({ width: 297, height: 420, rotation: 90, margins: [0, 0, 0, 0] })).toMatchObject({ width: 420, height: 297 });
    const scene = layoutScene();
    const a3 = scenePage(scene, { paper: 'A3' });
    expect([a3.width, a3.height]).toEqual([297, 420]);
    expect(a3.scale).toBeCloseTo(420 / 297);
    const forced = scenePage(scene, { orientation: 'landscape' });
    expect([forced.width, forced.height]).toEqual([297, 210]);
  });

  it('detects paper space drawn in inches (the plot paper units) and fits drawings at another plot scale onto the sheet', () => {
    // Letter, plot rotated 90°: shown 279.4 × 215.9 mm; paper space in inches, 1..10 × 1..7.
    const scene = layoutScene();
    scene.paper = { width: 215.9, height: 279.4, rotation: 90, margins: [6.35, 6.35, 6.35, 6.35] };
    scene.bounds = { minX: 1, minY: 1, maxX: 10, maxY: 7 };
    const page = scenePage(scene);
    expect(page.width).toBeCloseTo(279.4);
    expect(page.height).toBeCloseTo(215.9);
    expect(page.scale).toBeCloseTo(25.4);
    const [x, y] = apply(page.matrix, 0, 0);
    expect(x).toBeCloseTo(6.35);
    expect(y).toBeCloseTo(215.9 - 6.35);
    // Far larger than the sheet (a scaled plot): fitted with the margin onto the sheet-sized page.
    scene.bounds = { minX: 0, minY: 0, maxX: 5000, maxY: 2500 };
    const fitted = scenePage(scene);
    expect(fitted.width).toBeCloseTo(279.4);
    expect(fitted.scale).toBeCloseTo((279.4 - 10) / 5000);
  });

  it('fits the extents when a layout has no page setup, and fills the extents edge to edge for raster widths', () => {
    const scene = layoutScene();
    delete scene.paper;
    const page = scenePage(scene);
    expect(page.width).toBeCloseTo(190 + 10);
    expect(page.height).toBeCloseTo(277 + 10);
    const edge = scenePage(sampleScene(), { paper: 'fit', margin: 0, extents: true });
    const [x0] = apply(edge.matrix, 0, 0);
    const [x1] = apply(edge.matrix, 200, 0);
    expect(x0).toBeCloseTo(0);
    expect(x1).toBeCloseTo(edge.width);
  });
});

describe('colours and lineweights', () => {
  it('maps colours per mode and background', () => {
    expect(displayColor(FOREGROUND)).toBe('#000000');
    expect(displayColor(FOREGROUND, 'color', 'black')).toBe('#ffffff');
    expect(displayColor(0xff0000)).toBe('#ff0000');
    expect(displayColor(0xff0000, 'mono')).toBe('#000000');
    expect(displayColor(0xff0000, 'mono', 'black')).toBe('#ffffff');
    expect(displayRgb(0xff0000, 'gray')).toBe(0x4c4c4c);
    // White on white paper (and black on black) would vanish: drawn in the foreground colour.
    expect(displayColor(0xffffff)).toBe('#000000');
    expect(displayColor(0x000000, 'color', 'black')).toBe('#ffffff');
    expect(displayColor(0xffffff, 'color', 'black')).toBe('#ffffff');
  });

  it('gives lineweight 0 and "off" the thinnest line', () => {
    expect(lineweightMm(0, true)).toBe(0.1);
    expect(lineweightMm(0.5, true)).toBe(0.5);
    expect(lineweightMm(0.5, false)).toBe(0.1);
  });
});
