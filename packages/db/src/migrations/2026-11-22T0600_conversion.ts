import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0019, online conversion: tasks, their files, the chunks received (idempotent, resumable
// uploads), and the job queue of the local provider. Epochs in seconds, sizes in bytes.

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversion_task')
    .addColumn('tasktag', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull())
    .addColumn('device_id', 'text', (column) => column.notNull())
    .addColumn('user_id', 'bigint', (column) => column.references('app_user.id').onDelete('set null'))
    .addColumn('tier', 'text', (column) => column.notNull())
    .addColumn('tasktype', 'text', (column) => column.notNull())
    .addColumn('output_ext', 'text', (column) => column.notNull())
    .addColumn('file_version', 'text')
    .addColumn('options', 'text', (column) => column.notNull().defaultTo('{}'))
    .addColumn('filecount', 'integer', (column) => column.notNull())
    .addColumn('max_file_bytes', 'bigint', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('uploading'))
    .addColumn('progress', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('result_key', 'text')
    .addColumn('result_name', 'text')
    .addColumn('result_size', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addColumn('upload_deadline', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('purged_at', 'bigint')
    .execute();
  await db.schema.createIndex('conversion_task_device_idx').on('conversion_task').columns(['device_id', 'created_at']).execute();
  await db.schema.createIndex('conversion_task_user_idx').on('conversion_task').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('conversion_task_expires_idx').on('conversion_task').columns(['purged_at', 'expires_at']).execute();

  await db.schema
    .createTable('conversion_file')
    .addColumn('tasktag', 'text', (column) => column.notNull().references('conversion_task.tasktag').onDelete('cascade'))
    .addColumn('fileindex', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('chunks', 'integer')
    .addColumn('size', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('kind', 'text')
    .addColumn('input_key', 'text')
    .addColumn('state', 'text', (column) => column.notNull().defaultTo('uploading'))
    .addColumn('reason', 'text')
    .addColumn('output_key', 'text')
    .addColumn('output_name', 'text')
    .addColumn('output_size', 'bigint')
    .addPrimaryKeyConstraint('conversion_file_pkey', ['tasktag', 'fileindex'])
    .execute();

  await db.schema
    .createTable('conversion_chunk')
    .addColumn('tasktag', 'text', (column) => column.notNull().references('conversion_task.tasktag').onDelete('cascade'))
    .addColumn('fileindex', 'integer', (column) => column.notNull())
    .addColumn('chunk', 'integer', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('storage_key', 'text', (column) => column.notNull())
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('conversion_chunk_pkey', ['tasktag', 'fileindex', 'chunk'])
    .execute();

  await withId(db, db.schema.createTable('conversion_job') as Table)
    .addColumn('tasktag', 'text', (column) => column.notNull().unique().references('conversion_task.tasktag').onDelete('cascade'))
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('queued'))
    .addColumn('priority', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('run_after', 'bigint', (column) => column.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('conversion_job_claim_idx').on('conversion_job').columns(['status', 'priority', 'run_after']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['conversion_job', 'conversion_chunk', 'conversion_file', 'conversion_task']) {
    await db.schema.dropTable(table).execute();
  }
}
