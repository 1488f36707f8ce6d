import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// The nine download pages (spec §2) over the imported content/software releases, the
// counting download URL and its redirect to the configured installer server (faked here: no
// request leaves the machine).

const browser = useBrowser();

const INSTALLER_ORIGIN = 'https://download.xunjiecad.com';

interface PageCase {
  path: string;
  key: string;
  name: string;
  version: string;
  /** The first platform's size as the page writes it. */
  size: string;
  isMobile: boolean;
}

const PAGES: PageCase[] = [
  { path: '/download.html', key: 'download', name: '迅捷CAD编辑器', version: '5.0', size: '83.3 MB', isMobile: false },
  { path: '/download-major.html', key: 'download-major', name: '迅捷CAD编辑器专业版', version: '5.0', size: '136.3 MB', isMobile: false },
  { path: '/download-converter.html', key: 'download-converter', name: '迅捷CAD转换器', version: '4.2', size: '43.5 MB', isMobile: false },
  { path: '/download-lookchart.html', key: 'download-lookchart', name: '迅捷CAD看图', version: '3.5', size: '36.5 MB', isMobile: false },
  { path: '/download-holdall.html', key: 'download-holdall', name: '迅捷CAD工具箱', version: '2.6', size: '30.2 MB', isMobile: false },
  { path: '/download-cadapp.html', key: 'download-cadapp', name: '迅捷CAD手机版', version: '3.4.0', size: '65.3 MB', isMobile: true },
  {
    path: '/download-cadkantuapp.html',
    key: 'download-cadkantuapp',
    name: '迅捷CAD看图手机版',
    version: '4.1.2',
    size: '50.5 MB',
    isMobile: true,
  },
  {
    path: '/download-converter-app.html',
    key: 'download-converter-app',
    name: '迅捷CAD转换器手机版',
    version: '2.8.1',
    size: '35.2 MB',
    isMobile: true,
  },
  {
    path: '/download-mobile-lookchart.html',
    key: 'download-mobile-lookchart',
    name: '迅捷手机CAD看图',
    version: '1.9.0',
    size: '24.1 MB',
    isMobile: true,
  },
];

interface Release {
  version: string;
  added: string[];
  improved: string[];
  fixed: string[];
}

async function productOf(key: string): Promise<{ downloads: number; changelog: Release[] }> {
  const response = await fetch(`${browser.baseUrl}/api/site/software/${key}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { downloads: number; changelog: Release[] };
}

async function shownCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('download-count').getAttribute('data-count'));
}

async function hasNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

describe('the nine download pages', () => {
  it.each(PAGES)('$path shows $name $version, its size and change log', async ({ path, key, name, version, size, isMobile }) => {
    const page = await browser.page(DESKTOP);
    await page.goto(path);
    await expect(page.getByTestId('download-name').innerText()).resolves.toContain(name);
    await expect(page.getByTestId('download-version').innerText()).resolves.toBe(version);
    await expect(page.getByTestId('download-size').innerText()).resolves.toBe(size);
    await expect(page.getByTestId('download-count').innerText()).resolves.toMatch(/^已下载 [\d,]+ 次$/);

    // The change log: the current release open with its notes, every earlier one folded.
    const { changelog } = await productOf(key);
    const [current, ...older] = changelog;
    const currentRelease = page.getByTestId('release-current');
    await expect(currentRelease.innerText()).resolves.toContain(`V${version}`);
    const firstNote = [...(current?.added ?? []), ...(current?.improved ?? []), ...(current?.fixed ?? [])][0] ?? '';
    await expect(currentRelease.innerText()).resolves.toContain(firstNote);
    const folded = page.getByTestId('release-older');
    await expect(folded.count()).resolves.toBe(older.length);
    expect(older.length).toBeGreaterThanOrEqual(3);
    const oldest = older[older.length - 1];
    const oldestNote = [...(oldest?.added ?? []), ...(oldest?.improved ?? []), ...(oldest?.fixed ?? [])][0] ?? '';
    const lastFolded = folded.last();
    await expect(lastFolded.getByText(oldestNote).isVisible()).resolves.toBe(false);
    await lastFolded.locator('summary').click();
    await expect(lastFolded.getByText(oldestNote).isVisible()).resolves.toBe(true);

    await expect(page.getByTestId('download-requirements').locator('tbody tr').count()).resolves.toBeGreaterThanOrEqual(4);
    await expect(page.getByTestId('download-features').locator('li').count()).resolves.toBeGreaterThanOrEqual(4);
    // Mobile apps offer a QR code per phone; desktop programs list their installer files.
    if (isMobile) {
      await expect(page.getByTestId('download-qr').locator('[role="img"] svg').count()).resolves.toBe(2);
    } else {
      await expect(page.getByTestId('download-files').innerText()).resolves.toContain(size);
    }
  });

  it('links the editor page to its installation help and purchase page', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/download.html');
    const help = await page
      .getByTestId('download-help')
      .locator('li a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(help).toEqual(['/1001.html', '/1002.html', '/1005.html', '/1006.html']);
    await expect(page.getByTestId('download-help').innerText()).resolves.toContain('迅捷CAD编辑器的下载与安装');
    await expect(page.getByTestId('download-buy').locator('a').getAttribute('href')).resolves.toBe('/buy/cadeditor.html');
  });
});

describe('downloading', () => {
  it('the Windows button downloads through the counting URL in a tab of its own, the site stays, and the count goes up by one', async () => {
    const page = await browser.page(DESKTOP);
    const context = page.context();
    const installerRequests: string[] = [];
    // The installer server is faked for every tab of the visitor (the download opens in a new one).
    await context.route(`${INSTALLER_ORIGIN}/**`, async (route) => {
      installerRequests.push(route.request().url());
      await route.fulfill({
        status: 200,
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': 'attachment; filename="xunjiecadeditor_5.0_x64.exe"',
        },
        body: 'installer',
      });
    });
    await page.goto('/download.html');
    const before = (await productOf('download')).downloads;
    await expect.poll(() => shownCount(page)).toBe(before);

    const windows = page.getByTestId('download-buttons').locator('[data-platform="windows"]');
    await expect(windows.getAttribute('href')).resolves.toBe('/api/site/software/download/download?platform=windows');
    await expect(windows.getAttribute('target')).resolves.toBe('_blank');
    const download = new Promise<string>((resolve) => {
      context.on('page', (tab) => tab.on('download', (file) => resolve(file.suggestedFilename())));
    });
    const counted = context.waitForEvent('response', (response) =>
      response.url().endsWith('/api/site/software/download/download?platform=windows'),
    );
    await windows.click();
    const redirect = await counted;
    expect(redirect.status()).toBe(302);
    expect(redirect.headers()['location']).toBe(`${INSTALLER_ORIGIN}/soft/xunjiecadeditor_5.0_x64.exe`);
    await expect(download).resolves.toBe('xunjiecadeditor_5.0_x64.exe');
    expect(installerRequests).toEqual([`${INSTALLER_ORIGIN}/soft/xunjiecadeditor_5.0_x64.exe`]);
    // The visitor is still on the page, told what is downloading, its size and checksum, and given a way out.
    expect(new URL(page.url()).pathname).toBe('/download.html');
    const started = page.getByTestId('download-started');
    await expect(started.innerText()).resolves.toContain('正在下载 xunjiecadeditor_5.0_x64.exe');
    await expect(started.getByTestId('download-started-size').innerText()).resolves.toBe('大小：83.3 MB');
    await expect(started.getByTestId('download-started-sha256').innerText()).resolves.toMatch(/^[0-9a-f]{64}$/);
    await expect(started.innerText()).resolves.toContain('下载没有开始？');

    await page.goto('/download.html');
    await expect.poll(() => shownCount(page)).toBe(before + 1);
    await expect(page.getByTestId('download-count').innerText()).resolves.toBe(`已下载 ${(before + 1).toLocaleString('en-US')} 次`);
  });

  it('keeps the visitor on the site when the installer server cannot be reached, with 下载没有开始？ to try again', async () => {
    const page = await browser.page(DESKTOP);
    const context = page.context();
    await context.route(`${INSTALLER_ORIGIN}/**`, (route) => route.abort('connectionrefused'));
    await page.goto('/download.html');
    const refused = context.waitForEvent('requestfailed', (request) => request.url().startsWith(INSTALLER_ORIGIN));
    await page.getByTestId('download-primary').click();
    const started = page.getByTestId('download-started');
    await started.waitFor();
    // The failure is the new tab's: the site's tab and its content are still there.
    await refused;
    expect(new URL(page.url()).pathname).toBe('/download.html');
    await expect(page.getByTestId('download-name').isVisible()).resolves.toBe(true);
    const fallback = started.getByTestId('download-fallback');
    await expect(fallback.getAttribute('href')).resolves.toBe('/api/site/software/download/download?platform=windows');
    await expect(fallback.getAttribute('target')).resolves.toBe('_blank');
    // The page's installer list shows every file's SHA-256, the same as the started download's.
    const listed = await page.getByTestId('download-sha256-windows').locator('code').innerText();
    await expect(started.getByTestId('download-started-sha256').innerText()).resolves.toBe(listed);
    await expect(page.getByTestId('download-sha256-windows32').locator('code').innerText()).resolves.toMatch(/^[0-9a-f]{64}$/);
  });

  it('puts the visitor’s own platform first: an iPhone gets the App Store button, and is told the editor is for PCs', async () => {
    const page = await browser.page({
      ...MOBILE,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    });
    await page.goto('/download-cadapp.html');
    const primary = page.getByTestId('download-primary');
    await expect.poll(() => primary.getAttribute('data-platform')).toBe('ios');
    await expect(primary.getAttribute('href')).resolves.toBe('/api/site/software/download-cadapp/download?platform=ios');
    await expect(page.getByTestId('download-buttons').locator('[data-platform="android"]').count()).resolves.toBe(1);

    // The editor is PC software: the phone is told so, and still sees every installer.
    await page.goto('/download.html');
    await expect.poll(() => page.getByTestId('download-phone-note').isVisible()).toBe(true);
    await expect(page.getByTestId('download-buttons').locator('[data-platform]').count()).resolves.toBe(2);
  });
});

describe('mobile layout (375 px)', () => {
  it.each(['/download.html', '/download-cadapp.html'])('%s fits the screen', async (path) => {
    const page = await browser.page(MOBILE);
    await page.goto(path);
    await expect(page.getByTestId('download-primary').isVisible()).resolves.toBe(true);
    const button = await page.getByTestId('download-primary').boundingBox();
    expect(button?.width ?? 0).toBeGreaterThan(300);
    await page.getByTestId('download-changelog').scrollIntoViewIfNeeded();
    await hasNoHorizontalScroll(page);
  });
});
