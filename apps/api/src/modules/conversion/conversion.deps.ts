import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '@xcad/db';
import type { Kysely } from 'kysely';
import type { Env } from '../../env';
import type { LimitStore } from '../../limits';
import type { StreamingStorage } from '../../storage';
import type { ConversionJobs } from './conversion.jobs';

/** What the upload side of conversions is built from (decision 0019). */
export interface ConversionDeps {
  db: Kysely<Database>;
  env: Env;
  storage: StreamingStorage;
  log: FastifyBaseLogger;
  /** Server time in epoch milliseconds. */
  clock: () => number;
  /** The conversion jobs: a complete upload is enqueued, a cancelled task cancelled. */
  jobs: ConversionJobs;
  /** Where the day's quotas are counted (decision 0029). */
  limits: LimitStore;
  /**
   * The smallest chunk of uploadfile but a file's last: spec §9's 50 MB (CONVERSION_LIMITS.chunkBytes),
   * which is also the largest, so a file has at most a handful of chunks to keep track of.
   */
  minChunkBytes: number;
}

export const nowSeconds = (deps: Pick<ConversionDeps, 'clock'>): number => Math.floor(deps.clock() / 1000);
