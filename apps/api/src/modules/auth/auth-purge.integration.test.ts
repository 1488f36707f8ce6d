import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
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
      .insertInto('auth_event')
      .values([
        { kind: 'sms-phone', subject: 'old', at: now - DAY - 1 },
        { kind: 'sms-phone', subject: 'recent', at: now - DAY + 1 },
      ])
      .execute();
    await db
      .insertInto('auth_lock')
      .values([
        { subject: 'ended', until: now },
        { subject: 'running', until: now + 1 },
      ])
      .execute();
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
    await purgeAuthRecords({ db, env: loadEnv({ NODE_ENV: 'test' }), sms: new ConsoleSmsProvider({ logger: log }), log, clock: () => now * 1000 });

    expect((await db.selectFrom('auth_event').select('subject').execute()).map((row) => row.subject)).toEqual(['recent']);
    expect((await db.selectFrom('auth_lock').select('subject').execute()).map((row) => row.subject)).toEqual(['running']);
    expect((await db.selectFrom('captcha').select('device_id').execute()).map((row) => row.device_id)).toEqual(['live']);
    expect((await db.selectFrom('sms_code').select('phone').execute()).map((row) => row.phone)).toEqual(['today']);
  });
});
