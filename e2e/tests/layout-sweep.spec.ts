import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asVisitor } from '../support/auth';
import { useBrowser } from '../support/browser';
import { coveringsNow, scrollToY, sidewaysOverflow, sweepCoverings } from '../support/layout';
import { specRoutes } from '../support/routes';

// Issue 28's layout sweep: every route of spec §2 (and /404) at 1280 and 1440 px and on a 390 px
// phone. A page fails when a fixed element (the floating side bar, a floating button) covers one
// of its links, buttons or texts anywhere from its top to its end, when a full-width bar hides
// content at the end it is anchored to, or when the page scrolls sideways (support/layout.ts says
// exactly what counts). One browser; three pages at a time, each in a context of its own.

const browser = useBrowser();
const ROUTES = [...(await specRoutes()), '/404'];
/** Pages laid out at once: the machine running the suite also runs the servers. */
const PARALLEL_PAGES = 3;
const CONSENT_STORAGE_KEY = 'xcad_analytics_consent';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const SIZES: { name: string; hasSideBar: boolean; options: BrowserContextOptions }[] = [
  { name: '1280 x 800', hasSideBar: true, options: { viewport: { width: 1280, height: 800 }, locale: 'zh-CN' } },
  { name: '1440 x 900', hasSideBar: true, options: { viewport: { width: 1440, height: 900 }, locale: 'zh-CN' } },
  {
    name: '390 x 844 (phone)',
    hasSideBar: false,
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE, locale: 'zh-CN' },
  },
];

/** The visitor has answered the consent bar: pages are swept as they are read (the bar has its own test below). */
async function withConsentGiven(page: Page): Promise<void> {
  await page.addInitScript((key) => window.localStorage.setItem(key, 'granted'), CONSENT_STORAGE_KEY);
}

describe('layout sweep: every route of spec §2', () => {
  it.each(SIZES)(
    'at $name nothing fixed covers a link, button or text, and no page scrolls sideways',
    async ({ options, hasSideBar }) => {
      const problems: string[] = [];
      let floatingSeen = 0;
      const queue = [...ROUTES];
      // A few pages, each taking the next route when done with one (a page reused across routes
      // loads the next much faster than a fresh context would).
      const sweeper = () =>
        browser.withPage(asVisitor(options), async (page) => {
          await withConsentGiven(page);
          for (let route = queue.shift(); route !== undefined; route = queue.shift()) {
            await page.goto(route);
            await page.evaluate(() => document.fonts.ready.then(() => undefined));
            const swept = await sweepCoverings(page);
            floatingSeen += swept.floatingSeen;
            for (const covering of swept.coverings) {
              problems.push(`${route} (scrolled ${covering.scrollY}px): ${covering.floating} covers ${covering.target}`);
            }
            const overflow = await sidewaysOverflow(page);
            if (overflow.length > 0) problems.push(`${route} scrolls sideways: ${overflow.join('; ')}`);
          }
        });
      await Promise.all(Array.from({ length: PARALLEL_PAGES }, sweeper));
      expect(problems).toEqual([]);
      // The sweep saw the side bar (it shows once a page is scrolled 80 px): it checked something.
      if (hasSideBar) expect(floatingSeen).toBeGreaterThan(ROUTES.length);
    },
    300_000,
  );
});

describe('the consent bar', () => {
  it.each([
    { name: '1280 px', footer: 'site-footer', options: { viewport: { width: 1280, height: 800 }, locale: 'zh-CN' } },
    { name: 'a 390 px phone', footer: 'mobile-footer', options: SIZES[2]?.options ?? {} },
  ])('on $name sits right under the footer at the end of the page: no blank strip, nothing hidden', async ({ footer, options }) => {
    const page = await browser.page(asVisitor(options));
    await page.goto('/help.html');
    const bar = page.getByTestId('consent-bar');
    await bar.waitFor();
    await scrollToY(page, 1e6);
    const [footerBox, barBox] = await Promise.all([page.getByTestId(footer).boundingBox(), bar.boundingBox()]);
    const height = options.viewport?.height ?? 0;
    expect(Math.round(barBox?.y ?? 0)).toBe(Math.round((footerBox?.y ?? 0) + (footerBox?.height ?? 0)));
    expect(Math.round((barBox?.y ?? 0) + (barBox?.height ?? 0))).toBe(height);
    await expect(coveringsNow(page).then((look) => look.coverings)).resolves.toEqual([]);

    // Answered, it goes, and the page ends with the footer.
    await page.getByTestId('consent-accept').click();
    await bar.waitFor({ state: 'detached' });
    await scrollToY(page, 1e6);
    const after = await page.getByTestId(footer).boundingBox();
    expect(Math.round((after?.y ?? 0) + (after?.height ?? 0))).toBe(height);
  });
});
