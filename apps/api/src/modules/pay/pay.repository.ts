import { PostgresAdapter, type SelectQueryBuilder } from 'kysely';
import type {
  Database,
  Executor,
  InvoiceRow,
  InvoiceTitleType,
  NewPayOrder,
  OrderState,
  PayNoticeOutcome,
  PayOrderFlag,
  PayOrderRow,
  PayPackageRow,
  PayType,
  PayProviderName,
} from '@xcad/db';

// Decision 0018: the queries of the catalogue, orders, notices, memberships and invoices.

export interface PackageWithProduct extends PayPackageRow {
  product_name: string;
}

export interface BundleRecord {
  real_id: number;
  code: string;
  name: string;
  price_fen: number;
  price_ori_fen: number;
  packages: number[];
}

export async function activeProducts(db: Executor): Promise<Array<{ product_id: number; name: string }>> {
  return db.selectFrom('pay_product').select(['product_id', 'name']).orderBy('sort').orderBy('product_id').execute();
}

/** Every active package, in the order the buy pages show them. */
export async function activePackages(db: Executor): Promise<PackageWithProduct[]> {
  return db
    .selectFrom('pay_package')
    .innerJoin('pay_product', 'pay_product.product_id', 'pay_package.product_id')
    .selectAll('pay_package')
    .select('pay_product.name as product_name')
    .where('pay_package.active', '=', 1)
    .orderBy('pay_product.sort')
    .orderBy('pay_package.channel', 'desc')
    .orderBy('pay_package.sort')
    .execute();
}

export async function packagesByRealId(db: Executor, realIds: readonly number[]): Promise<PackageWithProduct[]> {
  if (realIds.length === 0) return [];
  return db
    .selectFrom('pay_package')
    .innerJoin('pay_product', 'pay_product.product_id', 'pay_package.product_id')
    .selectAll('pay_package')
    .select('pay_product.name as product_name')
    .where('pay_package.real_id', 'in', [...realIds])
    .where('pay_package.active', '=', 1)
    .execute();
}

export async function activeBundles(db: Executor): Promise<BundleRecord[]> {
  const bundles = await db.selectFrom('pay_bundle').selectAll().where('active', '=', 1).orderBy('sort').execute();
  if (bundles.length === 0) return [];
  const items = await db
    .selectFrom('pay_bundle_item')
    .select(['bundle_real_id', 'package_real_id'])
    .where(
      'bundle_real_id',
      'in',
      bundles.map((bundle) => bundle.real_id),
    )
    .execute();
  return bundles.map((bundle) => ({
    real_id: bundle.real_id,
    code: bundle.code,
    name: bundle.name,
    price_fen: bundle.price_fen,
    price_ori_fen: bundle.price_ori_fen,
    packages: items
      .filter((item) => item.bundle_real_id === bundle.real_id)
      .map((item) => item.package_real_id)
      .sort((a, b) => a - b),
  }));
}

export interface NewOrderItem {
  package_real_id: number;
  product_id: number;
  name: string;
  paypack: PayPackageRow['paypack'];
  months: number | null;
  price_fen: number;
}

export async function insertOrder(db: Executor, order: NewPayOrder, items: readonly NewOrderItem[]): Promise<number> {
  const { id } = await db.insertInto('pay_order').values(order).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('pay_order_item')
    .values(items.map((item) => ({ ...item, order_id: Number(id) })))
    .execute();
  return Number(id);
}

/**
 * Decision 0043: the provider now asked to take the order's payment and what its cashier shows; it
 * joins the order's tried providers, any of which may still be paid (and is closed once one is).
 */
export async function setOrderPayment(
  db: Executor,
  order: Pick<PayOrderRow, 'id' | 'tried_providers'>,
  payment: { paytype: PayType; provider: PayProviderName; payurl: string },
): Promise<void> {
  await db
    .updateTable('pay_order')
    .set({ ...payment, tried_providers: withProvider(order.tried_providers, payment.provider) })
    .where('id', '=', order.id)
    .execute();
}

/** The comma list of tried providers, with `provider` in it once. */
export function withProvider(tried: string, provider: PayProviderName): string {
  return [...new Set([...triedProviders(tried), provider])].join(',');
}

export function triedProviders(tried: string): PayProviderName[] {
  return tried.split(',').filter((name): name is PayProviderName => name === 'sandbox' || name === 'wechatpay' || name === 'alipay');
}

/** The open (unpaid) order of one checkout: the same user and packages (decision 0043). */
export async function openOrderByKey(db: Executor, openKey: string): Promise<PayOrderRow | undefined> {
  return db.selectFrom('pay_order').selectAll().where('open_key', '=', openKey).where('state', '=', 'unpaid').executeTakeFirst();
}

/** Unpaid orders past their time, oldest first (the expiry sweep closes them at the providers). */
export async function expiredOpenOrders(db: Executor, nowSeconds: number, limit: number): Promise<PayOrderRow[]> {
  return db
    .selectFrom('pay_order')
    .selectAll()
    .where('state', '=', 'unpaid')
    .where('expires_at', '<=', nowSeconds)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

export async function flagOrder(db: Executor, orderId: number, flag: PayOrderFlag): Promise<void> {
  await db.updateTable('pay_order').set({ flag }).where('id', '=', orderId).execute();
}

export async function orderByNo(db: Executor, orderno: string): Promise<PayOrderRow | undefined> {
  return db.selectFrom('pay_order').selectAll().where('orderno', '=', orderno).executeTakeFirst();
}

export async function orderItemsOf(db: Executor, orderIds: readonly number[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('pay_order_item')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .orderBy('id')
    .execute();
}

export async function ordersOfUser(
  db: Executor,
  userId: number,
  options: { state?: OrderState; nowSeconds: number; limit: number; offset: number },
) {
  const now = options.nowSeconds;
  // 'unpaid' means still payable; an unpaid order past its time reads as closed (see stateOf).
  const filtered = <Q extends SelectQueryBuilder<Database, 'pay_order', object>>(query: Q): Q => {
    const scoped = query.where('user_id', '=', userId);
    if (options.state === 'paid') return scoped.where('state', '=', 'paid') as Q;
    if (options.state === 'unpaid') return scoped.where('state', '=', 'unpaid').where('expires_at', '>', now) as Q;
    if (options.state === 'closed') {
      return scoped.where((eb) =>
        eb.or([eb('state', '=', 'closed'), eb.and([eb('state', '=', 'unpaid'), eb('expires_at', '<=', now)])]),
      ) as Q;
    }
    return scoped as Q;
  };
  const [rows, total] = await Promise.all([
    filtered(db.selectFrom('pay_order').selectAll())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute(),
    filtered(db.selectFrom('pay_order').select((eb) => eb.fn.countAll<number>().as('total'))).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.total) };
}

/** Closes the user's unpaid orders beyond the newest `keep` (a user leaving QR after QR open). */
export async function closeSurplusOrders(db: Executor, userId: number, keep: number, nowSeconds: number): Promise<void> {
  const surplus = await db
    .selectFrom('pay_order')
    .select('id')
    .where('user_id', '=', userId)
    .where('state', '=', 'unpaid')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1000)
    .execute();
  if (surplus.length === 0) return;
  await db
    .updateTable('pay_order')
    .set({ state: 'closed', closed_at: nowSeconds, open_key: null })
    .where(
      'id',
      'in',
      surplus.map((row) => row.id),
    )
    .where('state', '=', 'unpaid')
    .execute();
}

/** Unpaid -> closed; false when the order was no longer unpaid. */
export async function closeOrder(db: Executor, orderId: number, nowSeconds: number): Promise<boolean> {
  const result = await db
    .updateTable('pay_order')
    .set({ state: 'closed', closed_at: nowSeconds, open_key: null })
    .where('id', '=', orderId)
    .where('state', '=', 'unpaid')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The one step that grants: anything not yet paid becomes paid (a late payment of a closed order
 * counts: the money was taken). Of any number of concurrent notices exactly one sees a row updated.
 */
export async function markPaid(
  db: Executor,
  orderId: number,
  payment: { transactionId: string; paidAt: number; provider: PayProviderName; paytype: PayType },
): Promise<boolean> {
  const result = await db
    .updateTable('pay_order')
    .set({
      state: 'paid',
      paid_at: payment.paidAt,
      transaction_id: payment.transactionId,
      provider: payment.provider,
      paytype: payment.paytype,
      closed_at: null,
      open_key: null,
    })
    .where('id', '=', orderId)
    .where('state', '!=', 'paid')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function touchProviderCheck(db: Executor, orderId: number, nowSeconds: number): Promise<void> {
  await db.updateTable('pay_order').set({ provider_checked_at: nowSeconds }).where('id', '=', orderId).execute();
}

export async function recordNotice(
  db: Executor,
  notice: {
    provider: PayProviderName;
    orderno: string;
    transactionId: string;
    amountFen: number;
    outcome: PayNoticeOutcome;
    receivedAt: number;
  },
): Promise<void> {
  await db
    .insertInto('pay_notice')
    .values({
      provider: notice.provider,
      orderno: notice.orderno.slice(0, 64),
      transaction_id: notice.transactionId.slice(0, 128),
      amount_fen: notice.amountFen,
      outcome: notice.outcome,
      received_at: notice.receivedAt,
    })
    .execute();
}

/**
 * The membership row of (user, product), locked for the rest of the transaction on PostgreSQL so
 * two orders of one user granting the same product add up instead of overwriting each other
 * (SQLite runs one write transaction at a time anyway). A missing row is created first, with 0:
 * never bought.
 */
export async function lockedExpiry(db: Executor, userId: number, productId: number, nowSeconds: number): Promise<number | undefined> {
  await db
    .insertInto('membership')
    .values({ user_id: userId, product_id: productId, auth_value: 0, updated_at: nowSeconds })
    .onConflict((conflict) => conflict.columns(['user_id', 'product_id']).doNothing())
    .execute();
  let query = db.selectFrom('membership').select('auth_value').where('user_id', '=', userId).where('product_id', '=', productId);
  if (db.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  const expiry = Number(row.auth_value);
  return expiry > 0 ? expiry : undefined;
}

export async function setExpiry(db: Executor, userId: number, productId: number, expiry: number, nowSeconds: number): Promise<void> {
  await db
    .updateTable('membership')
    .set({ auth_value: expiry, updated_at: nowSeconds })
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .execute();
}

export async function membershipOf(db: Executor, userId: number, productId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('membership')
    .select('auth_value')
    .where('user_id', '=', userId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  const expiry = row === undefined ? 0 : Number(row.auth_value);
  return expiry > 0 ? expiry : undefined;
}

// --- Invoices -------------------------------------------------------------------------------

export interface NewInvoice {
  order_id: number;
  user_id: number;
  title_type: InvoiceTitleType;
  title: string;
  tax_no: string;
  email: string;
  address: string | null;
  phone: string | null;
  bank: string | null;
  bank_account: string | null;
  created_at: number;
}

export async function insertInvoice(db: Executor, invoice: NewInvoice): Promise<void> {
  await db.insertInto('invoice').values(invoice).execute();
}

export interface InvoiceWithOrder extends InvoiceRow {
  orderno: string;
  amount_fen: number;
}

export async function invoicesOf(db: Executor, where: { userId?: number; orderIds?: readonly number[] }): Promise<InvoiceWithOrder[]> {
  let query = db
    .selectFrom('invoice')
    .innerJoin('pay_order', 'pay_order.id', 'invoice.order_id')
    .selectAll('invoice')
    .select(['pay_order.orderno', 'pay_order.amount_fen']);
  if (where.userId !== undefined) query = query.where('invoice.user_id', '=', where.userId);
  if (where.orderIds !== undefined) {
    if (where.orderIds.length === 0) return [];
    query = query.where('invoice.order_id', 'in', [...where.orderIds]);
  }
  return query.orderBy('invoice.created_at', 'desc').orderBy('invoice.id', 'desc').execute();
}

/** submitted -> issued (the operator's step); false when there is no submitted invoice for the order. */
export async function markInvoiceIssued(db: Executor, orderno: string, nowSeconds: number): Promise<boolean> {
  const order = await orderByNo(db, orderno);
  if (order === undefined) return false;
  const result = await db
    .updateTable('invoice')
    .set({ state: 'issued', issued_at: nowSeconds })
    .where('order_id', '=', order.id)
    .where('state', '=', 'submitted')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The one grant path: every change of a membership's expiry (a paid order, an operator's grant,
 * extension or revocation in the back office) locks the (user, product) row, computes the new
 * expiry from the current one (undefined: never bought or expired to 0) and writes it, in the
 * caller's transaction (a refund takes back what its order granted through it too). Answers the
 * expiry before (0 when none) and after.
 */
export async function changeMembershipExpiry(
  trx: Executor,
  userId: number,
  productId: number,
  nowSeconds: number,
  next: (current: number | undefined) => number | undefined,
): Promise<{ before: number; after: number }> {
  const current = await lockedExpiry(trx, userId, productId, nowSeconds);
  const after = next(current);
  // undefined: nothing to change (a refund of a membership that is gone already).
  if (after === undefined) return { before: current ?? 0, after: current ?? 0 };
  await setExpiry(trx, userId, productId, after, nowSeconds);
  return { before: current ?? 0, after };
}
