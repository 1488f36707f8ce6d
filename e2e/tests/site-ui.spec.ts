import { describe, expect, it } from 'vitest';
import { DESKTOP, freezeClock, useBrowser } from '../support/browser';
import { coveringsNow, scrollToY, sweepCoverings } from '../support/layout';

const browser = useBrowser();

describe('404 page', () => {
  it('says 页面未找到!, counts down from 60 and then sends the visitor home', async () => {
    const page = await browser.page(DESKTOP);
    await freezeClock(page);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('页面未找到!').isVisible()).resolves.toBe(true);
    const countdown = page.getByTestId('notfound-countdown');
    await expect(countdown.innerText()).resolves.toContain('60');

    await page.clock.runFor(1_000);
    await expect.poll(() => countdown.innerText()).toContain('59');
    await page.clock.runFor(30_000);
    await expect.poll(() => countdown.innerText()).toContain('29');
    expect(new URL(page.url()).pathname).toBe('/no-such-page');

    await page.clock.runFor(29_500);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('site-header').waitFor();
  });

  it.each(['/no-such-page', '/404', '/99999', '/dailypics/99999', '/dwgItem/99999'])(
    '%s is titled as the not-found page, not as the home page',
    async (path) => {
      const page = await browser.page(DESKTOP);
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await page.getByText('页面未找到!').waitFor();
      await expect(page.title()).resolves.toBe('404 - 迅捷CAD');
      // The server's page has that title before any script runs.
      const html = await (await fetch(`${browser.baseUrl}${path}`, { headers: { 'accept-language': 'zh-CN' } })).text();
      expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe('404 - 迅捷CAD');
    },
  );

  it('has a back-home link and the other links of spec §2', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/404');
    await expect(page.getByTestId('notfound-home').getAttribute('href')).resolves.toBe('/');
    await expect(page.locator('main a[href="/buy.html"]').count()).resolves.toBeGreaterThan(0);
    await page.getByTestId('notfound-home').click();
    await page.waitForURL((url) => url.pathname === '/');
  });
});

describe('toasts', () => {
  it('copying the support mailbox shows a success toast for 1000 ms + 200 ms per character', async () => {
    const page = await browser.page(DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await freezeClock(page);
    await page.goto('/');
    await page.getByTestId('footer-copy-email').click();
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    await expect(toast.getAttribute('data-type')).resolves.toBe('success');
    const text = (await toast.innerText()).trim();
    const duration = 1000 + 200 * [...text].length;

    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);

    await page.clock.runFor(duration - 150);
    await expect(toast.isVisible()).resolves.toBe(true);
    await page.clock.runFor(300);
    await toast.waitFor({ state: 'detached' });
  });

  it('a click removes the toast at once', async () => {
    const page = await browser.page(DESKTOP);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/');
    await page.getByTestId('footer-copy-email').click();
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    await toast.click();
    await toast.waitFor({ state: 'detached', timeout: 500 });
  });

  it('shows an error toast when the clipboard refuses', async () => {
    const page = await browser.page(DESKTOP);
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
      });
    });
    await page.goto('/');
    await page.getByTestId('footer-copy-email').click();
    const toast = page.getByTestId('toast');
    await toast.waitFor();
    await expect(toast.getAttribute('data-type')).resolves.toBe('error');
  });
});

describe('side bar', () => {
  it('appears after 80 px, shows back-to-top after 200 px, and scrolls back up over about a second', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    const sideBar = page.getByTestId('side-bar');
    const backToTop = page.getByTestId('back-to-top');
    await expect(sideBar.isVisible()).resolves.toBe(false);

    await page.evaluate(() => window.scrollTo(0, 120));
    await sideBar.waitFor({ state: 'visible' });
    await expect(backToTop.isVisible()).resolves.toBe(false);

    await page.evaluate(() => window.scrollTo(0, 600));
    await backToTop.waitFor({ state: 'visible' });

    const started = Date.now();
    await backToTop.click();
    await page.waitForTimeout(400);
    const midway = await page.evaluate(() => window.scrollY);
    expect(midway).toBeGreaterThan(0);
    expect(midway).toBeLessThan(600);
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 3_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await sideBar.waitFor({ state: 'hidden' });
  });

  it('offers customer service by QQ and a 620x700 chat window, and a download link', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, 300));
    const sideBar = page.getByTestId('side-bar');
    await sideBar.waitFor({ state: 'visible' });
    await expect(sideBar.locator('a[href*="wpa.qq.com"]').count()).resolves.toBe(1);
    await expect(sideBar.locator('a[href*="download"]').count()).resolves.toBeGreaterThan(0);

    await page.evaluate(() => {
      const calls: string[] = [];
      (window as unknown as { __opened: string[] }).__opened = calls;
      window.open = ((url?: string | URL, _target?: string, features?: string) => {
        calls.push(`${String(url)}|${features ?? ''}`);
        return null;
      }) as typeof window.open;
    });
    await sideBar.getByTestId('side-bar-chat').click();
    const opened = await page.evaluate(() => (window as unknown as { __opened: string[] }).__opened);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/width=620/);
    expect(opened[0]).toMatch(/height=700/);
  });
});

describe('side bar beside the page (issue 28)', () => {
  const FEEDBACK = `/${encodeURIComponent('意见反馈')}.html`;
  const CASES = [1280, 1366, 1440].flatMap((width) =>
    ['/help.html', FEEDBACK, '/buy/cadeditor.html'].map((path) => ({
      width,
      path: path === FEEDBACK ? '/意见反馈.html' : path,
      url: path,
    })),
  );

  it.each(CASES)('at $width px covers nothing of $path from top to end', async ({ width, url }) => {
    const page = await browser.page({ ...DESKTOP, viewport: { width, height: 800 } });
    await page.goto(url);
    const swept = await sweepCoverings(page);
    expect(swept.coverings).toEqual([]);
    expect(swept.floatingSeen).toBeGreaterThan(0);
  });

  it.each([1280, 1366, 1440])('at %i px leaves 立即购买 whole when the button is mid-screen', async (width) => {
    const page = await browser.page({ ...DESKTOP, viewport: { width, height: 800 } });
    await page.goto('/buy/cadeditor.html');
    const buy = page.getByTestId('buy-now');
    const box = await buy.boundingBox();
    const top = await page.evaluate(() => window.scrollY);
    await scrollToY(page, top + (box?.y ?? 0) + (box?.height ?? 0) / 2 - 400);
    await expect(page.getByTestId('side-bar').getAttribute('data-shown')).resolves.toBe('true');
    await expect(coveringsNow(page).then((look) => look.coverings)).resolves.toEqual([]);
    // The whole button is what the pointer reaches at its right edge.
    const mid = await buy.boundingBox();
    const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid="buy-now"]') !== null, [
      (mid?.x ?? 0) + (mid?.width ?? 0) - 2,
      (mid?.y ?? 0) + (mid?.height ?? 0) / 2,
    ] as const);
    expect(hit).toBe(true);
  });
});

describe('footer', () => {
  it('has the about text, conversion links, contacts, filing numbers and the statement link', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    const footer = page.getByTestId('site-footer');
    await expect(footer.locator('a[href="/tools/cad2pdf"]').count()).resolves.toBeGreaterThan(0);
    await expect(footer.locator('a[href="/shengming.html"]').count()).resolves.toBe(1);
    await expect(footer.locator('a[href*="beian.miit.gov.cn"]').innerText()).resolves.toMatch(/ICP备/);
    await expect(footer.innerText()).resolves.toMatch(/公网安备/);
    await expect(footer.innerText()).resolves.toMatch(/@/);
  });
});
