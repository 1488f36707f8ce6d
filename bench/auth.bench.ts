// Sign-in benchmark (decision 0010): throughput and p99 latency of `login` (Argon2id-bound by design) and
// `memprofile` (a signed, token-authenticated read). Baselines from the same run: Argon2id
// verification alone in this process for `login`, and for `memprofile` the cheapest signed call
// of the same API (a logout of an unknown token: signature, replay record, one indexed update).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { DEV_SIGN_SECRET, createApiClient, endpoints, productDevice, signFields, type SignableFields } from '@xcad/protocol';
import { freePort, migrateAndSeed, spawnApi, stopChild, waitForHttp, withEmbeddedDefaults } from '../scripts/lib.mjs';
import { measure, printRatio, printTable, type LoadResult } from './http';

const PASSWORD = 'bench1234';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);

const DEVICE = productDevice('bench-device', { deviceos: 'Linux' });

function signedBody(fields: SignableFields): string {
  return JSON.stringify(
    signFields({ ...DEVICE, timestamp: Math.floor(Date.now() / 1000), nonce: randomUUID(), ...fields }, DEV_SIGN_SECRET),
  );
}

interface BenchAccount {
  phone: string;
  /** The member's own address: the API limits sign-ins per address (decision 0010). */
  ip: string;
  usertoken: string;
}

/**
 * Registers one account per connection through the public API (codes from the dev outboxes), each
 * from its own device and address as real members would be: the load is many members signing in,
 * not one account hammered (which the lock-out rules refuse by design).
 */
async function registerAccounts(apiOrigin: string, count: number): Promise<BenchAccount[]> {
  const accounts: BenchAccount[] = [];
  for (let index = 0; index < count; index += 1) {
    const phone = `1391234${String(index).padStart(4, '0')}`;
    const ip = `10.77.${index >> 8}.${index & 255}`;
    const deviceid = `bench-device-${index}`;
    const client = createApiClient({
      baseUrl: apiOrigin,
      secret: DEV_SIGN_SECRET,
      domain: '127.0.0.1',
      device: () => productDevice(deviceid, { deviceos: 'Linux' }),
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': ip } }),
    });
    await client.call(endpoints.imgverify, {});
    const captchas = (await (await fetch(`${apiOrigin}/api/dev/captcha-outbox?deviceid=${deviceid}`)).json()) as {
      captchas: Array<{ text: string }>;
    };
    await client.call(endpoints.smsverify, { account: phone, verifytype: 'register', imgcode: captchas.captchas[0]?.text ?? '' });
    const outbox = (await (await fetch(`${apiOrigin}/api/dev/sms-outbox?account=${phone}`)).json()) as {
      messages: Array<{ code: string }>;
    };
    await client.call(endpoints.safregister, { account: phone, smscode: outbox.messages[0]?.code ?? '', password: PASSWORD });
    const { userinfo } = await client.call(endpoints.login, { account: phone, password: PASSWORD });
    accounts.push({ phone, ip, usertoken: userinfo.usertoken });
  }
  return accounts;
}

/** The accounts in turn, one per request. */
function roundRobin(accounts: readonly BenchAccount[], fieldsOf: (account: BenchAccount) => SignableFields) {
  let next = 0;
  return () => {
    const account = accounts[next % accounts.length] as BenchAccount;
    next += 1;
    return { body: signedBody(fieldsOf(account)), headers: { 'x-forwarded-for': account.ip } };
  };
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
    refused: 0,
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
    const accounts = await registerAccounts(apiOrigin, CONNECTIONS);
    const headers = { 'content-type': 'application/json', 'x-product': '141' };

    const login = await measure({
      name: 'POST /api/v4/login (Argon2id verify + new session)',
      url: `${apiOrigin}/api/v4/login`,
      method: 'POST',
      headers,
      makeRequest: roundRobin(accounts, (account) => ({ account: account.phone, password: PASSWORD, showvip: 1 })),
      expectCode: 10000,
    });
    const argon2 = await argon2Baseline();
    printTable('login vs Argon2id alone', [login, argon2]);
    const isLoginMet = printRatio('login / Argon2id alone', login, argon2, 0.5);

    const profile = await measure({
      name: 'POST /api/v4/memprofile (signed, token, vip list)',
      url: `${apiOrigin}/api/v4/memprofile`,
      method: 'POST',
      headers,
      makeRequest: roundRobin(accounts, (account) => ({ account: account.phone, usertoken: account.usertoken, showvip: 1 })),
      expectCode: 10000,
    });
    // The cheapest signed call: signature, replay record (one insert) and one indexed update.
    const signedFloor = await measure({
      name: 'POST /api/v4/logout of an unknown token (signed-call floor)',
      url: `${apiOrigin}/api/v4/logout`,
      method: 'POST',
      headers,
      makeRequest: roundRobin(accounts, (account) => ({ account: account.phone, usertoken: 'x'.repeat(43) })),
      expectCode: 10000,
    });
    printTable('memprofile vs the cheapest signed call', [profile, signedFloor]);
    const isProfileMet = printRatio('memprofile / signed-call floor', profile, signedFloor, 0.35);
    return isLoginMet && isProfileMet;
  } finally {
    await stopChild(api);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
