import { buildScenes } from '@xcad/cad/display';
import { ENGINE_LIMITS } from '@xcad/cad/limits';
import { readDxf } from '@xcad/cad/dxf';
import type { Drawing } from '@xcad/cad/model';
import type { DwgHandoff } from '@xcad/cad-dwg/browser';
import { byteSizeOf, noticesOf, packScenes, transferablesOf } from './pack';
import type { BuildMessage, BuildRequest, ListTexts, LoadErrorKind, PackedDrawing, Stage } from './types';

// The build worker's work (dxf.worker.ts is its entry): the file's bytes, our DXF reader (or the
// drawing the DWG worker decoded), the engine's display-list builder, then the GPU packing. The
// page never freezes, and the worker keeps no reference once the result is posted, so the
// drawing model and the display lists are collected right away: only the typed arrays stay.

export interface WorkerScope {
  postMessage(message: BuildMessage, transfer?: Transferable[]): void;
}

const READ_SLICE = 4 * 1024 * 1024;

/** The whole file as bytes, read in slices so progress can be shown (and no second copy is made). */
async function readBlob(file: Blob, progress: (fraction: number) => void): Promise<Uint8Array> {
  const bytes = new Uint8Array(file.size);
  for (let at = 0; at < file.size; at += READ_SLICE) {
    const part = new Uint8Array(await file.slice(at, Math.min(file.size, at + READ_SLICE)).arrayBuffer());
    bytes.set(part, at);
    progress(Math.min(1, (at + part.length) / Math.max(1, file.size)));
  }
  return bytes;
}

/** A failure as the page tells it: the engine's reasons and budgets, memory, or anything else (a damaged file). */
export function classifyError(error: unknown): { error: LoadErrorKind; message: string } {
  const e = error as { name?: string; reason?: string; message?: string } | null;
  const message = String(e?.message ?? error).split('\n')[0] ?? '';
  // Checked first: the DWG reader reports a WebAssembly memory it could not get as a decoder that could not start.
  if (/out of memory|could not allocate|allocation failed/i.test(message)) return { error: 'memory', message };
  // Decision 0027: the engine's entities budget (a MINSERT of millions of copies, blocks nested to explode).
  if (e?.name === 'CadLimitError') return { error: 'too-complex', message };
  if (e?.name === 'CadReadError' || e?.name === 'DwgReadError') {
    const reason = e.reason;
    if (reason === 'empty') return { error: 'empty', message };
    if (reason === 'not-dxf') return { error: 'not-drawing', message };
    if (reason === 'unsupported') return { error: 'unsupported', message };
    return { error: 'corrupt', message };
  }
  if (e?.name === 'RangeError' && /allocat|memory|Invalid (typed )?array length/i.test(message)) return { error: 'memory', message };
  // A reader that stumbles over damaged bytes throws whatever it met: for the user, the file is damaged.
  return { error: 'corrupt', message };
}

function drawingToPacked(
  drawing: Drawing,
  format: 'dxf' | 'dwg',
  readerWarnings: readonly string[],
  maxPoints: number,
  timings: { read: number; parse: number },
  progress: (stage: Stage, fraction: number) => void,
  onTexts?: (lists: ListTexts[]) => void,
): { drawing: PackedDrawing; transfer: ArrayBuffer[] } {
  progress('building', 0);
  const t0 = performance.now();
  // The device's points budget shows part of a drawing too large for it. Entities (each copy of a
  // block counting) are refused past half as many, at most the engine's own budget: more than the
  // device could show, and the time a MINSERT of millions of copies would take.
  const limits = { points: maxPoints, entities: Math.min(ENGINE_LIMITS.entities, Math.ceil(maxPoints / 2)) };
  const result = buildScenes(drawing, { includeHiddenLayers: true, plot: false, limits, pointLimit: 'truncate' });
  const t1 = performance.now();
  progress('packing', 0);
  const { lists, scenes } = packScenes(result.scenes, onTexts);
  const t2 = performance.now();
  const units = drawing.header.insUnits ?? drawing.header.vars['$INSUNITS'];
  return {
    drawing: {
      format,
      version: drawing.header.acadVersion,
      insunits: typeof units === 'number' && Number.isInteger(units) ? units : 0,
      lists,
      scenes,
      notices: noticesOf(result, readerWarnings),
      timings: { ...timings, build: t1 - t0, pack: t2 - t1 },
      bytes: byteSizeOf(lists),
    },
    transfer: transferablesOf(lists),
  };
}

export async function handleBuildRequest(request: BuildRequest, scope: WorkerScope): Promise<void> {
  const progress = (stage: Stage, fraction: number) => scope.postMessage({ kind: 'progress', stage, fraction });
  const texts = (lists: ListTexts[]) => scope.postMessage({ kind: 'texts', lists });
  try {
    if (request.kind === 'dxf') {
      const t0 = performance.now();
      const bytes = await readBlob(request.file, (f) => progress('reading', f));
      const t1 = performance.now();
      progress('parsing', 0);
      const { drawing, warnings } = readDxf(bytes);
      const t2 = performance.now();
      const out = drawingToPacked(drawing, 'dxf', warnings, request.maxPoints, { read: t1 - t0, parse: t2 - t1 }, progress, texts);
      scope.postMessage({ kind: 'done', drawing: out.drawing }, out.transfer);
      return;
    }
    const handoff = await new Promise<DwgHandoff>((resolve) => {
      request.port.onmessage = (event: MessageEvent<DwgHandoff>) => resolve(event.data);
    });
    request.port.close();
    // The DWG worker tells the page itself what went wrong.
    if (handoff.kind === 'failed') return;
    const out = drawingToPacked(
      handoff.drawing,
      'dwg',
      handoff.warnings,
      request.maxPoints,
      { read: handoff.read, parse: handoff.parse },
      progress,
      texts,
    );
    scope.postMessage({ kind: 'done', drawing: out.drawing }, out.transfer);
  } catch (error) {
    scope.postMessage({ kind: 'error', ...classifyError(error) });
  }
}
