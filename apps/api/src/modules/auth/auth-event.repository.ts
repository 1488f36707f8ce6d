import type { Executor } from '@xcad/db';

// The counted events behind the sign-in rate limits (auth_event): one row per SMS sent, wrong
// password or wrong code, counted over sliding windows.

export interface NewAuthEvent {
  kind: string;
  subject: string;
}

/** Records `events` at `at` (epoch seconds); answers their ids, in order. */
export async function recordAuthEvents(db: Executor, events: readonly NewAuthEvent[], at: number): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await db
    .insertInto('auth_event')
    .values(events.map((event) => ({ kind: event.kind, subject: event.subject, at })))
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Times of the newest `limit` events of `kind` and `subject` after `since`, newest first. */
export async function recentEventTimes(db: Executor, kind: string, subject: string, since: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('auth_event')
    .select('at')
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('at', '>', since)
    .orderBy('at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.at);
}

/** How many events of `kind` and `subject` happened after `since`. */
export async function countEvents(db: Executor, kind: string, subject: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('auth_event')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The distinct subjects of events of `kind` after `since`. */
export async function distinctSubjects(db: Executor, kind: string, since: number): Promise<string[]> {
  const rows = await db.selectFrom('auth_event').select('subject').distinct().where('kind', '=', kind).where('at', '>', since).execute();
  return rows.map((row) => row.subject);
}

export async function deleteEvents(db: Executor, kind: string, subject: string): Promise<void> {
  await db.deleteFrom('auth_event').where('kind', '=', kind).where('subject', '=', subject).execute();
}

export async function deleteEventsById(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('auth_event').where('id', 'in', ids).execute();
}

/** Deletes events at or before `before`; answers how many went. */
export async function purgeEventsBefore(db: Executor, before: number): Promise<number> {
  const result = await db.deleteFrom('auth_event').where('at', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
