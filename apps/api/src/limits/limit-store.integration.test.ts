import { createDatabase, type DatabaseHandle } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_REDIS_URL } from '../test-app';
import { DatabaseLimitStore } from './database-limit-store';
import { limitKey, UNLIMITED, type Charge, type LimitStore } from './limit-store';
import { removeLimitKeys, testLimitPrefix } from './limits.testing';
import { RedisLimitStore } from './redis-limit-store';

// Decision 0029: both limit stores against the real thing (the database of the engine
// under test, this machine's Redis), each as two instances over one store, as two API processes
// see it.

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;

let database: TestDatabaseHandle;
/**
 * A second connection pool on PostgreSQL. SQLite's instances share the one connection: two
 * better-sqlite3 connections in one process would block each other with the event loop stopped
 * (SQLite is the one-machine default; several API processes run on PostgreSQL, decision 0002).
 */
let secondDatabase: DatabaseHandle | undefined;
const prefix = testLimitPrefix('store');
const redisStores: RedisLimitStore[] = [];

function redisStore(): RedisLimitStore {
  const store = new RedisLimitStore({ url: TEST_REDIS_URL, prefix, onError: () => undefined });
  redisStores.push(store);
  return store;
}

beforeAll(async () => {
  database = await createTestDatabase();
  if (database.engine === 'postgres') secondDatabase = createDatabase({ databaseUrl: database.location, poolMax: 5 });
});

afterAll(async () => {
  await Promise.all(redisStores.map((store) => store.close()));
  await removeLimitKeys(prefix);
  await secondDatabase?.destroy();
  await database.destroy();
});

let sequence = 0;
/** A counter key no other test uses. */
function freshKey(name: string): string {
  sequence += 1;
  return limitKey('test', name, sequence);
}

const kinds: Array<[string, () => [LimitStore, LimitStore]]> = [
  ['database', () => [new DatabaseLimitStore(database.db), new DatabaseLimitStore((secondDatabase ?? database).db)]],
  ['redis', () => [redisStore(), redisStore()]],
];

describe.each(kinds)('the %s limit store', (_kind, open) => {
  let store: LimitStore;
  let other: LimitStore;

  beforeAll(() => {
    [store, other] = open();
  });

  it('takes units up to the limit, then refuses until the window that opened with the first unit ends', async () => {
    const key = freshKey('window');
    const charge = (cost: number): Charge => ({ key, cost, limit: 5, windowMs: MINUTE });
    expect(await store.consume([charge(3)], T0)).toEqual({ ok: true, counts: [3] });
    expect(await store.consume([charge(2)], T0 + 10_000)).toEqual({ ok: true, counts: [5] });
    expect(await store.consume([charge(1)], T0 + 15_000)).toEqual({ ok: false, key, retryAfterMs: 45_000 });
    expect(await store.read([key], T0 + 15_000)).toEqual([{ count: 5, windowEnd: T0 + MINUTE }]);
    // The window ends a minute after its first unit: the next opens with a full budget.
    expect(await store.consume([charge(5)], T0 + MINUTE)).toEqual({ ok: true, counts: [5] });
    expect(await store.consume([charge(1)], T0 + MINUTE)).toMatchObject({ ok: false, retryAfterMs: MINUTE });
  });

  it('takes every charge of a request or none of them', async () => {
    const address = freshKey('address');
    const device = freshKey('device');
    expect(await store.consume([{ key: device, cost: 45, limit: 50, windowMs: MINUTE }], T0)).toMatchObject({ ok: true });
    const refused = await store.consume(
      [
        { key: address, cost: 10, limit: 100, windowMs: MINUTE },
        { key: device, cost: 10, limit: 50, windowMs: MINUTE },
      ],
      T0,
    );
    expect(refused).toEqual({ ok: false, key: device, retryAfterMs: MINUTE });
    expect(await store.read([address, device], T0)).toEqual([
      { count: 0, windowEnd: 0 },
      { count: 45, windowEnd: T0 + MINUTE },
    ]);
  });

  it('checks without taking: a charge of 0 against a limit of 0 refuses while the counter holds anything (a lock)', async () => {
    const lock = freshKey('lock');
    const check: Charge = { key: lock, cost: 0, limit: 0, windowMs: MINUTE };
    expect(await store.consume([check], T0)).toEqual({ ok: true, counts: [0] });
    expect(await store.read([lock], T0)).toEqual([{ count: 0, windowEnd: 0 }]);
    await store.consume([{ key: lock, cost: 1, limit: 1, windowMs: 3_600_000 }], T0);
    expect(await store.consume([check], T0 + 1_000)).toEqual({ ok: false, key: lock, retryAfterMs: 3_599_000 });
    expect(await store.consume([check], T0 + 3_600_000)).toMatchObject({ ok: true });
  });

  it('gives back refunded units; a counter refunded to zero opens a whole new window at its next unit', async () => {
    const key = freshKey('refund');
    const charge: Charge = { key, cost: 1, limit: 1, windowMs: MINUTE };
    await store.consume([charge], T0);
    await store.refund([charge], T0 + 30_000);
    expect(await store.read([key], T0 + 30_000)).toEqual([{ count: 0, windowEnd: 0 }]);
    await store.consume([charge], T0 + 30_000);
    // The resend wait counts from the send that happened, not from the one given back.
    expect(await store.consume([charge], T0 + 89_000)).toEqual({ ok: false, key, retryAfterMs: 1_000 });

    const counted = freshKey('partial');
    await store.consume([{ key: counted, cost: 3, limit: UNLIMITED, windowMs: MINUTE }], T0);
    await store.refund([{ key: counted, cost: 1 }], T0);
    expect(await store.read([counted], T0)).toEqual([{ count: 2, windowEnd: T0 + MINUTE }]);
  });

  it('forgets a counter on reset', async () => {
    const key = freshKey('reset');
    await store.consume([{ key, cost: 4, limit: 5, windowMs: MINUTE }], T0);
    await store.reset([key]);
    expect(await store.read([key], T0)).toEqual([{ count: 0, windowEnd: 0 }]);
    expect(await store.consume([{ key, cost: 5, limit: 5, windowMs: MINUTE }], T0)).toMatchObject({ ok: true });
  });

  it('lets exactly the limit through when many requests race, from two instances over one store', async () => {
    const key = freshKey('race');
    const attempts = Array.from({ length: 40 }, (_, index) =>
      (index % 2 === 0 ? store : other).consume([{ key, cost: 1, limit: 10, windowMs: MINUTE }], T0),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    expect(await other.read([key], T0)).toEqual([{ count: 10, windowEnd: T0 + MINUTE }]);
  });

  it('shares the counts between two instances, as two API processes do', async () => {
    const key = freshKey('shared');
    const charge: Charge = { key, cost: 1, limit: 3, windowMs: MINUTE };
    expect(await store.consume([charge], T0)).toMatchObject({ ok: true, counts: [1] });
    expect(await other.consume([charge], T0)).toMatchObject({ ok: true, counts: [2] });
    expect(await store.consume([charge], T0)).toMatchObject({ ok: true, counts: [3] });
    expect(await other.consume([charge], T0)).toMatchObject({ ok: false });
  });

  it('keeps any client-chosen text in a key apart and storable', async () => {
    const hostile = ['a:b', 'a', 'b', 'nul\0byte', 'lone\ud800surrogate', '设备', 'x'.repeat(64)];
    const keys = hostile.map((part) => limitKey('device', part, sequence));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[\w.@%:-]+$/);
    const result = await store.consume(
      keys.map((key) => ({ key, cost: 1, limit: 1, windowMs: MINUTE })),
      T0,
    );
    expect(result).toEqual({ ok: true, counts: keys.map(() => 1) });
  });
});

describe('the database limit store', () => {
  it('deletes ended windows when purged', async () => {
    const store = new DatabaseLimitStore(database.db);
    const ended = freshKey('ended');
    const live = freshKey('live');
    await store.consume([{ key: ended, cost: 1, limit: 1, windowMs: 1_000 }], T0);
    await store.consume([{ key: live, cost: 1, limit: 1, windowMs: MINUTE }], T0);
    expect(await store.purge(T0 + 1_000)).toBeGreaterThanOrEqual(1);
    const left = await database.db.selectFrom('limit_counter').select('key').where('key', 'in', [ended, live]).execute();
    expect(left.map((row) => row.key)).toEqual([live]);
  });
});
