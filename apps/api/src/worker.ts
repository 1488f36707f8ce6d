// `npm run worker`: a conversion worker process for CONVERSION_QUEUE=bullmq. It opens the same
// database and storage as the API processes (which migrate the database and take the uploads)
// and converts the jobs of the Redis queue, CONVERSION_CONCURRENCY at a time. Start as many as the
// machines allow; on SIGTERM or SIGINT it takes no new job, lets running conversions finish (or
// hands them back to the queue after a grace period), closes the database and exits.
import { createDatabase, type DatabaseHandle } from '@xcad/db';
import { EnvError, loadEnv, type Env } from './env';
import { exitGracefullyOnSignals, exitWithFailure } from './lib/process-exit';
import { createLogger } from './logger';
import { BullmqConversionWorker } from './modules/conversion/bullmq/bullmq-worker';
import { storageFromEnv } from './storage';

/** Beyond the worker's own grace period, how long shutting down may take before the process just exits. */
const FORCED_EXIT_MS = 20_000;

function fail(message: string): never {
  exitWithFailure('worker', message);
}

let env: Env;
try {
  env = loadEnv();
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}
if (env.CONVERSION_QUEUE !== 'bullmq') {
  console.warn('[worker] CONVERSION_QUEUE is not bullmq: the API processes run the local queue themselves and enqueue nothing here');
}

const log = createLogger(env);
let database: DatabaseHandle;
let worker: BullmqConversionWorker;
try {
  database = createDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  worker = new BullmqConversionWorker({ db: database.db, storage: storageFromEnv(env), log, clock: Date.now, env });
  await worker.start();
} catch (error) {
  fail(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
}
const opened = database;
const running = worker;
log.info(
  { runner: running.runner, queue: env.CONVERSION_QUEUE_NAME, concurrency: env.CONVERSION_CONCURRENCY, database: opened.engine },
  'conversion worker started',
);

exitGracefullyOnSignals({
  name: 'worker',
  forcedExitMs: FORCED_EXIT_MS,
  overdue: 'did not stop',
  onSignal: (signal) => log.info({ signal, runner: running.runner }, 'conversion worker stopping'),
  stop: async () => {
    await running.stop();
    await opened.destroy();
  },
});
