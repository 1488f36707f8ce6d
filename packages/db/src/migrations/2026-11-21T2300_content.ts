import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Content (decision 0012): posts (articles, tutorials, daily pictures, pages) in the WordPress shape the
// content API answers with, their categories and tags, and per-post metadata. Authored as Markdown
// under content/ and imported idempotently (source_path + source_hash).

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Post ids are the authored ones (front matter `id`): they are the public URLs /{id}.html.
  await db.schema
    .createTable('content_post')
    .addColumn('id', 'bigint', (column) => column.primaryKey())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull().defaultTo('publish'))
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('excerpt', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('content_html', 'text', (column) => column.notNull())
    .addColumn('author', 'text', (column) => column.notNull())
    .addColumn('image', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('menu_order', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('views', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('downloads', 'bigint', (column) => column.notNull().defaultTo(0))
    .addColumn('date', 'bigint', (column) => column.notNull())
    .addColumn('modified', 'bigint', (column) => column.notNull())
    .addColumn('source_path', 'text', (column) => column.notNull().unique())
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .addUniqueConstraint('content_post_type_slug_key', ['type', 'slug'])
    .execute();
  await db.schema.createIndex('content_post_type_date_idx').on('content_post').columns(['type', 'status', 'date']).execute();

  await withId(db, db.schema.createTable('content_term') as Table)
    .addColumn('taxonomy', 'text', (column) => column.notNull())
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('parent_id', 'bigint')
    .addUniqueConstraint('content_term_taxonomy_slug_key', ['taxonomy', 'slug'])
    .execute();

  await db.schema
    .createTable('content_post_term')
    .addColumn('post_id', 'bigint', (column) => column.notNull().references('content_post.id').onDelete('cascade'))
    .addColumn('term_id', 'bigint', (column) => column.notNull().references('content_term.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('content_post_term_pkey', ['post_id', 'term_id'])
    .execute();
  await db.schema.createIndex('content_post_term_term_idx').on('content_post_term').columns(['term_id', 'post_id']).execute();

  await db.schema
    .createTable('content_post_meta')
    .addColumn('post_id', 'bigint', (column) => column.notNull().references('content_post.id').onDelete('cascade'))
    .addColumn('key', 'text', (column) => column.notNull())
    .addColumn('value', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('content_post_meta_pkey', ['post_id', 'key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['content_post_meta', 'content_post_term', 'content_term', 'content_post']) {
    await db.schema.dropTable(table).execute();
  }
}
