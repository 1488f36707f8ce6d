import { MEMBERSHIP, PAY_LIMITS, PAY_MESSAGES, INVOICE_MESSAGES, type TUserInfo } from '@xcad/protocol';
import { seedPayCatalogue } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp, type Caller } from '../auth/auth.testing';
import { addMonths } from './order-rules';
import { markInvoiceIssued } from './pay.repository';
import type { PaidNotice, PaymentState } from './pay.provider';
import { SandboxPayProvider } from './sandbox.provider';

// Decision 0018 on the real app and database (SQLite and PostgreSQL): the catalogue, memrole, orders,
// the sandbox cashier's notices, the order query when a notice is lost, and invoices.

const INVALID_FIELD = 10020;
const NOT_SIGNED_IN = 10060;
const PACKAGE_UNKNOWN = 17001;
const ORDER_UNKNOWN = 17002;
const INVOICE_NOT_PAID = 17010;
const INVOICE_EXISTS = 17011;

/** The sandbox, plus a ledger the test fills to play a provider whose notice never arrived. */
class LedgerSandbox extends SandboxPayProvider {
  readonly ledger = new Map<string, PaidNotice>();
  override queryPayment(orderno: string): Promise<PaymentState> {
    const notice = this.ledger.get(orderno);
    return Promise.resolve(notice ? { state: 'paid', notice } : { state: 'unpaid' });
  }
}

let t: AuthTestApp;
const sandbox = new LedgerSandbox('http://shop.test');

beforeAll(async () => {
  t = await createAuthTestApp({ payProviders: { providers: { wxpay: sandbox, alipay: sandbox }, sandbox } });
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

async function order(who: Member, fields: Record<string, string | number>) {
  return call(t, '/api/v4/memorder', { ...signed(who), paytype: 'wxpay', ...fields }, who);
}

async function placed(who: Member, productid: number, packageid: number): Promise<{ orderno: string; amount: number; payurl: string }> {
  const result = await order(who, { productid, packageid });
  expect(result.body).toMatchObject({ code: 10000 });
  return result.body as unknown as { orderno: string; amount: number; payurl: string };
}

async function confirm(orderno: string) {
  return t.app.inject({ method: 'POST', url: '/api/dev/pay/confirm', payload: { orderno } });
}

async function expiryOf(who: Member, productid: number): Promise<number | undefined> {
  const result = await call(t, '/api/v4/memrole', { ...signed(who), productid }, who);
  expect(result.body).toMatchObject({ code: 10000 });
  const vip = (result.body['userinfo'] as { vip: Array<{ auth_value: number }> }).vip;
  return vip[0]?.auth_value;
}

/** The real clock ticks during a test: a grant made between `before` and `after` lands in between. */
function expectGrantedBetween(expiry: number | undefined, before: number, after: number, months: number): void {
  expect(expiry).toBeGreaterThanOrEqual(addMonths(before, months));
  expect(expiry).toBeLessThanOrEqual(addMonths(after, months));
}

/** payorderstatedetails as its buyer asks it (signed in), or as anyone else holding the number. */
async function stateOf(orderno: string, caller: Caller | Member) {
  const credentials = 'user' in caller ? signed(caller) : {};
  return (await call(t, '/api/v4/payorderstatedetails', { orderno, ...credentials }, caller)).body;
}

describe('the catalogue', () => {
  it('sells the six products, the editor at spec §9 prices and realIds, and the bundles', async () => {
    const result = await call(t, '/api/v4/paycatalogue', {}, freshClient());
    const products = result.body['products'] as Array<{
      productid: number;
      packages: Array<{ realId: number; price: number; priceOri: number; paypack: string }>;
    }>;
    expect(products.map((product) => product.productid)).toEqual([211, 214, 202, 297, 204, 203]);
    const editor = products[0]?.packages.map(({ realId, price, paypack }) => ({ realId, price, paypack }));
    expect(editor).toEqual([
      { realId: 305, price: 88, paypack: 'lifetime' },
      { realId: 304, price: 68, paypack: 'year' },
      { realId: 532, price: 48, paypack: 'month' },
    ]);
    for (const product of products) for (const pack of product.packages) expect(pack.priceOri).toBeGreaterThan(pack.price);
    expect((result.body['bundles'] as Array<{ realId: number; price: number }>).find((bundle) => bundle.realId === 9001)?.price).toBe(128);
  });
});

describe('memrole', () => {
  it('refuses a caller without a session', async () => {
    const result = await call(t, '/api/v4/memrole', { productid: 211, usertoken: 'nope' }, freshClient());
    expect(result.body).toMatchObject({ code: NOT_SIGNED_IN });
  });

  it('answers the server time and an empty vip list for a product never bought', async () => {
    const who = await member();
    const before = now();
    const result = await call(t, '/api/v4/memrole', { ...signed(who), productid: 211 }, who);
    expect(result.body).toMatchObject({ code: 10000, userinfo: { vip: [] } });
    expect((result.body['userinfo'] as { nowtime: number }).nowtime).toBeGreaterThanOrEqual(before);
    expect((result.body['userinfo'] as { nowtime: number }).nowtime).toBeLessThanOrEqual(now());
  });
});

describe('memorder', () => {
  it('refuses bad input field by field, with the messages the form shows', async () => {
    const who = await member();
    expect((await order(who, { productid: 211, packageid: 304, paytype: 'paypal' })).body).toMatchObject({
      code: INVALID_FIELD,
      field: 'paytype',
      message: PAY_MESSAGES.payType,
    });
    expect((await order(who, { productid: 211, packageid: 99999 })).body).toMatchObject({
      code: PACKAGE_UNKNOWN,
      message: PAY_MESSAGES.packageUnknown,
    });
    expect((await order(who, { productid: 202, packageid: 304 })).body).toMatchObject({
      code: PACKAGE_UNKNOWN,
      message: PAY_MESSAGES.productMismatch,
    });
    expect((await order(who, { productid: 211, packageid: 'abc' })).body).toMatchObject({ code: INVALID_FIELD, field: 'packageid' });
    expect((await call(t, '/api/v4/memorder', { productid: 211, packageid: 304, paytype: 'wxpay' }, who)).body).toMatchObject({
      code: NOT_SIGNED_IN,
    });
  });

  it('charges the database price whatever amount the client sends', async () => {
    const who = await member();
    const result = await order(who, { productid: 211, packageid: 304, amount: 0.01, price: 0.01, total_amount: '0.01' });
    expect(result.body).toMatchObject({ code: 10000, amount: 68, paytype: 'wxpay' });
    const { orderno, payurl, expiretime } = result.body as { orderno: string; payurl: string; expiretime: number };
    expect(orderno).toMatch(/^XC\d{22}$/);
    expect(payurl).toBe(`http://shop.test/pay/sandbox/${orderno}`);
    expect(expiretime - now()).toBeGreaterThan(PAY_LIMITS.orderTtlSeconds - 5);
    expect(expiretime - now()).toBeLessThanOrEqual(PAY_LIMITS.orderTtlSeconds);
    expect(await stateOf(orderno, who)).toMatchObject({ state: 'unpaid', amount: 68, subject: '迅捷CAD编辑器 12个月会员', paidtime: null });
  });

  it('gives every checkout its own number', async () => {
    const who = await member();
    const checkouts: Array<[number, number]> = [
      [211, 305],
      [211, 304],
      [211, 532],
      [214, 1401],
      [202, 2021],
      [204, 2042],
      [297, 2973],
      [203, 2033],
    ];
    const numbers = await Promise.all(checkouts.map(async ([productid, packageid]) => (await placed(who, productid, packageid)).orderno));
    expect(new Set(numbers).size).toBe(8);
  });
});

describe('paying', () => {
  it('grants 12 months on the sandbox cashier and extends from the current expiry on renewal', async () => {
    const who = await member();
    const first = await placed(who, 211, 304);
    const start = now();
    expect((await confirm(first.orderno)).json()).toMatchObject({ code: 10000, state: 'paid' });
    const afterFirst = await expiryOf(who, 211);
    expectGrantedBetween(afterFirst, start, now(), 12);

    const second = await placed(who, 211, 304);
    await confirm(second.orderno);
    expect(await expiryOf(who, 211)).toBe(addMonths(afterFirst ?? 0, 12));
    // Other products are untouched.
    expect(await expiryOf(who, 202)).toBeUndefined();
  });

  it('makes lifetime lifelong (spec §4)', async () => {
    const who = await member();
    const { orderno } = await placed(who, 211, 305);
    await confirm(orderno);
    expect((await expiryOf(who, 211)) ?? 0).toBeGreaterThan(now() + MEMBERSHIP.lifelongThresholdSeconds);
  });

  it('restarts from today when the membership had lapsed', async () => {
    const who = await member();
    await t.database.db
      .insertInto('membership')
      .values({ user_id: Number(who.user.uid), product_id: 204, auth_value: now() - 86_400, updated_at: now() })
      .execute();
    const { orderno } = await placed(who, 204, 2043);
    const before = now();
    await confirm(orderno);
    expectGrantedBetween(await expiryOf(who, 204), before, now(), 1);
  });

  it('grants once for a notice that arrives twice', async () => {
    const who = await member();
    const { orderno } = await placed(who, 203, 2032);
    await confirm(orderno);
    const once = await expiryOf(who, 203);
    const again = await confirm(orderno);
    expect(again.json()).toMatchObject({ code: 10000, state: 'paid' });
    expect(await expiryOf(who, 203)).toBe(once);
  });

  it('grants exactly once for 100 concurrent copies of one notice', async () => {
    const who = await member();
    const { orderno } = await placed(who, 297, 2972);
    const notice = sandbox.signNotice({ orderno, transactionId: 'TX-CONCURRENT', amountFen: 9800, paidAt: now() });
    const start = now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/pay/notify/sandbox',
          headers: notice.headers as Record<string, string>,
          payload: notice.rawBody,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 100 }, () => 200));
    expectGrantedBetween(await expiryOf(who, 297), start, now(), 12);
    const outcomes = await t.database.db.selectFrom('pay_notice').select('outcome').where('orderno', '=', orderno).execute();
    expect(outcomes.filter((row) => row.outcome === 'granted')).toHaveLength(1);
    expect(outcomes.filter((row) => row.outcome === 'duplicate')).toHaveLength(99);
  });

  it('refuses a forged notice and one with the wrong amount, changing nothing', async () => {
    const who = await member();
    const { orderno } = await placed(who, 211, 304);
    const genuine = sandbox.signNotice({ orderno, transactionId: 'TX-FORGED', amountFen: 6800, paidAt: now() });
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/sandbox',
      headers: genuine.headers as Record<string, string>,
      payload: genuine.rawBody.replace('6800', '1'),
    });
    expect(forged.statusCode).toBe(400);
    const cheap = sandbox.signNotice({ orderno, transactionId: 'TX-CHEAP', amountFen: 1, paidAt: now() });
    await t.app.inject({
      method: 'POST',
      url: '/api/pay/notify/sandbox',
      headers: cheap.headers as Record<string, string>,
      payload: cheap.rawBody,
    });
    expect(await stateOf(orderno, who)).toMatchObject({ state: 'unpaid' });
    expect(await expiryOf(who, 211)).toBeUndefined();
  });

  it('grants through the order query when the notice never comes', async () => {
    const who = await member();
    const { orderno } = await placed(who, 204, 2042);
    sandbox.ledger.set(orderno, { orderno, transactionId: 'TX-QUERY', amountFen: 5800, paidAt: now() });
    const before = now();
    expect(await stateOf(orderno, who)).toMatchObject({ state: 'paid', transactionid: 'TX-QUERY' });
    expectGrantedBetween(await expiryOf(who, 204), before, now(), 12);
  });

  it('closes an order past its time, yet a late payment still grants', async () => {
    const who = await member();
    const { orderno } = await placed(who, 202, 2023);
    t.clock.advance((PAY_LIMITS.orderTtlSeconds + 1) * 1000);
    expect(await stateOf(orderno, who)).toMatchObject({ state: 'closed' });
    const before = now();
    await confirm(orderno);
    expect(await stateOf(orderno, who)).toMatchObject({ state: 'paid' });
    expectGrantedBetween(await expiryOf(who, 202), before, now(), 1);
  });

  it('closes an order the cashier cancels', async () => {
    const who = await member();
    const { orderno } = await placed(who, 211, 532);
    const cancelled = await t.app.inject({ method: 'POST', url: '/api/dev/pay/cancel', payload: { orderno } });
    expect(cancelled.json()).toMatchObject({ code: 10000, state: 'closed' });
  });

  it('tells anyone but the buyer only the state: no amount, items, subject or transaction id', async () => {
    const buyer = await member();
    const { orderno } = await placed(buyer, 211, 304);
    await confirm(orderno);
    const details = await stateOf(orderno, buyer);
    expect(details).toMatchObject({
      code: 10000,
      state: 'paid',
      amount: 68,
      transactionid: `SANDBOX${orderno.slice(2)}`,
      items: [{ realId: 304 }],
    });
    // The buyer's browser asks with its session cookie alone just the same.
    const byCookie = await call(t, '/api/v4/payorderstatedetails', { orderno }, buyer, { cookie: `xcad_session=${buyer.user.usertoken}` });
    expect(byCookie.body).toEqual(details);

    const visitor = freshClient();
    const withBuyersDevice = { ...freshClient(), deviceid: buyer.deviceid };
    const otherMember = await member();
    for (const stranger of [visitor, withBuyersDevice, otherMember]) {
      expect(await stateOf(orderno, stranger)).toEqual({ code: 10000, message: '', orderno, state: 'paid' });
    }
    // A dead session is a stranger too.
    expect((await call(t, '/api/v4/payorderstatedetails', { orderno, usertoken: 'not-a-session' }, visitor)).body).toEqual({
      code: 10000,
      message: '',
      orderno,
      state: 'paid',
    });
  });

  it('shows the sandbox cashier (a phone that scanned the QR) what a payment app shows the payer', async () => {
    const buyer = await member();
    const { orderno } = await placed(buyer, 211, 304);
    const shown = await t.app.inject({ method: 'POST', url: '/api/dev/pay/order', payload: { orderno } });
    expect(shown.json()).toEqual({
      code: 10000,
      message: '',
      orderno,
      state: 'unpaid',
      amount: 68,
      paytype: 'wxpay',
      subject: '迅捷CAD编辑器 12个月会员',
    });
    expect((await confirm(orderno)).json()).toEqual({
      code: 10000,
      message: '',
      orderno,
      state: 'paid',
      amount: 68,
      paytype: 'wxpay',
      subject: '迅捷CAD编辑器 12个月会员',
    });
  });

  it('answers unknown and malformed order numbers clearly', async () => {
    expect(await stateOf('XC2026112200000000000000', freshClient())).toMatchObject({
      code: ORDER_UNKNOWN,
      message: PAY_MESSAGES.orderUnknown,
    });
    expect(await stateOf('1; drop table pay_order', freshClient())).toMatchObject({ code: INVALID_FIELD, field: 'orderno' });
  });
});

describe('paymerge', () => {
  it('charges a bundle its own price and grants every product in it', async () => {
    const who = await member();
    const result = await call(t, '/api/v4/paymerge', { ...signed(who), packageids: '2022,305', paytype: 'alipay' }, who);
    expect(result.body).toMatchObject({ code: 10000, amount: 128, paytype: 'alipay' });
    const orderno = String(result.body['orderno']);
    expect(await stateOf(orderno, who)).toMatchObject({ subject: '编辑器终身 + 转换器12个月' });
    const before = now();
    await confirm(orderno);
    expect((await expiryOf(who, 211)) ?? 0).toBeGreaterThan(now() + MEMBERSHIP.lifelongThresholdSeconds);
    expectGrantedBetween(await expiryOf(who, 202), before, now(), 12);
  });

  it('adds up packages that make no bundle, and refuses two of one product or none', async () => {
    const who = await member();
    const sum = await call(t, '/api/v4/paymerge', { ...signed(who), packageids: '532,2043', paytype: 'wxpay' }, who);
    expect(sum.body).toMatchObject({ code: 10000, amount: 76 });
    const twice = await call(t, '/api/v4/paymerge', { ...signed(who), packageids: '304,305', paytype: 'wxpay' }, who);
    expect(twice.body).toMatchObject({ code: INVALID_FIELD, message: PAY_MESSAGES.mergeDuplicate });
    const none = await call(t, '/api/v4/paymerge', { ...signed(who), packageids: '', paytype: 'wxpay' }, who);
    expect(none.body).toMatchObject({ code: INVALID_FIELD, field: 'packageids', message: PAY_MESSAGES.mergeEmpty });
    const unknown = await call(t, '/api/v4/paymerge', { ...signed(who), packageids: '305,77777', paytype: 'wxpay' }, who);
    expect(unknown.body).toMatchObject({ code: PACKAGE_UNKNOWN });
  });
});

describe('purchase records', () => {
  it("lists the user's own orders, newest first, with their state", async () => {
    const who = await member();
    const paid = await placed(who, 211, 304);
    await confirm(paid.orderno);
    t.clock.advance(1000);
    const open = await placed(who, 204, 2041);
    const list = await call(t, '/api/v4/payorderlist', { ...signed(who) }, who);
    expect(list.body).toMatchObject({ code: 10000, total: 2 });
    const orders = list.body['orders'] as Array<{ orderno: string; state: string; paidtime: number | null }>;
    expect(orders.map((entry) => [entry.orderno, entry.state])).toEqual([
      [open.orderno, 'unpaid'],
      [paid.orderno, 'paid'],
    ]);
    const onlyPaid = await call(t, '/api/v4/payorderlist', { ...signed(who), state: 'paid' }, who);
    expect(onlyPaid.body).toMatchObject({ total: 1 });

    const stranger = await member();
    expect((await call(t, '/api/v4/payorderlist', { ...signed(stranger) }, stranger)).body).toMatchObject({ total: 0, orders: [] });
  });
});

describe('invoices', () => {
  const company = { titletype: 'company', title: '上海某某建筑设计有限公司', taxno: '91310000MA1FL0XX1X', email: 'finance@example.com' };

  it('are issued for paid orders only, once each, and only to their owner', async () => {
    const who = await member();
    const { orderno } = await placed(who, 211, 304);
    const early = await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, ...company }, who);
    expect(early.body).toMatchObject({ code: INVOICE_NOT_PAID, message: INVOICE_MESSAGES.orderNotPaid });

    await confirm(orderno);
    const stranger = await member();
    const theirs = await call(t, '/api/v4/invoiceapply', { ...signed(stranger), orderno, ...company }, stranger);
    expect(theirs.body).toMatchObject({ code: ORDER_UNKNOWN });

    const applied = await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, ...company, bankaccount: '6222 0000' }, who);
    expect(applied.body).toMatchObject({ code: INVALID_FIELD, field: 'bankaccount', message: INVOICE_MESSAGES.bankAccountInvalid });
    const ok = await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, ...company, taxno: '91310000ma1fl0xx1x' }, who);
    expect(ok.body).toMatchObject({
      code: 10000,
      invoice: { orderno, state: 'submitted', taxno: '91310000MA1FL0XX1X', amount: 68, address: null },
    });
    const twice = await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, ...company }, who);
    expect(twice.body).toMatchObject({ code: INVOICE_EXISTS, message: INVOICE_MESSAGES.alreadyApplied });

    const list = await call(t, '/api/v4/invoicelist', { ...signed(who) }, who);
    expect(list.body['invoices']).toMatchObject([{ orderno, state: 'submitted', issuedtime: null }]);
    // The operator's step (npm run invoice:issue): submitted -> issued, once.
    expect(await markInvoiceIssued(t.database.db, orderno, now())).toBe(true);
    expect(await markInvoiceIssued(t.database.db, orderno, now())).toBe(false);
    const issued = await call(t, '/api/v4/invoicelist', { ...signed(who) }, who);
    expect(issued.body['invoices']).toMatchObject([{ orderno, state: 'issued' }]);
    const orders = await call(t, '/api/v4/payorderlist', { ...signed(who) }, who);
    expect((orders.body['orders'] as Array<{ invoice: string }>)[0]?.invoice).toBe('issued');
  });

  it('check the form field by field with the messages the page shows', async () => {
    const who = await member();
    const { orderno } = await placed(who, 211, 532);
    await confirm(orderno);
    const refusal = async (fields: Record<string, string>) =>
      (await call(t, '/api/v4/invoiceapply', { ...signed(who), orderno, ...company, ...fields }, who)).body;
    expect(await refusal({ taxno: '' })).toMatchObject({ code: INVALID_FIELD, field: 'taxno', message: INVOICE_MESSAGES.taxNoEmpty });
    expect(await refusal({ taxno: '1234567890' })).toMatchObject({ field: 'taxno', message: INVOICE_MESSAGES.taxNoInvalid });
    expect(await refusal({ email: 'not-mail' })).toMatchObject({ field: 'email', message: INVOICE_MESSAGES.emailInvalid });
    expect(await refusal({ title: '  ' })).toMatchObject({ field: 'title', message: INVOICE_MESSAGES.titleEmpty });
    expect(await refusal({ titletype: 'government' })).toMatchObject({ field: 'titletype', message: INVOICE_MESSAGES.titleType });
    expect(await refusal({ phone: 'call me' })).toMatchObject({ field: 'phone', message: INVOICE_MESSAGES.phoneInvalid });
    // A person needs no tax id.
    const person = await refusal({ titletype: 'personal', title: '张三', taxno: '' });
    expect(person).toMatchObject({ code: 10000, invoice: { titletype: 'personal', taxno: '' } });
  });
});
