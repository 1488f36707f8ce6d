import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteLoginSessionsExpiredBefore,
  findLoginSession,
  findLoginSessionByOauthState,
  insertLoginSession,
  moveLoginSession,
} from './oauth.repository';

const NOW = 1_800_000_000;

let database: TestDatabaseHandle;
let userId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const user = await database.db
    .insertInto('app_user')
    .values({ username: 'wx_repo', mobile: null, email: null, nickname: '仓库', password_hash: null, created_at: NOW, updated_at: NOW })
    .returning('id')
    .executeTakeFirstOrThrow();
  userId = Number(user.id);
});

afterAll(async () => {
  await database.destroy();
});

let sequence = 0;
async function session(overrides: { provider?: 'wechat' | 'qq'; expiresAt?: number } = {}): Promise<string> {
  sequence += 1;
  const logintag = `tag-${sequence}-${'0'.repeat(16)}`;
  await insertLoginSession(database.db, {
    logintag,
    provider: overrides.provider ?? 'wechat',
    oauthState: `state-${sequence}`,
    deviceId: 'device-1',
    createdAt: NOW,
    expiresAt: overrides.expiresAt ?? NOW + 300,
  });
  return logintag;
}

describe('login_session repository', () => {
  it('stores a pending session and finds it by logintag or by provider and oauth state', async () => {
    const logintag = await session({ provider: 'qq' });
    const stored = await findLoginSession(database.db, logintag);
    expect(stored).toEqual({
      logintag,
      provider: 'qq',
      state: 'pending',
      oauth_state: `state-${sequence}`,
      user_id: null,
      device_id: 'device-1',
      created_at: NOW,
      expires_at: NOW + 300,
    });
    expect((await findLoginSessionByOauthState(database.db, 'qq', `state-${sequence}`))?.logintag).toBe(logintag);
    expect(await findLoginSessionByOauthState(database.db, 'wechat', `state-${sequence}`)).toBeUndefined();
  });

  it('moves a session once: a second move from the same state finds nothing to move', async () => {
    const logintag = await session();
    expect(await moveLoginSession(database.db, { logintag, from: ['pending', 'scanned'], to: 'confirmed', userId, now: NOW })).toBe(true);
    expect(await moveLoginSession(database.db, { logintag, from: ['pending', 'scanned'], to: 'confirmed', userId, now: NOW })).toBe(false);
    expect(await moveLoginSession(database.db, { logintag, from: ['confirmed'], to: 'consumed', now: NOW })).toBe(true);
    expect(await moveLoginSession(database.db, { logintag, from: ['confirmed'], to: 'consumed', now: NOW })).toBe(false);
    expect(await findLoginSession(database.db, logintag)).toMatchObject({ state: 'consumed', user_id: userId });
  });

  it('moves only one of simultaneous claims', async () => {
    const logintag = await session();
    await moveLoginSession(database.db, { logintag, from: ['pending'], to: 'confirmed', userId, now: NOW });
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => moveLoginSession(database.db, { logintag, from: ['confirmed'], to: 'consumed', now: NOW })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('does not move an expired session', async () => {
    const logintag = await session({ expiresAt: NOW + 10 });
    expect(await moveLoginSession(database.db, { logintag, from: ['pending'], to: 'scanned', now: NOW + 10 })).toBe(false);
    expect((await findLoginSession(database.db, logintag))?.state).toBe('pending');
  });

  it('deletes only sessions that expired before the given time', async () => {
    const old = await session({ expiresAt: NOW - 1 });
    const current = await session({ expiresAt: NOW });
    expect(await deleteLoginSessionsExpiredBefore(database.db, NOW)).toBeGreaterThanOrEqual(1);
    expect(await findLoginSession(database.db, old)).toBeUndefined();
    expect(await findLoginSession(database.db, current)).toBeDefined();
  });
});
