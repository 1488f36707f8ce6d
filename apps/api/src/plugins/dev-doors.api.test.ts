import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';

// Decision 0026: with the development providers (the defaults) anyone could read a phone's
// SMS code at /api/dev/sms-outbox, sign in as any WeChat openid at /api/dev/wechat/confirm and mark
// any order paid at /api/dev/pay/confirm. Every /api/dev/* route now answers only requests made on
// the API's host itself; from or through a public origin it is an unknown route.

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SITE_URL: 'http://localhost:3000' });
});

afterAll(async () => {
  await t.close();
});

const NOT_FOUND = { code: PROTOCOL_ERRORS.notFound.code, message: PROTOCOL_ERRORS.notFound.message };

const DEV_CALLS = [
  { method: 'GET', url: '/api/dev/sms-outbox?account=13800138000' },
  { method: 'GET', url: '/api/dev/captcha-outbox?deviceid=someone' },
  { method: 'POST', url: '/api/dev/wechat/scan', payload: { logintag: 'x' } },
  { method: 'POST', url: '/api/dev/wechat/confirm', payload: { logintag: 'x', openid: 'wx-victim', nickname: '某人' } },
  { method: 'GET', url: '/api/dev/qq/authorize?state=s&redirect_uri=x' },
  { method: 'POST', url: '/api/dev/pay/confirm', payload: { orderno: 'XC2026120112000012345678' } },
  { method: 'POST', url: '/api/dev/pay/cancel', payload: { orderno: 'XC2026120112000012345678' } },
] as const;

describe('/api/dev/* (decision 0026)', () => {
  it('answers requests made on this host as before', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/dev/sms-outbox?account=13800138000',
      remoteAddress: '127.0.0.1',
      headers: { host: '127.0.0.1:3001' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ messages: [] });
  });

  it.each(DEV_CALLS)('$method $url from another address is an unknown route', async (call) => {
    const response = await t.app.inject({ ...call, remoteAddress: '203.0.113.7', headers: { host: '127.0.0.1:3001' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(NOT_FOUND);
  });

  it('refuses a client the front server or nginx on this host relays, whatever it claims', async () => {
    const relayed = await t.app.inject({
      method: 'GET',
      url: '/api/dev/sms-outbox?account=13800138000',
      remoteAddress: '127.0.0.1',
      headers: { host: '127.0.0.1:3001', 'x-forwarded-for': '127.0.0.1, 198.51.100.20', 'x-forwarded-host': 'localhost:3000' },
    });
    expect(relayed.statusCode).toBe(404);
  });

  it('refuses a request addressed to a public host name, even from this host', async () => {
    for (const host of ['www.xunjiecad.com', '192.168.1.20:3000', '[2001:db8::1]:3000']) {
      const direct = await t.app.inject({
        method: 'GET',
        url: '/api/dev/sms-outbox?account=13800138000',
        remoteAddress: '127.0.0.1',
        headers: { host },
      });
      expect(direct.statusCode, host).toBe(404);
    }
    const throughProxy = await t.app.inject({
      method: 'POST',
      url: '/api/dev/pay/confirm',
      payload: { orderno: 'XC2026120112000012345678' },
      remoteAddress: '127.0.0.1',
      headers: { host: '127.0.0.1:3001', 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'www.xunjiecad.com' },
    });
    expect(throughProxy.statusCode).toBe(404);
    expect(
      t.logs.some(
        (line) => line['msg'] === 'development route refused: not a request made on this host' && line['host'] === 'www.xunjiecad.com',
      ),
    ).toBe(true);
  });
});
