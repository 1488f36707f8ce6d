// The per-file check of the save-as sweep (decision 0038), shared by its worker (bench/saveas-worker.ts)
// and its test on committed fixtures (bench/saveas-check.test.ts): an original drawing's scenes rendered
// once; each converted result read back by our reader (a DWG through LibreDWG), its entities counted by
// type, each scene drawn in the original's view and compared by ink.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { buildScenes, type Scene } from '@xcad/cad/display';
import { nodeFontProvider } from '@xcad/cad/fonts';
import type { Drawing, Entity } from '@xcad/cad/model';
import { openDrawing } from '@xcad/cad/open';
import { renderScenes } from '@xcad/cad/render';
import { compareInk, inkMask, type InkMask, type RgbaImage } from '@xcad/cad/testing';
import type { Counts, SaveAsChangeLike, SceneScore, Target, TargetRow } from './saveas-shared';
import { F1_TOLERANCE, layoutReportedDropped, MAX_PAPER_SCENES, RENDER_WIDTH, WHITE } from './saveas-shared';

let fontProvider: ReturnType<typeof nodeFontProvider> | undefined;
const fonts = (): ReturnType<typeof nodeFontProvider> => (fontProvider ??= nodeFontProvider());

const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;
const add = (c: Counts, t: string, n = 1): void => {
  c[t] = (c[t] ?? 0) + n;
};
const keyOf = (e: Entity): string => (e.type === 'UNKNOWN' ? e.dxfType : e.type);

function countList(c: Counts, list: readonly Entity[]): void {
  for (const e of list) {
    add(c, keyOf(e));
    if (e.type === 'INSERT' && e.attributes.length) add(c, 'ATTRIB', e.attributes.length);
  }
}

/** The entity lists of the model and of each paper layout. */
const spaces = (d: Drawing): Entity[][] => [d.modelSpace, ...d.layouts.filter((l) => !l.isModel).map((l) => l.entities ?? [])];

/**
 * Entities by type as drawn: model space, the paper layouts, and each block a drawn entity refers to
 * (INSERT, DIMENSION, ACAD_TABLE, a MULTILEADER's block content), followed through nested blocks;
 * each block counted once, however often it is inserted (the writer reports per definition).
 */
function drawnCounts(d: Drawing): Counts {
  const byName = new Map(Object.values(d.blocks).map((b) => [b.name.toUpperCase(), b]));
  const byRecord = new Map(d.blockRecords.filter((r) => r.handle).map((r) => [(r.handle as string).toUpperCase(), r.name.toUpperCase()]));
  const seen = new Set<string>();
  const c: Counts = {};
  const walk = (list: readonly Entity[]): void => {
    countList(c, list);
    for (const e of list) {
      const ref =
        e.type === 'INSERT'
          ? e.name
          : e.type === 'DIMENSION' || e.type === 'ACAD_TABLE'
            ? e.block
            : e.type === 'MULTILEADER' && e.blockHandle
              ? byRecord.get(e.blockHandle.toUpperCase())
              : undefined;
      const key = ref?.toUpperCase();
      if (key === undefined || seen.has(key) || LAYOUT_BLOCK.test(key)) continue;
      seen.add(key);
      const block = byName.get(key);
      if (block) walk(block.entities);
    }
  };
  for (const list of spaces(d)) walk(list);
  return c;
}

/** Entities by type in the model, the paper layouts and every block that is not a layout's: what ezdxf counts. */
function allCounts(d: Drawing): Counts {
  const c: Counts = {};
  for (const list of spaces(d)) countList(c, list);
  for (const b of Object.values(d.blocks)) if (!LAYOUT_BLOCK.test(b.name)) countList(c, b.entities);
  return c;
}

interface Rendered {
  scene: Scene;
  png: Uint8Array;
  image: RgbaImage;
}

async function decodePng(png: Uint8Array): Promise<RgbaImage> {
  const img = await loadImage(Buffer.from(png));
  const canvas = createCanvas(img.width, img.height);
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
}

/** The model and the first paper layouts with ink. */
function scenesOf(d: Drawing): Scene[] {
  const withInk = buildScenes(d, { layouts: 'all', fonts: fonts() }).scenes.filter((s) => s.bounds !== null);
  return [...withInk.filter((s) => s.isModel), ...withInk.filter((s) => !s.isModel).slice(0, MAX_PAPER_SCENES)];
}

/**
 * A scene RENDER_WIDTH px wide (lines 1 px), the view its bounds (a layout with a page setup: its sheet).
 * A result's scene is drawn with the original's bounds and page setup: the same view, pixel for pixel.
 */
async function draw(scene: Scene): Promise<Rendered> {
  const png = await renderScenes([scene], { format: 'png', width: RENDER_WIDTH, background: 'white' });
  return { scene, png, image: await decodePng(png) };
}

/**
 * Pairs each original scene with the result's: the model with the model; a paper layout by name,
 * then the rest in order (an R12 result's one paper space has a name of its own). A paper layout the
 * writer reports leaving out (R12 keeps one paper space) is `dropped`: not compared.
 */
function pairScenes(origs: Scene[], outs: Scene[], dropped: (name: string) => boolean): { orig: Scene; mate?: Scene; dropped?: true }[] {
  const used = new Set<Scene>();
  const pairs = origs.map((orig) => {
    if (orig.isModel) {
      const mate = outs.find((s) => s.isModel);
      if (mate) used.add(mate);
      return { orig, ...(mate ? { mate } : {}) };
    }
    if (dropped(orig.name)) return { orig, dropped: true as const };
    const mate = outs.find((s) => !s.isModel && !used.has(s) && s.name.toLowerCase() === orig.name.toLowerCase());
    if (mate) used.add(mate);
    return { orig, ...(mate ? { mate } : {}) };
  });
  const rest = outs.filter((s) => !s.isModel && !used.has(s));
  for (const p of pairs) if (!p.orig.isModel && !p.dropped && !p.mate && rest.length) p.mate = rest.shift() as Scene;
  return pairs;
}

/** The result's own extents differ from the original's by more than 1% of the original's size. */
function extentsMoved(a: Scene, b: Scene): boolean {
  if (!a.bounds || !b.bounds) return a.bounds !== b.bounds;
  const size = Math.max(a.bounds.maxX - a.bounds.minX, a.bounds.maxY - a.bounds.minY);
  const d = Math.max(
    Math.abs(a.bounds.minX - b.bounds.minX),
    Math.abs(a.bounds.minY - b.bounds.minY),
    Math.abs(a.bounds.maxX - b.bounds.maxX),
    Math.abs(a.bounds.maxY - b.bounds.maxY),
  );
  return d > size * 0.01;
}

/**
 * The difference of two renders of one view, for looking at: grey where both have ink (within the
 * comparison's tolerance), red where only the original has (lost), blue where only the result has (added).
 */
function diffPicture(a: RgbaImage, b: RgbaImage): Uint8Array {
  const w = a.width;
  const h = Math.max(a.height, b.height);
  const ma = inkMask(a, undefined, WHITE);
  const mb = inkMask(b, undefined, WHITE);
  const ink = (m: InkMask, x: number, y: number): boolean =>
    x >= 0 && y >= 0 && x < m.width && y < m.height && m.bits[y * m.width + x] === 1;
  const near = (m: InkMask, x: number, y: number): boolean => {
    for (let dy = -F1_TOLERANCE; dy <= F1_TOLERANCE; dy++)
      for (let dx = -F1_TOLERANCE; dx <= F1_TOLERANCE; dx++) if (ink(m, x + dx, y + dy)) return true;
    return false;
  };
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  const img = g.createImageData(w, h);
  img.data.fill(255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const ia = ink(ma, x, y);
      const ib = ink(mb, x, y);
      if (!ia && !ib) continue;
      const rgb = ia && !near(mb, x, y) ? [220, 0, 0] : ib && !near(ma, x, y) ? [0, 60, 230] : [170, 170, 170];
      img.data.set(rgb, (y * w + x) * 4);
    }
  g.putImageData(img, 0, 0);
  return canvas.toBuffer('image/png');
}

export const safe = (s: string): string => s.replace(/[^\w.-]+/g, '_');
export const errorText = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0]!.slice(0, 300);

/** An original drawing ready to be compared with its conversions: its scenes drawn, its entities counted. */
export interface Original {
  name: string;
  drawing: Drawing;
  scenes: Rendered[];
  counts: Counts;
  /** The scenes whose picture is already in the pictures' folder. */
  saved: Set<Rendered>;
}

export async function original(drawing: Drawing, name: string): Promise<Original> {
  const scenes: Rendered[] = [];
  for (const scene of scenesOf(drawing)) scenes.push(await draw(scene));
  return { name, drawing, scenes, counts: drawnCounts(drawing), saved: new Set() };
}

/** What a conversion answered: its bytes and its report. */
export interface Converted {
  bytes: Uint8Array;
  notes: string[];
  changes?: SaveAsChangeLike[];
}

/**
 * One result against its original: read back (a read failure is the row's error), entities counted,
 * each original scene compared with the result's in the original's view. `pngDir`: where the
 * pictures of a scene under 0.99 go (the original, the result, their difference).
 */
export async function checkResult(orig: Original, target: Target, out: Converted, pngDir?: string): Promise<TargetRow> {
  const row: TargetRow = { kind: 'row', target, status: 'failed', notes: out.notes, readback: [], bytes: out.bytes.length };
  if (out.changes) row.changes = out.changes;
  const t1 = performance.now();
  let back: Drawing;
  try {
    const opened = await openDrawing(out.bytes, `${orig.name} → ${target.format.toUpperCase()} ${target.version}`);
    back = opened.drawing;
    row.readback = opened.warnings;
  } catch (e) {
    row.error = `reading the result back: ${errorText(e)}`;
    return row;
  }
  row.readMs = performance.now() - t1;
  // A paper layout the writer reports leaving out (R12) is not expected back: counted without it.
  const left = orig.drawing.layouts.filter((l) => !l.isModel && layoutReportedDropped(out.notes, l.name));
  row.countsIn = left.length
    ? drawnCounts({ ...orig.drawing, layouts: orig.drawing.layouts.filter((l) => !left.includes(l)) })
    : orig.counts;
  if (left.length) {
    const leftOut: Counts = {};
    for (const [type, n] of Object.entries(orig.counts)) if (n > (row.countsIn[type] ?? 0)) leftOut[type] = n - (row.countsIn[type] ?? 0);
    row.countsLeftOut = leftOut;
  }
  row.countsOut = drawnCounts(back);
  row.countsAll = allCounts(back);
  const t2 = performance.now();
  const scores: SceneScore[] = [];
  const pairs = pairScenes(
    orig.scenes.map((o) => o.scene),
    scenesOf(back),
    (name) => layoutReportedDropped(out.notes, name),
  );
  for (const [i, { orig: origScene, mate, dropped }] of pairs.entries()) {
    const before = orig.scenes[i] as Rendered;
    if (dropped) {
      scores.push({ name: origScene.name, f1: 0, precision: 0, recall: 0, dropped: true });
      continue;
    }
    // The result drawn in the original's view: what moved or went missing shows as such, nothing rescales.
    const drawn = mate ? await draw({ ...mate, bounds: origScene.bounds, ...(origScene.paper ? { paper: origScene.paper } : {}) }) : null;
    const score = drawn ? compareInk(before.image, drawn.image, { crop: false, tolerance: F1_TOLERANCE, background: WHITE }) : null;
    const s: SceneScore = { name: origScene.name, f1: score?.f1 ?? 0, precision: score?.precision ?? 0, recall: score?.recall ?? 0 };
    if (!mate) s.missing = true;
    else {
      if (extentsMoved(origScene, mate)) s.extentsMoved = true;
      if (JSON.stringify(origScene.paper ?? null) !== JSON.stringify(mate.paper ?? null)) s.pageSetupChanged = true;
    }
    scores.push(s);
    if (pngDir && s.f1 < 0.99) {
      const stem = path.join(pngDir, safe(`${orig.name}.${origScene.name}`));
      if (!orig.saved.has(before)) writeFileSync(`${stem}.orig.png`, before.png);
      orig.saved.add(before);
      if (drawn) {
        writeFileSync(`${stem}.${target.format}${target.version}.png`, drawn.png);
        writeFileSync(`${stem}.${target.format}${target.version}.diff.png`, diffPicture(before.image, drawn.image));
      }
    }
  }
  const compared = scores.filter((x) => !x.dropped);
  row.renderMs = performance.now() - t2;
  row.scenes = scores;
  row.f1 = compared.length ? Math.min(...compared.map((x) => x.f1)) : null;
  row.status = 'ok';
  return row;
}
