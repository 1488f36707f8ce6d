import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// 每日一图 (spec §2, decision 0012): the picture list (new/hot, search, tags, pages), a picture's page (views
// counted once per visit, download counted with the right bytes) and the home teaser, against
// the production build and the real content of content/dailypics.

const browser = useBrowser();
const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));
const PAGE_SIZE = 12;

interface Picture {
  ID: number;
  post_title: string;
  views: number;
  downloads: number;
  meta: { file?: string };
  tags: Array<{ id: number; name: string }>;
}

async function api<T>(path: string, method = 'GET'): Promise<T> {
  const response = await fetch(`${browser.baseUrl}/wp-json/wp/v2/${path}`, { method });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

const list = (route: string) => api<{ total: number; data: Picture[] }>(route);
const picture = (id: number) => api<Picture>(`get_dailypicsId?id=${id}`);

/** Picture ids of the cards on the page, in order. */
async function cardIds(page: Page): Promise<number[]> {
  return page.getByTestId('dailypic-card').evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-id'))));
}

async function hasNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

describe('/dailypic.html (每日一图)', () => {
  it('lists all 30 pictures newest first over three pages, and a page past the end is a 404', async () => {
    const all = await list('get_dailypics?per_page=100');
    expect(all.total).toBeGreaterThanOrEqual(30);
    const page = await browser.page(DESKTOP);
    await page.goto('/dailypic.html');
    const seen: number[] = [];
    const pages = Math.ceil(all.total / PAGE_SIZE);
    for (let number = 1; number <= pages; number += 1) {
      if (number > 1) {
        await page.getByTestId('pagination-next').click();
        await page.waitForURL(new RegExp(`/dailypic\\.html\\?page=${number}$`));
      }
      const ids = await cardIds(page);
      expect(ids.length).toBe(Math.min(PAGE_SIZE, all.total - seen.length));
      seen.push(...ids);
    }
    expect(seen).toEqual(all.data.map((item) => item.ID));
    const past = await page.goto(`/dailypic.html?page=${pages + 1}`);
    expect(past?.status()).toBe(404);
  });

  it('最热 orders the pictures by views as the API does, unlike 最新', async () => {
    const newest = await list(`get_dailypics?per_page=${PAGE_SIZE}`);
    // An old picture becomes the most viewed one before the hot list is first rendered.
    const oldest = (await list('get_dailypics?per_page=100')).data.at(-1);
    if (oldest === undefined) throw new Error('no pictures');
    const hottest = (await list('get_dailypics_hot?per_page=1')).data[0]?.views ?? 0;
    for (let visit = 0; visit <= hottest + 2; visit += 1) await api(`update_post_views?id=${oldest.ID}`, 'POST');
    const hot = await list(`get_dailypics_hot?per_page=${PAGE_SIZE}`);
    expect(hot.data[0]?.ID).toBe(oldest.ID);

    const page = await browser.page(DESKTOP);
    await page.goto('/dailypic.html');
    expect(await cardIds(page)).toEqual(newest.data.map((item) => item.ID));
    await expect(page.getByTestId('dailypic-tab-new').getAttribute('aria-current')).resolves.toBe('page');
    await page.getByTestId('dailypic-tab-hot').click();
    await page.waitForURL(/\/dailypic\.html\?tab=hot$/);
    await expect(page.getByTestId('dailypic-tab-hot').getAttribute('aria-current')).resolves.toBe('page');
    const hotIds = await cardIds(page);
    expect(hotIds).toEqual(hot.data.map((item) => item.ID));
    expect(hotIds[0]).toBe(oldest.ID);
    expect(hotIds).not.toEqual(newest.data.map((item) => item.ID));
  });

  it('finds pictures by title and shows an empty state for an unknown word', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/dailypic.html');
    await page.getByTestId('dailypic-search-input').fill('填充');
    await page.getByTestId('dailypic-search-submit').click();
    await page.waitForURL(/\/dailypic\.html\?q=/);
    const titles = await page.getByTestId('dailypic-card-title').allInnerTexts();
    expect(titles.length).toBeGreaterThan(1);
    expect(titles.every((title) => title.includes('填充'))).toBe(true);

    await page.goto(`/dailypic.html?q=${encodeURIComponent('不存在的图纸名称')}`);
    await expect(page.getByTestId('dailypic-empty').innerText()).resolves.toContain('不存在的图纸名称');
  });

  it('a tag chip lists exactly the pictures of that tag', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/dailypic.html');
    const chip = page.getByTestId('dailypic-tag').nth(1);
    const name = (await chip.innerText()).replace(/\d+$/, '').trim();
    await chip.click();
    await page.waitForURL(/\/dailypics\/\d+\/1$/);
    const tagId = Number(/\/dailypics\/(\d+)\/1$/.exec(page.url())?.[1]);
    const tagged = await list(`getDailypicTags?tag_id=${tagId}&per_page=${PAGE_SIZE}`);
    expect(tagged.total).toBeGreaterThan(0);
    expect(await cardIds(page)).toEqual(tagged.data.map((item) => item.ID));
    expect(tagged.data.every((item) => item.tags.some((tag) => tag.id === tagId && tag.name === name))).toBe(true);
    await expect(page.locator('h1').innerText()).resolves.toContain(name);
    // After a client-side navigation the title follows the page a moment later.
    await expect.poll(() => page.title()).toContain(name);

    expect((await page.goto(`/dailypics/${tagId}/99`))?.status()).toBe(404);
    // Tag 0 is every picture.
    await page.goto('/dailypics/0/1');
    expect(await cardIds(page)).toHaveLength(PAGE_SIZE);
  });
});

describe('/dailypics/{id}', () => {
  it('counts a view once per visit: a reload does not count again', async () => {
    const id = 3002;
    const before = (await picture(id)).views;
    const page = await browser.page(DESKTOP);
    const counted = page.waitForResponse((response) => response.url().includes(`update_post_views?id=${id}`));
    await page.goto(`/dailypics/${id}`);
    expect((await counted).status()).toBe(200);
    await expect.poll(() => page.getByTestId('dailypic-views').innerText()).toBe(String(before + 1));
    expect((await picture(id)).views).toBe(before + 1);

    const refreshed = page.waitForResponse((response) => response.url().includes(`get_dailypicsId?id=${id}`));
    await page.reload();
    await refreshed;
    await expect(page.getByTestId('dailypic-views').innerText()).resolves.toBe(String(before + 1));
    expect((await picture(id)).views).toBe(before + 1);
  });

  it('shows the picture with its facts, and the download saves the drawing and counts it', async () => {
    const id = 3001;
    const stored = await picture(id);
    const page = await browser.page(DESKTOP);
    await page.goto(`/dailypics/${id}`);
    await expect(page.getByTestId('dailypic-title').innerText()).resolves.toBe(stored.post_title);
    await expect(page.title()).resolves.toContain(stored.post_title);
    const preview = page.getByTestId('dailypic-preview');
    await expect(preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).resolves.toBe(960);
    await expect(page.getByTestId('dailypic-facts').innerText()).resolves.toMatch(/DXF R2004/);
    await expect(page.getByTestId('dailypic-hot').locator('a').count()).resolves.toBeGreaterThan(3);

    const shown = Number(await page.getByTestId('dailypic-downloads').innerText());
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('dailypic-download').click()]);
    const file = stored.meta.file ?? '';
    expect(download.suggestedFilename()).toBe(file.split('/').pop());
    const saved = await readFile(await download.path());
    const original = await readFile(`${CONTENT_DIR}${file.replace(/^\/content\//, '')}`);
    expect(saved.equals(original)).toBe(true);
    await expect.poll(() => page.getByTestId('dailypic-downloads').innerText()).toBe(String(shown + 1));
    await expect.poll(async () => (await picture(id)).downloads).toBe(stored.downloads + 1);
  });

  it('links the previous and next pictures and its tags, and an unknown id is a 404', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/dailypics/3010');
    await page.getByTestId('dailypic-next').click();
    await page.waitForURL(/\/dailypics\/3011$/);
    await page.getByTestId('dailypic-previous').click();
    await page.waitForURL(/\/dailypics\/3010$/);
    await page.getByTestId('dailypic-tags').locator('a').first().click();
    await page.waitForURL(/\/dailypics\/\d+\/1$/);
    expect(await cardIds(page)).toContain(3010);

    for (const path of ['/dailypics/99999', '/dailypics/1001']) expect((await page.goto(path))?.status(), path).toBe(404);
  });

  it('the header marks 每日一图 as active on the picture pages', async () => {
    const page = await browser.page(DESKTOP);
    for (const path of ['/dailypic.html', '/dailypics/3001', '/dailypics/0/2']) {
      await page.goto(path);
      const entry = page.locator('[data-testid="site-header"] [data-testid="nav-dailypic"]');
      await expect(entry.getAttribute('aria-current'), path).resolves.toBe('page');
    }
  });
});

describe('daily pictures on phones and on the home page', () => {
  it('lays out the list, a picture and a tag list at 375 px without horizontal scrolling', async () => {
    const page = await browser.page(MOBILE);
    for (const path of ['/dailypic.html', '/dailypics/3001', '/dailypics/0/1']) {
      await page.goto(path);
      await hasNoHorizontalScroll(page);
    }
    await page.goto('/dailypic.html');
    const [first, second] = await page
      .getByTestId('dailypic-card')
      .evaluateAll((cards) => cards.slice(0, 2).map((card) => card.getBoundingClientRect().top));
    expect(first).toBe(second);
  });

  it('the home page shows the four newest pictures, each linking to its page', async () => {
    const newest = await list('get_dailypics?per_page=4');
    const page = await browser.page(DESKTOP);
    await page.goto('/');
    const hrefs = await page.getByTestId('home-dailypic').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(newest.data.map((item) => `/dailypics/${item.ID}`));
  });
});
