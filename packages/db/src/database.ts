import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.types';

export type DatabaseEngine = 'sqlite' | 'postgres';

export interface DatabaseConfig {
  /** PostgreSQL connection string; when given, PostgreSQL is used. */
  databaseUrl?: string;
  /** SQLite file; relative paths are taken from the repository root. */
  sqlitePath?: string;
  /** Largest number of PostgreSQL connections in the pool. */
  poolMax?: number;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: DatabaseEngine;
  destroy(): Promise<void>;
}

export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const DEFAULT_SQLITE_PATH = 'data/xcad.sqlite';

const PG_INT8_OID = 20;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Where a SQLite path points, relative paths resolved from the repository root. */
export function resolveSqlitePath(sqlitePath: string): string {
  return sqlitePath === ':memory:' ? sqlitePath : path.resolve(repositoryRoot, sqlitePath);
}

function openSqlite(sqlitePath: string): DatabaseHandle {
  const file = resolveSqlitePath(sqlitePath);
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // WAL makes NORMAL durable against application crashes; only an OS crash can lose the last commits.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, engine: 'sqlite', destroy: () => db.destroy() };
}

function openPostgres(connectionString: string, poolMax: number): DatabaseHandle {
  // Epoch columns are bigint; read them as numbers (exact up to 2^53) as SQLite does, without
  // touching pg's global parsers.
  const types = new pg.TypeOverrides();
  types.setTypeParser(PG_INT8_OID, Number);
  const pool = new pg.Pool({ connectionString, max: poolMax, types });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', destroy: () => db.destroy() };
}

/**
 * Opens the database: PostgreSQL when a connection string is given (argument, else env
 * `DATABASE_URL`), otherwise SQLite at `sqlitePath` (argument, else env `SQLITE_PATH`, else
 * `data/xcad.sqlite` under the repository root). Explicit arguments win over the environment.
 */
export function createDatabase(config: DatabaseConfig = {}, env: NodeJS.ProcessEnv = process.env): DatabaseHandle {
  const explicitUrl = nonEmpty(config.databaseUrl);
  const explicitPath = nonEmpty(config.sqlitePath);
  if (explicitUrl !== undefined) return openPostgres(explicitUrl, config.poolMax ?? 10);
  if (explicitPath !== undefined) return openSqlite(explicitPath);
  const envUrl = nonEmpty(env['DATABASE_URL']);
  if (envUrl !== undefined) return openPostgres(envUrl, config.poolMax ?? 10);
  return openSqlite(nonEmpty(env['SQLITE_PATH']) ?? DEFAULT_SQLITE_PATH);
}
