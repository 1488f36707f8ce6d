import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEV_SIGN_SECRET } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { loadWebEnv, WebEnvError } from './env';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('loadWebEnv', () => {
  it('gives the embedded defaults for an empty environment', () => {
    expect(loadWebEnv({})).toEqual({
      NODE_ENV: 'development',
      WEB_HOST: '127.0.0.1',
      WEB_PORT: 3000,
      API_PORT: 3001,
      API_ORIGIN: 'http://127.0.0.1:3001',
      PRODUCT_SIGN_SECRET: DEV_SIGN_SECRET,
      SITE_URL: 'http://localhost:3000',
      PAGE_CACHE_TTL_MS: 10_000,
      PAGE_CACHE_MAX_ENTRIES: 500,
      NEXT_DIST_DIR: '.next',
    });
  });

  it('reads the values set, empty ones counting as unset', () => {
    const env = loadWebEnv({ WEB_PORT: '8080', API_PORT: '4001', PAGE_CACHE_TTL_MS: '0', SITE_URL: ' ', NEXT_DIST_DIR: '.next-e2e' });
    expect(env).toMatchObject({
      WEB_PORT: 8080,
      API_ORIGIN: 'http://127.0.0.1:4001',
      PAGE_CACHE_TTL_MS: 0,
      SITE_URL: 'http://localhost:3000',
      NEXT_DIST_DIR: '.next-e2e',
    });
    expect(loadWebEnv({ API_ORIGIN: 'http://api.internal:3001', API_PORT: '4001' }).API_ORIGIN).toBe('http://api.internal:3001');
  });

  it('refuses production on the development signing secret, as the API does', () => {
    expect(() => loadWebEnv({ NODE_ENV: 'production' })).toThrow(WebEnvError);
    expect(() => loadWebEnv({ NODE_ENV: 'production' })).toThrow('PRODUCT_SIGN_SECRET: required when NODE_ENV=production');
    expect(loadWebEnv({ NODE_ENV: 'production', PRODUCT_SIGN_SECRET: 'a-secret-of-its-own' }).PRODUCT_SIGN_SECRET).toBe(
      'a-secret-of-its-own',
    );
  });

  it('lists every bad variable in one error', () => {
    let message = '';
    try {
      loadWebEnv({ WEB_PORT: 'eighty', API_ORIGIN: 'ftp://api', PAGE_CACHE_MAX_ENTRIES: '-1', PRODUCT_SIGN_SECRET: 'short' });
    } catch (error) {
      message = error instanceof WebEnvError ? error.message : '';
    }
    expect(message).toMatch(/^invalid environment:\n/);
    for (const name of [
      'WEB_PORT: must be a port number',
      'API_ORIGIN: must be an http:// or https:// URL',
      'PAGE_CACHE_MAX_ENTRIES',
      'PRODUCT_SIGN_SECRET',
    ]) {
      expect(message).toContain(`  - ${name}`);
    }
  });
});

describe('the front server (server/main.ts)', () => {
  it('refuses to start in production without a signing secret of its own, saying why', () => {
    const environment: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', WEB_PORT: '0' };
    delete environment.PRODUCT_SIGN_SECRET;
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(webDir, 'server', 'main.ts')], {
      cwd: webDir,
      env: environment,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('[web] invalid environment:\n  - PRODUCT_SIGN_SECRET: required when NODE_ENV=production');
  }, 70_000);
});
