import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from '@xcad/db';
import { addDays } from './analytics-rules';

// The storage housekeeping of analytics_events (decision 0022). PostgreSQL: one partition per Beijing
// day, named analytics_events_pYYYYMMDD, created ahead of time and on demand, dropped whole when
// older than the retention. SQLite: one table, old days deleted in slices.

const PARTITION_PREFIX = 'analytics_events_p';
const PARTITION_NAME = /^analytics_events_p(\d{4})(\d{2})(\d{2})$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
// Serialises partition changes between API processes (any constant both sides agree on).
const PARTITION_LOCK = sql`hashtext('analytics_events partitions')`;
// PostgreSQL's answer to a row whose day has no partition.
const NO_PARTITION_CODE = '23514';
const DELETE_SLICE = 5_000;

export function isPostgres(db: Executor): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function partitionNameOf(day: string): string {
  // Days reach SQL text below only through this check.
  if (!DAY.test(day)) throw new Error(`not a day: ${day}`);
  return `${PARTITION_PREFIX}${day.replaceAll('-', '')}`;
}

/**
 * Whether an insert failed because a row's day has no partition yet (PostgreSQL). Told by the
 * error's fields, not its text (servers may answer in another language): a check violation on
 * the parent table that names no constraint.
 */
export function isMissingPartition(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const fields = error as { code?: unknown; table?: unknown; constraint?: unknown };
  return fields.code === NO_PARTITION_CODE && fields.table === 'analytics_events' && fields.constraint === undefined;
}

/** The days that have a partition, in order (PostgreSQL). */
export async function partitionDays(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select child.relname as name
    from pg_inherits
    join pg_class child on child.oid = pg_inherits.inhrelid
    where pg_inherits.inhparent = 'analytics_events'::regclass`.execute(db);
  return rows
    .map((row) => PARTITION_NAME.exec(row.name))
    .filter((match) => match !== null)
    .map((match) => `${match[1]}-${match[2]}-${match[3]}`)
    .sort();
}

/**
 * Creates the partitions of `days` that do not exist yet (PostgreSQL) and answers the days it
 * created. Other API processes may do the same at the same moment: the advisory lock makes them
 * take turns, and the second finds the tables there.
 */
export async function createDayPartitions(db: Executor, days: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(days)].sort();
  if (wanted.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    const existing = new Set(await partitionDays(trx));
    const created: string[] = [];
    for (const day of wanted) {
      if (existing.has(day)) continue;
      await sql`create table ${sql.id(partitionNameOf(day))} partition of analytics_events for values from (${sql.lit(day)}) to (${sql.lit(addDays(day, 1))})`.execute(
        trx,
      );
      created.push(day);
    }
    return created;
  });
}

/** Drops the partitions of days before `cutoffDay` (PostgreSQL); answers the days dropped. */
export async function dropPartitionsBefore(db: Executor, cutoffDay: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${PARTITION_LOCK})`.execute(trx);
    const old = (await partitionDays(trx)).filter((day) => day < cutoffDay);
    for (const day of old) await sql`drop table if exists ${sql.id(partitionNameOf(day))}`.execute(trx);
    return old;
  });
}

/**
 * Deletes the events of days before `cutoffDay` (SQLite), a slice at a time so that one sweep
 * never holds the database's single writer for long; answers how many went.
 */
export async function deleteEventsBefore(db: Executor, cutoffDay: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const slice = db.selectFrom('analytics_events').select('id').where('day', '<', cutoffDay).limit(DELETE_SLICE);
    const result = await db.deleteFrom('analytics_events').where('id', 'in', slice).executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < DELETE_SLICE) return deleted;
  }
}
