/**
 * The DWG reader as a browser Web Worker (the online viewer, docs/decisions/0021-viewer.md).
 * GPL-3.0-or-later, like the rest of this package: the page loads this worker only when the user
 * opens a DWG, and shows the LibreDWG notice with a link to the source (docs/decisions/0016).
 *
 * The page sends `{ file, port }`: the file, and one end of a MessageChannel whose other end the
 * viewer's own build worker holds. The drawing model (plain data) goes straight to that port, so
 * the only thing this program shares with the viewer is data. Progress and failures go to the page.
 */
import type { Drawing } from '@xcad/cad/model';
import { readDwgBytes } from './read';

/** The end of the page's MessageChannel that reaches the build worker (a browser MessagePort). */
export interface HandoffPort {
  postMessage(message: DwgHandoff): void;
  close(): void;
}

export interface DwgWorkerRequest {
  file: Blob;
  port: HandoffPort;
}

export type DwgFailure = 'empty' | 'corrupt' | 'unsupported' | 'memory';

/** To the page. */
export type DwgWorkerMessage =
  | { kind: 'progress'; stage: 'reading' | 'parsing'; fraction: number }
  | { kind: 'done'; ms: number }
  | { kind: 'error'; error: DwgFailure; message: string };

/** To the build worker, through the port. */
export type DwgHandoff = { kind: 'drawing'; drawing: Drawing; warnings: string[]; read: number; parse: number } | { kind: 'failed' };

interface Scope {
  postMessage(message: DwgWorkerMessage): void;
}

function failureOf(error: unknown): { error: DwgFailure; message: string } {
  const e = error as { reason?: string; message?: string } | null;
  const message = String(e?.message ?? error).split('\n')[0] ?? '';
  // LibreDWG asks for a large WebAssembly memory up front; a device that cannot give it fails here.
  if (/out of memory|could not allocate|allocation failed|Array buffer allocation/i.test(message)) return { error: 'memory', message };
  if (e?.reason === 'empty') return { error: 'empty', message };
  if (e?.reason === 'unsupported') return { error: 'unsupported', message };
  return { error: 'corrupt', message };
}

export async function readForViewer(request: DwgWorkerRequest, scope: Scope): Promise<void> {
  const { file, port } = request;
  try {
    const t0 = performance.now();
    scope.postMessage({ kind: 'progress', stage: 'reading', fraction: 0 });
    const bytes = new Uint8Array(await file.arrayBuffer());
    const t1 = performance.now();
    scope.postMessage({ kind: 'progress', stage: 'parsing', fraction: 0 });
    const { drawing, warnings } = await readDwgBytes(bytes);
    const t2 = performance.now();
    const handoff: DwgHandoff = { kind: 'drawing', drawing, warnings, read: t1 - t0, parse: t2 - t1 };
    port.postMessage(handoff);
    scope.postMessage({ kind: 'done', ms: t2 - t0 });
  } catch (error) {
    port.postMessage({ kind: 'failed' } satisfies DwgHandoff);
    scope.postMessage({ kind: 'error', ...failureOf(error) });
  } finally {
    port.close();
  }
}

/** Installs the message handler: the worker entry file's only line. */
export function serveDwgWorker(scope: Scope & { onmessage: ((event: { data: DwgWorkerRequest }) => void) | null }): void {
  scope.onmessage = (event) => void readForViewer(event.data, scope);
}
