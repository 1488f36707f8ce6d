import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import type { Env } from '../env';
import { DatabaseLimitStore } from './database-limit-store';
import type { LimitStore } from './limit-store';
import { RedisLimitStore } from './redis-limit-store';

export * from './limit-store';
export { DatabaseLimitStore } from './database-limit-store';

/** The limit store RATE_LIMIT_STORE names (decision 0029). */
export function limitStoreFromEnv(
  env: Pick<Env, 'RATE_LIMIT_STORE' | 'REDIS_URL' | 'RATE_LIMIT_PREFIX'>,
  db: Kysely<Database>,
  log: FastifyBaseLogger,
): LimitStore {
  if (env.RATE_LIMIT_STORE === 'database') return new DatabaseLimitStore(db);
  return new RedisLimitStore({
    url: env.REDIS_URL,
    prefix: env.RATE_LIMIT_PREFIX,
    onError: (error) => log.error({ err: error }, 'limit store: redis error'),
  });
}

/** How often ended windows are deleted from the database store. */
export const LIMIT_PURGE_INTERVAL_MS = 10 * 60_000;
