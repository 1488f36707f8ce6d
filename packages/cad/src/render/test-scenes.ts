/** Hand-made scenes for the back-end tests. */
import { loadImage, createCanvas } from '@napi-rs/canvas';
import { type DisplayList, type Primitive, type Scene, type Style } from '../display/types';
import { FOREGROUND } from '../geom/color';
import type { FontRef } from '../text/fonts';

const RED = 0xff0000;
const BLUE = 0x0000ff;

export function stroke(style: number, ...subpaths: number[][]): Primitive {
  const coords: number[] = [];
  const starts: number[] = [];
  for (const s of subpaths) {
    starts.push(coords.length / 2);
    coords.push(...s);
  }
  return { kind: 'path', mode: 'stroke', style, coords: Float64Array.from(coords), starts: Uint32Array.from(starts) };
}

export function fill(style: number, ring: number[], mode: 'fill' | 'wipeout' = 'fill'): Primitive {
  return { kind: 'path', mode, style, coords: Float64Array.from(ring), starts: Uint32Array.from([0]) };
}

export function text(style: number, s: string, x: number, y: number, size: number, font = 0, angle = 0): Primitive {
  const c = Math.cos(angle),
    sn = Math.sin(angle);
  return { kind: 'text', style, text: s, matrix: [c, sn, -sn, c, x, y], size, font, width: s.length * size * 0.6 };
}

export const LATIN_FONT: FontRef = { requested: 'txt.shx', family: 'Noto Sans', substituted: true };
export const CJK_FONT: FontRef = { requested: 'hztxt.shx', family: 'Noto Sans CJK SC', substituted: true };

export function list(primitives: Primitive[], styles: Style[], fonts: FontRef[] = [LATIN_FONT, CJK_FONT]): DisplayList {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const p of primitives) {
    if (p.kind === 'image') continue;
    if (p.kind !== 'path') {
      const [, , , , e, f] = p.matrix;
      minX = Math.min(minX, e);
      maxX = Math.max(maxX, e + p.width);
      minY = Math.min(minY, f);
      maxY = Math.max(maxY, f + p.size);
      continue;
    }
    for (let i = 0; i < p.coords.length; i += 2) {
      minX = Math.min(minX, p.coords[i] as number);
      maxX = Math.max(maxX, p.coords[i] as number);
      minY = Math.min(minY, p.coords[i + 1] as number);
      maxY = Math.max(maxY, p.coords[i + 1] as number);
    }
  }
  return {
    styles,
    layers: [
      { name: '0', color: FOREGROUND, visible: true },
      { name: 'HIDDEN', color: FOREGROUND, visible: false },
      { name: 'FROZEN_IN_VP', color: FOREGROUND, visible: true },
    ],
    fonts,
    primitives,
    bounds: primitives.length ? { minX, minY, maxX, maxY } : null,
  };
}

export function modelScene(l: DisplayList): Scene {
  return { name: 'Model', isModel: true, tabOrder: 0, list: l, viewports: [], bounds: l.bounds };
}

/** Styles: 0 foreground 0.25 mm, 1 red, 2 blue 0.5 mm, 3 foreground on a hidden layer, 4 red on the layer frozen in viewports. */
export const STYLES: Style[] = [
  { color: FOREGROUND, lineweight: 0.25, layer: 0 },
  { color: RED, lineweight: 0.25, layer: 0 },
  { color: BLUE, lineweight: 0.5, layer: 0 },
  { color: FOREGROUND, lineweight: 0.25, layer: 1 },
  { color: RED, lineweight: 0.25, layer: 2 },
];

/** A 200×100 drawing: a frame, a red line along y = 50, a blue line along x = 150, Latin and Chinese text. */
export function sampleScene(): Scene {
  return modelScene(
    list(
      [
        stroke(0, [0, 0, 200, 0, 200, 100, 0, 100, 0, 0]),
        stroke(1, [20, 50, 180, 50]),
        stroke(2, [150, 10, 150, 90]),
        stroke(3, [0, 0, 200, 100]),
        text(0, 'Hello CAD', 20, 70, 8, 0),
        text(0, '中文测试', 20, 20, 8, 1),
      ],
      STYLES,
    ),
  );
}

/**
 * An A4 portrait layout (no margins): a paper-space frame at 10..200 × 10..287 and one viewport
 * with clip 50..150 × 100..200 showing a model that has a foreground diagonal from (-1000, -1000)
 * to (1000, 1000), a red horizontal line at model y = 0 (paper y = 150) and a line on a layer frozen
 * in the viewport; model → paper: scale 1, model (0, 0) at paper (100, 150).
 */
export function layoutScene(): Scene {
  const model = list([stroke(0, [-1000, -1000, 1000, 1000]), stroke(1, [-1000, 0, 1000, 0]), stroke(4, [-1000, 20, 1000, 20])], STYLES);
  const paper = list([stroke(0, [10, 10, 200, 10, 200, 287, 10, 287, 10, 10])], STYLES);
  return {
    name: 'Layout1',
    isModel: false,
    tabOrder: 1,
    list: paper,
    viewports: [
      { clip: Float64Array.from([50, 100, 150, 100, 150, 200, 50, 200]), matrix: [1, 0, 0, 1, 100, 150], list: model, frozenLayers: [2] },
    ],
    paper: { width: 210, height: 297, rotation: 0, margins: [0, 0, 0, 0], name: 'ISO_A4' },
    bounds: { minX: 10, minY: 10, maxX: 200, maxY: 287 },
  };
}

export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
  at(x: number, y: number): [number, number, number];
}

/** Decodes a PNG or JPG. */
export async function decode(bytes: Uint8Array): Promise<Pixels> {
  const img = await loadImage(Buffer.from(bytes));
  const c = createCanvas(img.width, img.height);
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const data = g.getImageData(0, 0, img.width, img.height).data;
  return {
    width: img.width,
    height: img.height,
    data,
    at(x: number, y: number): [number, number, number] {
      // The pixel containing the point (x, y).
      const px = Math.min(img.width - 1, Math.max(0, Math.floor(x)));
      const py = Math.min(img.height - 1, Math.max(0, Math.floor(y)));
      const o = (py * img.width + px) * 4;
      return [data[o] as number, data[o + 1] as number, data[o + 2] as number];
    },
  };
}
