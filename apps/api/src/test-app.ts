// Shared set-up of the API tests: the real app over a fresh database of the engine under test.
import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import { loadEnv, type Env } from './env';
import { loggerOptions } from './logger';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabaseHandle;
  env: Env;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function createTestApp(overrides: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const env = loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', ...overrides });
  const database = await createTestDatabase();
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      callback();
    },
  });
  const app = await buildApp({ env, db: database.db, logger: pino(loggerOptions(env), sink) });
  return {
    app,
    database,
    env,
    logs,
    close: async () => {
      await app.close();
      await database.destroy();
    },
  };
}
