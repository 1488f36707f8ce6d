import { describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

const browser = useBrowser();

describe('mobile layout at 375 px', () => {
  it('shows the mobile header instead of the desktop header and side bar, without horizontal scrolling', async () => {
    const page = await browser.page(MOBILE);
    await page.goto('/');
    await page.getByTestId('mobile-header').waitFor({ state: 'visible' });
    await expect(page.getByTestId('site-header').isVisible()).resolves.toBe(false);
    await page.evaluate(() => window.scrollTo(0, 800));
    await expect(page.getByTestId('side-bar').isVisible()).resolves.toBe(false);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  });

  it('applies the root font size rule of spec §9 (width / 750 * 100 px)', async () => {
    const page = await browser.page(MOBILE);
    await page.goto('/');
    const fontSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(parseFloat(fontSize)).toBeCloseTo((375 / 750) * 100, 0);
    const desktop = await browser.page(DESKTOP);
    await desktop.goto('/');
    expect(await desktop.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('100px');
  });

  it('declares the viewport of spec §9 at initial scale 1 and leaves pinch zoom to the reader (decision 0014)', async () => {
    const page = await browser.page(MOBILE);
    await page.goto('/');
    const viewport = await page.locator('meta[name="viewport"]').getAttribute('content');
    expect(viewport).toMatch(/width=device-width/);
    expect(viewport).toMatch(/initial-scale=1/);
    expect(viewport).not.toMatch(/maximum-scale|user-scalable/);
  });

  it('opens the collapsible menu with its sub-lists and links the login icon to /loginPhone', async () => {
    const page = await browser.page(MOBILE);
    await page.goto('/');
    const menu = page.getByTestId('mobile-menu');
    await expect(menu.isVisible()).resolves.toBe(false);
    await page.getByTestId('mobile-menu-toggle').tap();
    await menu.waitFor({ state: 'visible' });
    await expect(menu.innerText()).resolves.toContain('在线转换');
    await expect(page.getByTestId('mobile-login').getAttribute('href')).resolves.toBe('/loginPhone');
    await page.getByTestId('mobile-login').tap();
    await page.waitForURL('**/loginPhone');
    await page.getByTestId('login-page').waitFor();
  });
});

describe('locale switch', () => {
  it('stores the choice in a 365-day cookie, redirects to /en and keeps it on the next visit to /', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/help.html');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('zh-CN');

    const switcher = page.getByTestId('locale-switcher');
    const option = switcher.locator('[data-locale="en"]');
    if ((await option.count()) > 0 && (await switcher.evaluate((node) => node.tagName)) !== 'SELECT') {
      await switcher.hover();
      await option.click();
    } else {
      await switcher.selectOption('en');
    }
    await page.waitForURL((url) => url.pathname === '/en/help.html');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await expect(page.getByTestId('nav-help').innerText()).resolves.not.toMatch(/[\u4e00-\u9fff]/);

    const cookie = (await page.context().cookies()).find((c) => c.name === 'NEXT_LOCALE');
    expect(cookie?.value).toBe('en');
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365.01);

    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/en');
  });

  it('switching back to Chinese drops the prefix', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/en/tools/cad2pdf');
    const switcher = page.getByTestId('locale-switcher');
    if ((await switcher.evaluate((node) => node.tagName)) === 'SELECT') await switcher.selectOption('zh-CN');
    else {
      await switcher.hover();
      await switcher.locator('[data-locale="zh-CN"]').click();
    }
    await page.waitForURL((url) => url.pathname === '/tools/cad2pdf');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('zh-CN');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'NEXT_LOCALE');
    expect(cookie?.value).toBe('zh-CN');
  });
});
