import { describe, expect, it } from 'vitest';
import { DESKTOP, freezeClock, useBrowser } from '../support/browser';

const browser = useBrowser();

const MENU_LABELS: Record<string, string> = {
  home: '首页',
  buy: '软件购买',
  download: '软件下载',
  help: '软件帮助',
  dailypic: '每日一图',
  tutorials: 'CAD教程',
  tools: '在线转换',
  services: '更多服务',
};

async function activeEntries(page: Awaited<ReturnType<typeof browser.page>>) {
  return page
    .locator('[data-testid="site-header"] [data-testid^="nav-"][aria-current="page"]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-testid')));
}

describe('desktop header menu', () => {
  it('shows every entry of spec §2 in Chinese, with the home entry active on /', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    const header = page.getByTestId('site-header');
    await expect(header.isVisible()).resolves.toBe(true);
    for (const [key, label] of Object.entries(MENU_LABELS)) {
      await expect(header.getByTestId(`nav-${key}`).innerText()).resolves.toContain(label);
    }
    expect(await activeEntries(page)).toEqual(['nav-home']);
  });

  it.each([
    ['/help.html', 'nav-help'],
    ['/1001.html', 'nav-help'],
    ['/1001', 'nav-help'],
    ['/dailypics/3001', 'nav-dailypic'],
    ['/dailypic.html', 'nav-dailypic'],
    ['/buy/cadeditor.html', 'nav-buy'],
    ['/download-lookchart.html', 'nav-download'],
    ['/master.html', 'nav-tutorials'],
    ['/tools/cad2pdf', 'nav-tools'],
    ['/kantu', 'nav-tools'],
    ['/invoice.html', 'nav-services'],
    ['/en/tools/pdf2cad', 'nav-tools'],
  ])('on %s the active entry is %s', async (path, testId) => {
    const page = await browser.page(DESKTOP);
    await page.goto(path);
    expect(await activeEntries(page)).toEqual([testId]);
  });

  it('fetches no other route while the page loads, and prefetches a link once the pointer is on it', async () => {
    const page = await browser.page(DESKTOP);
    // Route payload requests (prefetches and navigations) carry the RSC header.
    const routeFetches: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['rsc'] === '1') routeFetches.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(routeFetches).toEqual([]);

    const help = page.getByTestId('site-header').getByTestId('nav-help');
    const target = new URL((await help.getAttribute('href')) ?? '', 'http://x').pathname;
    await help.hover();
    await expect.poll(() => routeFetches).toContain(target);
    expect(new Set(routeFetches)).toEqual(new Set([target]));
  });

  it('opens a sub-menu on hover and hides it 500 ms after the pointer leaves', async () => {
    const page = await browser.page(DESKTOP);
    await freezeClock(page);
    await page.goto('/');
    const submenu = page.getByTestId('subnav-buy');
    await page.getByTestId('nav-buy').hover();
    await submenu.waitFor({ state: 'visible' });
    await expect(submenu.getByRole('link').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining([expect.stringContaining('CAD编辑器')]),
    );

    await page.mouse.move(700, 600);
    await page.clock.runFor(300);
    await expect(submenu.isVisible()).resolves.toBe(true);
    await page.clock.runFor(300);
    await submenu.waitFor({ state: 'hidden' });
  });

  it('navigates from a sub-menu entry and moves the active entry', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    await page.getByTestId('nav-tools').hover();
    await page
      .getByTestId('subnav-tools')
      .getByRole('link', { name: /CAD转PDF/ })
      .click();
    await page.waitForURL('**/tools/cad2pdf');
    await expect.poll(() => activeEntries(page)).toEqual(['nav-tools']);
  });

  it.each(['/404', '/99999', '/99999.html', '/no-such-page'])('on the not-found page %s no entry is active', async (path) => {
    const page = await browser.page(DESKTOP);
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await page.getByText('页面未找到!').waitFor();
    expect(await activeEntries(page)).toEqual([]);
  });

  it.each([1280, 1440])('at %i px every sub-menu fits the window and each description reads on one line', async (width) => {
    const page = await browser.page({ ...DESKTOP, viewport: { width, height: 800 } });
    await page.goto('/');
    for (const key of ['buy', 'download', 'tutorials', 'tools', 'services']) {
      await page.getByTestId(`nav-${key}`).hover();
      const panel = page.getByTestId(`subnav-${key}`);
      await panel.waitFor({ state: 'visible' });
      await expect.poll(() => panel.evaluate((node) => getComputedStyle(node).opacity)).toBe('1');
      const box = await panel.boundingBox();
      expect(box?.x ?? -1, key).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0), key).toBeLessThanOrEqual(width);
      // A description is a span of 18 px lines: more than one line box means it wrapped.
      const lines = await panel.locator('a span span:last-child').evaluateAll((spans) =>
        spans.map((span) => {
          const range = document.createRange();
          range.selectNodeContents(span);
          const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
          return `${span.textContent ?? ''}: ${tops.size}`;
        }),
      );
      for (const line of lines) expect(line, key).toMatch(/: 1$/);
    }
  });
});
