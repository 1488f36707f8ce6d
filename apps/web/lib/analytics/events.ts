import type { TAnalyticsEventInput, TLoginMethod, TOrderCreated, TOrderDetails, TPayType, TTaskType } from '@xcad/protocol';
import type { CashierPurchase } from '@/lib/pay/cashier';
import type { RunSnapshot } from '@/lib/tools/upload';
import { maskLoginId } from './context';

// The events of the site's flows (spec §3, decision 0022), built from what the flows already hold:
// a sign-in's method and answer, the cashier's purchase and order, a conversion's files and last
// snapshot. Pure, so each mapping is tested on its own (events.test.ts).

type EventOf<E extends TAnalyticsEventInput['event']> = Extract<TAnalyticsEventInput, { event: E }>;

// ---- Sign-in ----

export interface LoginAttempt {
  readonly method: TLoginMethod;
  /** The phone or account typed (masked before it is sent); absent for QR and popup sign-ins. */
  readonly account?: string;
}

/** A refusal as a reason: the answer's code, then its message ('12007 请输入正确的验证码'). */
export function reasonOf(refusal: { readonly code: number; readonly message: string }): string {
  return `${refusal.code} ${refusal.message}`.trim();
}

/** One sign-in attempt that reached the server, and how it ended. */
export function loginEvent(
  attempt: LoginAttempt,
  outcome: { readonly ok: true } | { readonly ok: false; readonly reason: string },
): EventOf<'login'> {
  const loginId = attempt.account ? maskLoginId(attempt.account) : '';
  return {
    event: 'login',
    method: attempt.method,
    ...(loginId ? { login_id: loginId } : {}),
    result: outcome.ok ? 'success' : 'fail',
    ...(outcome.ok ? {} : { reason: outcome.reason || 'unknown' }),
  };
}

/**
 * How a WeChat QR or QQ popup sign-in that ended without a user failed, or null when nobody tried:
 * an abnormal account or a refusal with a message is a failed attempt; a code that simply ran out
 * (or a popup closed) unused is not an attempt at all.
 */
export function qrLoginFailure(state: { readonly status: string; readonly message: string }): string | null {
  if (state.status === 'illegal') return state.message || 'account abnormal';
  if (state.status === 'expired' && state.message) return state.message;
  return null;
}

// ---- Purchase (checkout -> add_payment_info -> purchase) ----

/** spec §3 names the payment type; the site's pay types are wxpay and alipay. */
function paymentTypeOf(paytype: TPayType): 'wechat' | 'alipay' {
  return paytype === 'wxpay' ? 'wechat' : 'alipay';
}

/** The sku and item fields of what the cashier sells: a package of a product, or a bundle of packages. */
function itemOf(purchase: CashierPurchase) {
  const sku = purchase.kind === 'package' ? String(purchase.packageid) : purchase.packageids.join('+');
  return { sku, item_id: sku, item_name: purchase.title, item_price: purchase.price, item_quantity: 1 };
}

/** The buyer chose a plan and the cashier opened for it. */
export function checkoutEvent(purchase: CashierPurchase): EventOf<'checkout'> {
  return {
    event: 'checkout',
    action_name: 'buy',
    title: purchase.title,
    name: purchase.kind === 'package' ? String(purchase.productid) : 'bundle',
    sub_item: purchase.kind === 'package' ? String(purchase.packageid) : purchase.packageids.join('+'),
  };
}

/** An order was placed with a pay type and its QR code is on screen. */
export function addPaymentInfoEvent(purchase: CashierPurchase, order: TOrderCreated): EventOf<'add_payment_info'> {
  return {
    event: 'add_payment_info',
    ...itemOf(purchase),
    payment_type: paymentTypeOf(order.paytype),
    transaction_id: order.orderno,
    currency: 'CNY',
    value: order.amount,
  };
}

/** The order was paid: the order's own number, amount and pay type. */
export function purchaseEvent(purchase: CashierPurchase, details: TOrderDetails): EventOf<'purchase'> {
  return {
    event: 'purchase',
    ...itemOf(purchase),
    payment_type: paymentTypeOf(details.paytype),
    transaction_id: details.orderno,
    currency: 'CNY',
    value: details.amount,
  };
}

// ---- Online conversion ----

/** The extension after the last dot, lower case; '' when there is none. */
function extensionOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

const RESULT_OF_PHASE = { done: 'success', failed: 'fail', cancelled: 'cancel' } as const;

type FinalPhase = keyof typeof RESULT_OF_PHASE;

function isFinalPhase(phase: RunSnapshot['phase']): phase is FinalPhase {
  return phase in RESULT_OF_PHASE;
}

const wholeMs = (ms: number) => Math.max(0, Math.round(ms));

/** A file that reached the server whole: it is waiting, converting, converted, or failed conversion. */
function wasUploaded(file: RunSnapshot['files'][number]): boolean {
  return file.sentBytes >= file.size && file.stage !== 'pending' && file.stage !== 'uploading';
}

/**
 * A conversion that ended: one `task` event for the run (the tool, the input extensions, the
 * bytes, the result, the reason and the time from the click to the end) and one `file` upload
 * event per file. Nothing while the run has not ended.
 */
export function conversionEvents(tool: TTaskType, snapshot: RunSnapshot, elapsedMs: number): TAnalyticsEventInput[] {
  const { phase } = snapshot;
  if (!isFinalPhase(phase)) return [];
  const extensions = [...new Set(snapshot.files.map((file) => extensionOfName(file.name)).filter((extension) => extension !== ''))];
  const failedFile = snapshot.files.find((file) => file.stage === 'failed' && file.reason);
  const reason = phase === 'failed' ? snapshot.error || failedFile?.reason || 'unknown' : undefined;
  const task: EventOf<'task'> = {
    event: 'task',
    action_name: 'convert',
    name: tool,
    extension: extensions.join(','),
    result: RESULT_OF_PHASE[phase],
    ...(reason === undefined ? {} : { reason }),
    elapsed_ms: wholeMs(elapsedMs),
    size: snapshot.files.reduce((total, file) => total + file.size, 0),
  };
  const files = snapshot.files.map((file): EventOf<'file'> => {
    const isUploaded = wasUploaded(file);
    const result = isUploaded ? 'success' : phase === 'cancelled' ? 'cancel' : 'fail';
    const fileReason = result === 'fail' ? file.reason || snapshot.error || 'unknown' : undefined;
    return {
      event: 'file',
      io: 'upload',
      action_name: tool,
      name: file.name || 'unnamed',
      extension: extensionOfName(file.name),
      size: file.size,
      result,
      ...(fileReason === undefined ? {} : { reason: fileReason }),
    };
  });
  return [task, ...files];
}

/** A download asked for (a converted result, a drawing, an installer) and how it went. */
export function downloadEvent(fields: {
  readonly name: string;
  readonly actionName: string;
  readonly size?: number;
  readonly durationMs?: number;
  readonly result: 'success' | 'fail';
  readonly reason?: string;
  readonly io?: 'download' | 'share';
}): EventOf<'file'> {
  return {
    event: 'file',
    io: fields.io ?? 'download',
    action_name: fields.actionName,
    name: fields.name || 'unnamed',
    extension: extensionOfName(fields.name),
    size: Math.max(0, Math.round(fields.size ?? 0)),
    ...(fields.durationMs === undefined ? {} : { duration: wholeMs(fields.durationMs) }),
    result: fields.result,
    ...(fields.result === 'fail' ? { reason: fields.reason || 'unknown' } : {}),
  };
}
