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
  payResultPath,
  type TJsapiParams,
  type TPayScene,
  type TPayType,
  type TPayPackage,
  type TSandboxOrder,
} from '@xcad/protocol';
import { isUniqueViolation, type PayOrderRow, type PayProviderName } from '@xcad/db';
import { noticePathOf, providerNamed, type PayDeps } from './pay.deps';
import { cutUtf8, extendedExpiry, newOrderNo, orderSubject } from './order-rules';
import type { IncomingNotice, PaidNotice, PayProvider } from './pay.provider';
import { refundsOfOrders } from './refund.repository';
import { settleRefundNotice } from './refund.service';
import type { SandboxPayProvider } from './sandbox.provider';
import {
  activeBundles,
  changeMembershipExpiry,
  activePackages,
  activeProducts,
  closeOrder,
  closeSurplusOrders,
  expiredOpenOrders,
  flagOrder,
  insertOrder,
  invoicesOf,
  markPaid,
  membershipOf,
  orderByNo,
  orderItemsOf,
  openOrderByKey,
  ordersOfUser,
  packagesByRealId,
  recordNotice,
  setOrderPayment,
  touchProviderCheck,
  triedProviders,
  type NewOrderItem,
  type PackageWithProduct,
} from './pay.repository';

// Decision 0018: the catalogue, orders and the one path every payment takes to become a membership.
// Amounts are computed here from the database only; the client names packages, never prices.
// A payment is granted by `settlePayment`, whichever way it arrives (a provider's notice, the
// sandbox cashier, the order query when a notice is late or lost), and exactly once per order.

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
  /** Decision 0043: where the cashier runs. */
  scene: TPayScene;
  /** JSAPI: the buyer's openid (from WeChat OAuth), null until known. */
  openid: string | null;
}

function providerFor(deps: PayDeps, paytype: TPayType): PayProvider {
  return deps.providers[paytype];
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

/** Decision 0043: one checkout (user, bundle, packages) has at most one open order. */
export function openKeyOf(userId: number, packs: readonly { real_id: number }[], bundleRealId: number | null): string {
  const ids = packs.map((pack) => pack.real_id).sort((a, b) => a - b);
  return `${userId}:${bundleRealId ?? '-'}:${ids.join(',')}`;
}

/** Closes an unpaid order here and at every provider asked to take it (best effort there). */
async function closeEverywhere(deps: PayDeps, order: PayOrderRow, now: number): Promise<boolean> {
  if (!(await closeOrder(deps.db, order.id, now))) return false;
  await closeAtProviders(deps, order, null);
  return true;
}

/** Closes the order at every tried provider but `except` (the one that was paid). Never throws. */
async function closeAtProviders(deps: PayDeps, order: PayOrderRow, except: PayProviderName | null): Promise<void> {
  for (const name of triedProviders(order.tried_providers)) {
    if (name === except) continue;
    await providerNamed(deps, name)?.closePayment(order.orderno);
  }
}

interface OrderDraft {
  openKey: string;
  amountFen: number;
  subject: string;
  bundleRealId: number | null;
  items: NewOrderItem[];
}

/**
 * The open order of this checkout, or a new one. An open order with too little time left, or
 * whose price changed since, is closed (here and at its providers) and a new one placed. The order
 * is written before any provider is asked, so a notice can never find no order.
 */
async function openOrder(deps: PayDeps, context: OrderContext, draft: OrderDraft): Promise<PayOrderRow> {
  for (let attempt = 0; ; attempt += 1) {
    const now = seconds(deps);
    const open = await openOrderByKey(deps.db, draft.openKey);
    if (open !== undefined) {
      const isReusable =
        open.expires_at - now >= PAY_LIMITS.reuseMinSeconds && open.amount_fen === draft.amountFen && open.pay_scene === context.scene;
      if (isReusable) return open;
      await closeEverywhere(deps, open, now);
      continue;
    }
    const orderno = newOrderNo(now);
    try {
      await deps.db.transaction().execute(async (trx) => {
        await insertOrder(
          trx,
          {
            orderno,
            user_id: context.userId,
            paytype: context.paytype,
            provider: providerFor(deps, context.paytype).name,
            amount_fen: draft.amountFen,
            subject: draft.subject,
            bundle_real_id: draft.bundleRealId,
            created_at: now,
            expires_at: now + PAY_LIMITS.orderTtlSeconds,
            paid_at: null,
            closed_at: null,
            transaction_id: null,
            provider_checked_at: null,
            open_key: draft.openKey,
            pay_scene: context.scene,
          },
          draft.items,
        );
        await closeSurplusOrders(trx, context.userId, PAY_LIMITS.openOrdersPerUser, now);
      });
    } catch (error) {
      // The same number drawn twice in a second, or the same checkout placed at the same moment
      // (the unique open_key): look again, and the other request's order is reused.
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
      continue;
    }
    const placed = await orderByNo(deps.db, orderno);
    if (placed !== undefined) return placed;
  }
}

async function placeOrder(
  deps: PayDeps,
  context: OrderContext,
  packs: readonly PackageWithProduct[],
  bundle: { real_id: number; name: string; price_fen: number } | null,
): Promise<EnvelopeData<TOrderCreated>> {
  const provider = providerFor(deps, context.paytype);
  // Inside WeChat's browser Alipay cannot open; the page shows the open-in-browser guide.
  if (context.scene === 'wechat' && context.paytype === 'alipay')
    throw ApiError.business(PAY_ERRORS.alipayInWechat, 'alipay inside WeChat');
  // JSAPI pays as the buyer's openid: the page gets it through WeChat's OAuth first.
  if (context.scene === 'wechat' && context.openid === null) throw ApiError.business(PAY_ERRORS.wechatAuth, 'JSAPI without an openid');
  const subject = orderSubject(
    packs.map((pack) => ({ productName: pack.product_name, name: pack.name })),
    bundle?.name ?? null,
  );
  const order = await openOrder(deps, context, {
    openKey: openKeyOf(context.userId, packs, bundle?.real_id ?? null),
    amountFen: bundle?.price_fen ?? packs.reduce((sum, pack) => sum + pack.price_fen, 0),
    subject,
    bundleRealId: bundle?.real_id ?? null,
    items: packs.map((pack) => ({
      package_real_id: pack.real_id,
      product_id: pack.product_id,
      name: pack.name,
      paypack: pack.paypack,
      months: pack.months,
      price_fen: pack.price_fen,
    })),
  });
  const answer = (payurl: string, jsapi: TJsapiParams | null): EnvelopeData<TOrderCreated> => ({
    orderno: order.orderno,
    payurl,
    amount: yuanOfFen(order.amount_fen),
    paytype: context.paytype,
    expiretime: Number(order.expires_at),
    scene: context.scene,
    jsapi,
  });
  // The cashier opened again with the same method: the same QR. (A phone's h5_url lasts minutes
  // and JSAPI's parameters carry a time: those are asked for again, on the same order number.)
  const isSameQr = context.scene === 'desktop' && order.paytype === context.paytype && order.provider === provider.name;
  if (isSameQr && order.payurl !== '') return answer(order.payurl, null);

  // A first payment, or another method on the same order number (the old method's payment stays
  // possible until one of them is paid: the others are then closed, and a second payment flagged).
  const created = await provider.createPayment({
    orderno: order.orderno,
    amountFen: order.amount_fen,
    subject: cutUtf8(order.subject, 127),
    expiresAt: Number(order.expires_at),
    notifyUrl: notifyUrlOf(deps, provider.name),
    clientIp: context.clientIp,
    scene: context.scene,
    returnUrl: new URL(payResultPath(order.orderno), deps.env.PUBLIC_ORIGIN).toString(),
    openid: context.openid,
  });
  if (!created.ok) {
    // A new order no provider took is closed; an order another method still serves stays open.
    if (order.payurl === '') await closeOrder(deps.db, order.id, seconds(deps));
    deps.log.warn({ orderno: order.orderno, provider: provider.name, detail: created.detail }, 'payment provider refused an order');
    throw ApiError.business(PAY_ERRORS.providerFailed, `${provider.name}: ${created.detail}`);
  }
  await setOrderPayment(deps.db, order, { paytype: context.paytype, provider: provider.name, payurl: created.payurl });
  return answer(created.payurl, created.jsapi ?? null);
}

// --- Granting -------------------------------------------------------------------------------

export type SettleOutcome = 'granted' | 'late-granted' | 'duplicate' | 'double-paid' | 'amount-mismatch' | 'unknown-order';

/** The pay type a provider's payment is (the sandbox plays either: the order's own). */
function paytypeOf(provider: PayProviderName, order: PayOrderRow): TPayType {
  if (provider === 'wechatpay') return 'wxpay';
  if (provider === 'alipay') return 'alipay';
  return order.paytype;
}

function isProviderOf(order: PayOrderRow, provider: PayProviderName): boolean {
  return order.provider === provider || triedProviders(order.tried_providers).includes(provider);
}

/**
 * The one place a payment becomes a membership. In one transaction: the order turns paid (only
 * one of any number of concurrent notices can do that), each item extends its product's expiry,
 * and the notice is recorded. A notice for an order already paid changes nothing, unless it is
 * another transaction (paid twice, at two providers): that is flagged for the operator to refund.
 * A payment arriving for a closed order is granted (the money was taken) and flagged.
 */
async function settlePayment(deps: PayDeps, provider: PayProviderName, notice: PaidNotice): Promise<SettleOutcome> {
  const now = seconds(deps);
  let paidOrder: PayOrderRow | null = null;
  const outcome = await deps.db.transaction().execute(async (trx): Promise<SettleOutcome> => {
    const order = await orderByNo(trx, notice.orderno);
    let result: SettleOutcome;
    if (order === undefined || !isProviderOf(order, provider)) result = 'unknown-order';
    else if (order.amount_fen !== notice.amountFen) result = 'amount-mismatch';
    else if (
      !(await markPaid(trx, order.id, {
        transactionId: notice.transactionId,
        paidAt: notice.paidAt || now,
        provider,
        paytype: paytypeOf(provider, order),
      }))
    ) {
      const current = await orderByNo(trx, notice.orderno);
      if (current?.transaction_id !== null && current?.transaction_id !== notice.transactionId) {
        await flagOrder(trx, order.id, 'double-payment');
        result = 'double-paid';
      } else result = 'duplicate';
    } else {
      for (const item of await orderItemsOf(trx, [order.id])) {
        await changeMembershipExpiry(trx, order.user_id, item.product_id, now, (current) => extendedExpiry(current, now, item.months));
      }
      // Closed (cancelled, superseded, swept) or paid after its time, which the sweep may not have seen yet.
      const isLate = order.state === 'closed' || (notice.paidAt || now) > order.expires_at;
      if (isLate) await flagOrder(trx, order.id, 'late-payment');
      result = isLate ? 'late-granted' : 'granted';
      paidOrder = order;
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
  else if (outcome === 'late-granted') deps.log.warn(log, 'payment for a closed order: granted and flagged for the operator');
  else if (outcome === 'double-paid') deps.log.error(log, 'second payment of an order already paid: flagged for the operator to refund');
  else deps.log.error({ ...log, amountFen: notice.amountFen }, 'payment notice does not match an order');
  // The other methods offered for this order can no longer be paid.
  if (paidOrder !== null) await closeAtProviders(deps, paidOrder, provider);
  return outcome;
}

/**
 * The expiry sweep (every PAY_LIMITS.expirySweepSeconds in each API process): unpaid orders past
 * their time are asked about once more (a lost notice), then closed here and at their providers.
 */
export async function closeExpiredOrders(deps: PayDeps): Promise<number> {
  let closed = 0;
  for (const order of await expiredOpenOrders(deps.db, seconds(deps), 100)) {
    await reconcile(deps, order);
    const after = await orderByNo(deps.db, order.orderno);
    if (after?.state === 'closed' && after.closed_at !== null) closed += 1;
  }
  return closed;
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
    if (reading.kind === 'refund') {
      await settleRefundNotice(deps, provider.name, reading.refund);
      return provider.noticeReply('handled');
    }
    await settlePayment(deps, provider.name, reading.notice);
    return provider.noticeReply('handled');
  } catch (error) {
    deps.log.error(
      { err: error, provider: provider.name, orderno: reading.kind === 'paid' ? reading.notice.orderno : reading.refund.orderno },
      'payment notice could not be recorded',
    );
    return provider.noticeReply('failed');
  }
}

// --- Reading orders -------------------------------------------------------------------------

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
  if (isExpired) await closeEverywhere(deps, order, now);
}

/** An unpaid order past its time is closed, whether or not a reader has closed it yet. */
function stateOf(order: PayOrderRow, now: number): TOrderDetails['state'] {
  return order.state === 'unpaid' && order.expires_at <= now ? 'closed' : order.state;
}

async function detailsOf(deps: PayDeps, orders: readonly PayOrderRow[]): Promise<TOrderDetails[]> {
  const now = seconds(deps);
  const ids = orders.map((order) => order.id);
  const [items, invoices, products, refunds] = await Promise.all([
    orderItemsOf(deps.db, ids),
    invoicesOf(deps.db, { orderIds: ids }),
    activeProducts(deps.db),
    refundsOfOrders(deps.db, ids),
  ]);
  const refundedFen = (orderId: number) =>
    refunds
      .filter((refund) => refund.order_id === orderId && refund.state === 'succeeded')
      .reduce((sum, refund) => sum + refund.amount_fen, 0);
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
    refund: yuanOfFen(refundedFen(order.id)),
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
  await closeEverywhere(deps, order, seconds(deps));
}
