import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0029: one counter table for every quota and rate limit of the database
// limit store (conversion quota, analytics collector, sign-in and SMS limits), which replaces the
// sign-in limits' own event and lock tables; and the visitor secret that owns a visitor's
// conversion task in place of the client-chosen device id.

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('limit_counter')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('count', 'bigint', (column) => column.notNull())
    // Epoch milliseconds: the window's end, after which the count starts again from zero.
    .addColumn('window_end', 'bigint', (column) => column.notNull())
    .execute();
  // The purge deletes ended windows.
  await db.schema.createIndex('limit_counter_window_end_idx').on('limit_counter').column('window_end').execute();

  await db.schema.dropTable('auth_event').execute();
  await db.schema.dropTable('auth_lock').execute();

  // SHA-256 hex of the visitor cookie of the browser that started a visitor's task (null for a
  // signed-in user's task): with the tasktoken, the only proof a visitor owns the task.
  await db.schema.alterTable('conversion_task').addColumn('visitor_hash', 'text').execute();
  await db.schema.createIndex('conversion_task_visitor_idx').on('conversion_task').columns(['visitor_hash', 'created_at']).execute();
  await db.schema.dropIndex('conversion_task_device_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('conversion_task_device_idx').on('conversion_task').columns(['device_id', 'created_at']).execute();
  await db.schema.dropIndex('conversion_task_visitor_idx').execute();
  await db.schema.alterTable('conversion_task').dropColumn('visitor_hash').execute();

  await withId(db, db.schema.createTable('auth_event') as Table)
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('auth_event_kind_subject_at_idx').on('auth_event').columns(['kind', 'subject', 'at']).execute();
  await db.schema.createIndex('auth_event_at_idx').on('auth_event').column('at').execute();
  await db.schema
    .createTable('auth_lock')
    .addColumn('subject', 'text', (column) => column.primaryKey())
    .addColumn('until', 'bigint', (column) => column.notNull())
    .execute();

  await db.schema.dropTable('limit_counter').execute();
}
