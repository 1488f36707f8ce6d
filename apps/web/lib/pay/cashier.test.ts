import type { TOrderCreated, TOrderDetails } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import {
  HIDDEN_POLL_PAUSE_MS,
  POLL_FAILURE_LIMIT,
  cashierReducer,
  formatCountdown,
  initialCashierState,
  isFinalPollRefusal,
  isPollingPaused,
  isSandboxPayUrl,
  otherPayType,
  secondsUntil,
  type CashierAction,
  type CashierState,
} from './cashier';

const NOW = 1_760_000_000;
const ORDER: TOrderCreated = {
  code: 10000,
  message: '',
  orderno: 'XC2025101012000012345678',
  payurl: 'http://127.0.0.1:3210/pay/sandbox/XC2025101012000012345678',
  amount: 68,
  paytype: 'wxpay',
  expiretime: NOW + 1800,
  scene: 'desktop',
  jsapi: null,
};

function details(state: TOrderDetails['state'], orderno = ORDER.orderno): TOrderDetails {
  return {
    orderno,
    state,
    amount: 68,
    paytype: 'wxpay',
    subject: '迅捷CAD编辑器 12个月会员',
    items: [],
    createtime: NOW,
    expiretime: ORDER.expiretime,
    paidtime: state === 'paid' ? NOW + 60 : null,
    transactionid: state === 'paid' ? 'sandbox-1' : null,
    invoice: 'none',
    refund: 0,
  };
}

function run(state: CashierState, ...actions: CashierAction[]): CashierState {
  return actions.reduce(cashierReducer, state);
}

const waiting = run(initialCashierState(true, 'wxpay'), { type: 'placed', attempt: 1, order: ORDER });

describe('cashier: who may order', () => {
  it('asks a visitor to sign in first, and places the order once signed in', () => {
    const visitor = initialCashierState(false, 'alipay');
    expect(visitor).toEqual({ step: 'signin', paytype: 'alipay', attempt: 0, refusedToken: null });
    expect(run(visitor, { type: 'place', paytype: 'wxpay' })).toMatchObject({ step: 'signin', paytype: 'wxpay' });
    expect(run(visitor, { type: 'signedIn' })).toEqual({ step: 'placing', paytype: 'alipay', attempt: 1 });
  });

  it('places the order at once for a signed-in user and shows its QR when placed', () => {
    expect(initialCashierState(true, 'wxpay')).toEqual({ step: 'placing', paytype: 'wxpay', attempt: 1 });
    expect(waiting).toMatchObject({ step: 'waiting', order: ORDER, failures: 0 });
  });

  it('sends a user whose session the server refused back to sign in', () => {
    const state = run(initialCashierState(true, 'wxpay'), {
      type: 'placeFailed',
      attempt: 1,
      message: '请先登录',
      refusedToken: 'old-token',
    });
    expect(state).toEqual({ step: 'signin', paytype: 'wxpay', attempt: 1, refusedToken: 'old-token' });
    // Signing in again places a new order, never taken for the refused one.
    expect(run(state, { type: 'signedIn' })).toEqual({ step: 'placing', paytype: 'wxpay', attempt: 2 });
  });

  it('shows a refused order with 重试, which places it again', () => {
    const refused = run(initialCashierState(true, 'wxpay'), {
      type: 'placeFailed',
      attempt: 1,
      message: '该支付方式暂不可用，请更换支付方式',
      refusedToken: null,
    });
    expect(refused).toMatchObject({ step: 'error', retry: 'place', message: '该支付方式暂不可用，请更换支付方式' });
    expect(run(refused, { type: 'place', paytype: 'alipay' })).toEqual({ step: 'placing', paytype: 'alipay', attempt: 2 });
  });
});

describe('cashier: switching the pay type', () => {
  it('places a new order and ignores the answer to the abandoned one', () => {
    const switching = run(waiting, { type: 'place', paytype: 'alipay' });
    expect(switching).toEqual({ step: 'placing', paytype: 'alipay', attempt: 2 });
    const late = run(switching, { type: 'placed', attempt: 1, order: ORDER });
    expect(late).toBe(switching);
    const alipayOrder = { ...ORDER, orderno: 'XC2025101012000087654321', paytype: 'alipay' as const };
    expect(run(switching, { type: 'placed', attempt: 2, order: alipayOrder })).toMatchObject({
      step: 'waiting',
      paytype: 'alipay',
      order: alipayOrder,
    });
  });

  it('offers the other pay type', () => {
    expect(otherPayType('wxpay')).toBe('alipay');
    expect(otherPayType('alipay')).toBe('wxpay');
  });
});

describe('cashier: polling the order', () => {
  it('shows success once the order is paid, and a paid order is never placed again', () => {
    const paid = run(waiting, { type: 'polled', details: details('paid'), nowSeconds: NOW + 60 });
    expect(paid).toMatchObject({ step: 'paid', details: { state: 'paid' } });
    expect(run(paid, { type: 'place', paytype: 'alipay' })).toBe(paid);
  });

  it('keeps waiting while unpaid and in time', () => {
    expect(run(waiting, { type: 'polled', details: details('unpaid'), nowSeconds: NOW + 10 })).toBe(waiting);
  });

  it('reads a closed order as 订单已关闭 in time and 支付超时 after its expiry', () => {
    expect(run(waiting, { type: 'polled', details: details('closed'), nowSeconds: NOW + 10 })).toMatchObject({
      step: 'failed',
      reason: 'closed',
    });
    expect(run(waiting, { type: 'polled', details: details('closed'), nowSeconds: ORDER.expiretime })).toMatchObject({
      step: 'failed',
      reason: 'expired',
    });
    expect(run(waiting, { type: 'polled', details: details('unpaid'), nowSeconds: ORDER.expiretime + 1 })).toMatchObject({
      step: 'failed',
      reason: 'expired',
    });
  });

  it('ignores answers about another order (the one before a switch)', () => {
    expect(run(waiting, { type: 'polled', details: details('paid', 'XC2025101012000099999999'), nowSeconds: NOW })).toBe(waiting);
  });

  it('rides out a few failed requests, then shows the error with 重试 that resumes polling', () => {
    const failure: CashierAction = { type: 'pollFailed', orderno: ORDER.orderno, message: '网络连接失败', isFinal: false };
    const shaky = run(waiting, ...Array.from({ length: POLL_FAILURE_LIMIT - 1 }, () => failure));
    expect(shaky).toMatchObject({ step: 'waiting', failures: POLL_FAILURE_LIMIT - 1 });
    expect(run(shaky, { type: 'polled', details: details('unpaid'), nowSeconds: NOW })).toMatchObject({ step: 'waiting', failures: 0 });
    const broken = run(shaky, failure);
    expect(broken).toMatchObject({ step: 'error', retry: 'poll', message: '网络连接失败', order: ORDER });
    expect(run(broken, { type: 'retryPoll' })).toMatchObject({ step: 'waiting', order: ORDER, failures: 0 });
  });

  it('shows a refusal about the order itself at once', () => {
    expect(run(waiting, { type: 'pollFailed', orderno: ORDER.orderno, message: '订单不存在', isFinal: true })).toMatchObject({
      step: 'error',
      message: '订单不存在',
    });
  });
});

describe('cashier helpers', () => {
  it('counts down to the expiry as mm:ss', () => {
    expect(secondsUntil(ORDER.expiretime, NOW)).toBe(1800);
    expect(secondsUntil(ORDER.expiretime, ORDER.expiretime + 5)).toBe(0);
    expect(formatCountdown(1800)).toBe('30:00');
    expect(formatCountdown(1799)).toBe('29:59');
    expect(formatCountdown(5)).toBe('00:05');
    expect(formatCountdown(-3)).toBe('00:00');
  });

  it('recognises the sandbox cashier URL and nothing else', () => {
    expect(isSandboxPayUrl(ORDER.payurl)).toBe(true);
    expect(isSandboxPayUrl('/pay/sandbox/XC2025101012000012345678')).toBe(true);
    expect(isSandboxPayUrl('weixin://wxpay/bizpayurl?pr=abc123')).toBe(false);
    expect(isSandboxPayUrl('https://qr.alipay.com/bax01234')).toBe(false);
    expect(isSandboxPayUrl('https://example.com/pay/sandbox/')).toBe(false);
  });

  it('pauses polling only after the tab has been hidden for a while', () => {
    expect(isPollingPaused(null, NOW)).toBe(false);
    expect(isPollingPaused(1000, 1000 + HIDDEN_POLL_PAUSE_MS - 1)).toBe(false);
    expect(isPollingPaused(1000, 1000 + HIDDEN_POLL_PAUSE_MS)).toBe(true);
  });
});

describe('poll refusals', () => {
  it('stops at once for an unknown order, not for a failed request', () => {
    expect(isFinalPollRefusal(17002)).toBe(true);
    expect(isFinalPollRefusal(10020)).toBe(true);
    expect(isFinalPollRefusal(-1)).toBe(false);
    expect(isFinalPollRefusal(10500)).toBe(false);
  });
});
