import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ConversionJobRow, Database } from '@xcad/db';
import type { Env } from '../../../env';
import type { Storage } from '../../../storage';
import type { ConversionJobs } from '../conversion.jobs';
import { claimJob, dropQueuedJob, finishJob, insertJob, requeueJob, requeueTask } from './jobs.repository';
import { giveUp, MAX_ATTEMPTS, runTask, type RunContext, type RunOutcome, type StopReason } from './run-task';
import { ConversionWorkerPool } from './worker-pool';

// Decision 0019, the `local` jobs provider: the queue is the conversion_job table, run by the API
// process itself, CONVERSION_CONCURRENCY conversion processes at a time. Several API processes may share one
// database: a job is claimed by one atomic update, held under a lock that expires, and taken
// again by any runner when its holder died. Idle runners poll; an enqueue in this process wakes
// its runner at once.

export interface LocalJobsDeps {
  db: Kysely<Database>;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Epoch milliseconds. */
  clock: () => number;
  env: Pick<Env, 'CONVERSION_CONCURRENCY' | 'CONVERSION_TIMEOUT_SECONDS' | 'CONVERSION_MEMORY_MB'>;
  /** Test seam: the worker entry to run instead of conversion-worker.ts (one that crashes, hangs or exhausts its heap). */
  workerEntry?: URL;
  /** Idle polling interval (default 250 ms). */
  pollMs?: number;
  /** How long stop() lets running conversions finish before terminating them (default 8 s). */
  graceMs?: number;
  /** How often a running conversion checks whether its task was cancelled elsewhere (default 1 s). */
  watchMs?: number;
  /** This runner's id in conversion_job.locked_by (default host:pid:random). */
  runnerId?: string;
}

const POLL_MS = 250;
const GRACE_MS = 8_000;
const WATCH_MS = 1_000;
/** Beyond a file's time limit, what a runner may spend reading and writing before its lock lapses. */
const LOCK_MARGIN_SECONDS = 60;
const BACKOFF_BASE_SECONDS = 5;

/** Seconds before attempt `attempts + 1`: 10 s after the first, 20 s after the second. */
export function backoffSeconds(attempts: number): number {
  return BACKOFF_BASE_SECONDS * 2 ** attempts;
}

interface Running {
  readonly job: ConversionJobRow;
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

class LocalConversionJobs implements ConversionJobs {
  private readonly running = new Map<string, Running>();
  private readonly context: RunContext;
  private pool: ConversionWorkerPool;
  private poolClosed = false;
  private readonly concurrency: number;
  private active = false;
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  private wakeAgain = false;
  /** The claiming round under way (stop() waits for it: a job it claims must be handed back). */
  private filling: Promise<void> = Promise.resolve();

  constructor(private readonly deps: LocalJobsDeps) {
    const timeoutMs = deps.env.CONVERSION_TIMEOUT_SECONDS * 1000;
    this.concurrency = deps.env.CONVERSION_CONCURRENCY;
    this.pool = this.createPool();
    this.context = {
      db: deps.db,
      storage: deps.storage,
      log: deps.log,
      clock: deps.clock,
      // Through `this`: a runner started again after stop() gets a new pool.
      converter: { convert: (request, signal) => this.pool.convert(request, signal) },
      runner: deps.runnerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
      timeoutMs,
      lockSeconds: Math.ceil(deps.env.CONVERSION_TIMEOUT_SECONDS) + LOCK_MARGIN_SECONDS,
      watchMs: deps.watchMs ?? WATCH_MS,
    };
  }

  private createPool(): ConversionWorkerPool {
    return new ConversionWorkerPool({
      memoryMb: this.deps.env.CONVERSION_MEMORY_MB,
      timeoutMs: this.deps.env.CONVERSION_TIMEOUT_SECONDS * 1000,
      idleProcesses: this.deps.env.CONVERSION_CONCURRENCY,
      ...(this.deps.workerEntry === undefined ? {} : { entry: this.deps.workerEntry }),
    });
  }

  private now(): number {
    return Math.floor(this.deps.clock() / 1000);
  }

  async enqueue(tasktag: string, priority: number): Promise<void> {
    await insertJob(this.deps.db, tasktag, priority, this.now());
    this.wake();
  }

  async cancel(tasktag: string): Promise<void> {
    await dropQueuedJob(this.deps.db, tasktag, this.now());
    this.running.get(tasktag)?.controller.abort('cancel' satisfies StopReason);
  }

  start(): void {
    if (this.active) return;
    if (this.poolClosed) {
      this.pool = this.createPool();
      this.poolClosed = false;
    }
    this.active = true;
    this.wake();
  }

  async stop(): Promise<void> {
    this.active = false;
    clearTimeout(this.timer);
    await this.filling;
    const running = [...this.running.values()];
    const ended = Promise.all(running.map((entry) => entry.done));
    let graceTimer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      ended.then(() => true),
      new Promise<boolean>((resolve) => (graceTimer = setTimeout(resolve, this.deps.graceMs ?? GRACE_MS, false))),
    ]);
    clearTimeout(graceTimer);
    if (!inTime) {
      for (const entry of running) entry.controller.abort('stop' satisfies StopReason);
      await ended;
    }
    this.poolClosed = true;
    await this.pool.close();
  }

  private wake(): void {
    if (this.active) this.schedule(0);
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.claiming) this.wakeAgain = true;
      else this.filling = this.fill();
    }, delayMs);
    // The HTTP server keeps the API alive; a forgotten runner alone should not.
    this.timer.unref();
  }

  /** Claims jobs while a slot is free; then waits for a wake-up or the next poll. */
  private async fill(): Promise<void> {
    this.claiming = true;
    try {
      while (this.active && this.running.size < this.concurrency) {
        const now = this.now();
        const job = await claimJob(this.deps.db, this.context.runner, now, now + this.context.lockSeconds);
        if (job === undefined) break;
        this.launch(job);
      }
    } catch (error) {
      this.deps.log.error({ err: error, runner: this.context.runner }, 'conversion queue: claiming a job failed');
    } finally {
      this.claiming = false;
      if (this.active) this.schedule(this.wakeAgain ? 0 : (this.deps.pollMs ?? POLL_MS));
      this.wakeAgain = false;
    }
  }

  private launch(job: ConversionJobRow): void {
    const controller = new AbortController();
    // Claimed while stop() was starting: hand it straight back.
    if (!this.active) controller.abort('stop' satisfies StopReason);
    const done = this.attempt(job, controller.signal).finally(() => {
      this.running.delete(job.tasktag);
      this.wake();
    });
    this.running.set(job.tasktag, { job, controller, done });
  }

  private async attempt(job: ConversionJobRow, signal: AbortSignal): Promise<void> {
    let outcome: RunOutcome;
    try {
      outcome = await runTask(this.context, job, signal);
    } catch (error) {
      outcome = { kind: 'retry', detail: error instanceof Error ? error.message : String(error) };
    }
    try {
      await this.settle(job, outcome);
    } catch (error) {
      // The lock runs out and the job is taken again: nothing is lost.
      this.deps.log.error({ err: error, tasktag: job.tasktag, runner: this.context.runner }, 'conversion queue: settling a job failed');
    }
  }

  private async settle(job: ConversionJobRow, outcome: RunOutcome): Promise<void> {
    const { db } = this.deps;
    const { runner } = this.context;
    const now = this.now();
    switch (outcome.kind) {
      case 'finished':
        return finishJob(db, job.id, runner, 'done', null, now);
      case 'cancelled':
        return finishJob(db, job.id, runner, 'done', 'cancelled', now);
      case 'gave-up':
        return finishJob(db, job.id, runner, 'failed', 'attempts exhausted', now);
      case 'interrupted':
        await requeueTask(db, job.tasktag, now);
        return requeueJob(db, job.id, runner, now, 'interrupted: the runner stopped', now, true);
      case 'lost':
        return;
      case 'retry': {
        if (job.attempts < MAX_ATTEMPTS) return requeueJob(db, job.id, runner, now + backoffSeconds(job.attempts), outcome.detail, now);
        const ended = await giveUp(this.context, job.tasktag);
        return finishJob(db, job.id, runner, ended.kind === 'gave-up' ? 'failed' : 'done', outcome.detail, this.now());
      }
    }
  }
}

/** The `local` provider of conversion jobs; call start() to begin claiming and stop() before closing the database. */
export function createLocalJobs(deps: LocalJobsDeps): ConversionJobs {
  return new LocalConversionJobs(deps);
}
