import type { TCourseResponse } from '@xcad/protocol';
import type { Locator, Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { asVisitor, signInContext } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';
import { FIXTURE_PASSWORD, FIXTURE_PHONES } from '../support/fixtures';

// The video course (decision 0012) plays and remembers progress: /video.html plays its lessons
// through the front server (Range requests for seeking), keeps a visitor's progress in the browser and a
// signed-in user's on the server (reload resumes), and plays member lessons for tutorials members
// (product 297) only; /resources.html leads to the two tutorial courses and the video course.

const browser = useBrowser();

async function course(): Promise<TCourseResponse> {
  const response = await fetch(`${browser.baseUrl}/api/site/course`);
  expect(response.status).toBe(200);
  return (await response.json()) as TCourseResponse;
}

function currentTime(video: Locator): Promise<number> {
  return video.evaluate((element: HTMLVideoElement) => element.currentTime);
}

/** Starts the lesson muted (autoplay rules allow it) and waits until `seconds` have played. */
async function playUntil(video: Locator, seconds: number): Promise<void> {
  await video.evaluate((element: HTMLVideoElement) => {
    element.muted = true;
    return element.play();
  });
  await expect.poll(() => currentTime(video), { timeout: 20_000 }).toBeGreaterThan(seconds);
}

function isSaveOf(response: Response): boolean {
  return response.url().endsWith('/api/v4/coursesaveprogress') && response.request().method() === 'POST';
}

async function hasNoHorizontalScroll(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
}

describe('/video.html', () => {
  it('lists the 20 lessons server-side and plays lesson 1 for a visitor, seeking through byte ranges', async () => {
    const { lessons } = await course();
    const html = await (await fetch(`${browser.baseUrl}/video.html`)).text();
    for (const lesson of lessons) expect(html).toContain(lesson.title);
    expect(html).toContain('<video');

    const page = await browser.page(asVisitor(DESKTOP));
    const ranges: Response[] = [];
    page.on('response', (response) => {
      if (response.url().includes(lessons[0]!.videoUrl) && response.status() === 206) ranges.push(response);
    });
    await page.goto('/video.html');
    await expect(page.getByTestId('lesson-item').count()).resolves.toBe(20);
    await expect(page.getByTestId('lesson-title').innerText()).resolves.toBe(lessons[0]!.title);
    await expect(page.locator('[data-testid="lesson-item"][aria-current="true"]').getAttribute('data-lesson')).resolves.toBe('1');

    const video = page.getByTestId('lesson-video');
    await playUntil(video, 1);
    await expect(video.evaluate((element: HTMLVideoElement) => Math.round(element.duration))).resolves.toBe(lessons[0]!.duration);
    // Seeking near the end makes the browser ask for another byte range, answered 206 through :3000.
    await video.evaluate((element: HTMLVideoElement) => {
      element.currentTime = element.duration - 4;
    });
    await expect.poll(() => currentTime(video)).toBeGreaterThan(lessons[0]!.duration - 4);
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges[0]!.headers()['content-range']).toMatch(/^bytes \d+-\d+\/\d+$/);
  });

  it('keeps a visitor’s progress in the browser, suggests signing in, and asks for sign-in on a member lesson', async () => {
    const { lessons } = await course();
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/video.html?lesson=3');
    await page.getByTestId('progress-hint').waitFor();
    const video = page.getByTestId('lesson-video');
    await playUntil(video, 4);
    await video.evaluate((element: HTMLVideoElement) => element.pause());
    const item = page.locator('[data-testid="lesson-item"][data-lesson="3"]');
    await item.getByTestId('lesson-progress').waitFor();
    const stored = await page.evaluate(
      () => JSON.parse(window.localStorage.getItem('xcad_course_progress') ?? '{}') as Record<string, { position: number }>,
    );
    expect(stored[lessons[2]!.id]?.position).toBeGreaterThanOrEqual(4);

    await page.reload();
    await expect.poll(() => currentTime(page.getByTestId('lesson-video'))).toBeGreaterThanOrEqual(4);
    await page.getByTestId('lesson-resumed').waitFor();

    await page.locator('[data-testid="lesson-item"][data-lesson="4"]').click();
    await page.getByTestId('login-modal').waitFor();
    await page.waitForURL(/\/video\.html\?lesson=4$/);
    await expect(page.getByTestId('lesson-locked').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('lesson-video').count()).resolves.toBe(0);
  });

  it('saves a signed-in user’s progress on the server: a reload resumes there and the list shows it; the end completes the lesson', async () => {
    const { lessons } = await course();
    const lesson = lessons[1]!;
    const page = await browser.page(asVisitor(DESKTOP));
    await signInContext(page.context(), FIXTURE_PHONES.ordinary, FIXTURE_PASSWORD);
    await page.goto('/video.html?lesson=2');
    await expect(page.getByTestId('progress-hint').count()).resolves.toBe(0);
    const video = page.getByTestId('lesson-video');
    await playUntil(video, 5);
    const [saved] = await Promise.all([page.waitForResponse(isSaveOf), video.evaluate((element: HTMLVideoElement) => element.pause())]);
    const answer = (await saved.json()) as { code: number; progress: { lessonid: number; position: number } };
    expect(answer.code).toBe(10000);
    expect(answer.progress.lessonid).toBe(lesson.id);
    expect(answer.progress.position).toBeGreaterThanOrEqual(5);

    await page.reload();
    const resumed = page.getByTestId('lesson-video');
    await expect.poll(() => currentTime(resumed)).toBeGreaterThanOrEqual(answer.progress.position - 1);
    expect(await currentTime(resumed)).toBeLessThanOrEqual(answer.progress.position + 1);
    await expect(page.getByTestId('lesson-resumed').innerText()).resolves.toContain(
      `00:${String(answer.progress.position).padStart(2, '0')}`,
    );
    const item = page.locator('[data-testid="lesson-item"][data-lesson="2"]');
    const percent = Number(await item.getByTestId('lesson-progress').getAttribute('aria-valuenow'));
    expect(percent).toBe(Math.round((answer.progress.position / lesson.duration) * 100));

    // Played to the end: completed, in the list and on the server.
    await resumed.evaluate((element: HTMLVideoElement) => {
      element.currentTime = element.duration - 1.5;
    });
    const [completed] = await Promise.all([
      page.waitForResponse(
        async (response) =>
          isSaveOf(response) && ((await response.json()) as { progress?: { completed: boolean } }).progress?.completed === true,
      ),
      playUntil(resumed, lesson.duration - 1.4),
    ]);
    expect(completed.status()).toBe(200);
    await item.getByTestId('lesson-completed').waitFor();
    await expect(page.getByTestId('completed-count').innerText()).resolves.toMatch(/已学完 [1-9]\d*\/20 课/);
  });

  it('shows an ordinary user the membership offer on a member lesson, whose video answers 403', async () => {
    const { lessons } = await course();
    const page = await browser.page(asVisitor(DESKTOP));
    await signInContext(page.context(), FIXTURE_PHONES.ordinary, FIXTURE_PASSWORD);
    await page.goto('/video.html?lesson=5');
    await page.getByTestId('lesson-buy').waitFor();
    await expect(page.getByTestId('lesson-buy').getAttribute('href')).resolves.toBe('/buy/cadresources.html');
    await expect(page.getByTestId('lesson-video').count()).resolves.toBe(0);
    await expect(page.locator('[data-testid="lesson-item"][data-lesson="5"]').innerText()).resolves.toContain('会员');

    // The browser's own cookie: the clip itself is refused, not just hidden.
    const refused = await page.request.get(lessons[4]!.videoUrl);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ code: 15002, message: '本课为CAD教程会员专享，开通会员后即可观看全部课程' });
  });

  it('plays lesson 5 for a tutorials member', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await signInContext(page.context(), FIXTURE_PHONES.member, FIXTURE_PASSWORD);
    await page.goto('/video.html?lesson=5');
    const video = page.getByTestId('lesson-video');
    await video.waitFor();
    await playUntil(video, 1);
    await expect(page.getByTestId('lesson-locked').count()).resolves.toBe(0);
    // A shared lesson link names its lesson in the title and keeps the course page canonical.
    await expect(page.title()).resolves.toMatch(/^第5课 对象捕捉与极轴追踪 - CAD视频教程/);
    await expect(page.locator('link[rel="canonical"]').getAttribute('href')).resolves.toMatch(/\/video\.html$/);
  });

  it('answers 404 for a lesson number the course does not have', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    for (const query of ['0', '21', 'abc']) {
      const response = await page.goto(`/video.html?lesson=${query}`);
      expect(response?.status(), query).toBe(404);
    }
  });

  it('fits a 375 px phone: player first, then the lessons, no horizontal scrolling', async () => {
    const page = await browser.page(asVisitor(MOBILE));
    await page.goto('/video.html?lesson=6');
    await page.getByTestId('lesson-locked').waitFor();
    await hasNoHorizontalScroll(page);
    const stage = await page.getByTestId('lesson-locked').boundingBox();
    const list = await page.getByTestId('lesson-list').boundingBox();
    expect(stage!.width).toBeGreaterThanOrEqual(370);
    expect(list!.y).toBeGreaterThan(stage!.y + stage!.height);
    await page.goto('/video.html');
    await page.getByTestId('lesson-video').waitFor();
    await hasNoHorizontalScroll(page);
  });
});

describe('/resources.html', () => {
  it('leads to the zero-basics and master tutorials with their newest articles, and to the video course', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/resources.html');
    for (const [section, href] of [
      ['hub-basics', '/basics.html'],
      ['hub-master', '/master.html'],
      ['hub-video', '/video.html'],
    ] as const) {
      await expect(page.getByTestId(section).locator(`h2 a[href="${href}"]`).count(), section).resolves.toBe(1);
    }
    await expect(page.getByTestId('hub-basics').getByTestId('hub-article').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByTestId('hub-master').getByTestId('hub-article').count()).resolves.toBeGreaterThan(0);
    const lessons = page.getByTestId('hub-lesson');
    await expect(lessons.count()).resolves.toBe(4);
    await expect
      .poll(() =>
        lessons
          .first()
          .locator('img')
          .evaluate((image: HTMLImageElement) => image.naturalWidth),
      )
      .toBe(640);

    await lessons.nth(1).click();
    await page.waitForURL(/\/video\.html\?lesson=2$/);
    await page.getByTestId('lesson-video').waitFor();
  });

  it('fits a 375 px phone without horizontal scrolling', async () => {
    const page = await browser.page(asVisitor(MOBILE));
    await page.goto('/resources.html');
    await page.getByTestId('hub-video').waitFor();
    await hasNoHorizontalScroll(page);
  });
});
