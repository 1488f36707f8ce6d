import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations';
import { createTestDatabase } from './testing';

let handle: DatabaseHandle | undefined;

afterEach(async () => {
  await handle?.destroy();
  handle = undefined;
});

describe('migrateToLatest', () => {
  it('applies every migration in name order on a fresh database, then does nothing', async () => {
    handle = await createTestDatabase({ migrate: false });
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());

    expect(await migrateToLatest(handle.db)).toEqual(names);
    expect(await migrateToLatest(handle.db)).toEqual([]);

    await handle.db.insertInto('request_nonce').values({ key: 'k', expires_at: 2_000_000_000_000 }).execute();
    const nonce = await handle.db.selectFrom('request_nonce').selectAll().executeTakeFirstOrThrow();
    // Epochs beyond 32 bits come back as exact numbers on both engines.
    expect(nonce).toEqual({ key: 'k', expires_at: 2_000_000_000_000 });
  });

  it('names the migration that failed and why', async () => {
    handle = await createTestDatabase({ migrate: false });
    await sql`create table request_nonce (key text)`.execute(handle.db);

    await expect(migrateToLatest(handle.db)).rejects.toThrow(/^migration 2026-11-21T1900_request-nonce failed: .*request_nonce/);
  });
});
