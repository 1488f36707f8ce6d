import { ApiError, PAY_ERRORS, PAY_MESSAGES, yuanOfFen } from '@xcad/protocol';
import { isUniqueViolation, type PayOrderRow, type PayRefundRow, type PayRefundState } from '@xcad/db';
import { takenBackExpiry } from './order-rules';
import type { RefundNotice, RefundOutcome, RefundRequest } from './pay.provider';
import { changeMembershipExpiry, orderByNo, orderItemsOf, recordNotice } from './pay.repository';
import { noticePathOf, providerNamed, type PayDeps } from './pay.deps';
import {
  finishRefund,
  flagInvoiceReversal,
  insertRefund,
  refundByNo,
  refundsOfOrders,
  releaseRefund,
  reserveRefund,
  setRefundProviderId,
} from './refund.repository';

// Decision 0043: refunds, full or partial, through the provider that took the payment (WeChat Pay
// /v3/refund/domestic/refunds, Alipay alipay.trade.refund), for the operator's console to call:
//
//   refundOrder(deps, { orderno, amountFen, reason, refundNo, operatorUserId })
//
// - Idempotent by `refundNo` (the providers' out_refund_no / out_request_no): the same number with
//   the same order and amount answers the refund as it stands (asking the provider while it is still
//   processing); the same number for anything else is refused (17022).
// - Only a paid order is refunded (17020); a refund larger than what is left is refused (17021),
//   also when two are asked at once (the order's refunded_fen is reserved with a conditional update).
// - The membership rule: a partial refund (a price difference, a goodwill gesture) leaves the
//   membership as it is; once the refunds succeeded add up to the whole amount, what the order
//   granted is taken back (order-rules takenBackExpiry: its months off the expiry; lifetime falls
//   back to the payment time; never before now).
// - An invoice of the order is flagged for a red-letter reversal (红冲, invoice.reversal_due).
// - The buyer sees 已退款 (or 部分退款) with the amount on /personal-buy.html (payorderlist `refund`).
// - A provider's refund notice (any number of copies) settles the refund once (finishRefund is
//   conditional on `processing`).

export interface RefundInput {
  orderno: string;
  /** Fen to give back, at most what is left of the order. */
  amountFen: number;
  /** Shown to the buyer in their payment app's bill; 1-80 characters. */
  reason: string;
  /** The caller's own number for this refund (1-64 of A-Z a-z 0-9 _ - | * @), the idempotency key. */
  refundNo: string;
  /** Who asked (the operator's user id), kept with the refund; null for a command-line refund. */
  operatorUserId: number | null;
}

export interface RefundResult {
  refundNo: string;
  orderno: string;
  amountFen: number;
  /** processing: the provider is still at it (its notice or the next call settles it). */
  state: PayRefundState;
  /** Fen of the order refunded or being refunded, this refund included. */
  refundedFen: number;
  /** Fen still refundable. */
  remainingFen: number;
  /** Why a refund failed, as the provider said (null otherwise). */
  detail: string | null;
}

const REFUND_NO_PATTERN = /^[0-9A-Za-z_\-|*@]{1,64}$/;
const REASON_MAX_CHARS = 80;

function invalid(field: string, message: string): ApiError {
  return new ApiError({
    code: PAY_ERRORS.invalidField.codes[0],
    userMessage: message,
    logMessage: `refund: bad ${field}`,
    extra: { field },
  });
}

function checked(input: RefundInput): RefundInput {
  const reason = input.reason.trim();
  if (!REFUND_NO_PATTERN.test(input.refundNo)) throw invalid('refundNo', PAY_MESSAGES.refundNo);
  if (!Number.isSafeInteger(input.amountFen) || input.amountFen <= 0) throw invalid('amountFen', PAY_MESSAGES.refundAmount);
  if (reason === '' || Array.from(reason).length > REASON_MAX_CHARS) throw invalid('reason', PAY_MESSAGES.refundReason);
  return { ...input, reason };
}

const seconds = (deps: PayDeps) => Math.floor(deps.clock() / 1000);

function requestOf(deps: PayDeps, order: PayOrderRow, refund: PayRefundRow): RefundRequest {
  return {
    orderno: order.orderno,
    transactionId: order.transaction_id ?? '',
    refundNo: refund.refund_no,
    amountFen: refund.amount_fen,
    totalFen: order.amount_fen,
    reason: refund.reason,
    notifyUrl: new URL(noticePathOf(refund.provider), deps.env.PUBLIC_ORIGIN).toString(),
  };
}

/** Full and partial refunds (see above). Throws ApiError for a refusal; never half-refunds. */
export async function refundOrder(deps: PayDeps, input: RefundInput): Promise<RefundResult> {
  const request = checked(input);
  const existing = await refundByNo(deps.db, request.refundNo);
  if (existing !== undefined) return again(deps, existing, request);

  const order = await orderByNo(deps.db, request.orderno);
  if (order === undefined) throw ApiError.business(PAY_ERRORS.orderUnknown, `refund of unknown order ${request.orderno}`);
  if (order.state !== 'paid') throw ApiError.business(PAY_ERRORS.refundNotPaid, `refund of ${order.state} order ${order.orderno}`);
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await reserveRefund(trx, order.id, request.amountFen))) {
        const left = order.amount_fen - (await orderByNo(trx, order.orderno))!.refunded_fen;
        throw new ApiError({
          code: PAY_ERRORS.refundTooLarge.codes[0],
          userMessage: `${PAY_MESSAGES.refundTooLarge}（最多可退¥${yuanOfFen(Math.max(0, left))}）`,
          logMessage: `refund of ${request.amountFen} fen, ${left} left on ${order.orderno}`,
          extra: { field: 'amountFen' },
        });
      }
      await insertRefund(trx, {
        refundNo: request.refundNo,
        orderId: order.id,
        provider: order.provider,
        amountFen: request.amountFen,
        reason: request.reason,
        operatorUserId: request.operatorUserId,
        createdAt: seconds(deps),
      });
    });
  } catch (error) {
    // The same refund number asked twice at the same moment: the other request's refund it is.
    if (!isUniqueViolation(error)) throw error;
    const raced = await refundByNo(deps.db, request.refundNo);
    if (raced === undefined) throw error;
    return again(deps, raced, request);
  }
  const refund = (await refundByNo(deps.db, request.refundNo))!;
  const provider = providerNamed(deps, order.provider);
  const outcome: RefundOutcome =
    provider === undefined
      ? { state: 'unknown', detail: `no provider ${order.provider}` }
      : await provider.refund(requestOf(deps, order, refund));
  deps.log.info({ orderno: order.orderno, refundNo: refund.refund_no, amountFen: refund.amount_fen, outcome }, 'refund asked');
  await applyOutcome(deps, refund, outcome);
  return resultOf(deps, request.refundNo);
}

/** A refund number seen before: the same refund answers as it stands; anything else is refused. */
async function again(deps: PayDeps, refund: PayRefundRow, request: RefundInput): Promise<RefundResult> {
  const order = await orderByNo(deps.db, request.orderno);
  if (order === undefined || order.id !== refund.order_id || refund.amount_fen !== request.amountFen) {
    throw ApiError.business(PAY_ERRORS.refundNoReused, `refund number ${request.refundNo} reused`);
  }
  if (refund.state === 'processing') {
    const provider = providerNamed(deps, refund.provider);
    if (provider !== undefined) await applyOutcome(deps, refund, await provider.queryRefund(requestOf(deps, order, refund)));
  }
  return resultOf(deps, refund.refund_no);
}

async function applyOutcome(deps: PayDeps, refund: PayRefundRow, outcome: RefundOutcome): Promise<void> {
  if (outcome.state === 'succeeded') await settleRefund(deps, refund.refund_no, outcome.providerRefundId);
  else if (outcome.state === 'failed') await failRefund(deps, refund, outcome.detail);
  else if (outcome.state === 'processing') await setRefundProviderId(deps.db, refund.refund_no, outcome.providerRefundId);
  // unknown: stays processing; the provider's notice, or asking again with the same number, settles it.
}

async function failRefund(deps: PayDeps, refund: PayRefundRow, detail: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const changed = await finishRefund(trx, refund.refund_no, {
      state: 'failed',
      providerRefundId: null,
      detail,
      finishedAt: seconds(deps),
    });
    if (changed) await releaseRefund(trx, refund.order_id, refund.amount_fen);
  });
  deps.log.warn({ refundNo: refund.refund_no, detail }, 'refund refused by the provider; nothing moved');
}

/**
 * processing -> succeeded, once; when the refunds succeeded now cover the whole amount, the
 * membership is taken back, and an invoice of the order is flagged for 红冲 either way.
 */
async function settleRefund(deps: PayDeps, refundNo: string, providerRefundId: string): Promise<boolean> {
  const now = seconds(deps);
  return deps.db.transaction().execute(async (trx) => {
    if (!(await finishRefund(trx, refundNo, { state: 'succeeded', providerRefundId, detail: null, finishedAt: now }))) return false;
    const refund = (await refundByNo(trx, refundNo))!;
    const order = (await trx.selectFrom('pay_order').selectAll().where('id', '=', refund.order_id).executeTakeFirst())!;
    const succeeded = (await refundsOfOrders(trx, [order.id]))
      .filter((row) => row.state === 'succeeded')
      .reduce((sum, row) => sum + row.amount_fen, 0);
    if (succeeded >= order.amount_fen) {
      for (const item of await orderItemsOf(trx, [order.id])) {
        await changeMembershipExpiry(trx, order.user_id, item.product_id, now, (current) =>
          current === undefined ? undefined : takenBackExpiry(current, now, item.months, Number(order.paid_at ?? now)),
        );
      }
    }
    if (await flagInvoiceReversal(trx, order.id))
      deps.log.warn({ orderno: order.orderno, refundNo }, 'refunded order has an invoice: 红冲 due');
    return true;
  });
}

/** A provider's refund notice (verified): settles the refund it names, once however often it comes. */
export async function settleRefundNotice(deps: PayDeps, provider: PayRefundRow['provider'], notice: RefundNotice): Promise<void> {
  const refund = await refundByNo(deps.db, notice.refundNo);
  const order = refund === undefined ? undefined : await orderByNo(deps.db, notice.orderno);
  let outcome: 'refund-settled' | 'refund-duplicate' | 'refund-unknown' = 'refund-unknown';
  if (refund !== undefined && order !== undefined && order.id === refund.order_id && refund.provider === provider) {
    const changed =
      notice.state === 'succeeded'
        ? await settleRefund(deps, refund.refund_no, notice.providerRefundId)
        : refund.state === 'processing' && (await failRefund(deps, refund, 'refund notice: not refunded'), true);
    outcome = changed ? 'refund-settled' : 'refund-duplicate';
  }
  await recordNotice(deps.db, {
    provider,
    orderno: notice.orderno,
    transactionId: notice.providerRefundId,
    amountFen: notice.amountFen,
    outcome,
    receivedAt: seconds(deps),
  });
  if (outcome === 'refund-unknown') deps.log.error({ provider, ...notice }, 'refund notice for no refund of ours');
}

async function resultOf(deps: PayDeps, refundNo: string): Promise<RefundResult> {
  const refund = (await refundByNo(deps.db, refundNo))!;
  const order = (await deps.db.selectFrom('pay_order').selectAll().where('id', '=', refund.order_id).executeTakeFirst())!;
  return {
    refundNo: refund.refund_no,
    orderno: order.orderno,
    amountFen: refund.amount_fen,
    state: refund.state,
    refundedFen: order.refunded_fen,
    remainingFen: order.amount_fen - order.refunded_fen,
    detail: refund.detail,
  };
}
