import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Frozen in time: never edit after release, add a new migration instead.
// Issue 27 (decision 0043): one order per checkout, refunds.
// - pay_order.open_key: user + packages while the order is unpaid (null once paid or closed), unique,
//   so one checkout has one open order however often the cashier is opened or the method switched.
// - pay_order.tried_providers: every provider asked to take this order's payment (comma list), so
//   a payment arriving at any of them is granted and the others are closed.
// - pay_order.pay_scene: where the cashier ran (desktop QR, mobile app, WeChat JSAPI); an open
//   order is reused only in the same scene (WeChat refuses one out_trade_no in two trade types).
// - pay_order.flag: what the operator must look at (a payment that arrived for a closed order, a
//   second payment of an order already paid); null when nothing is wrong.
// - pay_order.refunded_fen: the part of the amount refunded so far (fen).
// - pay_refund: every refund asked of a provider, unique by its refund number (idempotence).
// - invoice.reversal_due: an issued invoice whose order was refunded needs a red-letter reversal (红冲).

type Table = CreateTableBuilder<string, never>;

function withId(db: Kysely<unknown>, table: Table): Table {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn('id', 'bigserial', (column) => column.primaryKey())
    : table.addColumn('id', 'integer', (column) => column.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('pay_order').addColumn('open_key', 'text').execute();
  await db.schema.createIndex('pay_order_open_key_idx').on('pay_order').column('open_key').unique().execute();
  await db.schema
    .alterTable('pay_order')
    .addColumn('tried_providers', 'text', (column) => column.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('pay_order')
    .addColumn('pay_scene', 'text', (column) => column.notNull().defaultTo('desktop'))
    .execute();
  await db.schema.alterTable('pay_order').addColumn('flag', 'text').execute();
  await db.schema
    .alterTable('pay_order')
    .addColumn('refunded_fen', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('pay_order_flag_idx').on('pay_order').column('flag').execute();

  await withId(db, db.schema.createTable('pay_refund') as Table)
    .addColumn('refund_no', 'text', (column) => column.notNull().unique())
    .addColumn('order_id', 'bigint', (column) => column.notNull().references('pay_order.id').onDelete('cascade'))
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('amount_fen', 'integer', (column) => column.notNull())
    .addColumn('reason', 'text', (column) => column.notNull())
    .addColumn('state', 'text', (column) => column.notNull().defaultTo('processing'))
    .addColumn('provider_refund_id', 'text')
    .addColumn('operator_user_id', 'bigint')
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('pay_refund_order_idx').on('pay_refund').column('order_id').execute();

  await db.schema
    .alterTable('invoice')
    .addColumn('reversal_due', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoice').dropColumn('reversal_due').execute();
  await db.schema.dropTable('pay_refund').execute();
  await db.schema.dropIndex('pay_order_flag_idx').execute();
  await db.schema.alterTable('pay_order').dropColumn('refunded_fen').execute();
  await db.schema.alterTable('pay_order').dropColumn('flag').execute();
  await db.schema.alterTable('pay_order').dropColumn('pay_scene').execute();
  await db.schema.alterTable('pay_order').dropColumn('tried_providers').execute();
  await db.schema.dropIndex('pay_order_open_key_idx').execute();
  await db.schema.alterTable('pay_order').dropColumn('open_key').execute();
}
