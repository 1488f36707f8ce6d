import { AUTH_LIMITS, CONVERSION_LIMITS, CONVERSION_MESSAGES } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshClient } from '../modules/auth/auth.testing';
import { freshDevice, postEvents, trackerEvent } from '../modules/analytics/analytics.testing';
import { createSecondTestApp, createTestApp, type TestApp } from '../test-app';
import { removeLimitKeys, testLimitPrefix } from './limits.testing';

// Decision 0029: two API processes behind one load balancer share every limit, with
// the limit store in the database and in Redis: the analytics collector's budget (kept in each
// process's memory before), the conversion quota of an address, the SMS resend wait and the
// password lock-out. A client that alternates between the two gets what one process would give.

const redisPrefix = testLimitPrefix('shared');

const stores: Array<[string, NodeJS.ProcessEnv]> = [
  ['database', { RATE_LIMIT_STORE: 'database' }],
  ['redis', { RATE_LIMIT_STORE: 'redis', RATE_LIMIT_PREFIX: redisPrefix }],
];

afterAll(async () => {
  await removeLimitKeys(redisPrefix);
});

describe.each(stores)('two API processes on the %s limit store', (_kind, env) => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp({ ...env, ANALYTICS_RATE_PER_MINUTE: '60', ANALYTICS_DEVICE_RATE_PER_MINUTE: '50' });
    second = await createSecondTestApp(first);
  });

  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("share the analytics collector's events a minute of one address", async () => {
    const ip = freshClient().ip;
    const views = (count: number) => Array.from({ length: count }, () => trackerEvent(first, freshDevice(), { event: 'view' }));
    expect((await postEvents(first, views(30), { ip })).json()).toEqual({ accepted: 30, rejected: 0 });
    expect((await postEvents(second, views(30), { ip })).json()).toEqual({ accepted: 30, rejected: 0 });
    for (const app of [first, second]) {
      const refused = await postEvents(app, views(10), { ip });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 10429 });
    }
  });

  it("share an address's free conversions of the day, whatever device ids it sends", async () => {
    const ip = freshClient().ip;
    const start = (app: TestApp) =>
      call(
        app,
        '/api/v4/uploadpar',
        { tasktype: 'cad2pdf', outputfileextension: 'pdf', filename: 'a.dwg', filecount: 1 },
        { ...freshClient(), ip },
      );
    for (let index = 0; index < CONVERSION_LIMITS.freeTasksPerAddressPerDay; index += 1) {
      expect((await start(index % 2 === 0 ? first : second)).body, `task ${index}`).toMatchObject({ code: 10000 });
    }
    for (const app of [first, second]) expect((await start(app)).body).toEqual({ code: 15006, message: CONVERSION_MESSAGES.tooManyTasks });
  }, 30_000);

  it("share a phone's SMS resend wait", async () => {
    const client = freshClient();
    expect((await call(first, '/api/v4/smsverify', { account: client.phone, verifytype: 'quicklogin' }, client)).body).toEqual({
      code: 10000,
      message: '',
    });
    expect((await call(second, '/api/v4/safsmsverify', { account: client.phone, verifytype: 'quicklogin' }, client)).body).toMatchObject({
      code: 10061,
    });
  });

  it("share an account's wrong passwords: the lock holds on both", async () => {
    const client = freshClient();
    // A phone no user has: unknown accounts lock like real ones.
    const account = client.phone;
    for (let attempt = 0; attempt < AUTH_LIMITS.failuresBeforeLock; attempt += 1) {
      const answer = (await call(attempt % 2 === 0 ? first : second, '/api/v4/login', { account, password: 'wrong-password-1' }, client))
        .body;
      expect(answer['code'], `attempt ${attempt}`).toBe(attempt === AUTH_LIMITS.failuresBeforeLock - 1 ? 10062 : 12001);
    }
    for (const app of [first, second])
      expect((await call(app, '/api/v4/login', { account, password: 'wrong-password-1' }, client)).body).toMatchObject({ code: 10062 });
  });
});
