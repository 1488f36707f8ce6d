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
      return context.newPage();
    },
  };
}
