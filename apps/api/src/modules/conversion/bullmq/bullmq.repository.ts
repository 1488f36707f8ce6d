import type { ConversionJobRow, Executor } from '@xcad/db';

// Decision 0019, the `bullmq` provider's SQL. Redis decides which worker runs a job; the task's
// conversion_job row still records who holds it, because runTask extends that hold between files
// and stops ('lost') once another runner has taken the task over. So a worker that merely stalled
// (its BullMQ lock expired and the job went to another worker) cannot write over the new holder.

export interface Hold {
  tasktag: string;
  /** This worker's runner id. */
  runner: string;
  priority: number;
  /** Attempts so far, this one included (runTask gives up past MAX_ATTEMPTS). */
  attempts: number;
  lockUntil: number;
  now: number;
}

/** Takes the task's job row for `runner` whoever held it (BullMQ gave this worker the job), creating it on first use. */
export function holdJob(db: Executor, hold: Hold): Promise<ConversionJobRow> {
  const running = {
    status: 'running' as const,
    locked_by: hold.runner,
    locked_until: hold.lockUntil,
    attempts: hold.attempts,
    updated_at: hold.now,
  };
  return db
    .insertInto('conversion_job')
    .values({ tasktag: hold.tasktag, priority: hold.priority, run_after: hold.now, created_at: hold.now, ...running })
    .onConflict((conflict) => conflict.column('tasktag').doUpdateSet(running))
    .returningAll()
    .executeTakeFirstOrThrow();
}
