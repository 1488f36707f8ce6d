import type { Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0012: software releases of the download pages and their download counters. Products, their
// releases and files are authored under content/software/ and replaced by the importer; the
// counters live in their own table so that no import ever resets them.

export async function up(db: Kysely<unknown>): Promise<void> {
  // key: the download page's route name (download, download-converter, ...).
  await db.schema
    .createTable('software_product')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('product_id', 'integer')
    .addColumn('tagline', 'text', (column) => column.notNull())
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('released_on', 'text', (column) => column.notNull())
    .addColumn('features_json', 'text', (column) => column.notNull())
    .addColumn('requirements_json', 'text', (column) => column.notNull())
    .addColumn('help_json', 'text', (column) => column.notNull())
    .addColumn('buy_path', 'text')
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('software_release')
    .addColumn('product_key', 'text', (column) => column.notNull().references('software_product.key').onDelete('cascade'))
    .addColumn('version', 'text', (column) => column.notNull())
    .addColumn('released_on', 'text', (column) => column.notNull())
    .addColumn('notes_json', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('software_release_pkey', ['product_key', 'version'])
    .execute();

  // One installer (file_name, appended to SOFTWARE_DOWNLOAD_BASE_URL) or store page (store_url) per platform.
  await db.schema
    .createTable('software_file')
    .addColumn('product_key', 'text', (column) => column.notNull().references('software_product.key').onDelete('cascade'))
    .addColumn('platform', 'text', (column) => column.notNull())
    .addColumn('file_name', 'text')
    .addColumn('store_url', 'text')
    .addColumn('size_bytes', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('software_file_pkey', ['product_key', 'platform'])
    .execute();

  // No foreign key: a product taken off the site keeps its history should it come back.
  await db.schema
    .createTable('software_download')
    .addColumn('product_key', 'text', (column) => column.notNull())
    .addColumn('platform', 'text', (column) => column.notNull())
    .addColumn('count', 'bigint', (column) => column.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('software_download_pkey', ['product_key', 'platform'])
    .execute();

  // The last counted download per product and client (a hash of the address), for one minute.
  await db.schema
    .createTable('software_download_recent')
    .addColumn('product_key', 'text', (column) => column.notNull())
    .addColumn('client', 'text', (column) => column.notNull())
    .addColumn('counted_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('software_download_recent_pkey', ['product_key', 'client'])
    .execute();
  await db.schema.createIndex('software_download_recent_counted_idx').on('software_download_recent').column('counted_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['software_download_recent', 'software_download', 'software_file', 'software_release', 'software_product']) {
    await db.schema.dropTable(table).execute();
  }
}
