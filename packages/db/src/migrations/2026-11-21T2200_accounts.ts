import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Accounts and sign-in (decision 0010): users, their WeChat/QQ identities, sessions (hashed tokens),
// SMS codes, image captchas, the event log the rate limits count, locks, QR/popup login sessions,
// and the per-product membership expiries `vip[]` is read from.

type Table = CreateTableBuilder<string, never>;

/** An auto-numbered primary key on either engine. */
function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('app_user') as Table)
    .addColumn('username', 'text', (column) => column.notNull().unique())
    .addColumn('mobile', 'text', (column) => column.unique())
    .addColumn('email', 'text', (column) => column.unique())
    .addColumn('nickname', 'text', (column) => column.notNull())
    .addColumn('head_portrait', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('password_hash', 'text')
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('active'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute();

  await withId(db, db.schema.createTable('user_identity') as Table)
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('openid', 'text', (column) => column.notNull())
    .addColumn('unionid', 'text')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addUniqueConstraint('user_identity_provider_openid_key', ['provider', 'openid'])
    .execute();
  await db.schema.createIndex('user_identity_user_id_idx').on('user_identity').column('user_id').execute();

  await withId(db, db.schema.createTable('user_session') as Table)
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('file_token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('device_id', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('ip', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('user_session_user_id_idx').on('user_session').column('user_id').execute();

  await withId(db, db.schema.createTable('sms_code') as Table)
    .addColumn('phone', 'text', (column) => column.notNull())
    .addColumn('purpose', 'text', (column) => column.notNull())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('sms_code_phone_purpose_idx').on('sms_code').columns(['phone', 'purpose', 'created_at']).execute();

  await db.schema
    .createTable('captcha')
    .addColumn('device_id', 'text', (column) => column.primaryKey())
    .addColumn('code_hash', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();

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

  await db.schema
    .createTable('login_session')
    .addColumn('logintag', 'text', (column) => column.primaryKey())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull())
    .addColumn('oauth_state', 'text', (column) => column.notNull())
    .addColumn('user_id', 'bigint', (column) => column.references('app_user.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('login_session_expires_at_idx').on('login_session').column('expires_at').execute();
  // The QQ callback finds its session by the OAuth state it carries.
  await db.schema.createIndex('login_session_oauth_state_idx').on('login_session').column('oauth_state').execute();

  await db.schema
    .createTable('membership')
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('product_id', 'integer', (column) => column.notNull())
    .addColumn('auth_value', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('membership_pkey', ['user_id', 'product_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'membership',
    'login_session',
    'auth_lock',
    'auth_event',
    'captcha',
    'sms_code',
    'user_session',
    'user_identity',
    'app_user',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
