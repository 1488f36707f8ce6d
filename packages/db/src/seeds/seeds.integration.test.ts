import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../database';
import { createTestDatabase } from '../testing';
import { runSeeds } from './index';
import type { Seed } from './index';

let handle: DatabaseHandle | undefined;

afterEach(async () => {
  await handle?.destroy();
  handle = undefined;
});

const insertNonce = (key: string): Seed => ({
  name: `nonce-${key}`,
  async run(db) {
    await db
      .insertInto('request_nonce')
      .values({ key, expires_at: 1 })
      .onConflict((oc) => oc.doNothing())
      .execute();
  },
});

describe('runSeeds', () => {
  it('runs every seed in order and a second run changes nothing', async () => {
    handle = await createTestDatabase();
    const registry = [insertNonce('a'), insertNonce('b')];
    expect(await runSeeds(handle.db, registry)).toEqual(['nonce-a', 'nonce-b']);
    await runSeeds(handle.db, registry);
    const rows = await handle.db.selectFrom('request_nonce').select('key').orderBy('key').execute();
    expect(rows.map((row) => row.key)).toEqual(['a', 'b']);
  });

  it('rolls a failing seed back whole and names it', async () => {
    handle = await createTestDatabase();
    const broken: Seed = {
      name: 'half-done',
      async run(db) {
        await db.insertInto('request_nonce').values({ key: 'partial', expires_at: 1 }).execute();
        throw new Error('disk full');
      },
    };
    await expect(runSeeds(handle.db, [broken])).rejects.toThrow('seed half-done failed: disk full');
    const rows = await handle.db.selectFrom('request_nonce').select('key').execute();
    expect(rows).toEqual([]);
  });
});
