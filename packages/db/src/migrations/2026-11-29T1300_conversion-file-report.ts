import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0036: what each file of a conversion task became, kept with the file so taskstate
// answers the same after a restart: whether a failed file is worth converting again (a timeout,
// a worker that died; not a wrong type or a broken drawing), and the file's report (what was
// converted, what the target lowered or dropped) as JSON.

export async function up(db: Kysely<unknown>): Promise<void> {
  // 0/1: the failure is not the file's fault, so converting it again may succeed.
  await db.schema
    .alterTable('conversion_file')
    .addColumn('retryable', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  // JSON { summary, changes } of a converted file (null before and for a failed file).
  await db.schema.alterTable('conversion_file').addColumn('report', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('conversion_file').dropColumn('report').execute();
  await db.schema.alterTable('conversion_file').dropColumn('retryable').execute();
}
