import { randomUUID } from 'node:crypto';
import { PROTOCOL_ERRORS, SUCCESS_CODE, signFields, type SignableFields } from '@xcad/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // A throwaway signed route; the coercing schema checks that the signature is verified over the
  // body as received, before validation turns '05' into 5.
  t.app.post(
    '/api/v4/test-echo',
    { schema: { body: { type: 'object', properties: { amount: { type: 'integer' } } } } },
    async (request) => ({ code: SUCCESS_CODE, message: '成功', echo: request.body }),
  );
  t.app.get('/api/v4/test-query', async (request) => ({ code: SUCCESS_CODE, message: '成功', echo: request.query }));
});

afterAll(async () => {
  await t.close();
});

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

function signed(extra: SignableFields = {}, omit: string[] = []): SignableFields & { datasign: string } {
  const fields: SignableFields = {
    deviceid: 'device-0001',
    timestamp: nowSeconds(),
    softname: 'xunjiecadeditor',
    softversion: '5.0',
    productid: 211,
    devicetype: 'WEB',
    language: 'zh-CN',
    deviceos: 'Linux',
    nonce: randomUUID(),
    ...extra,
  };
  for (const key of omit) delete fields[key];
  return signFields(fields, t.env.PRODUCT_SIGN_SECRET);
}

function postJson(payload: unknown): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/v4/test-echo',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

function encodeForm(fields: SignableFields): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) params.append(key, String(value));
  return params.toString();
}

function postForm(fields: SignableFields): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/v4/test-echo',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: encodeForm(fields),
  });
}

function expectRefused(response: LightMyRequestResponse, kind: keyof typeof PROTOCOL_ERRORS): void {
  const { code, message, status } = PROTOCOL_ERRORS[kind];
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ code, message });
}

describe('signed /api/v4 routes (spec §7 datasign)', () => {
  it('accepts a correctly signed JSON body and hands it to the route unchanged', async () => {
    const body = signed({ account: '13800000000' });
    const response = await postJson(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ code: SUCCESS_CODE, message: '成功', echo: body });
  });

  it('refuses malformed JSON with 10001', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"deviceid": "d1",',
    });
    expectRefused(response, 'malformed');
  });

  it('refuses a body that is not an object with 10001', async () => {
    for (const payload of [[signed()], 'text', 42, null]) {
      expectRefused(await postJson(payload), 'malformed');
    }
  });

  it('refuses a missing or empty body with 10001', async () => {
    expectRefused(await t.app.inject({ method: 'POST', url: '/api/v4/test-echo' }), 'malformed');
    const emptyJson = await t.app.inject({
      method: 'POST',
      url: '/api/v4/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expectRefused(emptyJson, 'malformed');
  });

  it.each(['deviceid', 'timestamp', 'datasign'])('refuses a body without %s with 10001', async (field) => {
    const body: SignableFields = field === 'datasign' ? signed() : signed({}, [field]);
    delete body[field];
    expectRefused(await postJson(body), 'malformed');
  });

  it('refuses a timestamp that is not a whole number with 10001', async () => {
    expectRefused(await postJson(signed({ timestamp: 'soon' })), 'malformed');
  });

  it('refuses a wrong datasign with 10002', async () => {
    expectRefused(await postJson({ ...signed(), datasign: '0123456789abcdef0123456789abcdef' }), 'badSignature');
  });

  it('refuses a datasign of 32 characters that are not hex (Chinese, other letters, spaces), never with a crash', async () => {
    for (const datasign of ['签'.repeat(32), 'z'.repeat(32), ' '.repeat(32)]) {
      const response = await postJson({ ...signed(), datasign });
      expect([400, 401], datasign).toContain(response.statusCode);
      expect([PROTOCOL_ERRORS.malformed.code, PROTOCOL_ERRORS.badSignature.code], datasign).toContain(
        response.json<{ code: number }>().code,
      );
    }
    const upper = signed();
    expect((await postJson({ ...upper, datasign: upper.datasign.toUpperCase() })).json()).toMatchObject({ code: SUCCESS_CODE });
  });

  it('refuses a body changed after signing with 10002', async () => {
    expectRefused(await postJson({ ...signed({ account: '13800000000' }), account: '13900000000' }), 'badSignature');
  });

  it('refuses a body signed with another secret with 10002', async () => {
    const { datasign: _, ...fields } = signed();
    expectRefused(await postJson(signFields(fields, 'not-the-product-secret')), 'badSignature');
  });

  describe('the time window, with the clock held mid-second so no second boundary falls between test and server', () => {
    const frozenAt = 1_800_000_000_500;
    beforeAll(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(frozenAt);
    });
    afterEach(() => vi.setSystemTime(frozenAt));
    afterAll(() => vi.useRealTimers());

    it('refuses a timestamp more than the window in the past or the future with 10003', async () => {
      expectRefused(await postJson(signed({ timestamp: nowSeconds() - 301 })), 'staleTimestamp');
      expectRefused(await postJson(signed({ timestamp: nowSeconds() + 301 })), 'staleTimestamp');
    });

    it('accepts a timestamp at the edges of the window', async () => {
      expect((await postJson(signed({ timestamp: nowSeconds() - 300 }))).statusCode).toBe(200);
      expect((await postJson(signed({ timestamp: nowSeconds() + 300 }))).statusCode).toBe(200);
    });
  });

  it('accepts a signed body once and refuses its replay with 10004', async () => {
    const body = signed();
    expect((await postJson(body)).statusCode).toBe(200);
    expectRefused(await postJson(body), 'replayed');
    // The same signature in capitals is the same signature.
    expectRefused(await postJson({ ...body, datasign: body.datasign.toUpperCase() }), 'replayed');
  });

  it('accepts the same fields twice when the nonce differs', async () => {
    const timestamp = nowSeconds();
    expect((await postJson(signed({ timestamp, nonce: 'n-1' }))).statusCode).toBe(200);
    expect((await postJson(signed({ timestamp, nonce: 'n-2' }))).statusCode).toBe(200);
  });

  it('accepts a form-encoded signed body, verified before schema coercion', async () => {
    const body = signed({ amount: '05' });
    const response = await postForm(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ code: SUCCESS_CODE, echo: { deviceid: 'device-0001', amount: 5 } });
  });

  it('verifies values in Chinese, as JSON and as a form', async () => {
    const json = await postJson(signed({ nickname: '迅捷用户', content: '图纸打不开，怎么办？' }));
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ echo: { nickname: '迅捷用户' } });

    const form = await postForm(signed({ nickname: '迅捷用户' }));
    expect(form.statusCode).toBe(200);
    expect(form.json()).toMatchObject({ echo: { nickname: '迅捷用户' } });
  });

  it('verifies GET routes over their query string', async () => {
    const ok = await t.app.inject({ method: 'GET', url: `/api/v4/test-query?${encodeForm(signed({ tasktag: 't-1' }))}` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ echo: { tasktag: 't-1' } });

    expectRefused(await t.app.inject({ method: 'GET', url: '/api/v4/test-query?tasktag=t-1' }), 'malformed');
  });

  it('refuses an unsupported content type with 10001', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/test-echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<deviceid>d1</deviceid>',
    });
    expectRefused(response, 'malformed');
  });

  it('refuses a body over BODY_LIMIT_BYTES with 10001 and status 413', async () => {
    const response = await postJson(signed({ content: 'x'.repeat(t.env.BODY_LIMIT_BYTES) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.malformed.code, message: PROTOCOL_ERRORS.malformed.message });
  });
});
