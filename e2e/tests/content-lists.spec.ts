import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';

// Content lists (spec §2, decision 0011): the help centre (categories, search, paging), the two tutorial courses
// and a tag page, against the production build and the seeded content of content/.

const browser = useBrowser();

const HELP_CATEGORIES = ['下载安装', '注册激活', '绘图编辑', '格式转换', '打印输出', '常见问题'];

/** Article ids of the list links on the page, in order. */
async function listedIds(page: Page, testId = 'list-post'): Promise<number[]> {
  const hrefs = await page.getByTestId(testId).evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return hrefs.map((href) => Number(/\/(\d+)\.html$/.exec(href)?.[1] ?? Number.NaN));
}

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${browser.baseUrl}/wp-json/wp/v2/${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function hasNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

describe('/help.html (软件帮助)', () => {
  it('shows the six help categories with their articles, and an article opens its page', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/help.html');
    const sections = page.getByTestId('help-category');
    await expect(sections.count()).resolves.toBe(6);
    const headings = await sections.locator('h2').allInnerTexts();
    expect(headings.map((heading) => HELP_CATEGORIES.find((name) => heading.startsWith(name)))).toEqual(HELP_CATEGORIES);
    for (let index = 0; index < 6; index += 1) {
      await expect(sections.nth(index).getByTestId('list-post').count()).resolves.toBeGreaterThan(0);
    }

    const first = sections.first().getByTestId('list-post').first();
    const [id] = await listedIds(page);
    expect(id).toBeGreaterThan(0);
    await first.click();
    await page.waitForURL(new RegExp(`/${id}\\.html$`));
  });

  it('finds an article about fonts when searching for 字体', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/help.html');
    await page.getByTestId('help-search-input').fill('字体');
    await page.getByTestId('help-search-submit').click();
    await page.waitForURL(/\/help\.html\?s=/);
    const results = page.getByTestId('search-results');
    await results.waitFor();
    const titles = await results
      .getByTestId('list-post')
      .evaluateAll((links) => links.map((link) => link.firstElementChild?.textContent ?? ''));
    expect(titles.some((title) => title.includes('字体'))).toBe(true);
    await expect(page.getByTestId('help-search-input').inputValue()).resolves.toBe('字体');
  });

  it('pages through all help articles: /help/2 differs from /help/1 and a page past the end is a 404', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/help/1');
    const firstPage = await listedIds(page);
    expect(firstPage).toHaveLength(10);
    await page.getByTestId('pagination-next').click();
    await page.waitForURL(/\/help\/2$/);
    const secondPage = await listedIds(page);
    expect(secondPage.length).toBeGreaterThan(0);
    expect(secondPage.filter((id) => firstPage.includes(id))).toEqual([]);

    const response = await page.goto('/help/999');
    expect(response?.status()).toBe(404);
  });
});

describe('course lists', () => {
  it('/basics.html lists the six lessons numbered in course order (oldest first)', async () => {
    const page = await browser.page(DESKTOP);
    await page.goto('/basics.html');
    const lessons = page.getByTestId('course-lesson');
    await expect(lessons.count()).resolves.toBe(6);
    const numbers = await lessons.evaluateAll((links) => links.map((link) => link.firstElementChild?.textContent ?? ''));
    expect(numbers).toEqual(['第1课', '第2课', '第3课', '第4课', '第5课', '第6课']);

    const [basics] = await api<{ id: number }[]>('categories?slug=basics');
    const inOrder = await api<{ id: number }[]>(`posts?categories=${basics?.id}&orderby=date&order=asc&_fields=id`);
    await expect(listedIds(page, 'course-lesson')).resolves.toEqual(inOrder.map((post) => post.id));
  });
});

describe('/tag/{id}', () => {
  it('shows the tag name and the posts carrying it; an unknown tag is a 404', async () => {
    const [tag] = await api<{ id: number; name: string; count: number }[]>(`tags?search=${encodeURIComponent('字体')}`);
    expect(tag?.count).toBeGreaterThan(0);
    const page = await browser.page(DESKTOP);
    await page.goto(`/tag/${tag?.id}`);
    await expect(page.getByTestId('tag-name').innerText()).resolves.toContain(tag?.name);
    await expect(page.title()).resolves.toContain(tag?.name);

    const tagged = await api<{ id: number; tags: number[] }[]>(`posts?tags=${tag?.id}&_fields=id,tags`);
    const ids = await listedIds(page);
    expect(ids.length).toBe(tagged.length);
    expect([...ids].sort()).toEqual(tagged.map((post) => post.id).sort());
    expect(tagged.every((post) => post.tags.includes(tag?.id ?? 0))).toBe(true);

    const response = await page.goto('/tag/999999');
    expect(response?.status()).toBe(404);
  });
});

describe('/lingwai.html and /lingwai/{slug} (更多CAD文章)', () => {
  it('lists every article newest first with the topics as tabs; a topic lists only its own articles', async () => {
    const page = await browser.page(DESKTOP);
    const response = await page.goto('/lingwai.html');
    expect(response?.status()).toBe(200);
    const tabs = page.getByTestId('topic-nav').getByRole('link');
    const names = await tabs.allInnerTexts();
    for (const name of [...HELP_CATEGORIES, '零基础', '入门到精通']) expect(names).toContain(name);
    await expect(page.getByTestId('topic-nav').locator('[aria-current="page"]').innerText()).resolves.toBe('全部文章');
    expect(await listedIds(page)).toHaveLength(10);

    const [category] = await api<{ id: number; count: number }[]>('categories?slug=printing');
    await page.getByTestId('topic-nav').getByRole('link', { name: '打印输出' }).click();
    await page.waitForURL((url) => url.pathname === '/lingwai/printing');
    await expect.poll(() => page.getByTestId('topic-name').innerText()).toBe('打印输出');
    const inTopic = await api<{ id: number }[]>(`posts?categories=${category?.id}&_fields=id&per_page=100`);
    expect((await listedIds(page)).sort()).toEqual(inTopic.map((post) => post.id).sort());
    // After a client-side navigation the title follows the page a moment later.
    await expect.poll(() => page.title()).toContain('打印输出');

    expect((await page.goto('/lingwai/no-such-topic'))?.status()).toBe(404);
    expect((await page.goto('/lingwai.html?page=99'))?.status()).toBe(404);
    await page.goto('/lingwai');
    await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toMatch(/\/lingwai\.html$/);
  });
});

describe('375 px', () => {
  it.each(['/help.html', '/help/2', '/basics.html', '/master.html', '/lingwai.html'])('%s has no horizontal scroll', async (path) => {
    const page = await browser.page(MOBILE);
    await page.goto(path);
    await page.getByTestId('post-list').or(page.getByTestId('course-list')).first().waitFor();
    await hasNoHorizontalScroll(page);
  });
});
