// Test helper (CONVENTIONS "Tests"): every test file gets its own migrated database on the engine
// chosen by TEST_DB_ENGINE ('sqlite' by default, 'postgres' for the PostgreSQL project).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDatabase, type DatabaseEngine, type DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';

export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabaseHandle extends DatabaseHandle {
  /** Where the database lives: the SQLite file, or the PostgreSQL connection string. */
  location: string;
}

export interface TestDatabaseOptions {
  engine?: DatabaseEngine;
  /** Apply every migration before returning (default true). */
  migrate?: boolean;
}

function engineFromEnv(): DatabaseEngine {
  const value = process.env['TEST_DB_ENGINE'] ?? 'sqlite';
  if (value !== 'sqlite' && value !== 'postgres') {
    throw new Error(`TEST_DB_ENGINE must be 'sqlite' or 'postgres', not '${value}'`);
  }
  return value;
}

function uniqueSuffix(): string {
  return `${process.pid}_${randomBytes(6).toString('hex')}`;
}

function createSqliteTestDatabase(): TestDatabaseHandle {
  const file = path.join(os.tmpdir(), `xcad_t_${uniqueSuffix()}.sqlite`);
  const handle = createDatabase({ sqlitePath: file });
  return {
    ...handle,
    location: file,
    destroy: async () => {
      await handle.destroy();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    },
  };
}

async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL is not reachable at ${adminUrl} (TEST_PG_URL): ${cause}. Start the server or run only the sqlite test project.`,
      { cause: error },
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const OBJECT_IN_USE = '55006';

function isObjectInUse(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === OBJECT_IN_USE;
}

/**
 * Drops `name` once the pool's sessions have gone. The pool's `end()` resolves before the server
 * has closed every backend, and `WITH (FORCE)` would kill those backends mid-goodbye, which pg
 * reports as an uncaught error; so wait for them, and force only as a last resort.
 */
async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (error) {
      if (!isObjectInUse(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

async function createPostgresTestDatabase(): Promise<TestDatabaseHandle> {
  const adminUrl = process.env['TEST_PG_URL'] ?? DEFAULT_TEST_PG_URL;
  // Only [a-z0-9_] goes into the name, so it is safe to splice into the statement.
  const name = `xcad_t_${uniqueSuffix()}`;
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = createDatabase({ databaseUrl: url.toString(), poolMax: 5 });
  return {
    ...handle,
    location: url.toString(),
    destroy: async () => {
      await handle.destroy();
      await withAdminClient(adminUrl, (client) => dropDatabase(client, name));
    },
  };
}

/** A fresh database for one test file; `destroy()` closes and deletes it. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabaseHandle> {
  const engine = options.engine ?? engineFromEnv();
  const handle = engine === 'postgres' ? await createPostgresTestDatabase() : createSqliteTestDatabase();
  if (options.migrate !== false) {
    try {
      await migrateToLatest(handle.db);
    } catch (error) {
      await handle.destroy();
      throw error;
    }
  }
  return handle;
}
