import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ConversionOutcome, ConversionRequest, FromWorker, ToWorker } from './worker-protocol';

// Decisions 0019 and 0027: each conversion runs in a process of its own, capped in time
// and in resident memory. V8's heap limit (`--max-old-space-size`) bounds only the JavaScript heap;
// pdf.js's inflated streams, the canvas and fonts live outside it. So a watchdog reads the resident
// memory of the process and of the processes it started (the DWG reader) from /proc while it
// converts, and kills them all, as one process group, the moment they pass the cap; the time limit
// kills them the same way. A process that converted successfully and stayed small is kept warm for
// the next file (starting one and loading the engine costs a few hundred milliseconds); any other
// is replaced, so the memory a conversion took is given back to the system with its process, and
// the process that runs the pool never holds it.

export interface Converter {
  /** Converts in a process of its own; never rejects: every way it can end is an outcome. */
  convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome>;
}

export interface WorkerPoolOptions {
  /** Resident memory of a conversion and the processes it starts, and its heap (CONVERSION_MEMORY_MB). */
  memoryMb: number;
  /** Time one conversion may take once its process has it (CONVERSION_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Processes kept warm between conversions (the runner's concurrency). */
  idleProcesses: number;
  /** The conversion process's entry module: conversion-worker.ts; tests name a misbehaving one. */
  entry?: URL;
  /** A process is replaced after this many conversions, whatever it holds on to. */
  recycleAfter?: number;
  /** A process whose resident memory is above this after a conversion is replaced. */
  recycleMb?: number;
  /** How long a new process may take to load the engine. */
  bootTimeoutMs?: number;
  /** How often the watchdog reads a converting process's memory. */
  sampleMs?: number;
}

const BOOT = fileURLToPath(new URL('./worker-boot.mjs', import.meta.url));
const CONVERSION_WORKER = new URL('./conversion-worker.ts', import.meta.url);
const MB = 1024 * 1024;
const PAGE_BYTES = 4096;
/** A warm process above this is replaced: an engine that has converted a few drawings holds 200-300 MB. */
const RECYCLE_MB = 512;
const SAMPLE_MS = 50;
/** The last bytes of a process's stderr, kept to tell a heap exhausted from another crash. */
const STDERR_TAIL = 4096;

type Failed = Extract<ConversionOutcome, { ok: false }>;
/** Failures that end early and leave nothing behind: the process that refused the file stays warm. */
const REFUSALS: ReadonlySet<Failed['failure']> = new Set(['unreadable', 'empty', 'unknown-layout', 'bad-option']);
const failed = (failure: Failed['failure'], detail: string): Failed => ({ ok: false, failure, detail });

/** Resident bytes of a process (/proc/PID/statm), 0 once it is gone or where there is no /proc. */
function residentBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** One conversion process and the processes it started. */
class ConversionProcess {
  private readonly child: ChildProcess;
  private readonly descendants = new Set<number>();
  private stderrTail = '';
  private booted = false;
  private onReady: ((outcome: Failed | undefined) => void) | undefined;
  private onResult: { id: number; settle: (outcome: ConversionOutcome) => void } | undefined;
  private readonly exited: Promise<void>;
  /** Why the process is gone, once it is (or is being killed). */
  ended: Failed | undefined;
  conversions = 0;

  constructor(
    entry: URL,
    private readonly memoryMb: number,
  ) {
    // A group of its own, so that one signal ends it and whatever it started.
    this.child = fork(BOOT, [entry.href], {
      execArgv: [`--max-old-space-size=${memoryMb}`],
      serialization: 'advanced',
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.setEncoding('utf8');
    this.child.stderr?.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
    });
    this.child.on('message', (message: FromWorker) => this.receive(message));
    // A failed send (the process died meanwhile) is reported by its exit.
    this.child.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        const lastLine = this.stderrTail.trim().split('\n').pop()?.slice(0, 200) ?? '';
        this.end(
          /heap out of memory|allocation failed/i.test(this.stderrTail)
            ? failed('memory', 'the conversion exhausted its heap')
            : failed('crashed', `the conversion process exited (${signal ?? `code ${code}`})${lastLine ? `: ${lastLine}` : ''}`),
        );
        this.killGroup();
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private receive(message: FromWorker): void {
    if (message.type === 'ready') {
      this.booted = true;
      this.onReady?.(undefined);
    } else if (message.type === 'child') {
      if (message.running) this.descendants.add(message.pid);
      else this.descendants.delete(message.pid);
    } else if (this.onResult?.id === message.id) {
      this.onResult.settle(message.outcome);
    }
  }

  /** Records why the process is gone and tells whoever waits on it. */
  private end(why: Failed): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    this.onReady?.(why);
    this.onResult?.settle(why);
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Resident memory of the process and the processes it started. */
  residentBytes(): number {
    const pid = this.child.pid;
    if (pid === undefined) return 0;
    let total = residentBytes(pid);
    for (const descendant of this.descendants) total += residentBytes(descendant);
    return total;
  }

  /** Ends the process and everything it started; `why` is what a waiting caller gets, at once. Resolves once it has exited. */
  kill(why: Failed): Promise<void> {
    this.end(why);
    // An idle process is unref'd: its exit must still be waited for (close() at the end of a script).
    this.hold(true);
    this.killGroup();
    return this.exited;
  }

  /** Resolves once the engine is loaded, or with why it could not be. */
  whenReady(timeoutMs: number): Promise<Failed | undefined> {
    if (this.ended !== undefined) return Promise.resolve(this.ended);
    if (this.booted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => void this.kill(failed('crashed', `the conversion process did not start within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.onReady = (outcome) => {
        clearTimeout(timer);
        this.onReady = undefined;
        resolve(outcome);
      };
    });
  }

  /** One conversion, ended by its result, the time limit, the memory cap or the process's death. */
  run(id: number, request: ConversionRequest, timeoutMs: number, sampleMs: number): Promise<ConversionOutcome> {
    if (this.ended !== undefined) return Promise.resolve(this.ended);
    const capBytes = this.memoryMb * MB;
    return new Promise((resolve) => {
      const timer = setTimeout(() => void this.kill(failed('timeout', `the conversion took longer than ${timeoutMs} ms`)), timeoutMs);
      const watchdog = setInterval(() => {
        const resident = this.residentBytes();
        if (resident > capBytes)
          void this.kill(
            failed('memory', `the conversion reached ${Math.round(resident / MB)} MB of resident memory, over its ${this.memoryMb} MB`),
          );
      }, sampleMs);
      this.onResult = {
        id,
        settle: (outcome) => {
          clearTimeout(timer);
          clearInterval(watchdog);
          this.onResult = undefined;
          resolve(outcome);
        },
      };
      const message: ToWorker = { type: 'convert', id, request };
      this.child.send(message);
    });
  }

  /** An idle process does not keep the pool's process alive. */
  hold(busy: boolean): void {
    const handles = [this.child, this.child.channel, this.child.stderr as Socket | null];
    for (const handle of handles) {
      if (busy) handle?.ref();
      else handle?.unref();
    }
  }
}

export class ConversionWorkerPool implements Converter {
  private readonly idle: ConversionProcess[] = [];
  private readonly busy = new Set<ConversionProcess>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  private start(): ConversionProcess {
    return new ConversionProcess(this.options.entry ?? CONVERSION_WORKER, this.options.memoryMb);
  }

  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (this.closed) return failed('aborted', 'the worker pool is closed');
    if (signal?.aborted) return failed('aborted', String(signal.reason));
    const worker = this.idle.pop() ?? this.start();
    worker.hold(true);
    this.busy.add(worker);
    const onAbort = (): void => void worker.kill(failed('aborted', String(signal?.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    let outcome: ConversionOutcome = failed('aborted', 'not run');
    try {
      const notReady = await worker.whenReady(this.options.bootTimeoutMs ?? 60_000);
      // A process that cannot load the engine says nothing about the drawing.
      if (notReady !== undefined) return (outcome = notReady.failure === 'aborted' ? notReady : failed('crashed', notReady.detail));
      worker.conversions += 1;
      return (outcome = await worker.run(this.nextId++, request, this.options.timeoutMs, this.options.sampleMs ?? SAMPLE_MS));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.busy.delete(worker);
      this.release(worker, outcome);
    }
  }

  /**
   * Keeps a process that converted (or refused a file that is not a drawing it can read) and stayed
   * small; any other is ended and, while the pool runs, replaced by a fresh one.
   */
  private release(worker: ConversionProcess, outcome: ConversionOutcome): void {
    const isWanted = !this.closed && this.idle.length < this.options.idleProcesses;
    const isClean = outcome.ok || REFUSALS.has(outcome.failure);
    const isFit =
      isClean &&
      worker.ended === undefined &&
      worker.conversions < (this.options.recycleAfter ?? 50) &&
      worker.residentBytes() <= (this.options.recycleMb ?? RECYCLE_MB) * MB;
    if (isWanted && isFit) {
      worker.hold(false);
      this.idle.push(worker);
      return;
    }
    void worker.kill(failed('aborted', 'released'));
    // The next file should not wait for the engine to load.
    if (isWanted && worker.conversions > 0) {
      const fresh = this.start();
      fresh.hold(false);
      this.idle.push(fresh);
    }
  }

  /** Ends every process; conversions under way end as aborted. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.kill(failed('aborted', 'the worker pool is closing'))));
  }
}
