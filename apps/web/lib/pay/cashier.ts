import { PAY_ERRORS, sandboxCashierPath, type TOrderCreated, type TOrderDetails, type TPayType } from '@xcad/protocol';

// The cashier modal's states (decision 0018): a visitor signs in first (buying signs you in), then the
// order is placed, its QR shown and its state polled until it is paid, closed or runs out of time.
// Pure, so the browser hook only performs the calls and the timers this decides on.

/** What the buyer chose: one package of a product (memorder) or a bundle's packages (paymerge). */
export type CashierPurchase =
  | { readonly kind: 'package'; readonly productid: number; readonly packageid: number; readonly title: string; readonly price: number }
  | { readonly kind: 'bundle'; readonly packageids: readonly number[]; readonly title: string; readonly price: number };

export type CashierFailure = 'closed' | 'expired';

export type CashierState =
  /** `refusedToken`: the session the server refused (null for a visitor); a newer one continues. */
  | { readonly step: 'signin'; readonly paytype: TPayType; readonly attempt: number; readonly refusedToken: string | null }
  /** `attempt` counts placings: an answer to an earlier, abandoned one is ignored. */
  | { readonly step: 'placing'; readonly paytype: TPayType; readonly attempt: number }
  | {
      readonly step: 'waiting';
      readonly paytype: TPayType;
      readonly attempt: number;
      readonly order: TOrderCreated;
      readonly failures: number;
    }
  | {
      readonly step: 'paid';
      readonly paytype: TPayType;
      readonly attempt: number;
      readonly order: TOrderCreated;
      readonly details: TOrderDetails;
    }
  | {
      readonly step: 'failed';
      readonly paytype: TPayType;
      readonly attempt: number;
      readonly order: TOrderCreated;
      readonly reason: CashierFailure;
    }
  | {
      readonly step: 'error';
      readonly paytype: TPayType;
      readonly attempt: number;
      readonly message: string;
      /** What 重试 does: place the order again, or ask again about the order already placed. */
      readonly retry: 'place' | 'poll';
      readonly order: TOrderCreated | null;
    };

export type CashierAction =
  | { readonly type: 'signedIn' }
  /** Places a (new) order: the first one, another pay type, 重新下单, or 重试 after a refusal. */
  | { readonly type: 'place'; readonly paytype: TPayType }
  | { readonly type: 'placed'; readonly attempt: number; readonly order: TOrderCreated }
  | { readonly type: 'placeFailed'; readonly attempt: number; readonly message: string; readonly refusedToken: string | null }
  | { readonly type: 'polled'; readonly details: TOrderDetails; readonly nowSeconds: number }
  /** `isFinal`: a refusal about the order itself (unknown order), not a failed request. */
  | { readonly type: 'pollFailed'; readonly orderno: string; readonly message: string; readonly isFinal: boolean }
  | { readonly type: 'retryPoll' };

/** Failed state requests in a row (network, timeouts) before the cashier shows the error and 重试. */
export const POLL_FAILURE_LIMIT = 5;

/** Polling pauses once the tab has been hidden this long, and resumes as soon as it is shown again. */
export const HIDDEN_POLL_PAUSE_MS = 60_000;

const SANDBOX_PREFIX = sandboxCashierPath('');

export function initialCashierState(isSignedIn: boolean, paytype: TPayType): CashierState {
  return isSignedIn ? { step: 'placing', paytype, attempt: 1 } : { step: 'signin', paytype, attempt: 0, refusedToken: null };
}

function orderOf(state: CashierState): TOrderCreated | null {
  if (state.step === 'waiting' || state.step === 'paid' || state.step === 'failed') return state.order;
  if (state.step === 'error') return state.order;
  return null;
}

export function cashierReducer(state: CashierState, action: CashierAction): CashierState {
  switch (action.type) {
    case 'signedIn':
      return state.step === 'signin' ? { step: 'placing', paytype: state.paytype, attempt: state.attempt + 1 } : state;
    case 'place':
      // Nothing is bought twice: a paid order stays paid; a visitor signs in first.
      if (state.step === 'paid') return state;
      if (state.step === 'signin') return { ...state, paytype: action.paytype };
      return { step: 'placing', paytype: action.paytype, attempt: state.attempt + 1 };
    case 'placed':
      if (state.step !== 'placing' || state.attempt !== action.attempt) return state;
      return { step: 'waiting', paytype: action.order.paytype, attempt: state.attempt, order: action.order, failures: 0 };
    case 'placeFailed':
      if (state.step !== 'placing' || state.attempt !== action.attempt) return state;
      if (action.refusedToken !== null)
        return { step: 'signin', paytype: state.paytype, attempt: state.attempt, refusedToken: action.refusedToken };
      return { step: 'error', paytype: state.paytype, attempt: state.attempt, message: action.message, retry: 'place', order: null };
    case 'polled':
      return afterPoll(state, action.details, action.nowSeconds);
    case 'pollFailed': {
      if (state.step !== 'waiting' || state.order.orderno !== action.orderno) return state;
      const failures = state.failures + 1;
      if (!action.isFinal && failures < POLL_FAILURE_LIMIT) return { ...state, failures };
      return { step: 'error', paytype: state.paytype, attempt: state.attempt, message: action.message, retry: 'poll', order: state.order };
    }
    case 'retryPoll': {
      const order = orderOf(state);
      if (state.step !== 'error' || state.retry !== 'poll' || order === null) return state;
      return { step: 'waiting', paytype: state.paytype, attempt: state.attempt, order, failures: 0 };
    }
  }
}

/** An answer of payorderstatedetails about the order on screen. */
function afterPoll(state: CashierState, details: TOrderDetails, nowSeconds: number): CashierState {
  if (state.step !== 'waiting' || state.order.orderno !== details.orderno) return state;
  const base = { paytype: state.paytype, attempt: state.attempt, order: state.order };
  if (details.state === 'paid') return { step: 'paid', ...base, details };
  const isPastExpiry = nowSeconds >= state.order.expiretime;
  // The server closes an order whose time ran out: that reads 支付超时, any other closing 订单已关闭.
  if (details.state === 'closed') return { step: 'failed', ...base, reason: isPastExpiry ? 'expired' : 'closed' };
  if (isPastExpiry) return { step: 'failed', ...base, reason: 'expired' };
  return state.failures === 0 ? state : { ...state, failures: 0 };
}

/** Seconds until the order closes, never negative. */
export function secondsUntil(expiretime: number, nowSeconds: number): number {
  return Math.max(0, Math.floor(expiretime - nowSeconds));
}

/** The countdown as mm:ss (29:59, 00:05). */
export function formatCountdown(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const minutes = Math.floor(whole / 60);
  return `${String(minutes).padStart(2, '0')}:${String(whole % 60).padStart(2, '0')}`;
}

/** A sandbox order: its payurl (absolute or not) leads to the sandbox cashier page. */
export function isSandboxPayUrl(payurl: string): boolean {
  try {
    const { pathname } = new URL(payurl, 'http://localhost');
    return pathname.startsWith(SANDBOX_PREFIX) && pathname.length > SANDBOX_PREFIX.length;
  } catch {
    return false;
  }
}

/** Whether polling pauses: the tab has been hidden for longer than HIDDEN_POLL_PAUSE_MS. */
export function isPollingPaused(hiddenSinceMs: number | null, nowMs: number): boolean {
  return hiddenSinceMs !== null && nowMs - hiddenSinceMs >= HIDDEN_POLL_PAUSE_MS;
}

/** The other way to pay (the cashier's switch). */
export function otherPayType(paytype: TPayType): TPayType {
  return paytype === 'wxpay' ? 'alipay' : 'wxpay';
}

/** A refusal of payorderstatedetails about the order itself: asking again will not change it. */
export function isFinalPollRefusal(code: number): boolean {
  const codes: readonly number[] = [...PAY_ERRORS.orderUnknown.codes, ...PAY_ERRORS.invalidField.codes];
  return codes.includes(code);
}
