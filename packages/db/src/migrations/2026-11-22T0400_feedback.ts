import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0012: feedback and complaint submissions (/意见反馈.html, /jianyi.html, /complaint.html) and
// their screenshots. The files live in storage under private/feedback/<ticket_no>/ (never
// public); the rows reference them by storage key.

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('feedback_submission') as Table)
    .addColumn('ticket_no', 'text', (column) => column.notNull().unique())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('category', 'text', (column) => column.notNull())
    .addColumn('product', 'text')
    .addColumn('order_no', 'text')
    .addColumn('content', 'text', (column) => column.notNull())
    .addColumn('content_hash', 'text', (column) => column.notNull())
    .addColumn('contact', 'text', (column) => column.notNull())
    .addColumn('contact_type', 'text', (column) => column.notNull())
    .addColumn('contact_name', 'text')
    .addColumn('user_id', 'bigint', (column) => column.references('app_user.id').onDelete('set null'))
    .addColumn('ip', 'text', (column) => column.notNull())
    .addColumn('user_agent', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('page_path', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('new'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
  // The per-address hourly cap and the 10-minute duplicate check count recent rows.
  await db.schema.createIndex('feedback_submission_ip_idx').on('feedback_submission').columns(['ip', 'created_at']).execute();
  await db.schema.createIndex('feedback_submission_hash_idx').on('feedback_submission').columns(['content_hash', 'created_at']).execute();
  await db.schema.createIndex('feedback_submission_status_idx').on('feedback_submission').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('feedback_submission_user_idx').on('feedback_submission').column('user_id').execute();

  await withId(db, db.schema.createTable('feedback_screenshot') as Table)
    .addColumn('submission_id', 'bigint', (column) => column.notNull().references('feedback_submission.id').onDelete('cascade'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('storage_key', 'text', (column) => column.notNull().unique())
    .addColumn('content_type', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('feedback_screenshot_position_key', ['submission_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['feedback_screenshot', 'feedback_submission']) {
    await db.schema.dropTable(table).execute();
  }
}
