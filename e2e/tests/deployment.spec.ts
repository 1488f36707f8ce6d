import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { PROTOCOL_ERRORS } from '@xcad/protocol';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { e2eDistDir, freePort, spawnApi, spawnWeb, stopChild, waitForHttp, withEmbeddedDefaults } from '../../scripts/lib.mjs';

// Decision 0026 on the production build, as `npm start` and a deployment run it: the development doors
// of a local trial and of a public origin, and the API's 413 through the web front
// server.

const OUTBOX = '/api/dev/sms-outbox?account=13800138000';
const PUBLIC_ORIGIN = 'https://www.xcad-staging.example';

/** GET through a server with the Host header a browser at `host` sends. */
function statusOf(base: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, base), { headers: { host } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

function outputOf(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return () => output;
}

describe('the development doors of the production build (decision 0026)', () => {
  const started: ChildProcess[] = [];
  afterAll(() => Promise.all(started.map((child) => stopChild(child))));

  /** The production API and web servers over the browser tests' database, at `origin`. */
  async function deployment(
    origin: string,
    extra: NodeJS.ProcessEnv,
  ): Promise<{ api: ChildProcess; apiUrl: string; output: () => string }> {
    const apiPort = await freePort();
    const env = withEmbeddedDefaults({
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SQLITE_PATH: inject('sqlitePath'),
      STORAGE_DIR: inject('storageDir'),
      API_PORT: String(apiPort),
      API_ORIGIN: `http://127.0.0.1:${apiPort}`,
      SITE_URL: origin,
      PUBLIC_ORIGIN: origin,
      ...e2eDistDir(),
      ...extra,
    });
    delete env.DATABASE_URL;
    const api = spawnApi(env, ['ignore', 'pipe', 'pipe']);
    started.push(api);
    return { api, apiUrl: `http://127.0.0.1:${apiPort}`, output: outputOf(api) };
  }

  it('a local trial (npm start, these browser tests) serves the dev outbox through the site', async () => {
    const site = inject('baseUrl');
    expect(await statusOf(site, OUTBOX, new URL(site).host)).toBe(200);
    // The same servers asked under a name that is not this machine's: an unknown route.
    expect(await statusOf(site, OUTBOX, 'www.xunjiecad.com')).toBe(404);
  });

  it('a public origin with the development providers does not start, and says which', async () => {
    const { api, output } = await deployment(PUBLIC_ORIGIN, {});
    const [code] = (await once(api, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(output()).toContain(
      `[api] refusing to start: development providers at the public origin ${PUBLIC_ORIGIN}: SMS_PROVIDER=console, WECHAT_PROVIDER=dev, QQ_PROVIDER=dev, WXPAY_PROVIDER=sandbox, ALIPAY_PROVIDER=sandbox`,
    );
  });

  it('with the override it starts, warns, and every /api/dev/* reached through the public origin is unknown', async () => {
    const { api, apiUrl, output } = await deployment(PUBLIC_ORIGIN, { UNSAFE_DEV_PROVIDERS_AT: PUBLIC_ORIGIN });
    await waitForHttp(`${apiUrl}/health`, 60_000, api);
    expect(output()).toContain(`[api] WARNING: UNSAFE_DEV_PROVIDERS_AT=${PUBLIC_ORIGIN}`);
    const webPort = await freePort();
    const web = spawnWeb(
      withEmbeddedDefaults({
        ...process.env,
        NODE_ENV: 'production',
        ...e2eDistDir(),
        API_ORIGIN: apiUrl,
        SITE_URL: PUBLIC_ORIGIN,
        LOG_LEVEL: 'warn',
      }),
      webPort,
      'ignore',
    );
    started.push(web);
    const site = `http://127.0.0.1:${webPort}`;
    await waitForHttp(`${site}/`, 60_000, web);

    const publicHost = new URL(PUBLIC_ORIGIN).host;
    expect(await statusOf(site, '/', publicHost)).toBe(200);
    for (const path of [OUTBOX, '/api/dev/captcha-outbox?deviceid=x', '/api/dev/qq/authorize?state=s&redirect_uri=x']) {
      expect(await statusOf(site, path, publicHost), path).toBe(404);
    }
    // On the API's own host (loopback) the staging tester still reads the outbox.
    expect(await statusOf(apiUrl, OUTBOX, new URL(apiUrl).host)).toBe(200);
  });
});

describe('a body over the API’s limit through the web front server (decision 0026)', () => {
  it('answers the API’s 413, not 502 or a reset', async () => {
    for (const megabytes of [2, 30]) {
      const response = await fetch(`${inject('baseUrl')}/api/v4/login`, {
        method: 'POST',
        body: JSON.stringify({ filler: 'x'.repeat(megabytes * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, `${megabytes} MB`).toBe(413);
      expect(await response.json()).toEqual({ code: PROTOCOL_ERRORS.malformed.code, message: PROTOCOL_ERRORS.malformed.message });
    }
  });
});
