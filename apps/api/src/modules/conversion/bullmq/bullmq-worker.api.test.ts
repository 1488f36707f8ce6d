import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { Queue } from 'bullmq';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../../storage';
import type { ConversionJobs } from '../conversion.jobs';
import { JOB_MESSAGES } from '../jobs/job-messages';
import type { ConversionJobData } from './bullmq-config';
import { createBullmqJobs } from './bullmq-jobs';
import { BullmqConversionWorker, type BullmqWorkerDeps } from './bullmq-worker';
import {
  attemptLines,
  createQueuedTask,
  inspectQueue,
  taskRow,
  TEST_REDIS_URL,
  testQueueName,
  waitFor,
  type LogLine,
} from './bullmq.testing';

// Decision 0019, the `bullmq` provider on the real Redis and the real database (SQLite and PostgreSQL),
// with the worker in this process and a test conversion process that misbehaves on command
// (jobs/worker.testing.ts): priorities, one run per tasktag, retries with back-off, giving up,
// drawings that are not retried, cancels and a worker stopping mid-job. The worker processes of
// `npm run worker` are tested in bullmq-processes.api.test.ts.

const MISBEHAVING = new URL('../jobs/worker.testing.ts', import.meta.url);
const text = (value: string): Buffer => Buffer.from(value);
const QUEUE = testQueueName('worker');

let database: TestDatabaseHandle;
let storage: LocalDiskStorage;
let scratch: string;
let jobs: ConversionJobs;
let inspected: ReturnType<typeof inspectQueue>;
let queue: Queue<ConversionJobData>;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase();
  storage = new LocalDiskStorage(await mkdtemp(path.join(tmpdir(), 'xcad-bullmq-')));
  scratch = await mkdtemp(path.join(tmpdir(), 'xcad-bullmq-scratch-'));
  // Retries 100 ms, then 200 ms, after a failed attempt (10 s and 20 s in production).
  jobs = createBullmqJobs({ env: { REDIS_URL: TEST_REDIS_URL, CONVERSION_QUEUE_NAME: QUEUE }, log: silent, firstBackoffMs: 100 });
  inspected = inspectQueue(QUEUE);
  queue = inspected.queue;
});

afterAll(async () => {
  await jobs.stop();
  await inspected.remove();
  await database.destroy();
  await rm(storage.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

interface Started {
  worker: BullmqConversionWorker;
  logs: LogLine[];
}

const workers: Started[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((started) => started.worker.stop()));
});

/** A worker on the test queue running the misbehaving conversion process, started unless `start` is false. */
async function worker(options: Partial<Omit<BullmqWorkerDeps, 'env'>> = {}, start = true): Promise<Started> {
  const logs: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(JSON.parse(chunk.toString('utf8')) as LogLine);
      callback();
    },
  });
  const created = new BullmqConversionWorker({
    db: database.db,
    storage,
    log: pino({ level: 'info' }, sink),
    clock: Date.now,
    env: {
      REDIS_URL: TEST_REDIS_URL,
      CONVERSION_QUEUE_NAME: QUEUE,
      CONVERSION_CONCURRENCY: 1,
      CONVERSION_TIMEOUT_SECONDS: 30,
      CONVERSION_MEMORY_MB: 256,
    },
    workerEntry: MISBEHAVING,
    watchMs: 100,
    graceMs: 3_000,
    ...options,
  });
  const started = { worker: created, logs };
  workers.push(started);
  if (start) await created.start();
  return started;
}

const task = (name: string, content: string): Promise<string> => createQueuedTask(database.db, storage, [{ name, bytes: text(content) }]);
const ended = (tasktag: string, timeoutMs?: number) =>
  waitFor(
    () => taskRow(database.db, tasktag),
    (row) => ['done', 'failed', 'cancelled'].includes(row.status),
    timeoutMs,
  );
const jobOf = (tasktag: string) =>
  database.db.selectFrom('conversion_job').selectAll().where('tasktag', '=', tasktag).executeTakeFirstOrThrow();

async function bullmqJob(tasktag: string) {
  // The state first, then the job's fields: once the state is final the fields read after it are
  // final too (read the other way round, a retry can land between the two reads).
  const state = await queue.getJobState(tasktag);
  const job = await queue.getJob(tasktag);
  if (job === undefined) throw new Error(`no BullMQ job ${tasktag}`);
  return {
    state,
    attemptsMade: job.attemptsMade,
    attemptsStarted: job.attemptsStarted,
    failedReason: job.failedReason,
    returnvalue: job.returnvalue as unknown,
  };
}

/** The job once BullMQ has it completed or failed (a moment after its task ended). */
const settled = (tasktag: string) =>
  waitFor(
    () => bullmqJob(tasktag),
    (found) => found.state === 'completed' || found.state === 'failed',
    10_000,
  );

describe('the bullmq provider', { timeout: 30_000 }, () => {
  it("runs members' tasks first, then the others in order, each once; enqueueing a tasktag again changes nothing", async () => {
    const first = await task('first.dxf', 'ECHO');
    const second = await task('second.dxf', 'ECHO');
    const member = await task('member.dxf', 'ECHO');
    await jobs.enqueue(first, 0);
    await jobs.enqueue(second, 0);
    await jobs.enqueue(member, 10);
    await jobs.enqueue(first, 0);

    const { logs } = await worker();
    for (const tasktag of [first, second, member]) expect(await ended(tasktag)).toMatchObject({ status: 'done', progress: 100 });
    const order = logs.filter((line) => line['msg'] === 'conversion attempt').map((line) => line['tasktag']);
    expect(order).toEqual([member, first, second]);

    for (const tasktag of [first, second, member]) await settled(tasktag);
    await jobs.enqueue(member, 10);
    expect(await bullmqJob(member)).toMatchObject({ state: 'completed', attemptsStarted: 1, returnvalue: 'done' });
    expect(await queue.getJobCounts('wait', 'prioritized', 'delayed', 'active')).toEqual({
      wait: 0,
      prioritized: 0,
      delayed: 0,
      active: 0,
    });
    expect(await jobOf(member)).toMatchObject({ status: 'done', priority: 10, attempts: 1 });
  });

  it('retries a conversion whose process crashed after a back-off, and converts it', async () => {
    const marker = path.join(scratch, 'crashed-once');
    const tasktag = await task('a.dxf', `CRASH-ONCE:${marker}`);
    const { logs } = await worker();
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'done', reason: null });
    expect(existsSync(marker)).toBe(true);
    expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['retry', 'done']);
    expect(await settled(tasktag)).toMatchObject({ state: 'completed', attemptsStarted: 2 });
  });

  it('gives a task up after three crashed attempts, as the service being busy', async () => {
    const tasktag = await task('a.dxf', 'CRASH');
    const { logs } = await worker();
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: JOB_MESSAGES.busy });
    expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['retry', 'retry', 'retry']);
    expect(await settled(tasktag)).toMatchObject({ state: 'failed', attemptsMade: 3 });
    expect(await jobOf(tasktag)).toMatchObject({ status: 'failed' });
  });

  it('fails a drawing that cannot be converted at once, never retried', async () => {
    const tasktag = await task('a.dxf', 'not a drawing');
    const { logs } = await worker();
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: JOB_MESSAGES.unreadable });
    expect(await settled(tasktag)).toMatchObject({
      state: 'failed',
      attemptsMade: 1,
      attemptsStarted: 1,
      failedReason: JOB_MESSAGES.unreadable,
    });
    expect(attemptLines(logs, tasktag)).toHaveLength(1);
  });

  it('cancel drops a waiting job, and stops a running conversion through the task row', async () => {
    const waiting = await task('a.dxf', 'ECHO');
    await jobs.enqueue(waiting, 0);
    await database.db.updateTable('conversion_task').set({ status: 'cancelled' }).where('tasktag', '=', waiting).execute();
    await jobs.cancel(waiting);
    expect(await queue.getJob(waiting)).toBeUndefined();

    const running = await task('b.dxf', 'ECHO:20000');
    const { logs } = await worker();
    await jobs.enqueue(running, 0);
    await waitFor(
      () => taskRow(database.db, running),
      (row) => row.status === 'processing',
    );
    // As taskcancel does: the task row first, then the jobs.
    await database.db.updateTable('conversion_task').set({ status: 'cancelled' }).where('tasktag', '=', running).execute();
    const cancelledAt = Date.now();
    await jobs.cancel(running);
    const job = await settled(running);
    expect(Date.now() - cancelledAt).toBeLessThan(5_000);
    expect(job).toMatchObject({ state: 'completed', returnvalue: 'cancelled', attemptsStarted: 1 });
    expect((await taskRow(database.db, running)).status).toBe('cancelled');
    expect(await jobOf(running)).toMatchObject({ status: 'done', last_error: 'cancelled' });
    expect(attemptLines(logs, running).map((line) => line['result'])).toEqual(['cancelled']);
  });

  it('a worker stopping mid-job hands it back uncounted after its grace period; another worker converts it', async () => {
    const tasktag = await task('a.dxf', 'ECHO:2500');
    const stopping = await worker({ graceMs: 200 });
    await jobs.enqueue(tasktag, 0);
    await waitFor(
      () => taskRow(database.db, tasktag),
      (row) => row.status === 'processing',
    );
    const started = Date.now();
    await stopping.worker.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await taskRow(database.db, tasktag)).status).toBe('queued');
    // Back among the waiting jobs, in its priority's place.
    expect(await bullmqJob(tasktag)).toMatchObject({ state: 'prioritized', attemptsMade: 0, attemptsStarted: 1 });

    const { logs } = await worker();
    expect(await ended(tasktag)).toMatchObject({ status: 'done' });
    expect(await settled(tasktag)).toMatchObject({ state: 'completed' });
    expect(attemptLines(stopping.logs, tasktag).map((line) => line['result'])).toEqual(['interrupted']);
    expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['done']);
    expect(await jobOf(tasktag)).toMatchObject({ status: 'done', attempts: 1 });
  });
});
