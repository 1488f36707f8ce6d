import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from '@xcad/db';

// Subjects (a phone, an account, an address) refused until a time (auth_lock), and the
// serialisation of concurrent checks on one subject.

/** When the lock on `subject` ends (epoch seconds), if it is locked after `now`. */
export async function lockedUntil(db: Executor, subject: string, now: number): Promise<number | undefined> {
  const row = await db.selectFrom('auth_lock').select('until').where('subject', '=', subject).where('until', '>', now).executeTakeFirst();
  return row?.until;
}

export async function lockSubject(db: Executor, subject: string, until: number): Promise<void> {
  await db
    .insertInto('auth_lock')
    .values({ subject, until })
    .onConflict((conflict) => conflict.column('subject').doUpdateSet({ until }))
    .execute();
}

export async function purgeLocks(db: Executor, now: number): Promise<number> {
  const result = await db.deleteFrom('auth_lock').where('until', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Makes other transactions touching any of `subjects` wait until this one ends, so a
 * count-then-insert (hourly caps, failure counts) cannot be raced by parallel requests. PostgreSQL
 * takes transaction-scoped advisory locks, in sorted order so two callers cannot deadlock; on
 * SQLite the single connection already runs one transaction at a time.
 */
export async function serializeOn(trx: Executor, subjects: readonly string[]): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const subject of [...new Set(subjects)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${subject}, 0))`.execute(trx);
  }
}
