// Shared set-up of the limit store's tests: the real Redis of this machine (REDIS_URL, else
// 127.0.0.1:6379) under a key prefix of this test run's own, removed afterwards.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from '../test-app';

/** A key prefix no other test run uses. */
export function testLimitPrefix(purpose: string): string {
  return `xcad-test-${randomBytes(6).toString('hex')}-${purpose}`;
}

/** Deletes every key under `prefix:`. */
export async function removeLimitKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
