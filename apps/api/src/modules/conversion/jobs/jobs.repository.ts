import { PostgresAdapter, type ExpressionBuilder } from 'kysely';
import type { ConversionFileRow, ConversionJobRow, ConversionTaskRow, ConversionTaskStatus, Database, Executor } from '@xcad/db';

// Decision 0019: all SQL of the local job runner: the queue (conversion_job) and what the runner writes
// of tasks and files (status, progress, outputs, result). Epochs in seconds. Writes to a task are
// conditional on it still being 'processing', so a cancel or the retention sweep that ended it
// meanwhile is never overwritten.

type JobExpression = ExpressionBuilder<Database, 'conversion_job'>;

/** A job that may be taken now: queued and due, or running under a lock that has expired (its runner died). */
function claimable(now: number) {
  return (eb: JobExpression) =>
    eb.or([
      eb.and([eb('status', '=', 'queued'), eb('run_after', '<=', now)]),
      eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
    ]);
}

/** Queues a task; a second call for the same tasktag changes nothing. */
export async function insertJob(db: Executor, tasktag: string, priority: number, now: number): Promise<void> {
  await db
    .insertInto('conversion_job')
    .values({ tasktag, priority, run_after: now, created_at: now, updated_at: now })
    .onConflict((conflict) => conflict.column('tasktag').doNothing())
    .execute();
}

/**
 * Takes the next job (highest priority, then oldest) for `runner` in one statement: the update
 * re-checks the claim condition, and on PostgreSQL the candidate row is locked with SKIP LOCKED,
 * so two runners never take the same job and neither waits on the other.
 */
export async function claimJob(db: Executor, runner: string, now: number, lockUntil: number): Promise<ConversionJobRow | undefined> {
  let next = db
    .selectFrom('conversion_job')
    .select('id')
    .where(claimable(now))
    .orderBy('priority', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1);
  if (db.getExecutor().adapter instanceof PostgresAdapter) next = next.forUpdate().skipLocked();
  return db
    .updateTable('conversion_job')
    .set((eb) => ({ status: 'running', locked_by: runner, locked_until: lockUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', next)
    .where(claimable(now))
    .returningAll()
    .executeTakeFirst();
}

/** Extends the runner's lock; false when the job is no longer its own (its lock expired and another runner took it). */
export async function extendLock(db: Executor, id: number, runner: string, lockUntil: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('conversion_job')
    .set({ locked_until: lockUntil, updated_at: now })
    .where('id', '=', id)
    .where('locked_by', '=', runner)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends a job the runner holds: done (converted, cancelled, nothing to do) or failed (gave up). */
export async function finishJob(
  db: Executor,
  id: number,
  runner: string,
  status: 'done' | 'failed',
  lastError: string | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('conversion_job')
    .set({ status, locked_until: null, last_error: lastError, updated_at: now })
    .where('id', '=', id)
    .where('locked_by', '=', runner)
    .where('status', '=', 'running')
    .execute();
}

/** Puts a job back in the queue, not before `runAfter`; `refund` undoes the attempt (a runner stopping is not the job's fault). */
export async function requeueJob(
  db: Executor,
  id: number,
  runner: string,
  runAfter: number,
  lastError: string | null,
  now: number,
  refund = false,
): Promise<void> {
  await db
    .updateTable('conversion_job')
    .set((eb) => ({
      status: 'queued',
      locked_by: null,
      locked_until: null,
      run_after: runAfter,
      last_error: lastError,
      updated_at: now,
      ...(refund ? { attempts: eb('attempts', '-', 1) } : {}),
    }))
    .where('id', '=', id)
    .where('locked_by', '=', runner)
    .where('status', '=', 'running')
    .execute();
}

/** Drops a queued job of a cancelled task; a running one is stopped by its runner. */
export async function dropQueuedJob(db: Executor, tasktag: string, now: number): Promise<void> {
  await db
    .updateTable('conversion_job')
    .set({ status: 'done', last_error: 'cancelled', updated_at: now })
    .where('tasktag', '=', tasktag)
    .where('status', '=', 'queued')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Tasks and files

export function findTask(db: Executor, tasktag: string): Promise<ConversionTaskRow | undefined> {
  return db.selectFrom('conversion_task').selectAll().where('tasktag', '=', tasktag).executeTakeFirst();
}

export async function taskStatus(db: Executor, tasktag: string): Promise<ConversionTaskStatus | undefined> {
  const row = await db.selectFrom('conversion_task').select('status').where('tasktag', '=', tasktag).executeTakeFirst();
  return row?.status;
}

export function listFiles(db: Executor, tasktag: string): Promise<ConversionFileRow[]> {
  return db.selectFrom('conversion_file').selectAll().where('tasktag', '=', tasktag).orderBy('fileindex').execute();
}

/**
 * Moves a queued task (or one whose previous runner died) to 'processing'; files left
 * 'converting' by a dead runner wait again. False when the task is no longer to be run.
 */
export async function startTask(db: Executor, tasktag: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('conversion_task')
    .set({ status: 'processing', updated_at: now })
    .where('tasktag', '=', tasktag)
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await db
    .updateTable('conversion_file')
    .set({ state: 'waiting' })
    .where('tasktag', '=', tasktag)
    .where('state', '=', 'converting')
    .execute();
  return true;
}

/** A task whose runner stopped before it finished goes back to 'queued' (its job is requeued). */
export async function requeueTask(db: Executor, tasktag: string, now: number): Promise<void> {
  const result = await db
    .updateTable('conversion_task')
    .set({ status: 'queued', updated_at: now })
    .where('tasktag', '=', tasktag)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) {
    await db
      .updateTable('conversion_file')
      .set({ state: 'waiting' })
      .where('tasktag', '=', tasktag)
      .where('state', '=', 'converting')
      .execute();
  }
}

export async function setProgress(db: Executor, tasktag: string, progress: number, now: number): Promise<void> {
  await db
    .updateTable('conversion_task')
    .set({ progress, updated_at: now })
    .where('tasktag', '=', tasktag)
    .where('status', '=', 'processing')
    .execute();
}

export async function markFileConverting(db: Executor, tasktag: string, fileindex: number): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ state: 'converting', reason: null })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .execute();
}

export interface FileOutput {
  key: string;
  name: string;
  size: number;
}

/** A converted file: its stored output and its report (JSON of { summary, changes }, decision 0036). */
export async function markFileDone(db: Executor, tasktag: string, fileindex: number, output: FileOutput, report: string): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({
      state: 'done',
      reason: null,
      retryable: 0,
      report,
      output_key: output.key,
      output_name: output.name,
      output_size: output.size,
    })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .execute();
}

/** A file that did not convert; `retryable` when converting it again may succeed (decision 0036). */
export async function markFileFailed(db: Executor, tasktag: string, fileindex: number, reason: string, retryable: boolean): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ state: 'failed', reason, retryable: retryable ? 1 : 0 })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .execute();
}

/** Fails every file not yet converted or failed (the task is given up: the service, not the file, failed). */
export async function failUnfinishedFiles(db: Executor, tasktag: string, reason: string): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ state: 'failed', reason, retryable: 1 })
    .where('tasktag', '=', tasktag)
    .where('state', 'not in', ['done', 'failed', 'attached'])
    .execute();
}

/** A picture the task's drawings were drawn with: not converted itself, neither done nor failed. */
export async function markFileAttached(db: Executor, tasktag: string, fileindex: number): Promise<void> {
  await db
    .updateTable('conversion_file')
    .set({ state: 'attached', reason: null, retryable: 0 })
    .where('tasktag', '=', tasktag)
    .where('fileindex', '=', fileindex)
    .execute();
}

export type TaskEnding = { status: 'done'; reason: string | null; result: FileOutput } | { status: 'failed'; reason: string };

/** Ends a processing task; false when something else (a cancel) ended it first. */
export async function finishTask(db: Executor, tasktag: string, ending: TaskEnding, now: number): Promise<boolean> {
  const result = await db
    .updateTable('conversion_task')
    .set({
      status: ending.status,
      reason: ending.reason,
      progress: 100,
      updated_at: now,
      ...(ending.status === 'done'
        ? { result_key: ending.result.key, result_name: ending.result.name, result_size: ending.result.size }
        : {}),
    })
    .where('tasktag', '=', tasktag)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
