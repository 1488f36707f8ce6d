import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { DatabaseConfig } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, isPasswordRight } from '../auth/credentials';
import { insertUser } from '../auth/user.repository';
import { runOperatorCreate } from './operator.cli';

// Decisions 0022 and 0042: `npm run operator:create -- --phone ... [--password ...] [--role ...]` against a real database
// (SQLite and PostgreSQL): creates or promotes, idempotent, clear messages and exit codes.

let database: TestDatabaseHandle;
let config: DatabaseConfig;

beforeAll(async () => {
  database = await createTestDatabase();
  config = database.engine === 'postgres' ? { databaseUrl: database.location } : { sqlitePath: database.location };
});

afterAll(async () => {
  await database.destroy();
});

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperatorCreate(argv, { out: (line) => out.push(line), err: (line) => err.push(line), database: config });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function userOf(mobile: string) {
  return database.db.selectFrom('app_user').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

async function operatorIds(): Promise<number[]> {
  return (await database.db.selectFrom('operators').select('user_id').orderBy('user_id').execute()).map((row) => row.user_id);
}

describe('operator:create', () => {
  it('creates the user of a new phone with the password, as an operator; a second run changes nothing', async () => {
    const first = await run('--phone', '13800000001', '--password', 'Operator2026');
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(first.out).toContain('created the user 138****0001');
    expect(first.out).toContain('made them an operator');
    expect(first.out).toContain('password set');
    const user = await userOf('13800000001');
    expect(user).toMatchObject({ username: '13800000001', nickname: '138****0001', status: 'active' });
    // Hashed as the accounts hash theirs: the password signs in, another does not.
    expect(await isPasswordRight(user?.password_hash ?? null, 'Operator2026')).toBe(true);
    expect(await isPasswordRight(user?.password_hash ?? null, 'Operator2027')).toBe(false);
    expect(await operatorIds()).toContain(user?.id);

    const again = await run('--phone', '86-13800000001', '--password', 'Different99');
    expect(again.code).toBe(0);
    expect(again.out).toContain('found the user 138****0001');
    expect(again.out).toContain('were an operator already; nothing changed');
    expect(again.out).toContain('already have a password, which was left as it was');
    expect((await userOf('13800000001'))?.password_hash).toBe(user?.password_hash);
    expect((await operatorIds()).filter((id) => id === user?.id)).toHaveLength(1);
  });

  it('promotes an existing user and keeps their password; without --password a new user signs in by SMS', async () => {
    const passwordHash = await hashPassword('Member2026');
    const memberId = await insertUser(database.db, {
      username: '13800000002',
      mobile: '13800000002',
      nickname: 'member',
      passwordHash,
      now: 1_800_000_000,
    });
    const promoted = await run('--phone', '13800000002');
    expect(promoted.code).toBe(0);
    expect(promoted.out).toContain(`found the user 138****0002 (user ${memberId})`);
    expect((await userOf('13800000002'))?.password_hash).toBe(passwordHash);
    expect(await operatorIds()).toContain(memberId);

    const smsOnly = await run('--phone', '13800000003');
    expect(smsOnly.out).toContain('no password given: they sign in with the phone and an SMS code');
    expect((await userOf('13800000003'))?.password_hash).toBeNull();
  });

  it('grants the roles given (Chinese names or codes, repeatable), 管理员 when none is given; roles add up', async () => {
    const rolesOf = async (mobile: string) => {
      const user = await userOf(mobile);
      const rows = await database.db
        .selectFrom('operator_role')
        .select('role')
        .where('user_id', '=', user?.id ?? 0)
        .orderBy('role')
        .execute();
      return rows.map((row) => row.role);
    };
    const first = await run('--phone', '13800000011');
    expect(first.out).toContain('granted 管理员');
    expect(await rolesOf('13800000011')).toEqual(['admin']);

    const two = await run('--phone', '13800000012', '--role', '客服', '--role', 'finance');
    expect(two.code).toBe(0);
    expect(two.out).toContain('granted 客服、财务');
    expect(await rolesOf('13800000012')).toEqual(['finance', 'support']);
    const more = await run('--phone', '13800000012', '--role', '内容编辑', '--role', '客服');
    expect(more.out).toContain('granted 内容编辑; roles now 客服、财务、内容编辑');
    expect(await rolesOf('13800000012')).toEqual(['editor', 'finance', 'support']);
    const same = await run('--phone', '13800000012', '--role', '客服');
    expect(same.out).toContain('nothing changed');

    const bad = await run('--phone', '13800000013', '--role', '超级管理员');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown role: 超级管理员');
    expect(await userOf('13800000013')).toBeUndefined();
  });

  it('refuses bad arguments with the usage and exit code 2, writing nothing', async () => {
    const before = await operatorIds();
    for (const argv of [
      [],
      ['--phone'],
      ['--phone', '12345'],
      ['--phone', '13800000004', '--password', 'short'],
      ['--phone', '13800000004', '--password', '含中文的密码abc'],
      ['--phone', '13800000004', '--admin'],
    ]) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err).toContain('usage: npm run operator:create -- --phone 13800000000 [--password PASSWORD]');
      expect(result.err).not.toMatch(/\bat .+\(.+\)/);
    }
    expect(await userOf('13800000004')).toBeUndefined();
    expect(await operatorIds()).toEqual(before);
  });

  // Two Node processes under tsx: seconds each on a busy machine.
  it('runs as the npm script does, and says so when the database cannot be reached', { timeout: 30_000 }, () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
    const cli = path.join(root, 'apps/api/src/modules/analytics/operator.cli.ts');
    const env = { ...process.env, DATABASE_URL: config.databaseUrl ?? '', SQLITE_PATH: config.sqlitePath ?? '' };
    const done = spawnSync(process.execPath, ['--import', 'tsx', cli, '--phone', '13800000005'], { cwd: root, env, encoding: 'utf8' });
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('created the user 138****0005');

    const unreachable = spawnSync(process.execPath, ['--import', 'tsx', cli, '--phone', '13800000006'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      encoding: 'utf8',
    });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^operator: .*ECONNREFUSED/m);
    expect(unreachable.stderr).not.toMatch(/\bat .+\(.+\)/);
  });
});
