import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asVisitor, registerThroughApi, signInContext, uniquePhone } from '../support/auth';
import { useBrowser } from '../support/browser';
import { createOperator, signInConsole } from '../support/operator';

// The back office (decision 0042) in Chromium at 1280 px: an operator signs in with an SMS code, finds a
// user by phone, extends their membership with a reason (the user's /personal.html shows it, the audit
// log has it); a 客服 sees only their sections and is refused the others with 403.

const browser = useBrowser();
const CONSOLE = { viewport: { width: 1280, height: 900 }, locale: 'zh-CN' } as const;
// Every console page at 1280 px, to be looked at (the folder is printed).
const SHOTS = mkdtempSync(path.join(os.tmpdir(), 'xcad-e2e-console-'));
console.info(`console screenshots: ${SHOTS}`);

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`), fullPage: true });
}

describe('the back office', () => {
  it('signs an operator in by SMS, finds a user by phone and extends a membership the user then sees', async () => {
    const admin = createOperator(['管理员']);
    const phone = uniquePhone();
    await registerThroughApi(phone, 'member88');

    const page = await browser.page(asVisitor(CONSOLE));
    // Without a console session every console page leads to the sign-in.
    await page.goto('/operator/users');
    await page.waitForURL('**/operator/login**');
    await shoot(page, 'login');
    await signInConsole(page, admin.phone);
    // Back to the page asked for, then the console's first page.
    await page.waitForURL('**/operator/users');
    await page.getByTestId('console-nav').getByRole('link', { name: '概览' }).click();
    await page.waitForURL('**/operator');
    const menu = await page.getByTestId('console-nav').locator('a').allInnerTexts();
    expect(menu).toEqual(['概览', '用户', '统计', '审计日志', '操作员']);
    await expect(page.getByTestId('console-roles').innerText()).resolves.toContain('管理员');
    await page.getByTestId('period-week').waitFor();
    await shoot(page, 'overview');

    // 用户: search by phone; the filter stays in the address.
    await page.getByTestId('console-nav').getByRole('link', { name: '用户' }).click();
    await page.waitForURL('**/operator/users');
    await page.getByTestId('user-search').locator('input[name="q"]').fill(phone);
    await page.getByTestId('user-search').getByRole('button', { name: '搜索' }).click();
    await page.waitForURL(`**/operator/users?q=${phone}**`);
    const rows = page.getByTestId('user-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().innerText()).resolves.toContain(phone);
    await shoot(page, 'users');
    await rows.first().getByRole('link', { name: '查看' }).click();
    await page.getByTestId('user-profile').waitFor();

    // Extend 迅捷CAD编辑器 by 30 days with a reason.
    const change = page.getByTestId('membership-change');
    await change.locator('select[name="productId"]').selectOption('211');
    await change.locator('select[name="action"]').selectOption('extend');
    await change.locator('input[name="days"]').fill('30');
    // A reason is required: the API refuses without one and nothing changes.
    await change.getByRole('button', { name: '确定' }).click();
    await expect.poll(() => change.getByRole('alert').innerText()).toBe('请填写操作原因');
    await change.locator('input[name="reason"]').fill('用户反馈服务中断，补偿30天');
    await change.getByRole('button', { name: '确定' }).click();
    await change.getByRole('status').waitFor();
    const row = page.getByTestId('user-memberships').locator('tr[data-product="211"]');
    await expect.poll(() => row.innerText()).toContain('有效');
    await expect.poll(() => page.getByTestId('membership-history').innerText()).toContain('用户反馈服务中断，补偿30天');
    await shoot(page, 'user');

    // The user's personal centre shows the membership.
    const member = await browser.page(asVisitor(CONSOLE));
    await signInContext(member.context(), phone, 'member88');
    await member.goto('/personal.html');
    await expect.poll(() => member.getByTestId('personal-membership-bianjiqi').innerText()).toContain('高级会员');

    // The audit log has the change, with its reason.
    await page.getByTestId('console-nav').getByRole('link', { name: '审计日志' }).click();
    await page.getByTestId('audit-table').waitFor();
    await expect(page.getByTestId('audit-table').locator('tbody tr').first().innerText()).resolves.toContain('用户反馈服务中断，补偿30天');
    await shoot(page, 'audit');
    await page.goto('/operator/operators');
    await page.getByTestId('operator-table').waitFor();
    await shoot(page, 'operators');
    await page.goto('/operator/analytics');
    await page.getByTestId('analytics-report').waitFor();
    await shoot(page, 'analytics');
  });

  it('shows a 客服 only their sections and answers the others 403', async () => {
    const support = createOperator(['客服']);
    const page = await browser.page(asVisitor(CONSOLE));
    await page.goto('/operator/login');
    await signInConsole(page, support.phone);
    const menu = await page.getByTestId('console-nav').locator('a').allInnerTexts();
    expect(menu).toEqual(['概览', '用户']);
    for (const path of ['/operator/analytics', '/operator/audit', '/operator/operators']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByTestId('console-forbidden').innerText()).resolves.toContain('没有权限');
    }
    await shoot(page, 'forbidden');
    const users = await page.goto('/operator/users');
    expect(users?.status()).toBe(200);
  });
});
