import { createTestDatabase } from '@xcad/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadEnv } from '../../env';
import { createTestApp, type TestApp } from '../../test-app';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

describe('health (spec §7 mirror selection)', () => {
  it('answers HEAD with 200, the machine id and the echoed product, without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/health', headers: { 'x-product': '141' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['machine-id']).toBe('20-201');
    expect(response.headers['x-product']).toBe('141');
    expect(response.body).toBe('');
  });

  it('answers GET with the same headers and the database state', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-product': '141' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['machine-id']).toBe('20-201');
    expect(response.headers['x-product']).toBe('141');
    expect(response.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('takes the machine id from MACHINE_ID', async () => {
    const other = await createTestApp({ MACHINE_ID: '30-301' });
    try {
      const response = await other.app.inject({ method: 'HEAD', url: '/health' });
      expect(response.headers['machine-id']).toBe('30-301');
      expect(response.headers['x-product']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('keeps answering HEAD when the database is gone, and GET reports it down', async () => {
    const database = await createTestDatabase();
    const app = await buildApp({ env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), db: database.db });
    await database.destroy();
    try {
      const head = await app.inject({ method: 'HEAD', url: '/health' });
      expect(head.statusCode).toBe(200);
      expect(head.headers['machine-id']).toBe('20-201');

      const get = await app.inject({ method: 'GET', url: '/health' });
      expect(get.statusCode).toBe(200);
      expect(get.json()).toEqual({ status: 'ok', db: 'down' });
    } finally {
      await app.close();
    }
  });
});
