import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead. Epochs are `bigint`
// (64-bit on PostgreSQL, INTEGER affinity on SQLite) so they outlive 2038.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_nonce')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .execute();
  // The purge deletes by expiry.
  await db.schema.createIndex('request_nonce_expires_at_idx').on('request_nonce').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_nonce').execute();
}
