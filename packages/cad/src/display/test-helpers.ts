/** Test helpers: hand-made DXF drawings with tables and blocks, built into display lists. */
import type { Drawing } from '../model';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import type { BuildOptions } from './build-context';
import { buildScenes } from './builder';
import type { BuildResult, DisplayList, PathPrimitive } from './types';

type G = [number, string | number][];

export interface TestDrawing {
  header?: G;
  /** [name, aci (negative = off), flags (1 frozen), linetype, lineweight] */
  layers?: [string, number, number?, string?, number?][];
  /** [name, elements] (dash > 0, gap < 0) */
  linetypes?: [string, number[]][];
  /** flags 4 and a path make an external reference (whose entities are then in the referenced file). */
  blocks?: { name: string; base?: [number, number]; entities: G; flags?: number; path?: string }[];
  entities: G;
  /** Groups of the OBJECTS section (IMAGEDEF, ...). */
  objects?: G;
}

export function testDxf(d: TestDrawing): Uint8Array {
  const g: G = [];
  if (d.header?.length) g.push([0, 'SECTION'], [2, 'HEADER'], ...d.header, [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'TABLES']);
  g.push([0, 'TABLE'], [2, 'LTYPE']);
  for (const [name, els] of d.linetypes ?? []) {
    g.push([0, 'LTYPE'], [2, name], [70, 0], [3, name], [72, 65], [73, els.length], [40, els.reduce((s, e) => s + Math.abs(e), 0)]);
    for (const e of els) g.push([49, e], [74, 0]);
  }
  g.push([0, 'ENDTAB'], [0, 'TABLE'], [2, 'LAYER']);
  for (const [name, aci, flags, lt, lw] of d.layers ?? [])
    g.push([0, 'LAYER'], [2, name], [70, flags ?? 0], [62, aci], [6, lt ?? 'CONTINUOUS'], [370, lw ?? -3]);
  g.push([0, 'ENDTAB'], [0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'BLOCKS']);
  for (const b of d.blocks ?? [])
    g.push(
      [0, 'BLOCK'],
      [8, '0'],
      [2, b.name],
      [70, b.flags ?? 0],
      [10, b.base?.[0] ?? 0],
      [20, b.base?.[1] ?? 0],
      [30, 0],
      [3, b.name],
      ...(b.path ? ([[1, b.path]] as G) : []),
      ...b.entities,
      [0, 'ENDBLK'],
      [8, '0'],
    );
  g.push([0, 'ENDSEC']);
  g.push([0, 'SECTION'], [2, 'ENTITIES'], ...d.entities, [0, 'ENDSEC']);
  if (d.objects?.length) g.push([0, 'SECTION'], [2, 'OBJECTS'], ...d.objects, [0, 'ENDSEC']);
  g.push([0, 'EOF']);
  return new TextEncoder().encode(dxfText(g));
}

function drawingOf(d: TestDrawing): Drawing {
  return readDxf(testDxf(d)).drawing;
}

export function build(d: TestDrawing, options: BuildOptions = {}): BuildResult {
  return buildScenes(drawingOf(d), { layouts: 'model', ...options });
}

export function modelList(d: TestDrawing, options: BuildOptions = {}): DisplayList {
  const scene = build(d, options).scenes[0];
  if (!scene) throw new Error('no model scene');
  return scene.list;
}

/** Every subpath of the list's path primitives as arrays of [x, y]. */
export function subpaths(list: DisplayList, mode: PathPrimitive['mode'] = 'stroke'): { style: number; points: [number, number][] }[] {
  const out: { style: number; points: [number, number][] }[] = [];
  for (const p of list.primitives) {
    if (p.kind !== 'path' || p.mode !== mode) continue;
    const n = p.coords.length / 2;
    for (let i = 0; i < p.starts.length; i++) {
      const s = p.starts[i] as number;
      const e = i + 1 < p.starts.length ? (p.starts[i + 1] as number) : n;
      const pts: [number, number][] = [];
      for (let j = s; j < e; j++) pts.push([p.coords[2 * j] as number, p.coords[2 * j + 1] as number]);
      out.push({ style: p.style, points: pts });
    }
  }
  return out;
}

export function allPoints(list: DisplayList, mode?: PathPrimitive['mode']): [number, number][] {
  return (mode ? subpaths(list, mode) : [...subpaths(list, 'stroke'), ...subpaths(list, 'fill'), ...subpaths(list, 'wipeout')]).flatMap(
    (s) => s.points,
  );
}
