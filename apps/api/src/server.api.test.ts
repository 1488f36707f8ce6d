import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import { afterEach, describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const serverEntry = fileURLToPath(new URL('./server.ts', import.meta.url));

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repositoryRoot,
    env: { PATH: process.env['PATH'], NODE_ENV: 'test', LOG_LEVEL: 'silent', API_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function listeningUrl(started: Started, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /\[api\] listening on (http:\/\/\S+)/.exec(started.output());
    if (match?.[1]) return match[1];
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server did not start: ${started.output()}`);
}

let database: TestDatabaseHandle | undefined;
let started: Started | undefined;

afterEach(async () => {
  if (started && started.child.exitCode === null) {
    started.child.kill('SIGKILL');
    await started.exited;
  }
  started = undefined;
  await database?.destroy();
  database = undefined;
});

describe('the API server process', () => {
  it('migrates its database, listens, prints its URL and stops cleanly on SIGTERM', { timeout: 30_000 }, async () => {
    database = await createTestDatabase({ migrate: false });
    const location = database.engine === 'postgres' ? { DATABASE_URL: database.location } : { SQLITE_PATH: database.location };
    started = startServer(location);
    const url = await listeningUrl(started);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('machine-id')).toBe('20-201');
    expect(await health.json()).toEqual({ status: 'ok', db: 'ok' });
    const tables = await database.db.introspection.getTables();
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['request_nonce']));

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
  });

  it('refuses to start with a bad environment, naming every bad variable', { timeout: 30_000 }, async () => {
    started = startServer({ NODE_ENV: 'production', API_PORT: 'eighty' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('API_PORT');
    expect(started.output()).toContain('PRODUCT_SIGN_SECRET');
    expect(started.output()).not.toContain('listening');
  });
});

/** GET `path` from `url` over a socket, with the Host and X-Forwarded-* headers a proxy would send. */
function getWithHeaders(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(path, url), { headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

describe('the API server process at a public origin (decision 0026)', () => {
  const PUBLIC = {
    NODE_ENV: 'production',
    PRODUCT_SIGN_SECRET: 'a-production-secret',
    SITE_URL: 'https://www.xunjiecad.com',
    PUBLIC_ORIGIN: 'https://www.xunjiecad.com',
  };

  it('refuses to start with the development providers, naming each and the override', { timeout: 30_000 }, async () => {
    started = startServer(PUBLIC);
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain(
      '[api] refusing to start: development providers at the public origin https://www.xunjiecad.com: SMS_PROVIDER=console, WECHAT_PROVIDER=dev, QQ_PROVIDER=dev, WXPAY_PROVIDER=sandbox, ALIPAY_PROVIDER=sandbox;',
    );
    expect(started.output()).toContain('UNSAFE_DEV_PROVIDERS_AT=https://www.xunjiecad.com');
    expect(started.output()).not.toContain('listening');
  });

  it('starts with the override naming its origin, says so loudly, and keeps /api/dev/* to this host', { timeout: 30_000 }, async () => {
    database = await createTestDatabase({ migrate: false });
    const location = database.engine === 'postgres' ? { DATABASE_URL: database.location } : { SQLITE_PATH: database.location };
    const server = startServer({ ...PUBLIC, ...location, UNSAFE_DEV_PROVIDERS_AT: 'https://www.xunjiecad.com', LOG_LEVEL: 'warn' });
    started = server;
    const url = await listeningUrl(server);
    expect(started.output()).toContain(
      '[api] WARNING: UNSAFE_DEV_PROVIDERS_AT=https://www.xunjiecad.com: development providers at a public origin',
    );

    const outbox = '/api/dev/sms-outbox?account=13800138000';
    const host = new URL(url).host;
    expect(await getWithHeaders(url, outbox, { host })).toBe(200);
    // The warning is written by the logger after the answer leaves: wait for it to reach the output.
    await expect.poll(() => server.output(), { timeout: 5_000 }).toContain('development route used at a public deployment');
    // What nginx at the public origin sends for a visitor: its address, the public host name.
    expect(await getWithHeaders(url, outbox, { host, 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'www.xunjiecad.com' })).toBe(
      404,
    );
    expect(await getWithHeaders(url, outbox, { host: 'www.xunjiecad.com' })).toBe(404);
  });
});
