// Issue 3 benchmark: throughput and p99 latency of `login` (Argon2id-bound by design) and
// `memprofile` (a signed, token-authenticated read). Baselines from the same run: Argon2id
// verification alone in this process for `login`, and the unsigned getutctime route of the same
// API for `memprofile`.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { DEV_SIGN_SECRET, createApiClient, endpoints, productDevice, signFields, type SignableFields } from '@xcad/protocol';
import { freePort, migrateAndSeed, spawnApi, stopChild, waitForHttp, withEmbeddedDefaults } from '../scripts/lib.mjs';
import { measure, printRatio, printTable, type LoadResult } from './http';

const PHONE = '13912345678';
const PASSWORD = 'bench1234';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);

const DEVICE = productDevice('bench-device', { deviceos: 'Linux' });

function signedBody(fields: SignableFields): string {
  return JSON.stringify(signFields({ ...DEVICE, timestamp: Math.floor(Date.now() / 1000), nonce: randomUUID(), ...fields }, DEV_SIGN_SECRET));
}

/** Registers the bench account through the public API, reading codes from the dev outboxes. */
async function registerAccount(apiOrigin: string): Promise<{ usertoken: string }> {
  const client = createApiClient({
    baseUrl: apiOrigin,
    secret: DEV_SIGN_SECRET,
    domain: '127.0.0.1',
    device: () => DEVICE,
  });
  await client.call(endpoints.imgverify, {});
  const captchas = (await (await fetch(`${apiOrigin}/api/dev/captcha-outbox?deviceid=bench-device`)).json()) as { captchas: Array<{ text: string }> };
  await client.call(endpoints.smsverify, { account: PHONE, verifytype: 'register', imgcode: captchas.captchas[0]?.text ?? '' });
  const outbox = (await (await fetch(`${apiOrigin}/api/dev/sms-outbox?account=${PHONE}`)).json()) as { messages: Array<{ code: string }> };
  await client.call(endpoints.safregister, { account: PHONE, smscode: outbox.messages[0]?.code ?? '', password: PASSWORD });
  const { userinfo } = await client.call(endpoints.login, { account: PHONE, password: PASSWORD });
  return { usertoken: userinfo.usertoken };
}

/** Argon2id verifications per second with CONNECTIONS in flight, as the API's login would run them. */
async function argon2Baseline(): Promise<LoadResult> {
  const stored = await hash(PASSWORD);
  const latencies: number[] = [];
  const deadline = Date.now() + DURATION_SECONDS * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        await verify(stored, PASSWORD);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    name: 'Argon2id verify alone (same parameters, in-process)',
    requestsPerSecond: latencies.length / ((Date.now() - started) / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    non2xx: 0,
    errors: 0,
  };
}

export async function runAuthBench(): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'xcad-bench-auth-'));
  const apiPort = await freePort();
  const apiOrigin = `http://127.0.0.1:${apiPort}`;
  const env: NodeJS.ProcessEnv = withEmbeddedDefaults({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    SQLITE_PATH: path.join(dataDir, 'bench.sqlite'),
    DATA_DIR: dataDir,
    API_PORT: String(apiPort),
  });
  delete env.DATABASE_URL;
  migrateAndSeed(env);
  const api = spawnApi(env, 'ignore');
  try {
    await waitForHttp(`${apiOrigin}/health`, 60_000, api);
    const { usertoken } = await registerAccount(apiOrigin);
    const headers = { 'content-type': 'application/json', 'x-product': '141' };

    const login = await measure({
      name: 'POST /api/v4/login (Argon2id verify + new session)',
      url: `${apiOrigin}/api/v4/login`,
      method: 'POST',
      headers,
      makeBody: () => signedBody({ account: PHONE, password: PASSWORD, showvip: 1 }),
    });
    const argon2 = await argon2Baseline();
    printTable('login vs Argon2id alone', [login, argon2]);
    const isLoginMet = printRatio('login / Argon2id alone', login, argon2, 0.5);

    const profile = await measure({
      name: 'POST /api/v4/memprofile (signed, token, vip list)',
      url: `${apiOrigin}/api/v4/memprofile`,
      method: 'POST',
      headers,
      makeBody: () => signedBody({ account: PHONE, usertoken, showvip: 1 }),
    });
    const utc = await measure({ name: 'GET /api/v4/getutctime (same API, unsigned)', url: `${apiOrigin}/api/v4/getutctime` });
    printTable('memprofile vs getutctime', [profile, utc]);
    const isProfileMet = printRatio('memprofile / getutctime', profile, utc, 0.25);
    return isLoginMet && isProfileMet;
  } finally {
    await stopChild(api);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
