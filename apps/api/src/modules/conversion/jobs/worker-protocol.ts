import childProcess, { type ChildProcess } from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import type { ConvertOptions } from '@xcad/cad/convert';
import type { DxfVersion } from '@xcad/cad/dxf-writer';
import type { DwgVersion } from '@xcad/cad/dwg-writer';
import type { LimitName } from '@xcad/cad/errors';
import type { TFileChange, TFileSummary } from '@xcad/protocol';

// Decisions 0019 and 0027: what the job runner and a conversion process say to each other over its IPC
// channel, and the process's side of it. A conversion process loads the engine, says `ready`, then
// converts one request at a time; the runner enforces the time and memory limits and kills the
// process (and the processes it started) when one is exceeded or the task is cancelled.

/** The engine's options as they cross the process boundary (a font provider does not). */
export type WorkerConvertOptions = Omit<ConvertOptions, 'fonts'>;

/** cad2ver and pdf2cad: a DXF or DWG of this version, from a drawing or (fromPdf) from a PDF's vectors. */
export type CadTarget = ({ format: 'dxf'; version: DxfVersion } | { format: 'dwg'; version: DwgVersion }) & {
  fromPdf: boolean;
  /** pdf2cad's page range ('1-3,5'). */
  pages?: string;
};

export interface ConversionRequest {
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
 * unknown-layout, bad-option, internal (the engine threw on it), limit (one of the engine's
 * budgets, named by `limit`), timeout, memory (the process's resident memory or heap). Not the
 * drawing's: crashed (the process died; the job is retried) and aborted (cancelled or stopping).
 */
export type ConversionFailure =
  'unreadable' | 'empty' | 'unknown-layout' | 'bad-option' | 'internal' | 'limit' | 'timeout' | 'memory' | 'crashed' | 'aborted';

/** What a converted file holds and what the target changed (decision 0036; the protocol's ZTaskFile fields). */
export interface ConversionReport {
  readonly summary: TFileSummary;
  readonly changes: readonly TFileChange[];
}

export type ConversionOutcome =
  | { readonly ok: true; readonly outputs: readonly ConvertedOutput[]; readonly warnings: number; readonly report: ConversionReport }
  | { readonly ok: false; readonly failure: ConversionFailure; readonly detail: string; readonly limit?: LimitName };

export type ToWorker = { readonly type: 'convert'; readonly id: number; readonly request: ConversionRequest };

export type FromWorker =
  | { readonly type: 'ready' }
  /** A process the engine started (the DWG reader): its memory counts towards the conversion's. */
  | { readonly type: 'child'; readonly pid: number; readonly running: boolean }
  | { readonly type: 'result'; readonly id: number; readonly outcome: ConversionOutcome };

function post(message: FromWorker): void {
  process.send?.(message);
}

/**
 * The engine reads DWG files in a child process. Every process started here is reported, so
 * that the runner counts its memory with this process's (they are killed together, as one
 * process group).
 */
function reportChildProcesses(): void {
  const spawn = childProcess.spawn;
  const tracked = ((...args: Parameters<typeof spawn>): ChildProcess => {
    const child = spawn(...args);
    const pid = child.pid;
    if (pid !== undefined) {
      post({ type: 'child', pid, running: true });
      child.once('exit', () => post({ type: 'child', pid, running: false }));
    }
    return child;
  }) as typeof spawn;
  childProcess.spawn = tracked;
  // The engine imports `spawn` by name: refresh the ES module bindings of node:child_process.
  syncBuiltinESMExports();
}

/** The conversion process's side: answers each `convert` message with `convert`'s outcome. */
export function serveConversions(convert: (request: ConversionRequest) => Promise<ConversionOutcome>): void {
  if (process.send === undefined) throw new Error('serveConversions runs in a process started with an IPC channel');
  reportChildProcesses();
  // The runner went away (it exited or was killed): nobody is waiting for what this would convert.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: ToWorker) => {
    void convert(message.request)
      .catch((error: unknown): ConversionOutcome => ({
        ok: false,
        failure: 'internal',
        detail: error instanceof Error ? error.message : String(error),
      }))
      .then((outcome) => post({ type: 'result', id: message.id, outcome }));
  });
  post({ type: 'ready' });
}
