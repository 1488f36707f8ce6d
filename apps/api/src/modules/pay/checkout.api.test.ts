import { PAY_LIMITS, type TUserInfo } from '@xcad/protocol';
import { seedPayCatalogue } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp, type Caller } from '../auth/auth.testing';
import type { IncomingNotice } from './pay.provider';
import { PlayedProvider } from './pay.testing';

// Decision 0043 on the real app and database: one checkout has one open order whichever method the
// buyer switches to, an order that runs out is closed at every provider it was offered to, a
// payment arriving for a closed order is granted and flagged, a second payment flagged for refund.

let t: AuthTestApp;
const wechat = new PlayedProvider('wechatpay');
const alipay = new PlayedProvider('alipay');

beforeAll(async () => {
  t = await createAuthTestApp({ payProviders: { providers: { wxpay: wechat, alipay }, sandbox: null } });
  await seedPayCatalogue(t.database.db);
});

afterAll(async () => {
  await t.close();
});

interface Member extends Caller {
  phone: string;
  user: TUserInfo;
}

async function member(): Promise<Member> {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  return { ...caller, user: userinfo };
}

const signed = (who: Member) => ({ account: who.phone, usertoken: who.user.usertoken });
const now = () => Math.floor(t.clock.now() / 1000);

interface Placed {
  orderno: string;
  payurl: string;
  paytype: string;
  expiretime: number;
}

async function place(who: Member, paytype: 'wxpay' | 'alipay', productid = 211, packageid = 304): Promise<Placed> {
  const result = await call(t, '/api/v4/memorder', { ...signed(who), productid, packageid, paytype }, who);
  expect(result.body).toMatchObject({ code: 10000 });
  return result.body as unknown as Placed;
}

async function orders(who: Member) {
  const list = await call(t, '/api/v4/payorderlist', { ...signed(who) }, who);
  return list.body['orders'] as Array<{ orderno: string; state: string; paytype: string }>;
}

async function post(provider: PlayedProvider, notice: IncomingNotice) {
  return t.app.inject({ method: 'POST', url: `/api/pay/notify/${provider.name}`, headers: notice.headers, payload: notice.rawBody });
}

async function orderRow(orderno: string) {
  return t.database.db.selectFrom('pay_order').selectAll().where('orderno', '=', orderno).executeTakeFirstOrThrow();
}

async function noticeOutcomes(orderno: string) {
  const rows = await t.database.db.selectFrom('pay_notice').select('outcome').where('orderno', '=', orderno).orderBy('id').execute();
  return rows.map((row) => row.outcome);
}

describe('one order per checkout', () => {
  it('keeps one order number when the buyer switches 微信支付 -> 支付宝 -> 微信支付 -> 支付宝, and leaves one paid order', async () => {
    const who = await member();
    const first = await place(who, 'wxpay');
    const second = await place(who, 'alipay');
    const third = await place(who, 'wxpay');
    const fourth = await place(who, 'alipay');
    expect(new Set([first.orderno, second.orderno, third.orderno, fourth.orderno]).size).toBe(1);
    expect(first.payurl).toBe(`https://pay.test/wechatpay/${first.orderno}`);
    expect(second.payurl).toBe(`https://pay.test/alipay/${first.orderno}`);
    // Each method's prepay runs to the order's own expiry, not a new one.
    expect(new Set([first, second, third, fourth].map((placed) => placed.expiretime)).size).toBe(1);

    const answer = await post(alipay, alipay.notice({ orderno: first.orderno, transactionId: 'ALI-1', amountFen: 6800, paidAt: now() }));
    expect(answer.statusCode).toBe(200);
    const list = await orders(who);
    expect(list.map((entry) => [entry.orderno, entry.state, entry.paytype])).toEqual([[first.orderno, 'paid', 'alipay']]);
    // The WeChat prepay of the same number can no longer be paid.
    expect(wechat.closed).toContain(first.orderno);
  });

  it('gives the same order (and QR) to a cashier opened again, and to requests racing each other', async () => {
    const who = await member();
    const numbers = await Promise.all(Array.from({ length: 6 }, async () => (await place(who, 'wxpay', 204, 2041)).orderno));
    expect(new Set(numbers).size).toBe(1);
    const createdBefore = wechat.created.filter((request) => request.orderno === numbers[0]).length;
    const again = await place(who, 'wxpay', 204, 2041);
    expect(again.orderno).toBe(numbers[0]);
    expect(wechat.created.filter((request) => request.orderno === numbers[0]).length).toBe(createdBefore);
    expect(await orders(who)).toHaveLength(1);
  });

  it('keeps separate orders for different packages, and a new order once the old one is paid', async () => {
    const who = await member();
    const year = await place(who, 'wxpay', 211, 304);
    const month = await place(who, 'wxpay', 211, 532);
    expect(month.orderno).not.toBe(year.orderno);
    await post(wechat, wechat.notice({ orderno: year.orderno, transactionId: 'WX-YEAR', amountFen: 6800, paidAt: now() }));
    const renewal = await place(who, 'wxpay', 211, 304);
    expect(renewal.orderno).not.toBe(year.orderno);
  });

  it('places a new order when the open one has less than the reuse margin left, closing the old one everywhere', async () => {
    const who = await member();
    const old = await place(who, 'wxpay', 202, 2023);
    await place(who, 'alipay', 202, 2023);
    t.clock.advance((PAY_LIMITS.orderTtlSeconds - PAY_LIMITS.reuseMinSeconds + 1) * 1000);
    const fresh = await place(who, 'wxpay', 202, 2023);
    expect(fresh.orderno).not.toBe(old.orderno);
    expect(wechat.closed).toContain(old.orderno);
    expect(alipay.closed).toContain(old.orderno);
    const states = Object.fromEntries((await orders(who)).map((entry) => [entry.orderno, entry.state]));
    expect(states).toEqual({ [old.orderno]: 'closed', [fresh.orderno]: 'unpaid' });
  });
});

describe('expiry', () => {
  it(`closes an unpaid order ${PAY_LIMITS.orderTtlSeconds / 3600} hours on, here and at every provider it was offered to`, async () => {
    const who = await member();
    const placed = await place(who, 'alipay', 297, 2972);
    await place(who, 'wxpay', 297, 2972);
    t.clock.advance((PAY_LIMITS.orderTtlSeconds - 1) * 1000);
    expect((await orders(who))[0]?.state).toBe('unpaid');
    t.clock.advance(2000);
    // The sweep every API process runs, called here rather than waited for.
    const { closeExpiredOrders } = await import('./pay.service');
    await closeExpiredOrders({ db: t.database.db, env: t.env, log: t.app.log, clock: t.clock.now, providers: { wxpay: wechat, alipay } });
    expect(await orderRow(placed.orderno)).toMatchObject({ state: 'closed', open_key: null });
    expect(wechat.closed).toContain(placed.orderno);
    expect(alipay.closed).toContain(placed.orderno);
  });

  it('grants a payment that arrives for a closed order and flags it for the operator', async () => {
    const who = await member();
    const placed = await place(who, 'wxpay', 203, 2031);
    const cancelled = await call(t, '/api/v4/payorderlist', { ...signed(who) }, who);
    expect(cancelled.body).toMatchObject({ total: 1 });
    t.clock.advance((PAY_LIMITS.orderTtlSeconds + 1) * 1000);
    expect((await orders(who))[0]?.state).toBe('closed');
    const late = wechat.notice({
      orderno: placed.orderno,
      transactionId: 'WX-LATE',
      amountFen: (await orderRow(placed.orderno)).amount_fen,
      paidAt: now(),
    });
    expect((await post(wechat, late)).statusCode).toBe(200);
    expect(await orderRow(placed.orderno)).toMatchObject({ state: 'paid', flag: 'late-payment', transaction_id: 'WX-LATE' });
    const role = await call(t, '/api/v4/memrole', { ...signed(who), productid: 203 }, who);
    expect((role.body['userinfo'] as { vip: unknown[] }).vip).toHaveLength(1);
    expect(await noticeOutcomes(placed.orderno)).toEqual(['late-granted']);
  });

  it('flags a second payment of one order at the other provider for refund, granting nothing more', async () => {
    const who = await member();
    const placed = await place(who, 'wxpay', 214, 1402);
    await place(who, 'alipay', 214, 1402);
    const amountFen = (await orderRow(placed.orderno)).amount_fen;
    await post(wechat, wechat.notice({ orderno: placed.orderno, transactionId: 'WX-A', amountFen, paidAt: now() }));
    const role = async () =>
      (await call(t, '/api/v4/memrole', { ...signed(who), productid: 214 }, who)).body['userinfo'] as {
        vip: Array<{ auth_value: number }>;
      };
    const expiry = (await role()).vip[0]?.auth_value;
    await post(wechat, wechat.notice({ orderno: placed.orderno, transactionId: 'WX-A', amountFen, paidAt: now() }));
    await post(alipay, alipay.notice({ orderno: placed.orderno, transactionId: 'ALI-B', amountFen, paidAt: now() }));
    expect(await noticeOutcomes(placed.orderno)).toEqual(['granted', 'duplicate', 'double-paid']);
    expect(await orderRow(placed.orderno)).toMatchObject({ state: 'paid', transaction_id: 'WX-A', flag: 'double-payment' });
    expect((await role()).vip[0]?.auth_value).toBe(expiry);
  });
});
