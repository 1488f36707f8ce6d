import { readFile, stat } from 'node:fs/promises';
import type { TDrawingDetail, TDrawingList } from '@xcad/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asVisitor, signInContext } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';
import { FIXTURE_PASSWORD, FIXTURE_PHONES } from '../support/fixtures';

// The drawing library's search (decision 0012): /dwglist finds drawings by words of their titles, its category,
// format and access filters narrow the list (counts as the API answers them), a free drawing
// downloads with its exact bytes, and a member drawing is for members of product 203 only.

const browser = useBrowser();

async function api<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${browser.baseUrl}/api/site/drawings${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

async function list(query = ''): Promise<TDrawingList> {
  const { status, body } = await api<TDrawingList>(query === '' ? '' : `?${query}`);
  expect(status).toBe(200);
  return body;
}

/** The total the page states, and the ids of the cards it shows. */
async function shown(page: Page): Promise<{ total: number; ids: number[] }> {
  const total = Number(await page.getByTestId('drawing-count').getAttribute('data-total'));
  const ids = await page.getByTestId('drawing-card').evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-id'))));
  return { total, ids };
}

/**
 * Nothing of the page's main content reaches past the right edge of the screen, except inside a
 * row that scrolls sideways on purpose (the filter chips). `scrollWidth` alone cannot tell, since
 * the page clips horizontal overflow.
 */
async function hasNoHorizontalOverflow(page: Page): Promise<void> {
  const offenders = await page.evaluate(() => {
    const limit = window.innerWidth + 1;
    const isInsideScroller = (element: Element): boolean => {
      for (let parent = element.parentElement; parent !== null; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if ((overflow === 'auto' || overflow === 'scroll') && parent.getBoundingClientRect().right <= limit) return true;
      }
      return false;
    };
    return Array.from(document.querySelectorAll('main *'))
      .filter((element) => element.getBoundingClientRect().right > limit && !isInsideScroller(element))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
      .slice(0, 5);
  });
  expect(offenders).toEqual([]);
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

/** A member drawing and a free drawing of the library, as the API lists them. */
async function sampleDrawings(): Promise<{ member: TDrawingDetail; free: TDrawingDetail }> {
  const [members, frees] = await Promise.all([list('access=member&per_page=1'), list('access=free&format=DWG&per_page=1')]);
  const memberId = members.items[0]?.id;
  const freeId = frees.items[0]?.id;
  expect(memberId).toBeDefined();
  expect(freeId).toBeDefined();
  const [member, free] = await Promise.all([api<TDrawingDetail>(`/${memberId}`), api<TDrawingDetail>(`/${freeId}`)]);
  return { member: member.body, free: free.body };
}

describe('/dwglist (CAD图库)', () => {
  it('lists the library, finds a drawing by a word of its title, and each filter narrows it as the API counts', async () => {
    const everything = await list();
    expect(everything.total).toBeGreaterThanOrEqual(24);
    const page = await browser.page(DESKTOP);
    await page.goto('/dwglist');
    expect(await shown(page)).toEqual({ total: everything.total, ids: everything.items.map((item) => item.id) });
    await expect(page.title()).resolves.toContain('CAD图库');

    // Search: a word of one drawing's title, typed in the search box.
    await page.getByTestId('drawing-search-input').fill('车库');
    await page.getByTestId('drawing-search-submit').click();
    await page.waitForURL(/\/dwglist\?q=/);
    const found = await list(`q=${encodeURIComponent('车库')}`);
    expect(found.total).toBeGreaterThanOrEqual(1);
    expect(found.items.every((item) => item.title.includes('车库') || item.tags.includes('车库'))).toBe(true);
    expect(await shown(page)).toEqual({ total: found.total, ids: found.items.map((item) => item.id) });
    await expect(page.getByTestId('drawing-title').first().innerText()).resolves.toContain('车库');

    // Category, then format, then access: each a link that narrows the list, filters combined.
    await page.goto('/dwglist');
    const category = everything.categories.find((candidate) => candidate.count >= 2 && candidate.count < everything.total);
    expect(category).toBeDefined();
    await page.getByTestId(`category-${category?.slug}`).click();
    await page.waitForURL(new RegExp(`category=${category?.slug}`));
    const byCategory = await list(`category=${category?.slug}`);
    expect(byCategory.total).toBe(category?.count);
    expect(await shown(page)).toEqual({ total: byCategory.total, ids: byCategory.items.map((item) => item.id) });

    await page.getByTestId('format-DWG').click();
    await page.waitForURL(/format=DWG/);
    const byFormat = await list(`category=${category?.slug}&format=DWG`);
    expect((await shown(page)).total).toBe(byFormat.total);
    expect(byFormat.total).toBeLessThanOrEqual(byCategory.total);

    await page.getByTestId('format-all').click();
    await page.waitForURL((url) => !url.search.includes('format='));
    await page.getByTestId('access-member').click();
    await page.waitForURL(/access=member/);
    const byAccess = await list(`category=${category?.slug}&access=member`);
    expect(await shown(page)).toEqual({ total: byAccess.total, ids: byAccess.items.map((item) => item.id) });
    const badges = await page.getByTestId('drawing-access').allInnerTexts();
    expect(badges.every((badge) => badge === '会员')).toBe(true);

    // A search nothing matches shows the empty state with a hint, and a way back.
    await page.goto(`/dwglist?q=${encodeURIComponent('不存在的图纸关键词')}`);
    await page.getByTestId('drawing-empty').waitFor();
    await expect(page.getByTestId('drawing-empty').innerText()).resolves.toContain('清除筛选');
  });

  it('answers 404 for a bad filter and an unknown drawing', async () => {
    const page = await browser.page(DESKTOP);
    for (const path of ['/dwglist?format=pdf', '/dwglist?category=no-such-category', '/dwgItem/99999']) {
      const response = await page.goto(path);
      expect([path, response?.status()]).toEqual([path, 404]);
    }
  });

  it('fits a 375 px screen without sideways scrolling', async () => {
    const page = await browser.page(MOBILE);
    await page.goto('/dwglist?format=DWG');
    await expect(page.locator('main').count()).resolves.toBe(1);
    await page.getByTestId('drawing-card').first().waitFor();
    await hasNoHorizontalOverflow(page);
    const firstId = await page.getByTestId('drawing-card').first().getAttribute('data-id');
    await page.goto(`/dwgItem/${firstId}`);
    await page.getByTestId('drawing-download').waitFor();
    await hasNoHorizontalOverflow(page);
  });
});

describe('/dwgItem/{id} downloads', () => {
  it('shows the drawing and downloads a free drawing with its exact bytes', async () => {
    const { free } = await sampleDrawings();
    const page = await browser.page(DESKTOP);
    await page.goto(`/dwgItem/${free.id}`);
    await expect(page.locator('h1').innerText()).resolves.toBe(free.title);
    await expect(page.title()).resolves.toContain(free.title);
    await expect(page.getByTestId('drawing-meta').innerText()).resolves.toContain(free.version);
    await expect(
      page.getByTestId('drawing-preview').evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
    ).resolves.toBe(true);

    const expected = Buffer.from(await (await fetch(`${browser.baseUrl}${free.fileUrl}`)).arrayBuffer());
    expect(expected.length).toBe(free.sizeBytes);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('drawing-download').click()]);
    expect(download.suggestedFilename()).toBe(free.fileName);
    const path = await download.path();
    expect((await readFile(path)).equals(expected)).toBe(true);
  });

  it('asks a signed-out visitor to sign in for a member drawing', async () => {
    const { member } = await sampleDrawings();
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto(`/dwgItem/${member.id}`);
    // Once the page knows nobody is signed in, the button says so.
    await expect.poll(() => page.getByTestId('drawing-download').innerText()).toContain('登录后下载');
    await page.getByTestId('drawing-download').click();
    await page.getByTestId('login-modal').waitFor();
    await page.getByTestId('drawing-signin-prompt').waitFor();
    expect((await fetch(`${browser.baseUrl}${member.fileUrl}`)).status).toBe(401);
  });

  it('shows an ordinary user the buy prompt (the file answers 403), and lets a member download', async () => {
    const { member } = await sampleDrawings();
    const page = await browser.page(asVisitor(DESKTOP));
    const ordinary = await signInContext(page.context(), FIXTURE_PHONES.ordinary, FIXTURE_PASSWORD);
    await page.goto(`/dwgItem/${member.id}`);
    await page.getByTestId('drawing-download').click();
    await page.getByTestId('drawing-buy-prompt').waitFor();
    await expect(page.getByTestId('drawing-buy-link').getAttribute('href')).resolves.toBe('/buy/cadtuku.html');
    const refused = await fetch(`${browser.baseUrl}${member.fileUrl}`, { headers: { cookie: `xcad_session=${ordinary.usertoken}` } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 10403, message: expect.stringContaining('图库会员') });

    const memberPage = await browser.page(asVisitor(DESKTOP));
    await signInContext(memberPage.context(), FIXTURE_PHONES.member, FIXTURE_PASSWORD);
    await memberPage.goto(`/dwgItem/${member.id}`);
    const [download] = await Promise.all([memberPage.waitForEvent('download'), memberPage.getByTestId('drawing-download').click()]);
    expect(download.suggestedFilename()).toBe(member.fileName);
    expect((await stat(await download.path())).size).toBe(member.sizeBytes);
    await expect(memberPage.getByTestId('drawing-buy-prompt').count()).resolves.toBe(0);
  });
});
