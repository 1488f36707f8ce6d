/** Test helpers for text: hand-made DXF drawings with text styles, built into display lists. */
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import type { Drawing } from '../model';
import type { FontProvider } from '../text/fonts';
import { buildScenes } from './builder';
import { subpaths } from './test-helpers';
import type { DisplayList, TextPrimitive } from './types';

type G = [number, string | number][];

export interface TextTestStyle {
  name: string;
  font?: string;
  bigFont?: string;
  /** TrueType family (ACAD xdata). */
  family?: string;
  fixedHeight?: number;
  widthFactor?: number;
  oblique?: number;
}

export function textDxf(d: { styles?: TextTestStyle[]; blocks?: { name: string; entities: G }[]; entities: G; header?: G }): Uint8Array {
  const g: G = [];
  if (d.header?.length) g.push([0, 'SECTION'], [2, 'HEADER'], ...d.header, [0, 'ENDSEC']);
  g.push(
    [0, 'SECTION'],
    [2, 'TABLES'],
    [0, 'TABLE'],
    [2, 'APPID'],
    [0, 'APPID'],
    [2, 'ACAD'],
    [70, 0],
    [0, 'ENDTAB'],
    [0, 'TABLE'],
    [2, 'STYLE'],
  );
  for (const s of d.styles ?? []) {
    g.push(
      [0, 'STYLE'],
      [2, s.name],
      [70, 0],
      [40, s.fixedHeight ?? 0],
      [41, s.widthFactor ?? 1],
      [50, s.oblique ?? 0],
      [71, 0],
      [42, 2.5],
      [3, s.font ?? ''],
      [4, s.bigFont ?? ''],
    );
    if (s.family) g.push([1001, 'ACAD'], [1000, s.family], [1071, 0]);
  }
  g.push([0, 'ENDTAB'], [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'BLOCKS']);
  for (const b of d.blocks ?? [])
    g.push([0, 'BLOCK'], [8, '0'], [2, b.name], [70, 2], [10, 0], [20, 0], [30, 0], [3, b.name], ...b.entities, [0, 'ENDBLK'], [8, '0']);
  g.push([0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'ENTITIES'], ...d.entities, [0, 'ENDSEC'], [0, 'EOF']);
  return new TextEncoder().encode(dxfText(g));
}

export function textDrawing(d: Parameters<typeof textDxf>[0]): Drawing {
  return readDxf(textDxf(d)).drawing;
}

export function buildText(
  d: Parameters<typeof textDxf>[0],
  fonts?: FontProvider,
): { list: DisplayList; missing: string[]; substituted: string[] } {
  const r = buildScenes(textDrawing(d), { layouts: 'model', ...(fonts ? { fonts } : {}) });
  const list = r.scenes[0]?.list;
  if (!list) throw new Error('no model scene');
  return { list, missing: r.missingFonts, substituted: r.substitutedFonts.map((s) => s.requested) };
}

export function texts(list: DisplayList): TextPrimitive[] {
  return list.primitives.filter((p): p is TextPrimitive => p.kind === 'text');
}

/** The world position of text-space point (x, y) of a text primitive. */
export function at(t: TextPrimitive, x: number, y: number): [number, number] {
  const [a, b, c, d, e, f] = t.matrix;
  return [a * x + c * y + e, b * x + d * y + f];
}

/** Stroke subpaths of a display list as point lists. */
export function strokes(list: DisplayList): { style: number; points: [number, number][] }[] {
  return subpaths(list, 'stroke');
}

/** MTEXT entity groups. */
export function mtext(
  text: string,
  opts: { x?: number; y?: number; height?: number; width?: number; attachment?: number; style?: string; rotation?: number; extra?: G } = {},
): G {
  const g: G = [
    [0, 'MTEXT'],
    [8, '0'],
    [10, opts.x ?? 0],
    [20, opts.y ?? 0],
    [30, 0],
    [40, opts.height ?? 1],
    [41, opts.width ?? 0],
    [71, opts.attachment ?? 1],
    [72, 1],
    [7, opts.style ?? 'STANDARD'],
  ];
  if (opts.rotation) g.push([50, opts.rotation]);
  // Long content goes in 250-character group-3 chunks, the rest in group 1.
  let rest = text;
  while (rest.length > 250) {
    g.push([3, rest.slice(0, 250)]);
    rest = rest.slice(250);
  }
  g.push([1, rest], ...(opts.extra ?? []));
  return g;
}

/** TEXT entity groups. */
export function text(
  value: string,
  opts: {
    x?: number;
    y?: number;
    height?: number;
    rotation?: number;
    widthFactor?: number;
    oblique?: number;
    halign?: number;
    valign?: number;
    align?: [number, number];
    style?: string;
    generation?: number;
    extra?: G;
  } = {},
): G {
  const g: G = [
    [0, 'TEXT'],
    [8, '0'],
    [10, opts.x ?? 0],
    [20, opts.y ?? 0],
    [30, 0],
    [40, opts.height ?? 1],
    [1, value],
    [7, opts.style ?? 'STANDARD'],
  ];
  if (opts.rotation) g.push([50, opts.rotation]);
  if (opts.widthFactor) g.push([41, opts.widthFactor]);
  if (opts.oblique) g.push([51, opts.oblique]);
  if (opts.generation) g.push([71, opts.generation]);
  if (opts.halign) g.push([72, opts.halign]);
  if (opts.align) g.push([11, opts.align[0]], [21, opts.align[1]], [31, 0]);
  g.push([100, 'AcDbText']);
  if (opts.valign) g.push([73, opts.valign]);
  g.push(...(opts.extra ?? []));
  return g;
}
