import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0027: the second upload client's uploads (spec §7 create-upload / upload) move from a JSON
// manifest in storage to the database, so that a chunk is counted by one conditional insert and
// one increment instead of a listing of the chunk folder that grew with every chunk.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_upload')
    .addColumn('code', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('size', 'bigint', (column) => column.notNull())
    .addColumn('chunksize', 'integer', (column) => column.notNull())
    .addColumn('chunks', 'integer', (column) => column.notNull())
    .addColumn('received', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('file_upload_expires_idx').on('file_upload').column('expires_at').execute();

  await db.schema
    .createTable('file_upload_chunk')
    .addColumn('code', 'text', (column) => column.notNull().references('file_upload.code').onDelete('cascade'))
    .addColumn('chunknum', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('file_upload_chunk_pkey', ['code', 'chunknum'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_upload_chunk').execute();
  await db.schema.dropTable('file_upload').execute();
}
