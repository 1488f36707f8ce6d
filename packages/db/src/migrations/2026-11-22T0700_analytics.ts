import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0022, analytics: the events the collector accepts, and who may read the reports.
//
// On PostgreSQL `analytics_events` is partitioned by Beijing calendar day (`day`, 'YYYY-MM-DD'):
// the retention sweep drops a whole day at once instead of deleting row by row, and a report
// reads only the days it asks for. The partitions themselves are created at run time (a few days
// ahead, and on demand for a day that has none), so this migration creates none. `day` sorts in
// byte order (collation "C") so the range bounds mean the same whatever the database's locale.
// On SQLite it is a plain table; both have the (day, event) index every report query starts from.

type Table = CreateTableBuilder<string, string>;

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  let events = db.schema.createTable('analytics_events') as Table;
  // A partitioned table's primary key must contain the partition key.
  events = isPostgres
    ? events.addColumn('id', 'bigserial', (column) => column.notNull())
    : events.addColumn('id', 'integer', (column) => column.primaryKey());
  events = events
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .addColumn('day', 'text', (column) => (isPostgres ? column.modifyFront(sql`collate "C"`) : column).notNull())
    .addColumn('event', 'text', (column) => column.notNull())
    .addColumn('client_time', 'bigint', (column) => column.notNull())
    .addColumn('device_id', 'text', (column) => column.notNull())
    .addColumn('uid', 'text', (column) => column.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('page', 'text', (column) => column.notNull())
    .addColumn('platform', 'text', (column) => column.notNull())
    .addColumn('software_name', 'text', (column) => column.notNull())
    .addColumn('software_version', 'text', (column) => column.notNull())
    .addColumn('channel', 'text', (column) => column.notNull())
    .addColumn('method', 'text')
    .addColumn('result', 'text')
    .addColumn('name', 'text')
    .addColumn('value_fen', 'bigint')
    .addColumn('transaction_id', 'text')
    .addColumn('elapsed_ms', 'bigint')
    .addColumn('props', 'text', (column) => column.notNull().defaultTo('{}'));
  if (isPostgres) events = events.addPrimaryKeyConstraint('analytics_events_pkey', ['day', 'id']).modifyEnd(sql`partition by range (day)`);
  await events.execute();
  await db.schema.createIndex('analytics_events_day_event_idx').on('analytics_events').columns(['day', 'event']).execute();

  await db.schema
    .createTable('operators')
    .addColumn('user_id', 'bigint', (column) => column.primaryKey().references('app_user.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operators').execute();
  // Dropping a partitioned table drops its partitions with it.
  await db.schema.dropTable('analytics_events').execute();
}
