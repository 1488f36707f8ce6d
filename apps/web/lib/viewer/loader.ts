import type { DwgWorkerMessage, DwgWorkerRequest } from '@xcad/cad-dwg/browser';
import { kindOf, sizeProblemOf, type Budget, type DrawingKind } from './limits';
import type { BuildMessage, BuildRequest, ListTexts, LoadErrorKind, PackedDrawing, Stage } from './types';

// Opening a file on the page: DXF goes to the build worker; DWG goes to the DWG worker (GPL,
// decision 0016), which hands the decoded drawing to a build worker through a MessageChannel.
// Each file gets fresh workers, ended as soon as the result is in: their heaps go with them.

type LoadResult =
  | { ok: true; kind: DrawingKind; drawing: PackedDrawing }
  | { ok: false; kind: DrawingKind | null; error: LoadErrorKind; message: string; maxBytes?: number }
  | { ok: false; kind: DrawingKind | null; error: 'cancelled'; message: string };

export interface LoadHandle {
  readonly result: Promise<LoadResult>;
  cancel(): void;
}

let spare: Worker | null = null;

function newBuildWorker(): Worker {
  return new Worker(new URL('./build.worker.ts', import.meta.url), { type: 'module', name: 'xcad-viewer-build' });
}

/**
 * Starts a build worker before any file is chosen (the page calls this when idle): its script is
 * then loaded and compiled when the file arrives, and the first frame comes that much sooner.
 */
export function prewarmBuildWorker(): void {
  spare ??= newBuildWorker();
}

function takeBuildWorker(): Worker {
  const worker = spare ?? newBuildWorker();
  spare = null;
  return worker;
}

export function loadDrawing(
  file: Blob,
  budget: Budget,
  onProgress: (stage: Stage, fraction: number, kind: DrawingKind) => void,
  /** The texts, before the geometry: the page can prepare its glyph atlas meanwhile. */
  onTexts?: (lists: ListTexts[]) => void,
): LoadHandle {
  const workers: Worker[] = [];
  let settle: (result: LoadResult) => void = () => {};
  let settled = false;
  const result = new Promise<LoadResult>((resolve) => {
    settle = (r) => {
      if (settled) return;
      settled = true;
      for (const w of workers) w.terminate();
      resolve(r);
    };
  });

  const start = async () => {
    if (file.size === 0) return settle({ ok: false, kind: null, error: 'empty', message: 'empty file' });
    const kind = kindOf(new Uint8Array(await file.slice(0, 6).arrayBuffer()));
    if (settled) return;
    const tooBig = sizeProblemOf(file.size, kind, budget);
    if (tooBig) return settle({ ok: false, kind, error: 'too-large', message: `${file.size} bytes`, maxBytes: tooBig.maxBytes });
    onProgress('reading', 0, kind);

    const build = takeBuildWorker();
    workers.push(build);
    build.onmessage = (event: MessageEvent<BuildMessage>) => {
      const m = event.data;
      if (m.kind === 'progress') onProgress(m.stage, m.fraction, kind);
      else if (m.kind === 'texts') onTexts?.(m.lists);
      else if (m.kind === 'done') settle({ ok: true, kind, drawing: m.drawing });
      else settle({ ok: false, kind, error: m.error, message: m.message });
    };
    build.onerror = (event) => settle({ ok: false, kind, error: 'internal', message: event.message || 'worker failed' });

    if (kind === 'dxf') {
      const request: BuildRequest = { kind: 'dxf', file, maxPoints: budget.maxPoints };
      build.postMessage(request);
      return;
    }
    const channel = new MessageChannel();
    const request: BuildRequest = { kind: 'drawing', port: channel.port2, maxPoints: budget.maxPoints };
    build.postMessage(request, [channel.port2]);
    // Loaded only now: a visitor who never opens a DWG never downloads LibreDWG.
    const dwg = new Worker(new URL('./dwg.worker.ts', import.meta.url), { type: 'module', name: 'xcad-viewer-dwg' });
    workers.push(dwg);
    dwg.onmessage = (event: MessageEvent<DwgWorkerMessage>) => {
      const m = event.data;
      if (m.kind === 'progress') onProgress(m.stage, m.fraction, kind);
      else if (m.kind === 'error') settle({ ok: false, kind, error: m.error, message: m.message });
    };
    dwg.onerror = (event) => settle({ ok: false, kind, error: 'internal', message: event.message || 'DWG worker failed' });
    const dwgRequest: DwgWorkerRequest = { file, port: channel.port1 };
    dwg.postMessage(dwgRequest, [channel.port1]);
  };

  start().catch((error: unknown) =>
    settle({ ok: false, kind: null, error: 'internal', message: String((error as Error)?.message ?? error) }),
  );
  return {
    result,
    cancel: () => settle({ ok: false, kind: null, error: 'cancelled', message: 'cancelled' }),
  };
}
