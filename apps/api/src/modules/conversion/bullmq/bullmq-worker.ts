import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ConversionJobRow, Database } from '@xcad/db';
import type { Env } from '../../../env';
import type { Storage } from '../../../storage';
import { findTask, finishJob, requeueJob, requeueTask, taskStatus } from '../jobs/jobs.repository';
import { giveUp, runTask, type RunContext, type RunOutcome, type StopReason } from '../jobs/run-task';
import { ConversionWorkerPool } from '../jobs/worker-pool';
import { conversionWorkerTiming, redisConnection, type ConversionJobData } from './bullmq-config';
import { holdJob } from './bullmq.repository';

// Decision 0019, the `bullmq` provider's worker (`npm run worker`, apps/api/src/worker.ts): a BullMQ
// Worker whose jobs run exactly as the local queue runs them (runTask, conversions in processes
// of their own under CONVERSION_TIMEOUT_SECONDS and CONVERSION_MEMORY_MB). What BullMQ should do next
// follows from how the attempt ended:
// - the task ended (done, or failed because of the drawing): the job completes, or fails with an
//   UnrecoverableError, never retried;
// - a crashed thread, storage or the database: the attempt throws and BullMQ retries after a
//   back-off; the last attempt gives the task up ('转换服务繁忙') first;
// - the worker stopping (SIGTERM) past the grace period: the task and job go back to waiting,
//   the attempt not counted;
// - the worker killed: its lock lapses and BullMQ's stalled-job check hands the job to another
//   worker, which resumes after the files already converted.

export interface BullmqWorkerDeps {
  db: Kysely<Database>;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Epoch milliseconds. */
  clock: () => number;
  env: Pick<Env, 'REDIS_URL' | 'CONVERSION_QUEUE_NAME' | 'CONVERSION_CONCURRENCY' | 'CONVERSION_TIMEOUT_SECONDS' | 'CONVERSION_MEMORY_MB'>;
  /** Test seam: the worker entry to run instead of conversion-worker.ts. */
  workerEntry?: URL;
  /** How long stop() lets running conversions finish before handing them back (default 8 s). */
  graceMs?: number;
  /** How often a running conversion checks whether its task was cancelled (default 1 s). */
  watchMs?: number;
  /** This worker's id in conversion_job.locked_by and the logs (default host:pid:random). */
  runnerId?: string;
}

const GRACE_MS = 8_000;
const WATCH_MS = 1_000;
/** Beyond a file's time limit, what a runner may spend reading and writing before its hold lapses. */
const LOCK_MARGIN_SECONDS = 60;

/** What a job's processor returns when the job completes. */
export type JobResult = 'done' | 'cancelled' | 'lost';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class BullmqConversionWorker {
  private readonly worker: Worker<ConversionJobData, JobResult>;
  private readonly pool: ConversionWorkerPool;
  private readonly context: RunContext;
  private readonly lockSeconds: number;
  /** Running jobs by tasktag: stop() aborts them after the grace period. */
  private readonly running = new Map<string, AbortController>();
  private stopping: Promise<void> | undefined;

  constructor(private readonly deps: BullmqWorkerDeps) {
    const { env } = deps;
    this.pool = new ConversionWorkerPool({
      memoryMb: env.CONVERSION_MEMORY_MB,
      timeoutMs: env.CONVERSION_TIMEOUT_SECONDS * 1000,
      idleProcesses: env.CONVERSION_CONCURRENCY,
      ...(deps.workerEntry === undefined ? {} : { entry: deps.workerEntry }),
    });
    this.lockSeconds = env.CONVERSION_TIMEOUT_SECONDS + LOCK_MARGIN_SECONDS;
    this.context = {
      db: deps.db,
      storage: deps.storage,
      log: deps.log,
      clock: deps.clock,
      converter: this.pool,
      runner: deps.runnerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
      timeoutMs: env.CONVERSION_TIMEOUT_SECONDS * 1000,
      lockSeconds: this.lockSeconds,
      watchMs: deps.watchMs ?? WATCH_MS,
    };
    this.worker = new Worker<ConversionJobData, JobResult>(env.CONVERSION_QUEUE_NAME, (job, token) => this.process(job, token), {
      connection: redisConnection(env.REDIS_URL),
      concurrency: env.CONVERSION_CONCURRENCY,
      autorun: false,
      ...conversionWorkerTiming(env.CONVERSION_TIMEOUT_SECONDS),
    });
    this.worker.on('error', (error) => deps.log.error({ err: error, runner: this.runner }, 'conversion worker: redis error'));
    this.worker.on('failed', (job) => void this.afterBullmqFailure(job));
  }

  /** This worker's runner id. */
  get runner(): string {
    return this.context.runner;
  }

  /** Starts taking jobs; resolves once connected to Redis. */
  async start(): Promise<void> {
    this.worker
      .run()
      .catch((error: unknown) => this.deps.log.error({ err: error, runner: this.runner }, 'conversion worker: stopped on an error'));
    await this.worker.waitUntilReady();
  }

  /** Stops taking jobs; running ones finish, or after the grace period go back to the queue. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      const grace = setTimeout(() => {
        for (const controller of this.running.values()) controller.abort('stop' satisfies StopReason);
      }, this.deps.graceMs ?? GRACE_MS);
      try {
        await this.worker.close();
      } finally {
        clearTimeout(grace);
        await this.pool.close();
      }
    })();
    return this.stopping;
  }

  private now(): number {
    return Math.floor(this.deps.clock() / 1000);
  }

  private async process(job: Job<ConversionJobData, JobResult>, token: string | undefined): Promise<JobResult> {
    const { tasktag, priority } = job.data;
    const controller = new AbortController();
    if (this.stopping !== undefined) controller.abort('stop' satisfies StopReason);
    this.running.set(tasktag, controller);
    try {
      const now = this.now();
      // Failed attempts and stalls (a worker that died holding the job); a graceful hand-back does not count.
      const attempts = job.attemptsMade + job.stalledCounter + 1;
      const row = await holdJob(this.deps.db, { tasktag, runner: this.runner, priority, attempts, lockUntil: now + this.lockSeconds, now });
      let outcome: RunOutcome;
      try {
        outcome = await runTask(this.context, row, controller.signal);
      } catch (error) {
        outcome = { kind: 'retry', detail: describe(error) };
      }
      return await this.settle(job, token, row, outcome);
    } finally {
      this.running.delete(tasktag);
    }
  }

  /** Records the attempt on the job row, and answers BullMQ: a result, or an error saying whether to retry. */
  private async settle(
    job: Job<ConversionJobData, JobResult>,
    token: string | undefined,
    row: ConversionJobRow,
    outcome: RunOutcome,
  ): Promise<JobResult> {
    const { db } = this.deps;
    const now = this.now();
    switch (outcome.kind) {
      case 'finished': {
        await finishJob(db, row.id, this.runner, 'done', null, now);
        const task = await findTask(db, row.tasktag);
        // The drawing (or the task's options) is to blame: another attempt would fail the same way.
        if (task?.status === 'failed') throw new UnrecoverableError(task.reason ?? 'the conversion failed');
        return 'done';
      }
      case 'cancelled':
        await finishJob(db, row.id, this.runner, 'done', 'cancelled', now);
        return 'cancelled';
      case 'gave-up':
        await finishJob(db, row.id, this.runner, 'failed', 'attempts exhausted', now);
        throw new UnrecoverableError('attempts exhausted');
      case 'interrupted':
        await requeueTask(db, row.tasktag, now);
        await requeueJob(db, row.id, this.runner, now, 'interrupted: the worker stopped', now);
        await job.moveToWait(token);
        throw new WaitingError();
      case 'lost':
        // Another worker holds the task now; BullMQ refuses this worker's answer (its lock is gone).
        return 'lost';
      case 'retry': {
        if (job.attemptsMade + 1 < (job.opts.attempts ?? 1)) {
          await requeueJob(db, row.id, this.runner, now, outcome.detail, now);
          throw new Error(outcome.detail);
        }
        const ended = await giveUp(this.context, row.tasktag);
        await finishJob(db, row.id, this.runner, ended.kind === 'gave-up' ? 'failed' : 'done', outcome.detail, this.now());
        throw new UnrecoverableError(outcome.detail);
      }
    }
  }

  /**
   * A job BullMQ failed without running it (stalled more often than maxStalledCount: its workers
   * kept dying before runTask could give it up) would leave its task 'processing': give it up.
   */
  private async afterBullmqFailure(job: Job<ConversionJobData, JobResult> | undefined): Promise<void> {
    if (job?.deferredFailure === undefined) return;
    try {
      const status = await taskStatus(this.deps.db, job.data.tasktag);
      if (status === 'queued' || status === 'processing') await giveUp(this.context, job.data.tasktag);
    } catch (error) {
      this.deps.log.error(
        { err: error, tasktag: job.data.tasktag, runner: this.runner },
        'conversion worker: giving up a failed job failed',
      );
    }
  }
}
