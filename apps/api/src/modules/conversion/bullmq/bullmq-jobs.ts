import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Env } from '../../../env';
import type { ConversionJobs } from '../conversion.jobs';
import { CONVERSION_JOB, conversionJobOptions, redisConnection, type ConversionJobData } from './bullmq-config';

// Decision 0019, the `bullmq` jobs provider as the API sees it (CONVERSION_QUEUE=bullmq): jobs go to a
// Redis queue and `npm run worker` processes convert them (bullmq-worker.ts); the API converts
// nothing itself. The tasks, files and outputs are the same rows and stored objects as with the
// local queue.

export interface BullmqJobsDeps {
  env: Pick<Env, 'REDIS_URL' | 'CONVERSION_QUEUE_NAME'>;
  log: FastifyBaseLogger;
  /** Test seam: the delay before the first retry (default 10 s, doubling after). */
  firstBackoffMs?: number;
}

class BullmqConversionJobs implements ConversionJobs {
  private readonly queue: Queue<ConversionJobData>;

  constructor(private readonly deps: BullmqJobsDeps) {
    this.queue = new Queue<ConversionJobData>(deps.env.CONVERSION_QUEUE_NAME, { connection: redisConnection(deps.env.REDIS_URL) });
    // Without a listener a lost Redis connection would be an uncaught error; ioredis reconnects.
    this.queue.on('error', (error) =>
      deps.log.error({ err: error, queue: deps.env.CONVERSION_QUEUE_NAME }, 'conversion queue: redis error'),
    );
  }

  async enqueue(tasktag: string, priority: number): Promise<void> {
    // The tasktag is the job id: BullMQ ignores a second add while the first job is kept.
    await this.queue.add(CONVERSION_JOB, { tasktag, priority }, conversionJobOptions(tasktag, priority, this.deps.firstBackoffMs));
  }

  async cancel(tasktag: string): Promise<void> {
    // A waiting or delayed job goes; a running one is locked and stays: its worker sees the task
    // cancelled (runTask watches the task row) and stops the conversion.
    await this.queue.remove(tasktag);
  }

  /** Nothing to start: worker processes run the jobs. */
  start(): void {}

  async stop(): Promise<void> {
    await this.queue.close();
  }
}

/** The `bullmq` provider of conversion jobs for the API process. */
export function createBullmqJobs(deps: BullmqJobsDeps): ConversionJobs {
  return new BullmqConversionJobs(deps);
}
