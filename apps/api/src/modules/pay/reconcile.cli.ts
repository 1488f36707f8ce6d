// `npm run pay:reconcile -- [yyyy-MM-dd]` (decision 0043): downloads each provider's statement of that
// Beijing day (default yesterday) and prints every order whose state or amount disagrees with ours,
// in the database the environment selects. Exits 1 when anything disagrees or a statement is missing.
import { createDatabase, type DatabaseHandle } from '@xcad/db';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { createPayProviders } from './pay.factory';
import { BILL_DATE_PATTERN, reconcileDay, yesterdayOf } from './reconcile.service';

const billDate = process.argv[2] ?? yesterdayOf(Math.floor(Date.now() / 1000));
if (!BILL_DATE_PATTERN.test(billDate)) {
  console.error('usage: npm run pay:reconcile -- [yyyy-MM-dd]  (a Beijing day; default yesterday)');
  process.exit(2);
}

let handle: DatabaseHandle | undefined;
let isClean = true;
try {
  const env = loadEnv();
  const log = createLogger(env);
  handle = createDatabase({ databaseUrl: env.DATABASE_URL, sqlitePath: env.SQLITE_PATH });
  const { providers } = createPayProviders(env, log);
  for (const report of await reconcileDay({ db: handle.db, env, log, clock: Date.now, providers }, billDate)) {
    if ('error' in report) {
      isClean = false;
      console.error(`reconcile ${report.billDate} ${report.provider}: no statement (${report.error})`);
      continue;
    }
    console.info(
      `reconcile ${report.billDate} ${report.provider}: ${report.rows} statement lines, ${report.discrepancies.length} disagreeing`,
    );
    for (const discrepancy of report.discrepancies) {
      isClean = false;
      console.info(`  ${JSON.stringify(discrepancy)}`);
    }
  }
  await handle.destroy();
} catch (error) {
  console.error(`reconcile: ${error instanceof Error ? error.message : String(error)}`);
  await handle?.destroy().catch(() => undefined);
  process.exit(1);
}
process.exit(isClean ? 0 : 1);
