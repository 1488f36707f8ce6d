import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Decision 0018, memberships and purchase: the catalogue (products, packages, bundles), orders with
// their items, every payment notice received, and invoices. Money is in fen (integers), epochs in
// seconds. Booleans are integers 0/1 (SQLite has none).

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pay_product')
    .addColumn('product_id', 'integer', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('pay_package')
    .addColumn('real_id', 'integer', (column) => column.primaryKey())
    .addColumn('code', 'text', (column) => column.notNull().unique())
    .addColumn('product_id', 'integer', (column) => column.notNull().references('pay_product.product_id'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('paypack', 'text', (column) => column.notNull())
    .addColumn('months', 'integer')
    .addColumn('price_fen', 'integer', (column) => column.notNull())
    .addColumn('price_ori_fen', 'integer', (column) => column.notNull())
    .addColumn('channel', 'text', (column) => column.notNull().defaultTo('pc'))
    .addColumn('recommended', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('active', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('pay_package_product_idx').on('pay_package').columns(['product_id', 'sort']).execute();

  await db.schema
    .createTable('pay_bundle')
    .addColumn('real_id', 'integer', (column) => column.primaryKey())
    .addColumn('code', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('price_fen', 'integer', (column) => column.notNull())
    .addColumn('price_ori_fen', 'integer', (column) => column.notNull())
    .addColumn('sort', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('active', 'integer', (column) => column.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('pay_bundle_item')
    .addColumn('bundle_real_id', 'integer', (column) => column.notNull().references('pay_bundle.real_id').onDelete('cascade'))
    .addColumn('package_real_id', 'integer', (column) => column.notNull().references('pay_package.real_id'))
    .addPrimaryKeyConstraint('pay_bundle_item_pkey', ['bundle_real_id', 'package_real_id'])
    .execute();

  await withId(db, db.schema.createTable('pay_order') as Table)
    .addColumn('orderno', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('paytype', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull().defaultTo('unpaid'))
    .addColumn('amount_fen', 'integer', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('bundle_real_id', 'integer')
    .addColumn('payurl', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('closed_at', 'bigint')
    .addColumn('transaction_id', 'text')
    .addColumn('provider_checked_at', 'bigint')
    .execute();
  await db.schema.createIndex('pay_order_user_idx').on('pay_order').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('pay_order_state_expires_idx').on('pay_order').columns(['state', 'expires_at']).execute();

  await withId(db, db.schema.createTable('pay_order_item') as Table)
    .addColumn('order_id', 'bigint', (column) => column.notNull().references('pay_order.id').onDelete('cascade'))
    .addColumn('package_real_id', 'integer', (column) => column.notNull())
    .addColumn('product_id', 'integer', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('paypack', 'text', (column) => column.notNull())
    .addColumn('months', 'integer')
    .addColumn('price_fen', 'integer', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('pay_order_item_order_idx').on('pay_order_item').column('order_id').execute();

  await withId(db, db.schema.createTable('pay_notice') as Table)
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('orderno', 'text', (column) => column.notNull())
    .addColumn('transaction_id', 'text', (column) => column.notNull())
    .addColumn('amount_fen', 'integer', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('received_at', 'bigint', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('pay_notice_orderno_idx').on('pay_notice').column('orderno').execute();

  await withId(db, db.schema.createTable('invoice') as Table)
    .addColumn('order_id', 'bigint', (column) => column.notNull().unique().references('pay_order.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint', (column) => column.notNull().references('app_user.id').onDelete('cascade'))
    .addColumn('title_type', 'text', (column) => column.notNull())
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('tax_no', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('address', 'text')
    .addColumn('phone', 'text')
    .addColumn('bank', 'text')
    .addColumn('bank_account', 'text')
    .addColumn('state', 'text', (column) => column.notNull().defaultTo('submitted'))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('issued_at', 'bigint')
    .execute();
  await db.schema.createIndex('invoice_user_idx').on('invoice').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'invoice',
    'pay_notice',
    'pay_order_item',
    'pay_order',
    'pay_bundle_item',
    'pay_bundle',
    'pay_package',
    'pay_product',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
