import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { DatabaseLimitStore } from '../../limits';
import { ConsoleSmsProvider } from '../sms/console.provider';
import { purgeAuthRecords } from './auth.service';

let handle: TestDatabaseHandle;
const now = 1_800_000_000;
const DAY = 86_400;

beforeAll(async () => {
  handle = await createTestDatabase();
});

afterAll(async () => {
  await handle.destroy();
});

describe('purgeAuthRecords', () => {
  it('drops what no limit counts any more and keeps the rest', async () => {
    const { db } = handle;
    await db
      .insertInto('captcha')
      .values([
        { device_id: 'expired', code_hash: 'h', expires_at: now },
        { device_id: 'live', code_hash: 'h', expires_at: now + 1 },
      ])
      .execute();
    await db
      .insertInto('sms_code')
      .values([
        { phone: 'old', purpose: 'quicklogin', code_hash: 'h', created_at: 0, expires_at: now - DAY },
        { phone: 'today', purpose: 'quicklogin', code_hash: 'h', created_at: 0, expires_at: now - 10 },
      ])
      .execute();

    const log = pino({ level: 'silent' });
    await purgeAuthRecords({
      db,
      env: loadEnv({ NODE_ENV: 'test' }),
      sms: new ConsoleSmsProvider({ logger: log }),
      log,
      clock: () => now * 1000,
      limits: new DatabaseLimitStore(db),
    });

    expect((await db.selectFrom('captcha').select('device_id').execute()).map((row) => row.device_id)).toEqual(['live']);
    expect((await db.selectFrom('sms_code').select('phone').execute()).map((row) => row.phone)).toEqual(['today']);
  });
});
