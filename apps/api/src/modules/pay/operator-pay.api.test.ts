import { seedPayCatalogue } from '@xcad/db';
import { ZOperatorUserPay } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, signInBySms, type AuthTestApp } from '../auth/auth.testing';
import { auditRows, operatorGet, operatorPost, signInOperator, type SignedInOperator } from '../auth/operator.testing';

// Decision 0042: the back office's membership calls of the pay module on the real app and database
// (SQLite and PostgreSQL): through the one grant path, audited with the expiry before and after,
// and seen by the user's own memprofile; who may call them.

const DAY = 86_400;
const PRODUCT = 211;

let t: AuthTestApp;
let admin: SignedInOperator;
let support: SignedInOperator;
let finance: SignedInOperator;
let editor: SignedInOperator;

beforeAll(async () => {
  t = await createAuthTestApp();
  await seedPayCatalogue(t.database.db);
  admin = await signInOperator(t, ['admin']);
  support = await signInOperator(t, ['support']);
  finance = await signInOperator(t, ['finance']);
  editor = await signInOperator(t, ['editor']);
});

afterAll(async () => {
  await t.close();
});

const now = () => Math.floor(t.clock.now() / 1000);

async function siteUser() {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  return { caller, uid: Number(userinfo.uid), usertoken: userinfo.usertoken };
}

async function expiryOf(uid: number): Promise<number> {
  const row = await t.database.db
    .selectFrom('membership')
    .select('auth_value')
    .where('user_id', '=', uid)
    .where('product_id', '=', PRODUCT)
    .executeTakeFirst();
  return Number(row?.auth_value ?? 0);
}

describe('POST /api/operator/users/:id/memberships', () => {
  it('grants, then extends from the current expiry, then revokes; the user sees it; each step audited', async () => {
    const user = await siteUser();
    const start = now();
    const granted = await operatorPost(t, support, `/api/operator/users/${user.uid}/memberships`, {
      payload: { productId: PRODUCT, action: 'extend', days: 30, reason: '补偿服务中断' },
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ action: 'membership.grant', before: 0 });
    const firstExpiry = await expiryOf(user.uid);
    expect(firstExpiry - start).toBeGreaterThanOrEqual(30 * DAY);
    expect(firstExpiry - start).toBeLessThan(30 * DAY + 5);

    const extended = await operatorPost(t, admin, `/api/operator/users/${user.uid}/memberships`, {
      payload: { productId: PRODUCT, action: 'extend', days: 7, reason: '活动赠送' },
    });
    expect(extended.json()).toMatchObject({ action: 'membership.extend', before: firstExpiry, after: firstExpiry + 7 * DAY });

    // The user's own answer (spec memprofile) carries the membership.
    const profile = await call(t, '/api/v4/memprofile', { usertoken: user.usertoken, showvip: 1 }, user.caller);
    expect(JSON.stringify(profile.body)).toContain(String(firstExpiry + 7 * DAY));

    const overview = ZOperatorUserPay.parse((await operatorGet(t, finance, `/api/operator/users/${user.uid}/pay`)).json());
    expect(overview.memberships.find((row) => row.productId === PRODUCT)).toMatchObject({ expiry: firstExpiry + 7 * DAY, active: true });
    expect(overview.history.map((entry) => entry.reason)).toEqual(['活动赠送', '补偿服务中断']);

    const revoked = await operatorPost(t, admin, `/api/operator/users/${user.uid}/memberships`, {
      payload: { productId: PRODUCT, action: 'revoke', reason: '误开通' },
    });
    expect(revoked.json()).toMatchObject({ action: 'membership.revoke', before: firstExpiry + 7 * DAY });
    expect(await expiryOf(user.uid)).toBeLessThanOrEqual(now());

    const entries = (await auditRows(t)).filter((row) => row.target_id === String(user.uid));
    expect(
      entries.map((row) => [
        row.action,
        Number(row.operator_id),
        row.reason,
        JSON.parse(row.before ?? '{}').expiry,
        JSON.parse(row.after ?? '{}').expiry,
      ]),
    ).toEqual([
      ['membership.grant', support.userId, '补偿服务中断', 0, firstExpiry],
      ['membership.extend', admin.userId, '活动赠送', firstExpiry, firstExpiry + 7 * DAY],
      ['membership.revoke', admin.userId, '误开通', firstExpiry + 7 * DAY, await expiryOf(user.uid)],
    ]);
  });

  it('checks every field on the server and writes nothing when refused', async () => {
    const user = await siteUser();
    const url = `/api/operator/users/${user.uid}/memberships`;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ productId: PRODUCT, action: 'extend', reason: '无天数' }, 400, '请填写天数'],
      [{ productId: PRODUCT, action: 'extend', days: 0, reason: 'x' }, 400, '天数至少为 1'],
      [{ productId: PRODUCT, action: 'extend', days: 99999, reason: 'x' }, 400, '天数最多 3660'],
      [{ productId: PRODUCT, action: 'extend', days: 3 }, 400, '请填写操作原因'],
      [{ productId: 999, action: 'extend', days: 3, reason: 'x' }, 404, '记录不存在'],
    ];
    for (const [payload, status, message] of cases) {
      const response = await operatorPost(t, admin, url, { payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json()).toMatchObject({ message });
    }
    expect(
      (
        await operatorPost(t, admin, '/api/operator/users/99999999/memberships', {
          payload: { productId: PRODUCT, action: 'extend', days: 3, reason: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    expect(await expiryOf(user.uid)).toBe(0);
    expect((await auditRows(t)).filter((row) => row.target_id === String(user.uid))).toEqual([]);
  });

  it('is refused to 财务 and 内容编辑 (403); the overview to 内容编辑', async () => {
    const user = await siteUser();
    for (const operator of [finance, editor]) {
      const response = await operatorPost(t, operator, `/api/operator/users/${user.uid}/memberships`, {
        payload: { productId: PRODUCT, action: 'extend', days: 3, reason: 'x' },
      });
      expect(response.statusCode).toBe(403);
    }
    expect((await operatorGet(t, editor, `/api/operator/users/${user.uid}/pay`)).statusCode).toBe(403);
    expect((await operatorGet(t, support, `/api/operator/users/${user.uid}/pay`)).statusCode).toBe(200);
    expect(await expiryOf(user.uid)).toBe(0);
  });
});
