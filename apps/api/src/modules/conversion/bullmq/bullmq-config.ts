import type { ConnectionOptions, JobsOptions, WorkerOptions } from 'bullmq';
import { backoffSeconds } from '../jobs/local-queue';
import { MAX_ATTEMPTS } from '../jobs/run-task';

// Decision 0019, the `bullmq` jobs provider: what the API side (which adds jobs) and the worker
// processes (which run them) must agree on. Pure, so that both read the same policy.

/** The one kind of job on the queue; its id is the tasktag. */
export const CONVERSION_JOB = 'convert';

export interface ConversionJobData {
  tasktag: string;
  /** Ours (higher runs first), recorded on the task's job row. */
  priority: number;
}

/** BullMQ's largest priority (2^21). */
const PRIORITY_LIMIT = 2_097_152;
/** Our priorities (0 visitors, 10 members) are counted down from here: BullMQ runs 1 before 2. */
const PRIORITY_BASE = 1_000;

/** A finished job is kept this long, so that enqueueing its tasktag again stays a no-op. */
const KEEP_FINISHED_SECONDS = 24 * 3600;

/** A dead worker's job is handed on after at most this long, however long a conversion may take. */
const MAX_LOCK_SECONDS = 30;

/** BullMQ's priority for ours (higher runs first): always at least 1, so every job is ordered by it. */
export function bullmqPriority(priority: number): number {
  return Math.min(Math.max(PRIORITY_BASE - Math.round(priority), 1), PRIORITY_LIMIT);
}

/** How the API adds a task's job: one per tasktag, retried with exponential back-off like the local queue. */
export function conversionJobOptions(tasktag: string, priority: number, firstBackoffMs = backoffSeconds(1) * 1000): JobsOptions {
  return {
    jobId: tasktag,
    priority: bullmqPriority(priority),
    attempts: MAX_ATTEMPTS,
    // BullMQ waits delay * 2^(attempts made - 1): 10 s, then 20 s.
    backoff: { type: 'exponential', delay: firstBackoffMs },
    removeOnComplete: { age: KEEP_FINISHED_SECONDS },
    removeOnFail: { age: KEEP_FINISHED_SECONDS },
  };
}

/**
 * How a worker holds its jobs. The lock is renewed every half lockDuration while the process
 * lives (conversions run in processes of their own, the event loop stays free), so it bounds only how long the
 * job of a killed worker waits: its conversion time limit, capped; the stalled-job check that
 * hands such a job on runs twice as often. A job is handed on after a stall up to MAX_ATTEMPTS
 * times; the attempt after the last is given up by runTask before BullMQ would fail it unseen.
 */
export function conversionWorkerTiming(
  timeoutSeconds: number,
): Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'> {
  const lockDuration = Math.min(timeoutSeconds, MAX_LOCK_SECONDS) * 1000;
  return { lockDuration, stalledInterval: Math.round(lockDuration / 2), maxStalledCount: MAX_ATTEMPTS };
}

/** ioredis connection options from REDIS_URL (user, password, database number, rediss: TLS). */
export function redisConnection(redisUrl: string): ConnectionOptions {
  return { url: redisUrl };
}
