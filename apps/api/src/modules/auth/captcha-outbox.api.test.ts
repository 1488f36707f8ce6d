import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { call, createAuthTestApp, expectAnswer, freshClient, type AuthTestApp } from './auth.testing';

describe('GET /api/dev/captcha-outbox (console SMS provider)', () => {
  let t: AuthTestApp;

  beforeAll(async () => {
    t = await createAuthTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('shows the answer of each image drawn for a device, newest first, and the answer passes the check', async () => {
    const client = freshClient();
    await call(t, '/api/v4/imgverify', {}, client);
    await call(t, '/api/v4/imgverify', {}, client);
    const response = await t.app.inject({ method: 'GET', url: `/api/dev/captcha-outbox?deviceid=${client.deviceid}` });
    expect(response.statusCode).toBe(200);
    const { captchas } = response.json<{ captchas: Array<{ deviceid: string; text: string; at: string }> }>();
    expect(captchas).toHaveLength(2);
    expect(captchas.every((entry) => entry.deviceid === client.deviceid && /^[A-Z0-9]{4}$/.test(entry.text))).toBe(true);

    const sent = await call(t, '/api/v4/smsverify', { account: client.phone, verifytype: 'register', imgcode: captchas[0]!.text }, client);
    expectAnswer(sent, { code: 10000 });
    const empty = await t.app.inject({ method: 'GET', url: '/api/dev/captcha-outbox?deviceid=someone-else' });
    expect(empty.json()).toEqual({ captchas: [] });
  });
});

describe('with a real SMS provider', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'id',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: 'sign',
      ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
    });
  });

  afterAll(async () => {
    await t.close();
  });

  it('has no captcha outbox', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/captcha-outbox?deviceid=x' });
    expect(response.statusCode).toBe(404);
  });
});
