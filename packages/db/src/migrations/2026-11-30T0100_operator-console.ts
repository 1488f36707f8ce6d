import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0042, the back office (/operator): an operator's roles (several per user), the operator
// sessions an SMS code opens (apart from the user's own sessions, idle-limited), and the audit log
// every change made in the console goes through. The operators of decision 0022 (the analytics
// readers, made by `npm run operator:create`) were administrators in all but name: they become 管理员.
//
// The audit log is append-only: the code has no update or delete of it, and on PostgreSQL a
// trigger refuses UPDATE, DELETE and TRUNCATE of its rows whoever asks.

const CONSOLE_INDEXES = [
  ['app_user_created_idx', 'app_user', ['created_at']],
  ['pay_order_state_paid_idx', 'pay_order', ['state', 'paid_at']],
  ['conversion_task_status_created_idx', 'conversion_task', ['status', 'created_at']],
  ['conversion_task_created_idx', 'conversion_task', ['created_at']],
  ['invoice_state_created_idx', 'invoice', ['state', 'created_at']],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('operator_role')
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('granted_at', 'bigint', (column) => column.notNull())
    .addColumn('granted_by', 'bigint')
    .addPrimaryKeyConstraint('operator_role_pkey', ['user_id', 'role'])
    .execute();
  await sql`insert into operator_role (user_id, role, granted_at, granted_by) select user_id, 'admin', created_at, null from operators`.execute(
    db,
  );

  await db.schema
    .createTable('operator_session')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (column) => column.primaryKey())
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('csrf_token', 'text', (column) => column.notNull())
    .addColumn('ip', 'text', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('last_seen_at', 'bigint', (column) => column.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('operator_session_user_idx').on('operator_session').column('user_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (column) => column.primaryKey())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .addColumn('operator_id', 'bigint', (column) => column.notNull())
    .addColumn('action', 'text', (column) => column.notNull())
    .addColumn('target_type', 'text', (column) => column.notNull())
    .addColumn('target_id', 'text', (column) => column.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('reason', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('ip', 'text', (column) => column.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_log_operator_idx').on('audit_log').columns(['operator_id', 'at']).execute();
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target_type', 'target_id', 'at']).execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'at']).execute();

  // The console's dashboard counts by time and state without reading whole tables.
  for (const [name, table, columns] of CONSOLE_INDEXES)
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();

  if (isPostgres) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
    await sql`create trigger audit_log_no_truncate before truncate on audit_log
      for each statement execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const [name] of CONSOLE_INDEXES) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('audit_log').execute();
  if (isPostgres) await sql`drop function audit_log_append_only()`.execute(db);
  await db.schema.dropTable('operator_session').execute();
  await db.schema.dropTable('operator_role').execute();
}
