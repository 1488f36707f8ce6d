import { Worker } from 'node:worker_threads';
import type { ConversionOutcome, ConversionRequest, FromWorker, ToWorker } from './worker-protocol';
import { ownBuffer } from './worker-protocol';

// Issue 7: conversions in worker threads, each limited in heap (resourceLimits) and time (the
// thread is terminated when a conversion takes too long, or when its task is cancelled). A thread
// that converted successfully is kept warm for the next file (loading the engine costs a few
// hundred milliseconds); one that failed in any way other than a refusal is replaced.

export interface Converter {
  /** Converts in a thread; never rejects: every way it can end is an outcome. */
  convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome>;
}

export interface WorkerPoolOptions {
  /** Old-generation heap of each thread (CONVERSION_MEMORY_MB). */
  memoryMb: number;
  /** Time one conversion may take once its thread has it (CONVERSION_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Threads kept warm between conversions (the runner's concurrency). */
  idleThreads: number;
  /** The worker's entry module: conversion-worker.ts; tests name a misbehaving one. */
  entry?: URL;
  /** A thread is replaced after this many conversions, whatever the engine's native side holds on to. */
  recycleAfter?: number;
  /** How long a new thread may take to load the engine. */
  bootTimeoutMs?: number;
}

const BOOT = new URL('./worker-boot.mjs', import.meta.url);
export const CONVERSION_WORKER = new URL('./conversion-worker.ts', import.meta.url);
const OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';
/** How long a thread about to be terminated may take to kill and reap its child processes. */
const ABANDON_MS = 1_000;

type Failed = Extract<ConversionOutcome, { ok: false }>;
const failed = (failure: Failed['failure'], detail: string): Failed => ({ ok: false, failure, detail });

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/** One worker thread and the processes it started. */
class ConversionThread {
  private readonly worker: Worker;
  private readonly children = new Set<number>();
  private booted = false;
  private onReady: ((outcome: Failed | undefined) => void) | undefined;
  private onResult: { id: number; settle: (outcome: ConversionOutcome) => void } | undefined;
  private onAbandoned: (() => void) | undefined;
  private exited = false;
  private terminating: Promise<void> | undefined;
  /** Why the thread is gone, once it is. */
  ended: Failed | undefined;
  conversions = 0;

  constructor(entry: URL, memoryMb: number) {
    this.worker = new Worker(BOOT, { workerData: { entry: entry.href }, resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    this.worker.on('message', (message: FromWorker) => this.receive(message));
    this.worker.on('error', (error) =>
      this.end(errorCode(error) === OUT_OF_MEMORY ? failed('memory', error.message) : failed('crashed', `the worker failed: ${error.message}`)),
    );
    this.worker.on('exit', (code) => {
      this.exited = true;
      this.onAbandoned?.();
      this.end(failed('crashed', `the worker exited with code ${code}`));
      // Nothing can reap them now; at least they stop.
      this.killChildren();
    });
  }

  private receive(message: FromWorker): void {
    if (message.type === 'ready') {
      this.booted = true;
      this.onReady?.(undefined);
    } else if (message.type === 'child') {
      if (message.running) this.children.add(message.pid);
      else this.children.delete(message.pid);
    } else if (message.type === 'abandoned') {
      this.onAbandoned?.();
    } else if (this.onResult?.id === message.id) {
      this.onResult.settle(message.outcome);
    }
  }

  /** Records why the thread is gone and tells whoever waits on it. */
  private end(why: Failed): void {
    if (this.ended !== undefined) return;
    this.ended = why;
    this.onReady?.(why);
    this.onResult?.settle(why);
  }

  private killChildren(): void {
    for (const pid of this.children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    this.children.clear();
  }

  /**
   * Ends the thread and the processes it started (the DWG reader it may be waiting on); `why` is
   * what a waiting caller gets, at once. The thread kills and reaps its children first when it can
   * (a thread busy in a loop cannot: they are killed from here, and stay unreaped).
   */
  kill(why: Failed): Promise<void> {
    this.end(why);
    this.terminating ??= (async () => {
      if (!this.exited && this.children.size > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ABANDON_MS);
          this.onAbandoned = () => {
            clearTimeout(timer);
            resolve();
          };
          const message: ToWorker = { type: 'abandon' };
          this.worker.postMessage(message);
        });
      }
      this.killChildren();
      await this.worker.terminate();
    })();
    return this.terminating;
  }

  /** Resolves once the engine is loaded, or with why it could not be. */
  whenReady(timeoutMs: number): Promise<Failed | undefined> {
    if (this.ended !== undefined) return Promise.resolve(this.ended);
    if (this.booted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => void this.kill(failed('crashed', `the worker did not start within ${timeoutMs} ms`)), timeoutMs);
      this.onReady = (outcome) => {
        clearTimeout(timer);
        this.onReady = undefined;
        resolve(outcome);
      };
    });
  }

  /** One conversion, ended by its result, the time limit or the thread's death. */
  run(id: number, request: ConversionRequest, timeoutMs: number): Promise<ConversionOutcome> {
    if (this.ended !== undefined) return Promise.resolve(this.ended);
    return new Promise((resolve) => {
      const timer = setTimeout(() => void this.kill(failed('timeout', `the conversion took longer than ${timeoutMs} ms`)), timeoutMs);
      this.onResult = {
        id,
        settle: (outcome) => {
          clearTimeout(timer);
          this.onResult = undefined;
          resolve(outcome);
        },
      };
      const input = ownBuffer(request.input);
      const message: ToWorker = { type: 'convert', id, request: { ...request, input } };
      this.worker.postMessage(message, [input.buffer as ArrayBuffer]);
    });
  }

  /** An idle thread does not keep the process alive. */
  hold(busy: boolean): void {
    if (busy) this.worker.ref();
    else this.worker.unref();
  }
}

export class ConversionWorkerPool implements Converter {
  private readonly idle: ConversionThread[] = [];
  private readonly busy = new Set<ConversionThread>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  async convert(request: ConversionRequest, signal?: AbortSignal): Promise<ConversionOutcome> {
    if (this.closed) return failed('aborted', 'the worker pool is closed');
    if (signal?.aborted) return failed('aborted', String(signal.reason));
    const thread = this.idle.pop() ?? new ConversionThread(this.options.entry ?? CONVERSION_WORKER, this.options.memoryMb);
    thread.hold(true);
    this.busy.add(thread);
    const onAbort = (): void => void thread.kill(failed('aborted', String(signal?.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const notReady = await thread.whenReady(this.options.bootTimeoutMs ?? 60_000);
      // A thread that cannot load the engine says nothing about the drawing.
      if (notReady !== undefined) return notReady.failure === 'aborted' ? notReady : failed('crashed', notReady.detail);
      thread.conversions += 1;
      return await thread.run(this.nextId++, request, this.options.timeoutMs);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.busy.delete(thread);
      this.release(thread);
    }
  }

  private release(thread: ConversionThread): void {
    const keep = thread.ended === undefined && !this.closed && thread.conversions < (this.options.recycleAfter ?? 50) && this.idle.length < this.options.idleThreads;
    if (!keep) return void thread.kill(failed('aborted', 'released'));
    thread.hold(false);
    this.idle.push(thread);
  }

  /** Terminates every thread; conversions under way end as aborted. */
  async close(): Promise<void> {
    this.closed = true;
    const threads = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(threads.map((thread) => thread.kill(failed('aborted', 'the worker pool is closing'))));
  }
}
