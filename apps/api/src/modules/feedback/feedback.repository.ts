import { PostgresAdapter, sql } from 'kysely';
import type { Executor, NewFeedbackScreenshot, NewFeedbackSubmission } from '@xcad/db';

// All SQL of feedback and complaint submissions (tables feedback_submission, feedback_screenshot).

export interface RecentFromAddress {
  count: number;
  /** created_at of the oldest of them, when there is one. */
  oldest: number | undefined;
}

/** Submissions from `ip` at or after `since` (epoch seconds), for the hourly cap. */
export async function recentFromAddress(db: Executor, ip: string, since: number): Promise<RecentFromAddress> {
  const row = await db
    .selectFrom('feedback_submission')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | null>('created_at').as('oldest')])
    .where('ip', '=', ip)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), oldest: row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest) };
}

/** Whether a submission with this content digest was accepted at or after `since`. */
export async function hasRecentContent(db: Executor, contentHash: string, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('feedback_submission')
    .select('id')
    .where('content_hash', '=', contentHash)
    .where('created_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function isTicketTaken(db: Executor, ticketNo: string): Promise<boolean> {
  const row = await db.selectFrom('feedback_submission').select('id').where('ticket_no', '=', ticketNo).executeTakeFirst();
  return row !== undefined;
}

/** Inserts the submission and its screenshots (the caller owns the transaction); resolves with its id. */
export async function insertSubmission(
  db: Executor,
  submission: NewFeedbackSubmission,
  screenshots: readonly Omit<NewFeedbackScreenshot, 'submission_id'>[],
): Promise<number> {
  const { id } = await db.insertInto('feedback_submission').values(submission).returning('id').executeTakeFirstOrThrow();
  const submissionId = Number(id);
  if (screenshots.length > 0) {
    await db
      .insertInto('feedback_screenshot')
      .values(screenshots.map((screenshot) => ({ ...screenshot, submission_id: submissionId })))
      .execute();
  }
  return submissionId;
}

/**
 * Makes other transactions on any of `subjects` (an address, a content digest) wait until this
 * one ends, so the count-then-insert of the caps cannot be raced by parallel submissions.
 * PostgreSQL takes transaction-scoped advisory locks in sorted order (no deadlock between two
 * callers); SQLite's single connection already runs one transaction at a time.
 */
export async function serializeSubmissions(trx: Executor, subjects: readonly string[]): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const subject of [...new Set(subjects)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${subject}, 0))`.execute(trx);
  }
}
