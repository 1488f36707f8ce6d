import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' };
export const MOBILE: BrowserContextOptions = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: 'zh-CN',
};

// Debian's Chromium; Playwright starts it headless with a fresh temporary profile of its own.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * Launches Chromium once for a test file and gives each test a fresh context.
 * Usage: `const browser = useBrowser();` then `const page = await browser.page(DESKTOP);`.
 */
export function useBrowser() {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
  });

  return {
    baseUrl: inject('baseUrl'),
    async page(options: BrowserContextOptions = DESKTOP): Promise<Page> {
      if (!browser) throw new Error('browser not started');
      const context = await browser.newContext({ baseURL: inject('baseUrl'), ...options });
      contexts.push(context);
      return waitsForHydration(await context.newPage());
    },
    /** A page in a context of its own that is closed when `run` ends (for tests that open many pages). */
    async withPage<T>(options: BrowserContextOptions, run: (page: Page) => Promise<T>): Promise<T> {
      if (!browser) throw new Error('browser not started');
      const context = await browser.newContext({ baseURL: inject('baseUrl'), ...options });
      try {
        return await run(waitsForHydration(await context.newPage()));
      } finally {
        await context.close();
      }
    },
  };
}

/**
 * Makes `page.goto` also wait until React has hydrated the page (components/app/hydration-mark):
 * before that, buttons and fields have no handlers, and a test acting at once raced hydration on
 * a loaded CI machine. Documents without the Next.js runtime (files, JSON) are not waited for.
 */
export function waitsForHydration(page: Page): Page {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.waitForFunction(
      () => document.documentElement.hasAttribute('data-hydrated') || document.querySelector('script[src*="/_next/"]') === null,
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    return response;
  };
  return page;
}

/**
 * Replaces the page's clock with a paused one before the first navigation, so that only
 * `page.clock.runFor()` moves time and timers: a test of a countdown or a toast's lifetime then
 * measures exact page time, however slow the machine running it is.
 * (Pausing after `goto` raced the page's own clock on a loaded CI machine.)
 */
export async function freezeClock(page: Page): Promise<void> {
  const start = Date.parse('2026-03-02T08:00:00+08:00');
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1_000);
}
