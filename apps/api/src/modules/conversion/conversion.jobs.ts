// Decision 0019: the seam between the upload side and the conversion jobs. The upload side enqueues a
// task once every chunk is in and cancels it on request; the jobs side claims queued tasks, runs
// the conversion of each file in a process of its own (time- and memory-limited), writes the outputs
// and moves the task on. `local` (default) keeps the queue in the database and runs it in the API
// process; a Redis-backed provider (BullMQ, `npm run worker`) will implement the same interface.

export interface ConversionJobs {
  /** Queues the task's conversion; idempotent per tasktag. Higher `priority` runs first (members). */
  enqueue(tasktag: string, priority: number): Promise<void>;
  /** Drops a queued job, or stops a running one (its worker is terminated); no-op when there is none. */
  cancel(tasktag: string): Promise<void>;
  /** Starts claiming jobs. */
  start(): void;
  /** Stops claiming, lets running conversions end (or terminates them after a grace period). */
  stop(): Promise<void>;
}
