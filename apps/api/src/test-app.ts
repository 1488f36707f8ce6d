// Shared set-up of the API tests: the real app over a fresh database of the engine under test.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { productDevice, signFields, type SignableFields } from '@xcad/protocol';
import { createDatabase } from '@xcad/db';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, type BuildAppOptions } from './app';
import { loadEnv, type Env } from './env';
import { loggerOptions } from './logger';
import type { ConversionJobs } from './modules/conversion/conversion.jobs';
import type { ConfiguredPayProviders } from './modules/pay/pay.factory';
import type { SmsProvider } from './modules/sms/sms.provider';
import { LocalDiskStorage } from './storage';

/** The Redis of this machine the tests use (BullMQ queues, the Redis limit store). */
export const TEST_REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabaseHandle;
  env: Env;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The app's clock: starts at the real time and moves only when a test calls `advance`. */
  clock: TestClock;
  /** The app's stored files: a temporary directory of this test app, removed on close. */
  storage: LocalDiskStorage;
  close(): Promise<void>;
}

export interface TestClock {
  /** Epoch milliseconds. */
  now(): number;
  advance(ms: number): void;
}

export interface TestAppOptions {
  smsProvider?: SmsProvider;
  payProviders?: ConfiguredPayProviders;
  conversionJobs?: ConversionJobs;
  onRoute?: BuildAppOptions['onRoute'];
  conversionMinChunkBytes?: number;
}

/** A logger whose lines land, parsed, in `logs`. */
function capturingLogger(env: Env, logs: Array<Record<string, unknown>>) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      callback();
    },
  });
  return pino(loggerOptions(env), sink);
}

export async function createTestApp(overrides: NodeJS.ProcessEnv = {}, options: TestAppOptions = {}): Promise<TestApp> {
  let offsetMs = 0;
  const clock: TestClock = { now: () => Date.now() + offsetMs, advance: (ms) => void (offsetMs += ms) };
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', ...overrides });
  const database = await createTestDatabase();
  const logs: Array<Record<string, unknown>> = [];
  const storage = new LocalDiskStorage(await mkdtemp(path.join(tmpdir(), 'xcad-storage-')));
  const app = await buildApp({
    env,
    db: database.db,
    logger: capturingLogger(env, logs),
    clock: clock.now,
    smsProvider: options.smsProvider,
    storage,
    payProviders: options.payProviders,
    conversionJobs: options.conversionJobs,
    onRoute: options.onRoute,
    conversionMinChunkBytes: options.conversionMinChunkBytes,
  });
  return {
    app,
    database,
    env,
    logs,
    clock,
    storage,
    close: async () => {
      await app.close();
      await database.destroy();
      await rm(storage.root, { recursive: true, force: true });
    },
  };
}

/**
 * A second API process beside `first`: its own app (and, on PostgreSQL, its own connection pool)
 * over the same database, storage and clock, as behind a load balancer. SQLite's second app shares
 * the first one's connection: two better-sqlite3 connections in one process would block each
 * other with the event loop stopped. Its `close` leaves the first app's database alone.
 */
export async function createSecondTestApp(first: TestApp, options: TestAppOptions = {}): Promise<TestApp> {
  const database = first.database.engine === 'postgres' ? createDatabase({ databaseUrl: first.database.location, poolMax: 5 }) : undefined;
  const db = database?.db ?? first.database.db;
  const logs: Array<Record<string, unknown>> = [];
  const app = await buildApp({
    env: first.env,
    db,
    logger: capturingLogger(first.env, logs),
    clock: first.clock.now,
    smsProvider: options.smsProvider,
    storage: first.storage,
    conversionJobs: options.conversionJobs,
  });
  return {
    ...first,
    app,
    logs,
    close: async () => {
      await app.close();
      await database?.destroy();
    },
  };
}

export interface SignedCallOptions {
  /** The device id of the common fields (default `test-device`). */
  deviceid?: string;
  /** The client address the app sees (default 127.0.0.1). */
  ip?: string;
  headers?: Record<string, string>;
}

/**
 * POSTs `fields` to `path` as the product clients do (spec §7): common fields with the app
 * clock's timestamp, a fresh nonce, and a datasign over all of it. Resolves with the parsed
 * JSON body, the HTTP status and the response headers.
 */
export async function signedCall(
  t: TestApp,
  path: string,
  fields: SignableFields = {},
  options: SignedCallOptions = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const signed = signFields(
    {
      ...productDevice(options.deviceid ?? 'test-device', { deviceos: 'Linux' }),
      timestamp: Math.floor(t.clock.now() / 1000),
      nonce: randomUUID(),
      ...fields,
    },
    t.env.PRODUCT_SIGN_SECRET,
  );
  const response = await t.app.inject({
    method: 'POST',
    url: path,
    payload: signed,
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: { 'x-product': '141', ...options.headers },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>(), headers: response.headers };
}
