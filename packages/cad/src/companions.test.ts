import { describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { attachCompanions, Companions, fileNameOf, pictureOf, referencesOf } from './companions';
import { convertDrawing } from './convert';
import { buildScenes } from './display/builder';
import { testDxf, type TestDrawing } from './display/test-helpers';
import { readDxf } from './dxf/reader';
import type { DisplayList } from './display/types';

// A drawing arrives with the files it refers to: an external reference saved on the author's
// Windows machine as C:\项目\底图\site.dwg (supplied here as SITE.DXF) and a picture logo.png.

type G = [number, string | number][];

const line = (layer: string, x0: number, y0: number, x1: number, y1: number): G => [
  [0, 'LINE'],
  [8, layer],
  [10, x0],
  [20, y0],
  [30, 0],
  [11, x1],
  [21, y1],
  [31, 0],
];

/** The referenced drawing: a red wall 10 long from its origin, and a back reference to the host (a cycle) when asked. */
function siteDxf(backToHost = false): Uint8Array {
  const d: TestDrawing = {
    layers: [['WALLS', 1]],
    entities: [
      ...line('WALLS', 0, 0, 10, 0),
      ...(backToHost
        ? ([
            [0, 'INSERT'],
            [8, '0'],
            [2, 'HOST'],
            [10, 0],
            [20, 0],
            [30, 0],
          ] as G)
        : []),
    ],
    ...(backToHost ? { blocks: [{ name: 'HOST', flags: 4, path: 'host.dxf', entities: [] }] } : {}),
  };
  return testDxf(d);
}

/** An IMAGE of a 20 x 10 pixel picture, 2 x 1 units at the origin (IMAGEDEF A1); `clipLeftHalf` shows its left half only. */
function imageGroups(clipLeftHalf: boolean): G {
  const image: G = [
    [0, 'IMAGE'],
    [8, '0'],
    [10, 0],
    [20, 0],
    [30, 0],
    [11, 0.1],
    [21, 0],
    [31, 0],
    [12, 0],
    [22, 0.1],
    [32, 0],
    [13, 20],
    [23, 10],
    [70, 7],
    [280, clipLeftHalf ? 1 : 0],
    [340, 'A1'],
  ];
  // Clip corners in pixel coordinates (origin at the top-left pixel's centre): the left half.
  if (clipLeftHalf) image.push([71, 1], [91, 2], [14, -0.5], [24, -0.5], [14, 9.5], [24, 9.5]);
  return image;
}

/** The host: the site attached at (100, 50) on its own layer, and the picture at the origin. */
function hostDrawing() {
  const d: TestDrawing = {
    layers: [['SITEPLAN', 3]],
    blocks: [{ name: 'SITE', flags: 4, path: 'C:\\项目\\底图\\site.dwg', entities: [] }],
    entities: [[0, 'INSERT'], [8, 'SITEPLAN'], [2, 'SITE'], [10, 100], [20, 50], [30, 0], ...imageGroups(false)],
    objects: [
      [0, 'IMAGEDEF'],
      [5, 'A1'],
      [1, '..\\图片\\logo.png'],
      [10, 20],
      [20, 10],
    ],
  };
  return readDxf(testDxf(d)).drawing;
}

/** A 20 x 10 PNG: left half red, right half blue. */
function picture(format: 'png' | 'jpeg' = 'png'): Uint8Array {
  const canvas = createCanvas(20, 10);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 10, 10);
  ctx.fillStyle = '#0000ff';
  ctx.fillRect(10, 0, 10, 10);
  return format === 'png' ? canvas.encodeSync('png') : canvas.encodeSync('jpeg', 95);
}

function strokesOn(list: DisplayList, layerName: string): number[][] {
  const layer = list.layers.findIndex((l) => l.name === layerName);
  const out: number[][] = [];
  for (const p of list.primitives) {
    if (p.kind !== 'path' || p.mode !== 'stroke' || list.styles[p.style]?.layer !== layer) continue;
    out.push([...p.coords].map((v) => Math.round(v * 1000) / 1000));
  }
  return out;
}

describe('finding the supplied files', () => {
  it('takes the file name of a Windows or POSIX path', () => {
    expect(fileNameOf('C:\\项目\\底图\\site.dwg')).toBe('site.dwg');
    expect(fileNameOf('../img/logo.PNG')).toBe('logo.PNG');
    expect(fileNameOf('D:logo.png')).toBe('logo.png');
    expect(fileNameOf('logo.png')).toBe('logo.png');
  });

  it('finds a reference by file name in any case, and an xref or picture under its other extension', () => {
    const c = new Companions([
      { name: 'upload/SITE.DXF', bytes: new Uint8Array(1) },
      { name: 'photo.jpeg', bytes: new Uint8Array(1) },
      { name: 'scan.TIF', bytes: new Uint8Array(1) },
    ]);
    expect(c.find('C:\\a\\site.dwg', 'xref')?.name).toBe('upload/SITE.DXF');
    expect(c.find('site', 'xref')?.name).toBe('upload/SITE.DXF');
    expect(c.find('/home/u/Photo.JPG', 'image')?.name).toBe('photo.jpeg');
    // A picture in a format we do not show is still found: the report then says why it is not shown.
    expect(c.find('scan.tif', 'image')?.name).toBe('scan.TIF');
    expect(c.find('other.dwg', 'xref')).toBeUndefined();
  });

  it('reads the size of a PNG and a JPEG from their headers, and nothing from other bytes', () => {
    expect(pictureOf(picture('png'))).toEqual({ mime: 'image/png', width: 20, height: 10 });
    expect(pictureOf(picture('jpeg'))).toEqual({ mime: 'image/jpeg', width: 20, height: 10 });
    expect(pictureOf(new TextEncoder().encode('BM not a png'))).toBeNull();
  });

  it('lists what a drawing refers to', () => {
    expect(referencesOf(hostDrawing())).toEqual([
      { kind: 'xref', reference: 'C:\\项目\\底图\\site.dwg' },
      { kind: 'image', reference: '..\\图片\\logo.png' },
    ]);
  });
});

describe('external references supplied with the drawing', () => {
  it('draws the referenced drawing in place, its layers named SITE|layer, and says it was found', async () => {
    const host = hostDrawing();
    const report = await attachCompanions(host, [{ name: 'SITE.DXF', bytes: siteDxf() }]);
    expect(report.found).toEqual([{ kind: 'xref', reference: 'C:\\项目\\底图\\site.dwg', file: 'SITE.DXF' }]);
    expect(report.missing).toEqual([{ kind: 'image', reference: '..\\图片\\logo.png', reason: 'not-supplied' }]);
    const build = buildScenes(host, { layouts: 'model' });
    const list = build.scenes[0]!.list;
    expect(strokesOn(list, 'SITE|WALLS')).toEqual([[100, 50, 110, 50]]);
    // Its own colour (red) from the referenced drawing's layer table.
    const walls = list.layers.find((l) => l.name === 'SITE|WALLS');
    expect(walls?.color).toBe(0xff0000);
    expect(build.warnings.map((w) => w.code)).not.toContain('xref');
  });

  it('without the file, draws nothing for it and warns, as before', async () => {
    const host = hostDrawing();
    const report = await attachCompanions(host, []);
    expect(report.missing.map((m) => [m.kind, m.reason])).toEqual([
      ['xref', 'not-supplied'],
      ['image', 'not-supplied'],
    ]);
    const build = buildScenes(host, { layouts: 'model' });
    expect(build.scenes[0]!.list.layers.some((l) => l.name.startsWith('SITE|'))).toBe(false);
    expect(build.warnings.map((w) => w.code)).toContain('xref');
  });

  it('reports a reference back to the host as a cycle and still draws the rest', async () => {
    const host = hostDrawing();
    // Both drawings were uploaded together.
    const files = [
      { name: 'host.dxf', bytes: new Uint8Array(0) },
      { name: 'site.dxf', bytes: siteDxf(true) },
    ];
    const report = await attachCompanions(host, files, { name: 'host.dxf' });
    expect(report.missing).toContainEqual(
      expect.objectContaining({ kind: 'xref', reference: 'host.dxf', reason: 'cycle', file: 'host.dxf' }),
    );
    expect(strokesOn(buildScenes(host, { layouts: 'model' }).scenes[0]!.list, 'SITE|WALLS')).toEqual([[100, 50, 110, 50]]);
  });

  it('reports a supplied file that is not a drawing, and keeps going', async () => {
    const host = hostDrawing();
    const report = await attachCompanions(host, [{ name: 'site.dwg', bytes: new TextEncoder().encode('hello') }]);
    expect(report.missing[0]).toMatchObject({ kind: 'xref', reason: 'unreadable', file: 'site.dwg' });
    expect(host.blocks['SITE']?.attached).toBeUndefined();
  });
});

describe('pictures supplied with the drawing', () => {
  const companions = [{ name: 'logo.png', bytes: picture() }];

  it('puts the picture in the display list, placed by the image entity', async () => {
    const drawing = hostDrawing();
    const report = await attachCompanions(drawing, companions);
    expect(report.found).toContainEqual({ kind: 'image', reference: '..\\图片\\logo.png', file: 'logo.png' });
    const list = buildScenes(drawing, { layouts: 'model' }).scenes[0]!.list;
    const shown = list.primitives.filter((p) => p.kind === 'image');
    expect(shown).toHaveLength(1);
    expect(list.images?.[0]).toMatchObject({ name: 'logo.png', mime: 'image/png', width: 20, height: 10 });
    // The unit square's corners: top-left (0, 1), along the width 2 units, down 1 unit.
    const m = shown[0]!.kind === 'image' ? shown[0]!.matrix.map((v) => Math.round(v * 1e6) / 1e6) : [];
    expect(m).toEqual([2, 0, 0, -1, 0, 1]);
  });

  it('draws the red half left and the blue half right, and only the left half when clipped so', async () => {
    const png = async (clipLeftHalf: boolean) => {
      const result = await convertDrawing(pictureDxf(clipLeftHalf), { format: 'png', width: 200, companions });
      const img = await loadImage(Buffer.from(result.outputs[0]!.data));
      const canvas = createCanvas(img.width, img.height);
      const ctx = canvas.getContext('2d');
      ctx.drawImage(img, 0, 0);
      return ctx.getImageData(0, 0, img.width, img.height);
    };
    const full = await png(false);
    const at = (img: { width: number; height: number; data: Uint8ClampedArray }, fx: number, fy: number) => {
      const x = Math.round(fx * (img.width - 1)),
        y = Math.round(fy * (img.height - 1));
      const i = 4 * (y * img.width + x);
      return [img.data[i], img.data[i + 1], img.data[i + 2]];
    };
    expect(at(full, 0.25, 0.5)).toEqual([255, 0, 0]);
    expect(at(full, 0.75, 0.5)).toEqual([0, 0, 255]);
    const clipped = await png(true);
    expect(at(clipped, 0.25, 0.5)).toEqual([255, 0, 0]);
    const right = at(clipped, 0.75, 0.5);
    expect(right[2]).not.toBe(255);
  });

  it('embeds the picture in a PDF once however often it is shown, and in an SVG as data', async () => {
    const bytes = pictureDxf(false);
    const imageObjects = (pdf: Uint8Array) =>
      Buffer.from(pdf)
        .toString('latin1')
        .match(/\/Subtype \/Image/g)?.length ?? 0;
    const pdf = await convertDrawing(bytes, { format: 'pdf', companions });
    const once = imageObjects(pdf.outputs[0]!.data);
    expect(once).toBeGreaterThan(0);
    const twice = testDxf({
      entities: [...imageGroups(false), ...imageGroups(false).map(([c, v]): [number, string | number] => (c === 20 ? [c, 5] : [c, v]))],
      objects: [
        [0, 'IMAGEDEF'],
        [5, 'A1'],
        [1, 'logo.png'],
        [10, 20],
        [20, 10],
      ],
    });
    const pdf2 = await convertDrawing(twice, { format: 'pdf', companions });
    expect(imageObjects(pdf2.outputs[0]!.data)).toBe(once);
    const svg = await convertDrawing(bytes, { format: 'svg', companions });
    expect(new TextDecoder().decode(svg.outputs[0]!.data)).toContain('href="data:image/png;base64,iVBORw0KGgo');
    expect(pdf.references.found).toEqual([{ kind: 'image', reference: 'logo.png', file: 'logo.png' }]);
  });

  it('says a TIFF picture is not shown, and draws its frame', async () => {
    const result = await convertDrawing(pictureDxf(false, 'scan.tif'), {
      format: 'png',
      width: 100,
      companions: [{ name: 'scan.tif', bytes: new Uint8Array([0x49, 0x49, 0x2a, 0]) }],
    });
    expect(result.references.missing).toEqual([
      expect.objectContaining({ kind: 'image', reference: 'scan.tif', reason: 'unsupported-format', file: 'scan.tif' }),
    ]);
    expect(result.warnings.some((w) => w.includes('scan.tif'))).toBe(true);
  });
});

/** A drawing of the picture alone (2 x 1 units), so the picture fills the raster. */
function pictureDxf(clipLeftHalf: boolean, file = 'logo.png'): Uint8Array {
  return testDxf({
    entities: imageGroups(clipLeftHalf),
    objects: [
      [0, 'IMAGEDEF'],
      [5, 'A1'],
      [1, file],
      [10, 20],
      [20, 10],
    ],
  });
}
