import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../database';
import { createTestDatabase, type TestDatabaseHandle } from '../testing';
import { claimNonce, purgeExpiredNonces } from './nonce.repository';

let handle: TestDatabaseHandle;
const now = 1_800_000_000;

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.destroy();
});

describe('claimNonce', () => {
  it('accepts a key once and refuses it while unexpired', async () => {
    expect(await claimNonce(handle.db, 'once', now + 600, now)).toBe(true);
    expect(await claimNonce(handle.db, 'once', now + 600, now)).toBe(false);
    expect(await claimNonce(handle.db, 'once', now + 600, now + 599)).toBe(false);
    expect(await claimNonce(handle.db, 'other', now + 600, now)).toBe(true);
  });

  it('gives exactly one of 50 concurrent claims of one key', async () => {
    const claims = await Promise.all(Array.from({ length: 50 }, () => claimNonce(handle.db, 'raced', now + 600, now)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('gives exactly one claim when two processes race over separate connections', async () => {
    // PostgreSQL's pool already spreads the claims over several sessions; for SQLite, a second
    // handle on the same file stands in for a second API process.
    const second = handle.engine === 'sqlite' ? createDatabase({ sqlitePath: handle.location }) : undefined;
    try {
      const dbs = [handle.db, second?.db ?? handle.db];
      const claims = await Promise.all(
        Array.from({ length: 50 }, (_, i) => claimNonce(dbs[i % 2] ?? handle.db, 'raced-twice', now + 600, now)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    } finally {
      await second?.destroy();
    }
  });

  it('lets a key be claimed again once it has expired, and only once', async () => {
    expect(await claimNonce(handle.db, 'reuse', now + 10, now)).toBe(true);
    const later = now + 10;
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimNonce(handle.db, 'reuse', later + 600, later)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimNonce(handle.db, 'reuse', later + 600, later + 1)).toBe(false);
  });
});

describe('purgeExpiredNonces', () => {
  it('removes expired keys only', async () => {
    await claimNonce(handle.db, 'purge-old', now - 1, now - 100);
    await claimNonce(handle.db, 'purge-new', now + 100, now);

    expect(await purgeExpiredNonces(handle.db, now)).toBeGreaterThanOrEqual(1);
    const keys = (await handle.db.selectFrom('request_nonce').select('key').execute()).map((row) => row.key);
    expect(keys).toContain('purge-new');
    expect(keys).not.toContain('purge-old');
    expect(await purgeExpiredNonces(handle.db, now)).toBe(0);
  });
});
