import childProcess, { type ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { parentPort } from 'node:worker_threads';
import type { ConvertOptions } from '@xcad/cad/convert';
import type { DxfVersion } from '@xcad/cad/dxf-writer/writer';
import type { DwgVersion } from '@xcad/cad/dwg-writer/constants';

// Issue 7: what the job runner and a conversion worker thread say to each other, and the worker
// side of it. A worker loads the engine, says `ready`, then converts one request at a time; the
// runner enforces the time limit and terminates the thread when it is exceeded or the task is
// cancelled.

/** The engine's options as they cross the thread boundary (a font provider does not). */
export type WorkerConvertOptions = Omit<ConvertOptions, 'fonts'>;

/** cad2ver and pdf2cad: a DXF or DWG of this version, from a drawing or (fromPdf) from a PDF's vectors. */
export type CadTarget = ({ format: 'dxf'; version: DxfVersion } | { format: 'dwg'; version: DwgVersion }) & {
  fromPdf: boolean;
  /** pdf2cad's page range ('1-3,5'). */
  pages?: string;
};

export interface ConversionRequest {
  /** The drawing; transferred, not copied. */
  input: Uint8Array;
  options: WorkerConvertOptions;
  /** Set for DXF or DWG output: the engine's drawing options are then unused. */
  cad?: CadTarget;
}

export interface ConvertedOutput {
  /** The layout drawn ('Model' for model space); undefined for a PDF of several layouts. */
  layout: string | undefined;
  data: Uint8Array;
}

/**
 * Why a conversion produced nothing. The drawing's fault, not retried: unreadable, empty,
 * unknown-layout, bad-option, internal (the engine threw on it), timeout, memory. Not the
 * drawing's: crashed (the thread died; the job is retried) and aborted (cancelled or stopping).
 */
export type ConversionFailure = 'unreadable' | 'empty' | 'unknown-layout' | 'bad-option' | 'internal' | 'timeout' | 'memory' | 'crashed' | 'aborted';

export type ConversionOutcome =
  | { readonly ok: true; readonly outputs: readonly ConvertedOutput[]; readonly warnings: number }
  | { readonly ok: false; readonly failure: ConversionFailure; readonly detail: string };

export type ToWorker =
  | { readonly type: 'convert'; readonly id: number; readonly request: ConversionRequest }
  /** The thread is about to be terminated: kill (and reap) the processes it started, then say `abandoned`. */
  | { readonly type: 'abandon' };

export type FromWorker =
  | { readonly type: 'ready' }
  /** A process the engine started (the DWG reader): the runner kills it with the thread. */
  | { readonly type: 'child'; readonly pid: number; readonly running: boolean }
  | { readonly type: 'result'; readonly id: number; readonly outcome: ConversionOutcome }
  | { readonly type: 'abandoned' };

/** A view that owns its whole buffer, so that transferring it neither fails nor moves a shared pool. */
export function ownBuffer(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer);
}

/**
 * The engine reads DWG files in a child process, which would outlive a terminated thread (a
 * thread's handles are closed, its children neither killed nor reaped). Every process started in
 * this thread is reported, so that the runner can kill it if the thread cannot, and kept, so that
 * the thread can kill and reap it before it is terminated.
 */
function trackChildProcesses(): Set<ChildProcess> {
  const children = new Set<ChildProcess>();
  const spawn = childProcess.spawn;
  const tracked = ((...args: Parameters<typeof spawn>): ChildProcess => {
    const child = spawn(...args);
    const pid = child.pid;
    if (pid !== undefined) {
      children.add(child);
      post({ type: 'child', pid, running: true });
      child.once('exit', () => {
        children.delete(child);
        post({ type: 'child', pid, running: false });
      });
    }
    return child;
  }) as typeof spawn;
  childProcess.spawn = tracked;
  // The engine imports `spawn` by name: refresh the ES module bindings of node:child_process.
  syncBuiltinESMExports();
  return children;
}

/** Kills the children and waits until each has exited (and so been reaped). */
async function killChildren(children: Set<ChildProcess>): Promise<void> {
  await Promise.all(
    [...children].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** The worker side: answers each `convert` message with `convert`'s outcome, outputs transferred. */
export function serveConversions(convert: (request: ConversionRequest) => Promise<ConversionOutcome>): void {
  const port = parentPort;
  if (port === null) throw new Error('serveConversions runs in a worker thread');
  const children = trackChildProcesses();
  port.on('message', (message: ToWorker) => {
    if (message.type === 'abandon') {
      void killChildren(children).then(() => post({ type: 'abandoned' }));
      return;
    }
    void convert(message.request)
      .catch((error: unknown): ConversionOutcome => ({ ok: false, failure: 'internal', detail: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => {
        if (!outcome.ok) return post({ type: 'result', id: message.id, outcome });
        const outputs = outcome.outputs.map((output) => ({ layout: output.layout, data: ownBuffer(output.data) }));
        const transfer = [...new Set(outputs.map((output) => output.data.buffer as ArrayBuffer))];
        post({ type: 'result', id: message.id, outcome: { ...outcome, outputs } }, transfer);
      });
  });
  post({ type: 'ready' });
}
