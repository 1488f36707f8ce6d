import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0012: the drawing library (/dwglist, /dwgItem/{id}). Authored in content/drawings/library.yml
// and imported idempotently (source_hash); the files themselves live in storage (file_key).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('drawing_category')
    .addColumn('slug', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('position', 'integer', (column) => column.notNull())
    .execute();

  // Ids are the authored ones: they are the public URLs /dwgItem/{id}.
  await db.schema
    .createTable('drawing')
    .addColumn('id', 'bigint', (column) => column.primaryKey())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('category_slug', 'text', (column) => column.notNull().references('drawing_category.slug'))
    // Tag names joined by commas (a tag never holds one); searched with LIKE like the title.
    .addColumn('tags', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('description', 'text', (column) => column.notNull())
    .addColumn('format', 'text', (column) => column.notNull())
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addColumn('preview', 'text', (column) => column.notNull())
    .addColumn('file_key', 'text', (column) => column.notNull())
    // 0 free, 1 members of product 203 only (an integer: SQLite has no boolean).
    .addColumn('member_only', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('views', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('downloads', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('published_at', 'bigint', (column) => column.notNull())
    .addColumn('credit', 'text', (column) => column.notNull())
    .addColumn('source_path', 'text', (column) => column.notNull())
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('drawing_category_published_idx').on('drawing').columns(['category_slug', 'published_at']).execute();
  await db.schema.createIndex('drawing_published_idx').on('drawing').columns(['published_at']).execute();
  await db.schema.createIndex('drawing_format_access_idx').on('drawing').columns(['format', 'member_only']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('drawing').execute();
  await db.schema.dropTable('drawing_category').execute();
}
