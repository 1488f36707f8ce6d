import { seedPayCatalogue } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp } from '../auth/auth.testing';
import { beijingDateTime } from './pay-adapter';
import { PlayedProvider } from './pay.testing';
import { reconcileDay } from './reconcile.service';

// Decision 0043 on the real database: a day's statement against the orders paid that day, both ways.

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

async function paid(provider: PlayedProvider, packageid: number): Promise<string> {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  const paytype = provider === wechat ? 'wxpay' : 'alipay';
  const placed = await call(
    t,
    '/api/v4/memorder',
    { account: caller.phone, usertoken: userinfo.usertoken, productid: 211, packageid, paytype },
    caller,
  );
  const orderno = placed.body['orderno'] as string;
  const amountFen = Math.round((placed.body['amount'] as number) * 100);
  const notice = provider.notice({ orderno, transactionId: `TX-${orderno}`, amountFen, paidAt: Math.floor(t.clock.now() / 1000) });
  await t.app.inject({ method: 'POST', url: `/api/pay/notify/${provider.name}`, headers: notice.headers, payload: notice.rawBody });
  return orderno;
}

describe('reconciliation of a day', () => {
  it('reports exactly the paid order missing from the statement and the one whose amount differs', async () => {
    const matching = await paid(wechat, 304);
    const mismatched = await paid(wechat, 532);
    const missing = await paid(wechat, 305);
    await paid(alipay, 304);
    wechat.statement = [
      { orderno: matching, transactionId: `TX-${matching}`, kind: 'payment', amountFen: 6800, refundNo: null },
      { orderno: mismatched, transactionId: `TX-${mismatched}`, kind: 'payment', amountFen: 4700, refundNo: null },
    ];
    alipay.statement = 'bill not yet made';
    const today = beijingDateTime(Math.floor(t.clock.now() / 1000)).slice(0, 10);
    const deps = { db: t.database.db, env: t.env, log: t.app.log, clock: t.clock.now, providers: { wxpay: wechat, alipay } };
    const reports = await reconcileDay(deps, today);
    expect(reports).toEqual([
      {
        provider: 'wechatpay',
        billDate: today,
        rows: 2,
        discrepancies: [
          { orderno: mismatched, kind: 'amount', what: 'payment', ourFen: 4800, providerFen: 4700 },
          { orderno: missing, kind: 'missing-at-provider', ourFen: 8800 },
        ].sort((a, b) => a.orderno.localeCompare(b.orderno)),
      },
      { provider: 'alipay', billDate: today, error: 'bill not yet made' },
    ]);
  });
});
