import { SUCCESS_CODE, SUCCESS_MESSAGE } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

function expectServerTime(body: unknown): void {
  expect(body).toEqual({ code: SUCCESS_CODE, message: SUCCESS_MESSAGE, utctime: expect.any(Number) });
  const { utctime } = body as { utctime: number };
  expect(Number.isInteger(utctime)).toBe(true);
  expect(Math.abs(utctime - Date.now() / 1000)).toBeLessThanOrEqual(2);
}

describe('getutctime (spec §7)', () => {
  it('answers GET with the server time in epoch seconds, unsigned', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v4/getutctime' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expectServerTime(response.json());
  });

  it('answers POST the same way, whatever unsigned payload a client sends', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/v4/getutctime', payload: { deviceid: 'd1' } });
    expect(json.statusCode).toBe(200);
    expectServerTime(json.json());

    const form = await t.app.inject({
      method: 'POST',
      url: '/api/v4/getutctime',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'deviceid=d1&softname=xunjiecadeditor',
    });
    expect(form.statusCode).toBe(200);
    expectServerTime(form.json());

    const empty = await t.app.inject({ method: 'POST', url: '/api/v4/getutctime' });
    expect(empty.statusCode).toBe(200);
    expectServerTime(empty.json());
  });
});
