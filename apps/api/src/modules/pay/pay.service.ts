import {
  ApiError,
  PAY_ERRORS,
  PAY_LIMITS,
  PAY_MESSAGES,
  yuanOfFen,
  type EnvelopeData,
  type TOrderCreated,
  type TOrderDetails,
  type TOrderPublicState,
  type TPayCatalogueResponse,
  type TPayType,
  type TPayPackage,
  type TSandboxOrder,
} from '@xcad/protocol';
import { isUniqueViolation, type Database, type Executor, type PayOrderRow, type PayProviderName } from '@xcad/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Env } from '../../env';
import { cutUtf8, extendedExpiry, newOrderNo, orderSubject } from './order-rules';
import type { IncomingNotice, PaidNotice, PayProvider, PayProviders } from './pay.provider';
import type { SandboxPayProvider } from './sandbox.provider';
import {
  activeBundles,
  activePackages,
  activeProducts,
  closeOrder,
  closeSurplusOrders,
  insertOrder,
  invoicesOf,
  lockedExpiry,
  markPaid,
  membershipOf,
  orderByNo,
  orderItemsOf,
  ordersOfUser,
  packagesByRealId,
  recordNotice,
  setExpiry,
  setOrderPayurl,
  touchProviderCheck,
  type PackageWithProduct,
} from './pay.repository';

// Decision 0018: the catalogue, orders and the one path every payment takes to become a membership.
// Amounts are computed here from the database only; the client names packages, never prices.
// A payment is granted by `settlePayment`, whichever way it arrives (a provider's notice, the
// sandbox cashier, the order query when a notice is late or lost), and exactly once per order.

export interface PayDeps {
  db: Kysely<Database>;
  env: Env;
  log: FastifyBaseLogger;
  /** Epoch milliseconds. */
  clock: () => number;
  providers: PayProviders;
}

const seconds = (deps: PayDeps) => Math.floor(deps.clock() / 1000);

function packageOf(row: PackageWithProduct): TPayPackage {
  return {
    id: row.code,
    realId: row.real_id,
    productid: row.product_id,
    name: row.name,
    price: yuanOfFen(row.price_fen),
    priceOri: yuanOfFen(row.price_ori_fen),
    paypack: row.paypack,
    months: row.months,
    channel: row.channel,
    recommended: row.recommended === 1,
  };
}

export async function payCatalogue(deps: PayDeps): Promise<EnvelopeData<TPayCatalogueResponse>> {
  const [products, packages, bundles] = await Promise.all([activeProducts(deps.db), activePackages(deps.db), activeBundles(deps.db)]);
  return {
    products: products.map((product) => ({
      productid: product.product_id,
      name: product.name,
      packages: packages.filter((row) => row.product_id === product.product_id).map(packageOf),
    })),
    bundles: bundles.map((bundle) => ({
      id: bundle.code,
      realId: bundle.real_id,
      name: bundle.name,
      price: yuanOfFen(bundle.price_fen),
      priceOri: yuanOfFen(bundle.price_ori_fen),
      packages: bundle.packages,
    })),
  };
}

// --- Placing orders -------------------------------------------------------------------------

export interface OrderContext {
  userId: number;
  paytype: TPayType;
  clientIp: string;
}

function providerFor(deps: PayDeps, paytype: TPayType): PayProvider {
  return deps.providers[paytype];
}

/** Where a provider posts its notices (unsigned; verified by the provider's own signature). */
export function noticePathOf(provider: PayProviderName): string {
  return `/api/pay/notify/${provider}`;
}

function notifyUrlOf(deps: PayDeps, provider: PayProviderName): string {
  return new URL(noticePathOf(provider), deps.env.PUBLIC_ORIGIN).toString();
}

/** memorder: one package, which must belong to the product named. */
export async function orderPackage(
  deps: PayDeps,
  context: OrderContext,
  productId: number,
  realId: number,
): Promise<EnvelopeData<TOrderCreated>> {
  const [pack] = await packagesByRealId(deps.db, [realId]);
  if (pack === undefined) throw ApiError.business(PAY_ERRORS.packageUnknown, `unknown package ${realId}`);
  if (pack.product_id !== productId) {
    throw new ApiError({
      code: PAY_ERRORS.packageUnknown.codes[0],
      userMessage: PAY_MESSAGES.productMismatch,
      logMessage: `package ${realId} is not of product ${productId}`,
    });
  }
  return placeOrder(deps, context, [pack], null);
}

/** paymerge: several packages of different products; a bundle's price when they make one exactly. */
export async function orderMerged(deps: PayDeps, context: OrderContext, realIds: readonly number[]): Promise<EnvelopeData<TOrderCreated>> {
  const unique = [...new Set(realIds)].sort((a, b) => a - b);
  const packs = await packagesByRealId(deps.db, unique);
  if (packs.length !== unique.length) throw ApiError.business(PAY_ERRORS.packageUnknown, `unknown package among ${unique.join(',')}`);
  if (new Set(packs.map((pack) => pack.product_id)).size !== packs.length) {
    throw new ApiError({
      code: PAY_ERRORS.invalidField.codes[0],
      userMessage: PAY_MESSAGES.mergeDuplicate,
      logMessage: 'two packages of one product',
      extra: { field: 'packageids' },
    });
  }
  const key = unique.join(',');
  const bundle = (await activeBundles(deps.db)).find((candidate) => candidate.packages.join(',') === key) ?? null;
  const ordered = unique.map((realId) => packs.find((pack) => pack.real_id === realId)).filter((pack) => pack !== undefined);
  return placeOrder(deps, context, ordered, bundle);
}

async function placeOrder(
  deps: PayDeps,
  context: OrderContext,
  packs: readonly PackageWithProduct[],
  bundle: { real_id: number; name: string; price_fen: number } | null,
): Promise<EnvelopeData<TOrderCreated>> {
  const now = seconds(deps);
  const provider = providerFor(deps, context.paytype);
  const amountFen = bundle?.price_fen ?? packs.reduce((sum, pack) => sum + pack.price_fen, 0);
  const subject = orderSubject(
    packs.map((pack) => ({ productName: pack.product_name, name: pack.name })),
    bundle?.name ?? null,
  );
  const expiresAt = now + PAY_LIMITS.orderTtlSeconds;

  // The order is written before the provider is asked, so a notice can never find no order.
  let orderno = '';
  let orderId = 0;
  for (let attempt = 0; orderId === 0; attempt += 1) {
    orderno = newOrderNo(now);
    try {
      orderId = await deps.db.transaction().execute(async (trx) => {
        const id = await insertOrder(
          trx,
          {
            orderno,
            user_id: context.userId,
            paytype: context.paytype,
            provider: provider.name,
            amount_fen: amountFen,
            subject,
            bundle_real_id: bundle?.real_id ?? null,
            created_at: now,
            expires_at: expiresAt,
            paid_at: null,
            closed_at: null,
            transaction_id: null,
            provider_checked_at: null,
          },
          packs.map((pack) => ({
            package_real_id: pack.real_id,
            product_id: pack.product_id,
            name: pack.name,
            paypack: pack.paypack,
            months: pack.months,
            price_fen: pack.price_fen,
          })),
        );
        await closeSurplusOrders(trx, context.userId, PAY_LIMITS.openOrdersPerUser, now);
        return id;
      });
    } catch (error) {
      // Two orders drawing the same number in the same second: draw again.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }

  const created = await provider.createPayment({
    orderno,
    amountFen,
    subject: cutUtf8(subject, 127),
    expiresAt,
    notifyUrl: notifyUrlOf(deps, provider.name),
    clientIp: context.clientIp,
  });
  if (!created.ok) {
    await closeOrder(deps.db, orderId, now);
    deps.log.warn({ orderno, provider: provider.name, detail: created.detail }, 'payment provider refused an order');
    throw ApiError.business(PAY_ERRORS.providerFailed, `${provider.name}: ${created.detail}`);
  }
  await setOrderPayurl(deps.db, orderId, created.payurl);
  return { orderno, payurl: created.payurl, amount: yuanOfFen(amountFen), paytype: context.paytype, expiretime: expiresAt };
}

// --- Granting -------------------------------------------------------------------------------

/**
 * The one grant path: every change of a membership's expiry (a paid order, an operator's grant,
 * extension or revocation in the back office) locks the (user, product) row, computes the new
 * expiry from the current one (undefined: never bought or expired to 0) and writes it, in the
 * caller's transaction. Answers the expiry before (0 when none) and after.
 */
export async function changeMembershipExpiry(
  trx: Executor,
  userId: number,
  productId: number,
  nowSeconds: number,
  next: (current: number | undefined) => number,
): Promise<{ before: number; after: number }> {
  const current = await lockedExpiry(trx, userId, productId, nowSeconds);
  const after = next(current);
  await setExpiry(trx, userId, productId, after, nowSeconds);
  return { before: current ?? 0, after };
}

export type SettleOutcome = 'granted' | 'duplicate' | 'amount-mismatch' | 'unknown-order';

/**
 * The one place a payment becomes a membership. In one transaction: the order turns paid (only
 * one of any number of concurrent notices can do that), each item extends its product's expiry,
 * and the notice is recorded. A notice for an order already paid changes nothing.
 */
async function settlePayment(deps: PayDeps, provider: PayProviderName, notice: PaidNotice): Promise<SettleOutcome> {
  const now = seconds(deps);
  const outcome = await deps.db.transaction().execute(async (trx): Promise<SettleOutcome> => {
    const order = await orderByNo(trx, notice.orderno);
    let result: SettleOutcome;
    if (order === undefined || order.provider !== provider) result = 'unknown-order';
    else if (order.amount_fen !== notice.amountFen) result = 'amount-mismatch';
    else if (!(await markPaid(trx, order.id, notice.transactionId, notice.paidAt || now))) result = 'duplicate';
    else {
      for (const item of await orderItemsOf(trx, [order.id])) {
        await changeMembershipExpiry(trx, order.user_id, item.product_id, now, (current) => extendedExpiry(current, now, item.months));
      }
      result = 'granted';
    }
    await recordNotice(trx, {
      provider,
      orderno: notice.orderno,
      transactionId: notice.transactionId,
      amountFen: notice.amountFen,
      outcome: result,
      receivedAt: now,
    });
    return result;
  });
  const log = { orderno: notice.orderno, provider, transactionId: notice.transactionId, outcome };
  if (outcome === 'granted') deps.log.info(log, 'order paid, membership granted');
  else if (outcome === 'duplicate') deps.log.info(log, 'payment notice for an order already paid');
  else deps.log.error({ ...log, amountFen: notice.amountFen }, 'payment notice does not match an order');
  return outcome;
}

/**
 * A provider's notice as it arrived: verified by the provider, then settled. Resolves with the
 * HTTP answer to give; only a failure on our side asks the provider to send it again.
 */
export async function handleNotice(deps: PayDeps, provider: PayProvider, incoming: IncomingNotice) {
  const reading = await provider.readNotice(incoming);
  if (reading.kind === 'invalid') {
    deps.log.warn({ provider: provider.name, detail: reading.detail }, 'payment notice refused');
    return provider.noticeReply('invalid');
  }
  if (reading.kind === 'ignored') return provider.noticeReply('handled');
  try {
    await settlePayment(deps, provider.name, reading.notice);
    return provider.noticeReply('handled');
  } catch (error) {
    deps.log.error({ err: error, provider: provider.name, orderno: reading.notice.orderno }, 'payment notice could not be recorded');
    return provider.noticeReply('failed');
  }
}

// --- Reading orders -------------------------------------------------------------------------

function providerNamed(deps: PayDeps, name: PayProviderName): PayProvider | undefined {
  return Object.values(deps.providers).find((provider) => provider.name === name);
}

/**
 * An unpaid order whose notice may be late or lost: ask the provider (at most every few seconds
 * per order); a payment it vouches for is settled like a notice. Past its time an unpaid order is
 * closed, here and at the provider.
 */
async function reconcile(deps: PayDeps, order: PayOrderRow): Promise<void> {
  const now = seconds(deps);
  const provider = providerNamed(deps, order.provider);
  if (provider === undefined) return;
  const isExpired = order.expires_at <= now;
  const checkedRecently = order.provider_checked_at !== null && now - order.provider_checked_at < PAY_LIMITS.providerQueryIntervalSeconds;
  if (!checkedRecently || isExpired) {
    await touchProviderCheck(deps.db, order.id, now);
    const answer = await provider.queryPayment(order.orderno);
    if (answer.state === 'paid') {
      await settlePayment(deps, provider.name, answer.notice);
      return;
    }
    if (answer.state === 'closed' && (await closeOrder(deps.db, order.id, now))) return;
  }
  if (isExpired && (await closeOrder(deps.db, order.id, now))) await provider.closePayment(order.orderno);
}

/** An unpaid order past its time is closed, whether or not a reader has closed it yet. */
function stateOf(order: PayOrderRow, now: number): TOrderDetails['state'] {
  return order.state === 'unpaid' && order.expires_at <= now ? 'closed' : order.state;
}

async function detailsOf(deps: PayDeps, orders: readonly PayOrderRow[]): Promise<TOrderDetails[]> {
  const now = seconds(deps);
  const ids = orders.map((order) => order.id);
  const [items, invoices, products] = await Promise.all([
    orderItemsOf(deps.db, ids),
    invoicesOf(deps.db, { orderIds: ids }),
    activeProducts(deps.db),
  ]);
  const productName = (id: number) => products.find((product) => product.product_id === id)?.name ?? String(id);
  return orders.map((order) => ({
    orderno: order.orderno,
    state: stateOf(order, now),
    amount: yuanOfFen(order.amount_fen),
    paytype: order.paytype,
    subject: order.subject,
    items: items
      .filter((item) => item.order_id === order.id)
      .map((item) => ({
        productid: item.product_id,
        productname: productName(item.product_id),
        realId: item.package_real_id,
        name: item.name,
        paypack: item.paypack,
        price: yuanOfFen(item.price_fen),
      })),
    createtime: Number(order.created_at),
    expiretime: Number(order.expires_at),
    paidtime: order.paid_at === null ? null : Number(order.paid_at),
    transactionid: order.transaction_id,
    invoice: invoices.find((invoice) => invoice.order_id === order.id)?.state ?? 'none',
  }));
}

/** The order, reconciled with its provider first while it is unpaid (at most every 5 s per order). */
async function currentOrder(deps: PayDeps, orderno: string): Promise<PayOrderRow> {
  const order = await orderByNo(deps.db, orderno);
  if (order === undefined) throw ApiError.business(PAY_ERRORS.orderUnknown, `unknown order ${orderno}`);
  if (order.state !== 'unpaid') return order;
  await reconcile(deps, order);
  return (await orderByNo(deps.db, orderno)) ?? order;
}

/**
 * payorderstatedetails: the cashier's poll. Its buyer (`viewerId`) gets the order's details;
 * anyone else holding the number only its state, which is all a cashier waits on (decision 0029).
 * Asking about an unpaid order also reconciles it.
 */
export async function orderState(deps: PayDeps, orderno: string, viewerId: number | null): Promise<TOrderDetails | TOrderPublicState> {
  const order = await currentOrder(deps, orderno);
  if (order.user_id !== viewerId) return { orderno: order.orderno, state: stateOf(order, seconds(deps)) };
  const [details] = await detailsOf(deps, [order]);
  if (details === undefined) throw ApiError.business(PAY_ERRORS.orderUnknown, `order ${orderno} vanished`);
  return details;
}

/** The sandbox cashier's view: what a payment app shows the payer of the order it was handed. */
/** spec §7 memrole: one product's membership of the user, as userinfo's `vip[]` (empty without one). */
export async function memberRole(
  deps: PayDeps,
  userId: number,
  productId: number,
): Promise<{ nowtime: number; vip: { productid: number; auth_value: number }[] }> {
  const expiry = await membershipOf(deps.db, userId, productId);
  return { nowtime: seconds(deps), vip: expiry === undefined ? [] : [{ productid: productId, auth_value: expiry }] };
}

/** The sandbox cashier's 确认支付: the same notice path as a real provider's, signed by the sandbox. */
export async function confirmSandboxOrder(deps: PayDeps, sandbox: SandboxPayProvider, orderno: string): Promise<TSandboxOrder> {
  const order = await orderByNo(deps.db, orderno);
  if (order === undefined || order.provider !== sandbox.name)
    throw ApiError.business(PAY_ERRORS.orderUnknown, `sandbox confirm of unknown order ${orderno}`);
  const notice = sandbox.signNotice({
    orderno,
    transactionId: `SANDBOX${orderno.slice(2)}`,
    amountFen: order.amount_fen,
    paidAt: seconds(deps),
  });
  const answer = await handleNotice(deps, sandbox, notice);
  if (answer.status !== 200) throw new Error(`sandbox notice for ${orderno} was not recorded`);
  return sandboxOrder(deps, orderno);
}

export async function sandboxOrder(deps: PayDeps, orderno: string): Promise<TSandboxOrder> {
  const order = await currentOrder(deps, orderno);
  return {
    orderno: order.orderno,
    state: stateOf(order, seconds(deps)),
    amount: yuanOfFen(order.amount_fen),
    paytype: order.paytype,
    subject: order.subject,
  };
}

export async function userOrders(
  deps: PayDeps,
  userId: number,
  query: { page: number; pagesize: number; state?: TOrderDetails['state'] | undefined },
) {
  const { rows, total } = await ordersOfUser(deps.db, userId, {
    ...(query.state === undefined ? {} : { state: query.state }),
    nowSeconds: seconds(deps),
    limit: query.pagesize,
    offset: (query.page - 1) * query.pagesize,
  });
  return { orders: await detailsOf(deps, rows), total };
}

/** The sandbox cashier's 取消支付: an unpaid order closes at once. */
export async function cancelOrder(deps: PayDeps, orderno: string): Promise<void> {
  const order = await orderByNo(deps.db, orderno);
  if (order === undefined) throw ApiError.business(PAY_ERRORS.orderUnknown, `unknown order ${orderno}`);
  if (await closeOrder(deps.db, order.id, seconds(deps))) await providerNamed(deps, order.provider)?.closePayment(orderno);
}
