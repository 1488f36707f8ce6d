import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-app';

let t: TestApp;
const INTERNAL_DETAIL = 'connection to billing host 10.1.2.3 refused';

beforeAll(async () => {
  t = await createTestApp();
  t.app.post('/api/v4/test-throw', { config: { signed: false } }, async () => {
    throw new Error(INTERNAL_DETAIL);
  });
});

afterAll(async () => {
  await t.close();
});

describe('error answers (docs/decisions/0004)', () => {
  it('answers an unexpected error with the generic 10500 envelope and logs the real one', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v4/test-throw',
      headers: { 'x-request-id': 'trace-500-check' },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.internal.code, message: PROTOCOL_ERRORS.internal.message });
    expect(response.body).not.toContain(INTERNAL_DETAIL);
    expect(response.body).not.toMatch(/stack|Error|\.ts/);

    const logged = t.logs.find((line) => line['reqId'] === 'trace-500-check' && line['level'] === 50);
    expect(JSON.stringify(logged)).toContain(INTERNAL_DETAIL);
  });

  it('answers an unknown /api route with the 10404 envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await t.app.inject({ method, url: '/api/v4/no-such-call' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: PROTOCOL_ERRORS.notFound.code, message: PROTOCOL_ERRORS.notFound.message });
    }
  });

  it('answers an unknown /wp-json route the way WordPress does', async () => {
    for (const url of ['/wp-json/wp/v2/no-such-route', '/wp-json', '/wp-json/?page=2']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('answers other unknown paths with the 10404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/wp-jsonx' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: PROTOCOL_ERRORS.notFound.code });
  });
});

describe('response headers', () => {
  it('sends nosniff, no x-powered-by, and a request id', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v4/getutctime' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("echoes the caller's x-request-id, but replaces one unfit for logs", async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'web-42.abc' } });
    expect(kept.headers['x-request-id']).toBe('web-42.abc');

    const replaced = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id {"level":60}' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('logging', () => {
  it('writes one line per request and never a secret field', async () => {
    const before = t.logs.length;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v4/getutctime?usertoken=abc',
      headers: { 'x-request-id': 'one-line' },
    });
    expect(response.statusCode).toBe(200);
    const lines = t.logs.slice(before).filter((line) => line['reqId'] === 'one-line');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', path: '/api/v4/getutctime', status: 200 });
    expect(JSON.stringify(lines)).not.toContain('abc');

    t.app.log.info({ body: { password: 'p4ss', smscode: '1234', usertoken: 'tok', datasign: 'sig' } }, 'probe');
    const probe = JSON.stringify(t.logs.at(-1));
    for (const secret of ['p4ss', '1234', 'tok', 'sig']) expect(probe).not.toContain(`"${secret}"`);
  });
});
