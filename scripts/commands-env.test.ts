import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '@xcad/db';
import { root } from './lib.mjs';

// Decision 0026 (one way to read settings): `npm run db:migrate`, `db:seed`, `content:import`, `operator:create` and
// `invoice:issue` ignored .env: with the database named only there they wrote to a new SQLite file
// and reported success. Each command runs here as a user runs it (`npm run ...`) with its settings
// only in the settings file (XCAD_ENV_FILE stands in for the repository's .env, which other runs
// share), and the test looks in the database that file names.

let dir: string;
let sqlitePath: string;
const PHONE = '13912345678';
const ORDERNO = 'XC2026120112000012345678';

/** Runs `npm run <script> -- args` with nothing of the database or storage in the real environment. */
function npmRun(script: string, args: string[] = []): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, XCAD_ENV_FILE: path.join(dir, 'settings.env') };
  for (const name of ['DATABASE_URL', 'SQLITE_PATH', 'STORAGE_DIR', 'STORAGE_PROVIDER', 'NODE_ENV']) delete env[name];
  const result = spawnSync('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function withDatabase<T>(action: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = createDatabase({ sqlitePath });
  try {
    return await action(handle);
  } finally {
    await handle.destroy();
  }
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'xcad-commands-'));
  sqlitePath = path.join(dir, 'settings-file.sqlite');
  writeFileSync(path.join(dir, 'settings.env'), `SQLITE_PATH=${sqlitePath}\nSTORAGE_DIR=${path.join(dir, 'storage')}\nLOG_LEVEL=warn\n`);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the README commands read the settings file as npm start does (decision 0026)', () => {
  it('db:migrate and db:seed (with content:import) fill the database and storage the file names', async () => {
    const migrate = npmRun('db:migrate');
    expect(migrate.output).toContain('db: applied');
    expect(migrate.status).toBe(0);
    expect(existsSync(sqlitePath)).toBe(true);

    const seed = npmRun('db:seed');
    expect(seed.status, seed.output).toBe(0);
    const counts = await withDatabase(async ({ db }) => ({
      packages: (
        await db
          .selectFrom('pay_package')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      posts: (
        await db
          .selectFrom('content_post')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    }));
    expect(counts.packages).toBeGreaterThan(0);
    expect(counts.posts).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, 'storage'))).toBe(true);
  }, 120_000);

  it('operator:create and invoice:issue change that database', async () => {
    const created = npmRun('operator:create', ['--phone', PHONE]);
    expect(created.status, created.output).toBe(0);
    const user = await withDatabase(({ db }) =>
      db
        .selectFrom('app_user')
        .innerJoin('operators', 'operators.user_id', 'app_user.id')
        .select('app_user.id')
        .where('app_user.mobile', '=', PHONE)
        .executeTakeFirst(),
    );
    expect(user).toBeDefined();

    const now = Math.floor(Date.now() / 1000);
    await withDatabase(async ({ db }) => {
      const order = await db
        .insertInto('pay_order')
        .values({
          orderno: ORDERNO,
          user_id: user?.id ?? 0,
          paytype: 'wxpay',
          provider: 'sandbox',
          state: 'paid',
          amount_fen: 8800,
          subject: 'test',
          bundle_real_id: null,
          created_at: now,
          expires_at: now + 1800,
          paid_at: now,
          closed_at: null,
          transaction_id: 'T1',
          provider_checked_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('invoice')
        .values({
          order_id: order.id,
          user_id: user?.id ?? 0,
          title_type: 'personal',
          title: '张三',
          email: 'a@example.com',
          address: null,
          phone: null,
          bank: null,
          bank_account: null,
          created_at: now,
          issued_at: null,
        })
        .execute();
    });
    const issued = npmRun('invoice:issue', [ORDERNO]);
    expect(issued.output).toContain(`invoice: ${ORDERNO} issued`);
    expect(issued.status).toBe(0);
    const invoice = await withDatabase(({ db }) => db.selectFrom('invoice').select('state').executeTakeFirst());
    expect(invoice?.state).toBe('issued');
  }, 60_000);

  it('stops with one line when the settings file it was pointed at is missing', () => {
    rmSync(path.join(dir, 'settings.env'));
    const migrate = npmRun('db:migrate');
    expect(migrate.status).toBe(1);
    expect(migrate.output.trim()).toBe(`[xcad] cannot read the settings file ${path.join(dir, 'settings.env')}: ENOENT`);
  });
});
