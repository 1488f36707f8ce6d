// The API process: check the environment, open and migrate the database, listen; on SIGTERM or
// SIGINT stop accepting, let in-flight requests finish, close the database and exit.
import { createDatabase, migrateToLatest, type DatabaseHandle } from '@xcad/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { EnvError, loadEnv, type Env } from './env';
import { exitGracefullyOnSignals, exitWithFailure } from './lib/process-exit';
import { devDoorsAtStart } from './plugins/dev-doors';

const FORCED_EXIT_MS = 10_000;

function fail(message: string): never {
  exitWithFailure('api', message);
}

let env: Env;
try {
  env = loadEnv();
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}

// The development providers serve a local trial, not a public site (decision 0026).
const devDoors = devDoorsAtStart(env);
if (devDoors.kind === 'refused') fail(`refusing to start: ${devDoors.message}`);
if (devDoors.kind === 'overridden') console.warn(`[api] WARNING: ${devDoors.message}`);

let database: DatabaseHandle | undefined;
let app: FastifyInstance;
try {
  database = createDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  await migrateToLatest(database.db);
  app = await buildApp({ env, db: database.db });
  await app.listen({ host: env.API_HOST, port: env.API_PORT });
} catch (error) {
  await database?.destroy().catch(() => undefined);
  fail(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
}
const opened = database;

if (devDoors.kind === 'overridden') app.log.warn({ origin: env.UNSAFE_DEV_PROVIDERS_AT }, devDoors.message);

const address = app.server.address();
const port = typeof address === 'object' && address !== null ? address.port : env.API_PORT;
console.info(`[api] listening on http://${env.API_HOST.includes(':') ? `[${env.API_HOST}]` : env.API_HOST}:${port} (${opened.engine})`);

exitGracefullyOnSignals({
  name: 'api',
  forcedExitMs: FORCED_EXIT_MS,
  overdue: 'in-flight requests did not finish',
  onSignal: (signal) => app.log.info({ signal }, 'shutting down'),
  stop: async () => {
    await app.close();
    await opened.destroy();
  },
});
