import { createDatabase } from '@xcad/db';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { asVisitor, registerThroughApi, signInContext, smsCodeFor, uniquePhone } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// Decision 0018: buying a membership as a person does it, in Chromium against the production build and
// the sandbox payment provider: a visitor signs in inside the cashier, pays 12 months of the
// editor on the sandbox cashier (as a phone scanning the QR would), sees 高级会员 and the expiry,
// finds the order in the purchase records and applies for its invoice; a lapsed member sees
// 会员已过期.

const browser = useBrowser();

/** The Beijing calendar date a year from now, as the site prints dates (yyyy/MM/dd). */
function aYearFromNow(): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').hover();
  await page.getByTestId('user-menu-products').waitFor();
}

/** Signs in with phone and SMS code inside the cashier (buying signs a visitor in). */
async function signInInCashier(page: Page, phone: string): Promise<void> {
  const signin = page.getByTestId('cashier-signin');
  await signin.waitFor();
  await signin.getByTestId('field-phone').fill(phone);
  await signin.getByTestId('field-agree').check();
  await signin.getByTestId('sms-send').click();
  await signin.getByTestId('field-smscode').fill(await smsCodeFor(phone));
  await signin.getByTestId('submit').click();
}

describe('buying a membership', () => {
  it('buys 12 months of the editor with the sandbox cashier, then sees 高级会员, the order and its invoice', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/buy/cadeditor.html');
    await page.getByTestId('plan-304').click();
    await page.getByTestId('paytype-wxpay').click();
    await page.getByTestId('buy-now').click();
    await page.getByTestId('cashier').waitFor();

    await signInInCashier(page, uniquePhone());
    await page.getByTestId('cashier-qr').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('cashier-amount').innerText()).toContain('68');
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();
    expect(orderno).toMatch(/^XC\d{22}$/);
    // The QR encodes the sandbox cashier a phone would open.
    const payurl = await page.getByTestId('cashier-qr').getAttribute('data-payurl');
    expect(payurl).toBe(`${inject('baseUrl')}/pay/sandbox/${orderno}`);

    // The phone: the sandbox cashier page, 确认支付.
    const phone = await browser.page(asVisitor(MOBILE));
    await phone.goto(`/pay/sandbox/${orderno}`);
    await expect.poll(() => phone.getByTestId('sandbox-amount').innerText()).toContain('68');
    await phone.getByTestId('sandbox-pay').click();
    await expect.poll(() => phone.getByTestId('sandbox-result').innerText()).toContain('支付成功');

    // The desktop cashier sees it on its next poll.
    await page.getByTestId('cashier-success').waitFor({ timeout: 10_000 });
    await page.getByTestId('cashier-done').click();
    await expect.poll(() => page.getByTestId('user-menu-level').innerText()).toBe('高级会员');
    await openUserMenu(page);
    await expect.poll(() => page.getByTestId('user-menu-product-bianjiqi').innerText()).toContain(`${aYearFromNow()} 到期`);
    await expect(page.getByTestId('user-menu-product-tuku').innerText()).resolves.toContain('普通用户');

    // Purchase records.
    await page.goto('/personal-buy.html');
    const row = page.locator(`[data-testid="order-row"][data-orderno="${orderno}"]`).first();
    await row.waitFor();
    await expect(row.getByTestId('order-state').innerText()).resolves.toContain('已支付');
    await expect(row.innerText()).resolves.toContain('12个月会员');

    // The invoice for that order.
    await page.goto(`/invoice.html?orderno=${orderno}`);
    const form = page.getByTestId('invoice-form');
    await form.waitFor();
    await expect(page.getByTestId('invoice-order').inputValue()).resolves.toBe(orderno);
    await form.locator('label', { has: page.getByTestId('invoice-titletype-company') }).click();
    await page.getByTestId('invoice-field-title').fill('杭州示例建筑设计有限公司');
    await page.getByTestId('invoice-field-email').fill('finance@example.com');
    await page.getByTestId('invoice-submit').click();
    // A company needs its tax id: the shared rule's message, under the field.
    await expect.poll(() => page.getByTestId('field-error-taxno').innerText()).toBe('企业抬头请填写纳税人识别号');
    await page.getByTestId('invoice-field-taxno').fill('91330100MA2XXXXX1Y');
    await page.getByTestId('invoice-submit').click();
    const list = page.getByTestId('invoice-list');
    await expect.poll(() => list.innerText(), { timeout: 10_000 }).toContain(orderno);
    await expect(list.innerText()).resolves.toContain('已提交');
  });

  it('shows 会员已过期 to a member whose memberships have lapsed', async () => {
    const phone = uniquePhone();
    await registerThroughApi(phone, 'lapsed88');
    const { db, destroy } = createDatabase({ sqlitePath: inject('sqlitePath') });
    try {
      const user = await db.selectFrom('app_user').select('id').where('username', '=', phone).executeTakeFirstOrThrow();
      const yesterday = Math.floor(Date.now() / 1000) - 86_400;
      await db
        .insertInto('membership')
        .values({ user_id: user.id, product_id: 211, auth_value: yesterday, updated_at: yesterday })
        .execute();
    } finally {
      await destroy();
    }
    const page = await browser.page(asVisitor(DESKTOP));
    await signInContext(page.context(), phone, 'lapsed88');
    await page.goto('/');
    await expect.poll(() => page.getByTestId('user-menu-level').innerText()).toBe('会员已过期');
    await openUserMenu(page);
    await expect(page.getByTestId('user-menu-product-bianjiqi').innerText()).resolves.toContain('会员已过期');
    await page.goto('/personal.html');
    await expect.poll(() => page.getByTestId('personal-overview').innerText()).toContain('会员已过期');
  });

  it('shows a closed order as such when the buyer cancels on the sandbox cashier, and orders again', async () => {
    const phone = uniquePhone();
    await registerThroughApi(phone, 'cancel88');
    const page = await browser.page(asVisitor(MOBILE));
    await signInContext(page.context(), phone, 'cancel88');
    await page.goto('/buy/cadtuku.html');
    await page.getByTestId('buy-now').click();
    await page.getByTestId('cashier-qr').waitFor({ timeout: 15_000 });
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();
    const cancelled = await fetch(`${inject('baseUrl')}/api/dev/pay/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderno }),
    });
    expect(await cancelled.json()).toMatchObject({ code: 10000, state: 'closed' });
    await page.getByTestId('cashier-failure').waitFor({ timeout: 10_000 });
    await page.getByTestId('cashier-again').click();
    await expect.poll(async () => (await page.getByTestId('cashier-orderno').innerText()).trim(), { timeout: 15_000 }).not.toBe(orderno);
  });

  it('keeps one order when the buyer switches the pay method three times, and shows no 待支付 ghost once paid', async () => {
    const phone = uniquePhone();
    await registerThroughApi(phone, 'switch88');
    const page = await browser.page(asVisitor(DESKTOP));
    await signInContext(page.context(), phone, 'switch88');
    await page.goto('/buy/cadeditor.html');
    await page.getByTestId('plan-532').click();
    await page.getByTestId('paytype-wxpay').click();
    await page.getByTestId('buy-now').click();
    await page.getByTestId('cashier-qr').waitFor({ timeout: 15_000 });
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();

    for (const paytype of ['alipay', 'wxpay', 'alipay'] as const) {
      await page.getByTestId(`cashier-paytype-${paytype}`).click();
      await page.locator(`[data-testid="cashier-pay"][data-paytype="${paytype}"] [data-testid="cashier-qr"]`).waitFor({ timeout: 15_000 });
      await expect(page.getByTestId('cashier-orderno').innerText()).resolves.toBe(orderno);
    }

    // Paid on the phone with the method chosen last.
    const payer = await browser.page(asVisitor(MOBILE));
    await payer.goto(`/pay/sandbox/${orderno}`);
    await expect.poll(() => payer.getByTestId('sandbox-state').innerText()).toContain('待支付');
    await payer.getByTestId('sandbox-pay').click();
    await page.getByTestId('cashier-success').waitFor({ timeout: 10_000 });

    await page.goto('/personal-buy.html');
    const rows = page.getByTestId('order-row');
    await rows.first().waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    await expect(rows.first().getAttribute('data-orderno')).resolves.toBe(orderno);
    await expect(rows.first().getByTestId('order-state').innerText()).resolves.toContain('已支付');
    await expect(page.getByTestId('order-records').innerText()).resolves.not.toContain('待支付');
  });
});
