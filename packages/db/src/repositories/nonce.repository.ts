import type { Executor } from '../executor';
import { epochSeconds } from '../executor';

/**
 * Records `key` as used until `expiresAt` (epoch seconds). Returns true when the key was free
 * (never seen, or its earlier use expired at or before `now`), false when it is still taken.
 * One statement, so concurrent claims of one key on any engine give exactly one `true`.
 */
export async function claimNonce(db: Executor, key: string, expiresAt: number, now: number = epochSeconds()): Promise<boolean> {
  const result = await db
    .insertInto('request_nonce')
    .values({ key, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ expires_at: expiresAt }).where('request_nonce.expires_at', '<=', now))
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Deletes keys expired at or before `now`; returns how many were removed. */
export async function purgeExpiredNonces(db: Executor, now: number = epochSeconds()): Promise<number> {
  const result = await db.deleteFrom('request_nonce').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
