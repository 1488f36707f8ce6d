import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { buildApp } from '../../app';
import { loadEnv } from '../../env';
import { createTestApp, type TestApp } from '../../test-app';
import { ConsoleSmsProvider } from './console.provider';

describe('GET /api/dev/sms-outbox with the console provider', () => {
  let database: TestDatabaseHandle;
  let app: FastifyInstance;
  const outbox = new ConsoleSmsProvider({ logger: pino({ level: 'silent' }) });

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({ env: loadEnv({ NODE_ENV: 'test' }), db: database.db, logger: pino({ level: 'silent' }), smsProvider: outbox });
  });

  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  it('lists the codes sent to that account only, newest first, without a signature', async () => {
    await outbox.send({ phone: '13800138000', code: '1111', purpose: 'register' });
    await outbox.send({ phone: '13900139000', code: '2222', purpose: 'quicklogin' });
    await outbox.send({ phone: '13800138000', code: '3333', purpose: 'quicklogin' });

    const response = await app.inject({ method: 'GET', url: '/api/dev/sms-outbox?account=13800138000' });
    expect(response.statusCode).toBe(200);
    const { messages } = response.json<{ messages: Array<{ account: string; code: string; text: string; at: string }> }>();
    expect(messages.map((entry) => entry.code)).toEqual(['3333', '1111']);
    expect(messages[0]).toEqual({
      account: '13800138000',
      code: '3333',
      text: '【迅捷CAD】您的验证码为3333，5分钟内有效，请勿泄露给他人。',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });

    const none = await app.inject({ method: 'GET', url: '/api/dev/sms-outbox?account=13700137000' });
    expect(none.json()).toEqual({ messages: [] });
  });

  it.each(['/api/dev/sms-outbox?account=1380013800a', '/api/dev/sms-outbox?account=', '/api/dev/sms-outbox'])(
    'answers the malformed envelope for %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.malformed.code, message: PROTOCOL_ERRORS.malformed.message });
    },
  );
});

describe('GET /api/dev/sms-outbox with a real provider', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'LTAI-id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: '迅捷CAD',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_000001',
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('does not exist: the not-found envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/sms-outbox?account=13800138000' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.notFound.code, message: PROTOCOL_ERRORS.notFound.message });
  });
});
