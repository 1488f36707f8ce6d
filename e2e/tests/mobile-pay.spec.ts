import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asVisitor, registerThroughApi, signInContext, uniquePhone } from '../support/auth';
import { MOBILE, useBrowser } from '../support/browser';

// Decision 0043: paying on a phone, in Chromium at 390 px against the production build and the sandbox
// provider. A phone browser opens the payment app (the sandbox plays WeChat Pay H5 and Alipay WAP),
// which returns to the result page; inside WeChat's browser (its user agent) the buyer's openid is
// fetched through OAuth and JSAPI pays (the sandbox plays the pay sheet); Alipay there shows the guide.

const browser = useBrowser();

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const WECHAT_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN';

const PHONE: BrowserContextOptions = { ...MOBILE, viewport: { width: 390, height: 844 }, userAgent: IPHONE_SAFARI };
const WECHAT: BrowserContextOptions = { ...PHONE, userAgent: WECHAT_IPHONE };

/** The Beijing calendar date a year from now, as the result page prints it (yyyy/MM/dd). */
function aYearFromNow(): string {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + 1);
  return new Intl.DateTimeFormat('zh-CN', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

async function buyer(options: BrowserContextOptions): Promise<Page> {
  const phone = uniquePhone();
  await registerThroughApi(phone, 'mobile88');
  const page = await browser.page(asVisitor(options));
  await signInContext(page.context(), phone, 'mobile88');
  return page;
}

async function startBuying(page: Page, paytype: 'wxpay' | 'alipay'): Promise<void> {
  await page.goto('/buy/cadeditor.html');
  await page.getByTestId('plan-304').click();
  await page.getByTestId(`paytype-${paytype}`).click();
  await page.getByTestId('buy-now').click();
}

describe('paying on a phone', () => {
  it('opens WeChat Pay H5 from a phone browser, comes back to the result page and shows the membership', async () => {
    const page = await buyer(PHONE);
    await startBuying(page, 'wxpay');
    const open = page.getByTestId('cashier-open-app');
    await open.waitFor({ timeout: 15_000 });
    // No QR and no screenshot hint on a phone.
    await expect(page.getByTestId('cashier-qr').count()).resolves.toBe(0);
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();
    await open.click();

    // The sandbox plays WeChat's H5 cashier, which returns to redirect_url.
    await page.waitForURL(new RegExp(`/pay/sandbox/${orderno}\\?`));
    await expect.poll(() => page.getByTestId('sandbox-amount').innerText()).toContain('68');
    await page.getByTestId('sandbox-pay').click();
    await page.waitForURL(new RegExp(`/pay/result/${orderno}$`));
    await page.getByTestId('pay-result-paid').waitFor({ timeout: 10_000 });
    await expect
      .poll(() => page.getByTestId('pay-result-memberships').innerText())
      .toContain(`迅捷CAD编辑器：会员有效期至${aYearFromNow()}`);
  });

  it('opens Alipay WAP from a phone browser; cancelling there comes back to a closed order', async () => {
    const page = await buyer(PHONE);
    await startBuying(page, 'alipay');
    await page.getByTestId('cashier-open-app').waitFor({ timeout: 15_000 });
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();
    await page.getByTestId('cashier-open-app').click();
    await page.waitForURL(new RegExp(`/pay/sandbox/${orderno}\\?`));
    await page.getByTestId('sandbox-cancel').click();
    await page.waitForURL(new RegExp(`/pay/result/${orderno}$`));
    await expect.poll(() => page.getByTestId('pay-result').getAttribute('data-state'), { timeout: 10_000 }).toBe('closed');
    await expect(page.getByTestId('pay-result').innerText()).resolves.toContain('订单已关闭');
  });

  it("pays with JSAPI inside WeChat's browser after the OAuth round trip, and guides Alipay out to the browser", async () => {
    const page = await buyer(WECHAT);
    await startBuying(page, 'wxpay');
    // The first order needs the openid: off to OAuth (the sandbox answers at once) and back, where
    // the cashier opens again by itself.
    const pay = page.getByTestId('cashier-jsapi-pay');
    await pay.waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/buy/cadeditor.html');
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();

    // Alipay inside WeChat: the guide, and no order placed for it.
    await page.getByTestId('cashier-paytype-alipay').click();
    await expect.poll(() => page.getByTestId('cashier-browser-guide').innerText()).toContain('在浏览器打开');
    await page.getByTestId('cashier-paytype-wxpay').click();
    await pay.waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('cashier-orderno').innerText()).resolves.toBe(orderno);

    await pay.click();
    await page.waitForURL(new RegExp(`/pay/sandbox/${orderno}\\?app=jsapi`));
    await page.getByTestId('sandbox-pay').click();
    await page.waitForURL(new RegExp(`/pay/result/${orderno}$`));
    await page.getByTestId('pay-result-paid').waitFor({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('pay-result-memberships').innerText()).toContain('迅捷CAD编辑器：会员有效期至');
  });
});
