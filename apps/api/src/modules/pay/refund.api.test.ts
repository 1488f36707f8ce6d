import { PAY_MESSAGES, type TUserInfo } from '@xcad/protocol';
import { seedPayCatalogue } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp, type Caller } from '../auth/auth.testing';
import { addMonths } from './order-rules';
import type { PayDeps } from './pay.deps';
import { markInvoiceIssued } from './pay.repository';
import { PlayedProvider } from './pay.testing';
import { refundOrder } from './refund.service';

// Decision 0043 on the real app and database: refunds through the provider that took the payment,
// idempotent by refund number, never more than was paid, settled once by any number of notices;
// a full refund takes the membership back, a partial one keeps it; an invoice is flagged for 红冲.

let t: AuthTestApp;
const wechat = new PlayedProvider('wechatpay');
const alipay = new PlayedProvider('alipay');
let deps: PayDeps;

beforeAll(async () => {
  t = await createAuthTestApp({ payProviders: { providers: { wxpay: wechat, alipay }, sandbox: null } });
  await seedPayCatalogue(t.database.db);
  deps = { db: t.database.db, env: t.env, log: t.app.log, clock: t.clock.now, providers: { wxpay: wechat, alipay } };
});

afterAll(async () => {
  await t.close();
});

interface Member extends Caller {
  phone: string;
  user: TUserInfo;
}

const signed = (who: Member) => ({ account: who.phone, usertoken: who.user.usertoken });
const now = () => Math.floor(t.clock.now() / 1000);
let refundCounter = 0;
const refundNo = () => `RF${Date.now()}${(refundCounter += 1)}`;

/** A member who bought 12 months of the editor (6800 fen) with `provider`, paid. */
async function paidOrder(provider: PlayedProvider, packageid = 304): Promise<{ who: Member; orderno: string; amountFen: number }> {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  const who = { ...caller, user: userinfo };
  const paytype = provider === wechat ? 'wxpay' : 'alipay';
  const placed = await call(t, '/api/v4/memorder', { ...signed(who), productid: 211, packageid, paytype }, who);
  const orderno = placed.body['orderno'] as string;
  const amountFen = Math.round((placed.body['amount'] as number) * 100);
  const notice = provider.notice({ orderno, transactionId: `TX-${orderno}`, amountFen, paidAt: now() });
  await t.app.inject({ method: 'POST', url: `/api/pay/notify/${provider.name}`, headers: notice.headers, payload: notice.rawBody });
  return { who, orderno, amountFen };
}

async function expiryOf(who: Member): Promise<number | undefined> {
  const result = await call(t, '/api/v4/memrole', { ...signed(who), productid: 211 }, who);
  return (result.body['userinfo'] as { vip: Array<{ auth_value: number }> }).vip[0]?.auth_value;
}

async function listed(who: Member, orderno: string) {
  const list = await call(t, '/api/v4/payorderlist', { ...signed(who) }, who);
  return (list.body['orders'] as Array<{ orderno: string; state: string; refund: number; amount: number }>).find(
    (order) => order.orderno === orderno,
  );
}

describe('refunds', () => {
  it('settles a refund once for 100 duplicate notices, takes the 12 months back and shows 已退款 with the amount', async () => {
    const { who, orderno, amountFen } = await paidOrder(wechat);
    const granted = await expiryOf(who);
    const number = refundNo();
    const asked = await refundOrder(deps, { orderno, amountFen, reason: '用户申请退款', refundNo: number, operatorUserId: null });
    expect(asked).toMatchObject({ state: 'processing', refundedFen: amountFen, remainingFen: 0 });
    expect(wechat.refunds.at(-1)).toMatchObject({ orderno, refundNo: number, amountFen, totalFen: amountFen });
    // Until the notice, the membership stands.
    expect(await expiryOf(who)).toBe(granted);

    const notice = wechat.refundNotice({ orderno, refundNo: number, providerRefundId: `RF-${number}`, amountFen, state: 'succeeded' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.inject({ method: 'POST', url: '/api/pay/notify/wechatpay', headers: notice.headers, payload: notice.rawBody }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const outcomes = await t.database.db.selectFrom('pay_notice').select('outcome').where('orderno', '=', orderno).execute();
    expect(outcomes.filter((row) => row.outcome === 'refund-settled')).toHaveLength(1);
    expect(outcomes.filter((row) => row.outcome === 'refund-duplicate')).toHaveLength(99);

    // Taken back once: 12 months off, which is about when it was bought (never before the moment of the refund).
    const takenBack = await expiryOf(who);
    expect(takenBack).toBeGreaterThanOrEqual(addMonths(granted ?? 0, -12));
    expect(takenBack).toBeLessThanOrEqual(now());
    expect(takenBack).toBeLessThan(addMonths(granted ?? 0, -11));
    expect(await listed(who, orderno)).toMatchObject({ state: 'paid', refund: amountFen / 100, amount: amountFen / 100 });
    // Nothing left to invoice.
    const invoice = await call(
      t,
      '/api/v4/invoiceapply',
      { ...signed(who), orderno, titletype: 'personal', title: '张三', email: 'a@example.com' },
      who,
    );
    expect(invoice.body).toMatchObject({ code: 17010 });
  });

  it('refuses a refund larger than what is left, and another on an unpaid order', async () => {
    const { orderno, amountFen } = await paidOrder(alipay);
    alipay.refundAnswer = (request) => ({ state: 'succeeded', providerRefundId: `ALI-${request.refundNo}` });
    const part = await refundOrder(deps, { orderno, amountFen: 1000, reason: '差价退款', refundNo: refundNo(), operatorUserId: 7 });
    expect(part).toMatchObject({ state: 'succeeded', refundedFen: 1000, remainingFen: amountFen - 1000 });
    await expect(
      refundOrder(deps, { orderno, amountFen: amountFen - 999, reason: '用户申请退款', refundNo: refundNo(), operatorUserId: 7 }),
    ).rejects.toMatchObject({ code: 17021, userMessage: `${PAY_MESSAGES.refundTooLarge}（最多可退¥${(amountFen - 1000) / 100}）` });
    // Nothing was held by the refused one: the rest can still be refunded.
    const rest = await refundOrder(deps, {
      orderno,
      amountFen: amountFen - 1000,
      reason: '用户申请退款',
      refundNo: refundNo(),
      operatorUserId: 7,
    });
    expect(rest).toMatchObject({ state: 'succeeded', remainingFen: 0 });

    const caller = freshClient();
    const { userinfo } = await signInBySms(t, caller);
    const open = await call(
      t,
      '/api/v4/memorder',
      { account: caller.phone, usertoken: userinfo.usertoken, productid: 211, packageid: 532, paytype: 'alipay' },
      caller,
    );
    await expect(
      refundOrder(deps, {
        orderno: open.body['orderno'] as string,
        amountFen: 100,
        reason: '测试',
        refundNo: refundNo(),
        operatorUserId: 7,
      }),
    ).rejects.toMatchObject({ code: 17020 });
  });

  it('is idempotent by refund number, refuses a number reused for another refund, and checks its fields', async () => {
    const { orderno } = await paidOrder(alipay, 532);
    alipay.refundAnswer = (request) => ({ state: 'succeeded', providerRefundId: `ALI-${request.refundNo}` });
    const number = refundNo();
    const first = await refundOrder(deps, { orderno, amountFen: 500, reason: '补偿', refundNo: number, operatorUserId: 1 });
    const calls = alipay.refunds.length;
    const second = await refundOrder(deps, { orderno, amountFen: 500, reason: '补偿', refundNo: number, operatorUserId: 1 });
    expect(second).toEqual(first);
    expect(alipay.refunds.length).toBe(calls);
    await expect(refundOrder(deps, { orderno, amountFen: 600, reason: '补偿', refundNo: number, operatorUserId: 1 })).rejects.toMatchObject(
      { code: 17022 },
    );
    await expect(
      refundOrder(deps, { orderno, amountFen: 0, reason: '补偿', refundNo: refundNo(), operatorUserId: 1 }),
    ).rejects.toMatchObject({
      code: 10020,
      userMessage: PAY_MESSAGES.refundAmount,
    });
    await expect(refundOrder(deps, { orderno, amountFen: 1, reason: ' ', refundNo: refundNo(), operatorUserId: 1 })).rejects.toMatchObject({
      userMessage: PAY_MESSAGES.refundReason,
    });
    await expect(refundOrder(deps, { orderno, amountFen: 1, reason: '补偿', refundNo: '退款1', operatorUserId: 1 })).rejects.toMatchObject({
      userMessage: PAY_MESSAGES.refundNo,
    });
  });

  it('keeps the membership on a partial refund, gives back nothing on a refused one, and flags an issued invoice for 红冲', async () => {
    const { who, orderno, amountFen } = await paidOrder(wechat);
    const granted = await expiryOf(who);
    await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, titletype: 'personal', title: '张三', email: 'a@example.com' }, who);
    await markInvoiceIssued(t.database.db, orderno, now());

    wechat.refundAnswer = () => ({ state: 'failed', detail: 'HTTP 403 NOT_ENOUGH: 基本账户余额不足' });
    const refused = await refundOrder(deps, { orderno, amountFen, reason: '用户申请退款', refundNo: refundNo(), operatorUserId: 2 });
    expect(refused).toMatchObject({
      state: 'failed',
      refundedFen: 0,
      remainingFen: amountFen,
      detail: 'HTTP 403 NOT_ENOUGH: 基本账户余额不足',
    });

    wechat.refundAnswer = (request) => ({ state: 'succeeded', providerRefundId: `RF-${request.refundNo}` });
    await refundOrder(deps, { orderno, amountFen: 800, reason: '差价退款', refundNo: refundNo(), operatorUserId: 2 });
    expect(await expiryOf(who)).toBe(granted);
    expect(await listed(who, orderno)).toMatchObject({ refund: 8 });
    const invoice = await t.database.db
      .selectFrom('invoice')
      .innerJoin('pay_order', 'pay_order.id', 'invoice.order_id')
      .select(['invoice.state', 'invoice.reversal_due'])
      .where('pay_order.orderno', '=', orderno)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ state: 'issued', reversal_due: 1 });
  });
});
