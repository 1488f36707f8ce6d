import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { smsCodeFor, uniquePhone } from './auth';

// The back office in browser tests (decision 0042): operators made the way an administrator makes the
// first one (`npm run operator:create`), and the console's sign-in driven as an operator does it
// (phone, 获取验证码, the code from the dev SMS outbox, 登录).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Operator {
  readonly phone: string;
  readonly password: string;
}

/** An operator account with `roles` (Chinese names as typed on the command line; none: 管理员). */
export function createOperator(roles: readonly string[] = []): Operator {
  const operator = { phone: uniquePhone(), password: 'oper8888' };
  const env: NodeJS.ProcessEnv = { ...process.env, SQLITE_PATH: inject('sqlitePath'), LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  const output = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'apps/api/src/modules/analytics/operator.cli.ts'),
      '--phone',
      operator.phone,
      '--password',
      operator.password,
      ...roles.flatMap((role) => ['--role', role]),
    ],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  expect(output).toContain('operator');
  return operator;
}

/** Signs in on the console's sign-in page the page is showing; resolves once the console has loaded. */
export async function signInConsole(page: Page, phone: string): Promise<void> {
  const form = page.getByTestId('operator-login');
  await form.waitFor();
  await form.locator('input[name="phone"]').fill(phone);
  await form.getByRole('button', { name: '获取验证码' }).click();
  const code = await smsCodeFor(phone);
  await form.locator('input[name="code"]').fill(code);
  await form.getByRole('button', { name: '登录' }).click();
  await page.getByTestId('console-nav').waitFor();
}
