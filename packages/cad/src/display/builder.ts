/**
 * Drawing → scenes of display lists: the model, and each paper-space layout with its viewports.
 * The entities are drawn by the Builder (build-context.ts); this file lays out the scenes.
 */
import type { Drawing, Entity, Layout, ViewportEntity } from '../model';
import type { Vec3 } from '../geom/vector';
import { entityKeyPoints } from '../key-points';
import { Builder, type BuildOptions } from './build-context';
import { IDENTITY, affineMultiply, isDefaultExtrusion, multiply, ocsToWcs, translation, type Affine2D, type Mat } from '../geom/matrix';
import type { BuildResult, Bounds, DisplayList, Paper, Scene, ViewportView } from './types';

function validBox(min?: Vec3, max?: Vec3): Bounds | null {
  if (!min || !max) return null;
  const ok = [min[0], min[1], max[0], max[1]].every((v) => Number.isFinite(v) && Math.abs(v) < 1e15);
  if (!ok || max[0] <= min[0] || max[1] <= min[1]) return null;
  return { minX: min[0], minY: min[1], maxX: max[0], maxY: max[1] };
}

/** A rough extent of entities (their key points; blocks by insertion point) for the tessellation tolerance. */
function estimateExtent(entities: Entity[], header?: Bounds | null): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const e of entities) {
    for (const p of entityKeyPoints(e)) {
      if (Number.isFinite(p[0]) && Number.isFinite(p[1]) && Math.abs(p[0]) < 1e15 && Math.abs(p[1]) < 1e15) {
        xs.push(p[0]);
        ys.push(p[1]);
      }
    }
    if (xs.length > 200_000) break;
  }
  let diag = 0;
  if (xs.length >= 2) {
    // Robust: the 1st..99th percentile box, so one stray point far away does not coarsen everything.
    xs.sort((a, b) => a - b);
    ys.sort((a, b) => a - b);
    const q = (arr: number[], f: number): number => arr[Math.min(arr.length - 1, Math.max(0, Math.floor(f * (arr.length - 1))))] as number;
    diag = Math.hypot(q(xs, 0.99) - q(xs, 0.01), q(ys, 0.99) - q(ys, 0.01));
  }
  if (!(diag > 0) && header) diag = Math.hypot(header.maxX - header.minX, header.maxY - header.minY);
  return diag > 0 ? diag : 100;
}

const TOLERANCE_FRACTION = 1 / 8000;

// ---- viewports --------------------------------------------------------------------------------

function viewportMatrix(vp: ViewportEntity): Affine2D | null {
  if (!(vp.viewHeight > 0) || !(vp.height > 0)) return null;
  const scale = vp.height / vp.viewHeight;
  // Model → DCS: relative to the view target, looking along the view direction (top view when +Z).
  const dir = vp.viewDirection;
  const view = isDefaultExtrusion(dir) ? IDENTITY : ocsToWcs(dir);
  // Inverse of the (orthonormal) OCS matrix is its transpose.
  const inv: Mat = [
    view[0] as number,
    view[4] as number,
    view[8] as number,
    0,
    view[1] as number,
    view[5] as number,
    view[9] as number,
    0,
    view[2] as number,
    view[6] as number,
    view[10] as number,
    0,
  ];
  const t = vp.viewTarget;
  const modelToDcs = multiply(inv, translation(-t[0], -t[1], -t[2]));
  const dcs: Affine2D = [
    modelToDcs[0] as number,
    modelToDcs[4] as number,
    modelToDcs[1] as number,
    modelToDcs[5] as number,
    modelToDcs[3] as number,
    modelToDcs[7] as number,
  ];
  const tw = (-vp.twist * Math.PI) / 180;
  const c = Math.cos(tw) * scale,
    s = Math.sin(tw) * scale;
  // paper = centre + R(-twist)·scale·(dcs − viewCenter)
  const place: Affine2D = [
    c,
    s,
    -s,
    c,
    vp.center[0] - (c * vp.viewCenter[0] - s * vp.viewCenter[1]),
    vp.center[1] - (s * vp.viewCenter[0] + c * vp.viewCenter[1]),
  ];
  return affineMultiply(place, dcs);
}

/** A viewport clipped by a paper-space polyline (its clip boundary entity): that polyline's vertices. */
function viewportClip(vp: ViewportEntity, layout: Layout): Float64Array | null {
  if (!vp.clipBoundaryHandle || !(vp.flags & 0x10000)) return null;
  const h = vp.clipBoundaryHandle.toUpperCase();
  const e = (layout.entities ?? []).find((x) => x.handle?.toUpperCase() === h);
  if (e?.type === 'LWPOLYLINE' && e.vertices.length >= 3) return Float64Array.from(e.vertices.flatMap((v) => [v.x, v.y]));
  if (e?.type === 'POLYLINE' && e.vertices.length >= 3) return Float64Array.from(e.vertices.flatMap((v) => [v.position[0], v.position[1]]));
  if (e?.type === 'CIRCLE') {
    const pts: number[] = [];
    for (let i = 0; i < 72; i++)
      pts.push(e.center[0] + e.radius * Math.cos((i * Math.PI) / 36), e.center[1] + e.radius * Math.sin((i * Math.PI) / 36));
    return Float64Array.from(pts);
  }
  return null;
}

function paperOf(layout: Layout): Paper | undefined {
  const p = layout.plot;
  if (!p || !(p.paperWidth && p.paperHeight && p.paperWidth > 0 && p.paperHeight > 0)) return undefined;
  const rot = [0, 90, 180, 270][p.rotation ?? 0] ?? 0;
  return {
    width: p.paperWidth,
    height: p.paperHeight,
    rotation: rot,
    margins: p.margins ?? [0, 0, 0, 0],
    ...(p.paperName ? { name: p.paperName } : {}),
  };
}

function union(a: Bounds | null, b: Bounds | null): Bounds | null {
  if (!a) return b;
  if (!b) return a;
  return { minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) };
}

function transformBounds(b: Bounds, m: Affine2D): Bounds {
  const pts = [
    [b.minX, b.minY],
    [b.maxX, b.minY],
    [b.minX, b.maxY],
    [b.maxX, b.maxY],
  ].map(([x, y]) => [m[0] * (x as number) + m[2] * (y as number) + m[4], m[1] * (x as number) + m[3] * (y as number) + m[5]] as const);
  return {
    minX: Math.min(...pts.map((p) => p[0])),
    minY: Math.min(...pts.map((p) => p[1])),
    maxX: Math.max(...pts.map((p) => p[0])),
    maxY: Math.max(...pts.map((p) => p[1])),
  };
}

function intersect(a: Bounds, b: Bounds): Bounds | null {
  const r = {
    minX: Math.max(a.minX, b.minX),
    minY: Math.max(a.minY, b.minY),
    maxX: Math.min(a.maxX, b.maxX),
    maxY: Math.min(a.maxY, b.maxY),
  };
  return r.minX < r.maxX && r.minY < r.maxY ? r : null;
}

/** Does a layout hold anything to draw (paper-space entities or a viewport looking at the model)? */
function layoutHasContent(layout: Layout): boolean {
  return (layout.entities ?? []).some((e) => e.type !== 'VIEWPORT') || layout.viewports.some((v) => v.id !== 1 && v.on);
}

// ---- entry point ----------------------------------------------------------------------------

export function buildScenes(drawing: Drawing, options: BuildOptions = {}): BuildResult {
  const b = new Builder(drawing, options);
  const want = options.layouts ?? 'all';
  const wanted = (layout: Layout): boolean => {
    if (want === 'all') return layout.isModel || layoutHasContent(layout);
    if (want === 'model') return layout.isModel;
    return want.some((n) => n.toLowerCase() === layout.name.toLowerCase() || (layout.isModel && n.toLowerCase() === 'model'));
  };
  const layouts = drawing.layouts.length
    ? drawing.layouts
    : [{ name: 'Model', tabOrder: 0, blockName: '*Model_Space', isModel: true, viewports: [] } as Layout];
  const headerBox = validBox(drawing.header.extMin, drawing.header.extMax);
  const modelTolerance = estimateExtent(drawing.modelSpace, headerBox) * TOLERANCE_FRACTION;
  const modelRecord = drawing.blockRecords.find((r) => r.name.toUpperCase() === '*MODEL_SPACE')?.handle;
  const psltscale = drawing.header.psltscale === undefined ? 1 : Number(drawing.header.psltscale);

  // Model lists keyed by linetype factor: viewports at different scales need their own dashes under PSLTSCALE.
  const modelLists = new Map<number, DisplayList>();
  const modelList = (ltFactor: number): DisplayList => {
    const key = Math.round(Math.log2(ltFactor) * 8) / 8;
    let list = modelLists.get(key);
    if (!list) {
      list = b.buildList(b.ordered(drawing.modelSpace, modelRecord), modelTolerance, ltFactor, false);
      modelLists.set(key, list);
    }
    return list;
  };

  const layerByHandle = new Map<string, string>();
  for (const l of Object.values(drawing.layers)) if (l.handle) layerByHandle.set(l.handle.toUpperCase(), l.name);

  const scenes: Scene[] = [];
  for (const layout of layouts) {
    if (!wanted(layout)) continue;
    if (layout.isModel) {
      const list = modelList(1);
      scenes.push({ name: layout.name || 'Model', isModel: true, tabOrder: layout.tabOrder, list, viewports: [], bounds: list.bounds });
      continue;
    }
    const paperEntities = (layout.entities ?? []).filter((e) => e.type !== 'VIEWPORT');
    const paper = paperOf(layout);
    // Paper space may be drawn in inches on a sheet given in mm: the smaller of the two sizes sets the tolerance.
    const drawn = estimateExtent([...paperEntities, ...layout.viewports.filter((v) => v.id !== 1)], validBox(layout.limMin, layout.limMax));
    const paperDiag = paper ? Math.min(Math.hypot(paper.width, paper.height), drawn) : drawn;
    const list = b.buildList(b.ordered(paperEntities, layout.blockRecordHandle), paperDiag * TOLERANCE_FRACTION, 1, true);
    const viewports: ViewportView[] = [];
    let bounds = list.bounds;
    for (const vp of [...layout.viewports].sort((x, y) => x.status - y.status)) {
      if (vp.id === 1 || !vp.on || !(vp.width > 0) || !(vp.height > 0)) continue;
      const matrix = viewportMatrix(vp);
      if (!matrix) continue;
      const scale = vp.height / vp.viewHeight;
      const vlist = modelList(psltscale && scale > 0 ? 1 / scale : 1);
      const hw = vp.width / 2,
        hh = vp.height / 2;
      const cx = vp.center[0],
        cy = vp.center[1];
      const clip = viewportClip(vp, layout) ?? Float64Array.from([cx - hw, cy - hh, cx + hw, cy - hh, cx + hw, cy + hh, cx - hw, cy + hh]);
      // Frozen layers are written as layer handles (331); accept names too.
      const frozen = new Set(vp.frozenLayers.map((n) => (layerByHandle.get(n.toUpperCase()) ?? n).toUpperCase()));
      const frozenLayers = vlist.layers.map((l, i) => (frozen.has(l.name.toUpperCase()) ? i : -1)).filter((i) => i >= 0);
      viewports.push({ clip, matrix, list: vlist, frozenLayers });
      const box = { minX: cx - hw, minY: cy - hh, maxX: cx + hw, maxY: cy + hh };
      const seen = vlist.bounds ? intersect(transformBounds(vlist.bounds, matrix), box) : null;
      bounds = union(bounds, seen);
    }
    scenes.push({ name: layout.name, isModel: false, tabOrder: layout.tabOrder, list, viewports, ...(paper ? { paper } : {}), bounds });
  }

  return {
    scenes,
    warnings: [...b.warningMap.values()],
    missingFonts: b.fonts.missing(),
    substitutedFonts: b.fonts.substitutions(),
    missingCharacters: b.fonts.missingCharacters(),
    counts: { drawn: b.drawn, skipped: b.skipped },
  };
}
