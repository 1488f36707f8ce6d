import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { DatabaseLimitStore } from '../../limits';
import { ConsoleSmsProvider } from '../sms/console.provider';
import { createAccounts } from './accounts.service';
import type { Accounts, IdentityProfile } from './auth.contract';

// The Accounts the oauth module signs WeChat and QQ users in through, on a real database.

let handle: TestDatabaseHandle;
let accounts: Accounts;
const now = 1_800_000_000_000;
const context = { deviceId: 'device-1', ip: '10.0.0.1' };

beforeAll(async () => {
  handle = await createTestDatabase();
  const log = pino({ level: 'silent' });
  accounts = createAccounts({
    db: handle.db,
    env: loadEnv({ NODE_ENV: 'test' }),
    sms: new ConsoleSmsProvider({ logger: log }),
    log,
    clock: () => now,
    limits: new DatabaseLimitStore(handle.db),
  });
});

afterAll(async () => {
  await handle.destroy();
});

function wechat(openid: string, extra: Partial<IdentityProfile> = {}): IdentityProfile {
  return { provider: 'wechat', openid, nickname: '微信用户', avatarUrl: 'https://thirdwx.qlogo.cn/a.png', ...extra };
}

describe('Accounts.userOfIdentity', () => {
  it('creates a wx_ user with the profile nickname and avatar on first sight, then finds it', async () => {
    const userId = await accounts.userOfIdentity(wechat('o-first'));
    expect(await accounts.userOfIdentity(wechat('o-first', { nickname: 'renamed' }))).toBe(userId);
    const user = await handle.db.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      nickname: '微信用户',
      head_portrait: 'https://thirdwx.qlogo.cn/a.png',
      mobile: null,
      password_hash: null,
      created_at: now / 1000,
    });
    expect(user.username).toMatch(/^wx_[0-9a-f]{8}$/);
  });

  it('creates qq_ users for QQ, apart from WeChat users with the same openid', async () => {
    const qqUser = await accounts.userOfIdentity({ provider: 'qq', openid: 'same-openid', nickname: '', avatarUrl: '' });
    const wechatUser = await accounts.userOfIdentity(wechat('same-openid'));
    expect(qqUser).not.toBe(wechatUser);
    const user = await handle.db.selectFrom('app_user').select(['username', 'nickname']).where('id', '=', qqUser).executeTakeFirstOrThrow();
    expect(user.username).toMatch(/^qq_[0-9a-f]{8}$/);
    // No nickname from the provider: the username stands in.
    expect(user.nickname).toBe(user.username);
  });

  it('finds the user of another openid with the same unionid, and links the new openid', async () => {
    const first = await accounts.userOfIdentity(wechat('o-app-1', { unionid: 'u-1' }));
    expect(await accounts.userOfIdentity(wechat('o-app-2', { unionid: 'u-1' }))).toBe(first);
    const identities = await handle.db
      .selectFrom('user_identity')
      .select('openid')
      .where('user_id', '=', first)
      .orderBy('openid')
      .execute();
    expect(identities.map((row) => row.openid)).toEqual(['o-app-1', 'o-app-2']);
    expect(await accounts.userOfIdentity(wechat('o-app-3', { unionid: 'u-2' }))).not.toBe(first);
  });

  it('creates one user when the same first sign-in arrives in parallel', async () => {
    const ids = await Promise.all(Array.from({ length: 8 }, () => accounts.userOfIdentity(wechat('o-raced'))));
    expect(new Set(ids).size).toBe(1);
    const users = await handle.db.selectFrom('user_identity').select('user_id').where('openid', '=', 'o-raced').execute();
    expect(users).toHaveLength(1);
  });
});

describe('Accounts.isDisabled and signIn', () => {
  it('signs a WeChat user in: logintype 1, no password, a session usable with memberships', async () => {
    const userId = await accounts.userOfIdentity(wechat('o-sign-in'));
    await handle.db
      .insertInto('membership')
      .values({ user_id: userId, product_id: 203, auth_value: 1_900_000_000, updated_at: 0 })
      .execute();
    const userinfo = await accounts.signIn(userId, context, true);
    expect(userinfo).toMatchObject({
      uid: String(userId),
      nickname: '微信用户',
      bindmobile: '',
      logintype: '1',
      ispwd: 0,
      vip: [{ productid: 203, auth_value: 1_900_000_000 }],
      nowtime: now / 1000,
    });
    const session = await handle.db.selectFrom('user_session').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ device_id: 'device-1', ip: '10.0.0.1', expires_at: now / 1000 + 30 * 86_400, revoked_at: null });
    expect(await accounts.isDisabled(userId)).toBe(false);
    await handle.db.updateTable('app_user').set({ status: 'disabled' }).where('id', '=', userId).execute();
    expect(await accounts.isDisabled(userId)).toBe(true);
  });
});
