import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_COOKIE, ZAnalyticsReport, type TAnalyticsEventRecord, type TAnalyticsReport } from '@xcad/protocol';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { e2eDistDir, freePort, spawnWeb, stopChild, waitForHttp, webDir, withEmbeddedDefaults } from '../../scripts/lib.mjs';
import { asVisitor, loginThroughApi, registerThroughApi, signInContext, uniquePhone } from '../support/auth';
import { DESKTOP, MOBILE, useBrowser } from '../support/browser';
import { createOperator, signInConsole } from '../support/operator';

// Analytics (decision 0022) in the browser: a scripted session (sign-in, a conversion, a sandbox purchase) ends up
// in the collector's counts, read back through the report API as an operator made with
// `npm run operator:create`, and the report page shows them; the tracker batches, keeps events
// offline and sends them on reconnection, sends nothing with Do-Not-Track or after 拒绝, logs in
// debug mode on the test host only; the statistics script appears only when configured.

const browser = useBrowser();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(ROOT, 'packages/cad/test-fixtures');
const COLLECTOR = '/api/analytics/events';
const FLUSH_MS = 5_000;
const QUEUE_KEY = 'xcad_analytics_queue';

/** Today in Beijing, as the collector's days are counted. */
function beijingToday(): string {
  return new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
}

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

async function reportFor(usertoken: string, from: string, to: string): Promise<TAnalyticsReport> {
  const response = await fetch(`${inject('baseUrl')}/api/analytics/report?from=${from}&to=${to}`, {
    headers: { cookie: `${SESSION_COOKIE}=${usertoken}` },
  });
  expect(response.status).toBe(200);
  return ZAnalyticsReport.parse(await response.json());
}

/** The figures the scripted session changes. */
function figuresOf(report: TAnalyticsReport) {
  const password = report.logins.find((row) => row.method === 'password');
  const cad2pdf = report.tasks.find((row) => row.tool === 'cad2pdf');
  const step = (name: string) => report.funnel.steps.find((candidate) => candidate.step === name)?.devices ?? 0;
  return {
    visitors: report.totals.visitors,
    views: report.totals.views,
    passwordAttempts: password?.attempts ?? 0,
    passwordSuccesses: password?.successes ?? 0,
    cad2pdfTasks: cad2pdf?.tasks ?? 0,
    cad2pdfSuccesses: cad2pdf?.successes ?? 0,
    funnel: [step('view'), step('checkout'), step('add_payment_info'), step('purchase')],
    orders: report.funnel.orders,
    revenue: report.funnel.revenue,
  };
}

/** The tracker's bridge on the page (apps/web/lib/analytics/browser.ts). */
type AnalyticsWindow = Window & { xcadAnalytics?: { flush(): Promise<void>; pending(): number } };

/** Sends everything the page still holds (its view included) and waits for the collector's answers. */
async function drain(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as AnalyticsWindow).xcadAnalytics !== undefined);
  // The page's view is queued just after the tracker starts (components/analytics/analytics-root.tsx).
  await sleep(200);
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const analytics = (window as AnalyticsWindow).xcadAnalytics;
          if (!analytics) return -1;
          await analytics.flush();
          return analytics.pending();
        }),
      { timeout: 20_000, interval: 300 },
    )
    .toBe(0);
}

interface CollectorCall {
  readonly events: TAnalyticsEventRecord[];
  /** The collector's answer ({accepted, rejected}). */
  readonly answer: unknown;
}

/** Every batch the page posts to the collector (POST and beacon) with the collector's answer. */
async function collectorLog(page: Page): Promise<{ calls: CollectorCall[]; events: () => TAnalyticsEventRecord[] }> {
  const calls: CollectorCall[] = [];
  await page.route(`**${COLLECTOR}`, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    const response = await route.fetch();
    const answer: unknown = await response.json().catch(() => null);
    calls.push({ events: (JSON.parse(request.postData() ?? '{"events":[]}') as { events: TAnalyticsEventRecord[] }).events, answer });
    return route.fulfill({ response });
  });
  return { calls, events: () => calls.flatMap((call) => call.events) };
}

async function queued(page: Page): Promise<TAnalyticsEventRecord[]> {
  return page.evaluate(
    (key) => (JSON.parse(window.localStorage.getItem(key) ?? '[]') as { event: TAnalyticsEventRecord }[]).map((item) => item.event),
    QUEUE_KEY,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Do-Not-Track on, as a browser with the setting sends it. */
const WITH_DNT: BrowserContextOptions = { ...DESKTOP, extraHTTPHeaders: { DNT: '1' } };

async function withDoNotTrack(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });
  });
}

describe('collected counts and the operator report', () => {
  it('counts a session that signs in, converts a file and buys, and the report page shows the same numbers', async () => {
    const operator = createOperator();
    const { usertoken } = await loginThroughApi(operator.phone, operator.password);
    const today = beijingToday();
    const before = figuresOf(await reportFor(usertoken, today, today));

    const phone = uniquePhone();
    await registerThroughApi(phone, 'pass1234');
    const page = await browser.page(asVisitor(DESKTOP));
    await page.goto('/');
    await expect.poll(() => page.getByTestId('consent-bar').innerText()).toContain('我们使用统计数据改进网站体验');
    await page.getByTestId('consent-accept').click();
    await page.getByTestId('consent-bar').waitFor({ state: 'detached' });

    // Sign-in: a wrong password, then the right one (two attempts, one success).
    await page.getByTestId('header-login').click();
    await page.getByTestId('to-phone').click();
    await page.getByTestId('tab-password').click();
    await page.getByTestId('field-account').fill(phone);
    await page.getByTestId('field-password').fill('wrong999');
    await page.getByTestId('submit').click();
    await expect.poll(() => page.getByTestId('form-error').innerText()).toBe('账号密码错误');
    await page.getByTestId('field-password').fill('pass1234');
    await page.getByTestId('submit').click();
    await page.getByTestId('login-modal').waitFor({ state: 'hidden', timeout: 10_000 });

    // A conversion, and the download of its result.
    await page.goto('/tools/cad2pdf');
    await page.getByTestId('tool-file-input').setInputFiles(path.join(FIXTURES, 'ezdxf_text.dxf'));
    await page.getByTestId('tool-start').click();
    await expect.poll(() => page.getByTestId('tool-workbench').getAttribute('data-phase'), { timeout: 60_000 }).toBe('done');
    await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), page.getByTestId('tool-download').click()]);

    // A purchase with the sandbox provider: 12 months of the editor, ¥68.
    await page.goto('/buy/cadeditor.html');
    await page.getByTestId('plan-304').click();
    await page.getByTestId('buy-now').click();
    await page.getByTestId('cashier-qr').waitFor({ timeout: 15_000 });
    const orderno = (await page.getByTestId('cashier-orderno').innerText()).trim();
    const paid = await fetch(`${inject('baseUrl')}/api/dev/pay/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderno }),
    });
    expect(paid.status).toBe(200);
    await page.getByTestId('cashier-success').waitFor({ timeout: 15_000 });
    await drain(page);

    // Three pages, two password attempts, one cad2pdf task, one device through every funnel step, one order of ¥68.
    await expect
      .poll(async () => figuresOf(await reportFor(usertoken, today, today)), { timeout: 20_000, interval: 500 })
      .toEqual({
        visitors: before.visitors + 1,
        views: before.views + 3,
        passwordAttempts: before.passwordAttempts + 2,
        passwordSuccesses: before.passwordSuccesses + 1,
        cad2pdfTasks: before.cad2pdfTasks + 1,
        cad2pdfSuccesses: before.cad2pdfSuccesses + 1,
        funnel: before.funnel.map((devices) => devices + 1),
        orders: before.orders + 1,
        revenue: before.revenue + 68,
      });

    // The report page, as the operator, for its default range (the last 7 days).
    const from = daysBefore(today, 6);
    const report = await reportFor(usertoken, from, today);
    const expected = figuresOf(report);
    const office = await browser.page(DESKTOP);
    await signInContext(office.context(), operator.phone, operator.password);
    // The user drop-down leads an operator to the reports.
    await office.goto('/');
    await office.getByTestId('user-menu').hover();
    await office.getByTestId('user-menu-operator').click();
    // The reports live in the back office (decision 0042): its own sign-in, by SMS code, then back to them.
    await office.waitForURL('**/operator/login?next=%2Foperator%2Fanalytics');
    await signInConsole(office, operator.phone);
    await office.waitForURL('**/operator/analytics');
    const view = office.getByTestId('analytics-report');
    await view.waitFor();
    await expect(view.getAttribute('data-from')).resolves.toBe(from);
    const text = async (testId: string, root = view) => (await root.getByTestId(testId).first().innerText()).replace(/[,\s]/g, '');
    await expect(text('total-visitors')).resolves.toBe(String(expected.visitors));
    await expect(text('total-views')).resolves.toBe(String(expected.views));
    await expect(text('total-orders')).resolves.toBe(String(expected.orders));
    await expect(text('funnel-revenue')).resolves.toBe(`¥${expected.revenue}`);
    const passwordRow = view.locator('[data-testid="login-row"][data-method="password"]');
    await expect(text('login-attempts', passwordRow)).resolves.toBe(String(expected.passwordAttempts));
    await expect(text('login-successes', passwordRow)).resolves.toBe(String(expected.passwordSuccesses));
    const taskRow = view.locator('[data-testid="task-row"][data-tool="cad2pdf"]');
    await expect(text('task-count', taskRow)).resolves.toBe(String(expected.cad2pdfTasks));
    await expect(taskRow.innerText()).resolves.toContain('CAD转PDF');
    const steps = await view
      .locator('[data-testid="funnel-devices"]')
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-count'))));
    expect(steps).toEqual(expected.funnel);
    // The chart has a bar per day, and the table the day's figures.
    await expect(office.getByTestId('daily-bar').count()).resolves.toBe(7);
    const todayRow = view.locator(`[data-testid="daily-row"][data-day="${today}"]`);
    const todayFigures = report.days.find((day) => day.day === today)!;
    await expect(text('daily-views', todayRow)).resolves.toBe(String(todayFigures.views));
    await expect(text('daily-visitors', todayRow)).resolves.toBe(String(todayFigures.visitors));

    // Another range through the form.
    await office.getByTestId('report-from').fill(today);
    await office.getByTestId('report-submit').click();
    await expect.poll(() => office.getByTestId('analytics-report').getAttribute('data-from')).toBe(today);
    await expect(office.getByTestId('daily-bar').count()).resolves.toBe(1);
  });

  it('sends a visitor to the back office sign-in, and shows an account that is not an operator no way there', async () => {
    const visitor = await browser.page(asVisitor(MOBILE));
    await visitor.goto('/operator/analytics');
    await visitor.getByTestId('operator-login').waitFor();
    await expect(visitor.getByTestId('analytics-report').count()).resolves.toBe(0);

    const phone = uniquePhone();
    await registerThroughApi(phone, 'plain888');
    const member = await browser.page(asVisitor(DESKTOP));
    await signInContext(member.context(), phone, 'plain888');
    await member.goto('/');
    await member.getByTestId('user-menu').hover();
    await expect.poll(() => member.evaluate(() => window.sessionStorage.getItem('xcad_operator_access'))).toContain('"operator":false');
    await expect(member.getByTestId('user-menu-operator').count()).resolves.toBe(0);
    // A site session is not a console session: the member is asked to sign in to the back office.
    await member.goto('/operator/analytics');
    await member.getByTestId('operator-login').waitFor();
    await expect(member.getByTestId('analytics-report').count()).resolves.toBe(0);
  });
});

describe('the tracker in the browser', () => {
  it('batches a page’s events into one request the collector accepts, with the common fields', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const log = await collectorLog(page);
    await page.goto('/');
    const loadedAt = Date.now();
    await page.getByTestId('nav-buy').click();
    await page.waitForURL('**/buy.html');
    await page.getByTestId('nav-download').click();
    await page.waitForURL('**/download.html');
    expect(Date.now() - loadedAt, 'the clicks fit in one batch window').toBeLessThan(FLUSH_MS);
    expect(log.calls).toHaveLength(0);
    await expect.poll(() => log.calls.length, { timeout: FLUSH_MS + 5_000 }).toBe(1);
    const events = log.events();
    expect(events.map((event) => `${event.event} ${event.page}`)).toEqual([
      'view /',
      'click /',
      'view /buy.html',
      'click /buy.html',
      'view /download.html',
    ]);
    expect(log.calls[0]!.answer).toEqual({ accepted: 5, rejected: 0 });
    const deviceId = await page.evaluate(() => window.localStorage.getItem('_g_uuid'));
    for (const event of events)
      expect(event).toMatchObject({
        software_name: 'web',
        software_version: 'online',
        platform: 'WEB',
        device_id: deviceId,
        locale: 'zh-CN',
      });
    expect(events[1]).toMatchObject({ module: 'header', tab_name: 'buy', name: 'buy', click_type: 'link' });
    expect(await queued(page)).toEqual([]);
  });

  it('keeps events while offline and sends them when the browser is back online', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const log = await collectorLog(page);
    await page.goto('/');
    // The login modal's code is loaded once online; offline, opening it again needs no network.
    const clickThroughLogin = async () => {
      await page.getByTestId('header-login').click();
      await page.getByTestId('to-phone').click();
      await page.getByTestId('tab-password').click();
      await page.getByTestId('login-close').click();
      await page.getByTestId('login-modal').waitFor({ state: 'detached' });
    };
    await clickThroughLogin();
    await drain(page);
    const sentBefore = log.calls.length;

    await page.context().setOffline(true);
    await clickThroughLogin();
    await sleep(FLUSH_MS + 1_000);
    expect(log.calls.length).toBe(sentBefore);
    const stored = await queued(page);
    expect(stored.map((event) => (event.event === 'click' ? event.module : event.event))).toEqual(['header', 'login', 'login', 'login']);
    expect(stored[2]).toMatchObject({ event: 'click', name: 'tab-password', click_type: 'button' });

    await page.context().setOffline(false);
    await expect.poll(() => log.calls.length, { timeout: 10_000 }).toBe(sentBefore + 1);
    const resent = log.calls.at(-1)!;
    expect(resent.events).toEqual(stored);
    expect(resent.answer).toEqual({ accepted: 4, rejected: 0 });
    await expect.poll(() => queued(page)).toEqual([]);
  });

  it('reports the desktop shell’s platform, and its start-up queued before the tracker started', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    // What the shell's preload provides (packages/protocol desktop.ts), and a start-up pushed at once.
    await page.context().addInitScript(() => {
      const done = () => Promise.resolve();
      const desktop = {
        isDesktop: true,
        platform: 'WIN',
        version: '0.1.0',
        minimize: done,
        toggleMaximize: () => Promise.resolve(false),
        isMaximized: () => Promise.resolve(false),
        close: done,
        startDrag: done,
        moveBy: done,
        endDrag: done,
        openExternal: done,
        onMaximizedChange: () => () => undefined,
      };
      Object.assign(window, { desktop, xcadAnalyticsQueue: [{ event: 'startup' }] });
    });
    const log = await collectorLog(page);
    await page.goto('/');
    await page.evaluate(() =>
      (window as unknown as { xcadAnalyticsQueue: { push(input: unknown): void } }).xcadAnalyticsQueue.push({ event: 'activation' }),
    );
    await drain(page);
    const events = log.events();
    expect(events.map((event) => event.event).sort()).toEqual(['activation', 'startup', 'view']);
    for (const event of events) expect(event).toMatchObject({ software_name: 'desktop', platform: 'WIN' });
    expect(log.calls.map((call) => call.answer)).toEqual(log.calls.map((call) => ({ accepted: call.events.length, rejected: 0 })));
  });

  it('sends nothing and asks nothing with Do-Not-Track on', async () => {
    const page = await browser.page(asVisitor(WITH_DNT));
    await withDoNotTrack(page);
    const log = await collectorLog(page);
    await page.goto('/');
    await page.getByTestId('nav-buy').click();
    await page.waitForURL('**/buy.html');
    await sleep(FLUSH_MS + 1_000);
    await page.goto('/download.html');
    await sleep(500);
    expect(log.calls).toHaveLength(0);
    expect(await queued(page)).toEqual([]);
    await expect(page.getByTestId('consent-bar').count()).resolves.toBe(0);
  });

  it('stops measuring after 拒绝, remembers the choice, and lets the visitor choose again', async () => {
    const page = await browser.page(asVisitor(MOBILE));
    const log = await collectorLog(page);
    await page.goto('/');
    const bar = page.getByTestId('consent-bar');
    await expect.poll(() => bar.innerText()).toContain('同意');
    await page.getByTestId('consent-decline').click();
    await bar.waitFor({ state: 'detached' });
    const sentBefore = log.calls.length;
    expect(await queued(page)).toEqual([]);
    await page.goto('/buy.html');
    await sleep(FLUSH_MS + 1_000);
    await page.goto('/download.html');
    await sleep(500);
    expect(log.calls.length).toBe(sentBefore);
    await expect(page.getByTestId('consent-bar').count()).resolves.toBe(0);

    // The footer's 统计设置 asks again; agreeing measures again.
    await page.getByTestId('mobile-footer').getByTestId('consent-settings').click();
    await page.getByTestId('consent-accept').click();
    await bar.waitFor({ state: 'detached' });
    await page.goto('/buy.html');
    await drain(page);
    expect(log.events().at(-1)).toMatchObject({ event: 'view', page: '/buy.html' });
  });

  it('logs every event to the console in debug mode on the test host, never on the production host', async () => {
    const production = await browser.page(asVisitor(DESKTOP));
    const productionLogs: string[] = [];
    production.on('console', (message) => productionLogs.push(message.text()));
    const productionLog = await collectorLog(production);
    await production.goto('/?debug=1');
    await drain(production);
    expect(productionLog.events()[0]).toMatchObject({ event: 'view', software_version: 'online' });
    expect(productionLogs.filter((line) => line.startsWith('[analytics]'))).toEqual([]);

    // The same build reached by another host name is a test host (SITE_URL names 127.0.0.1).
    const testHost = inject('baseUrl').replace('127.0.0.1', 'localhost');
    const page = await browser.page(asVisitor(DESKTOP));
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    const log = await collectorLog(page);
    await page.goto(`${testHost}/?debug=1`);
    await expect.poll(() => logs.some((line) => line.startsWith('[analytics] view'))).toBe(true);
    await drain(page);
    expect(log.events()[0]).toMatchObject({ event: 'view', software_version: 'test' });
    expect(logs.some((line) => line.startsWith('[analytics] sent 200'))).toBe(true);
  });
});

describe('the statistics script (spec §7)', () => {
  let configured: ChildProcess | undefined;
  afterAll(() => stopChild(configured));

  /** The build folder the browser tests serve (the newest one when the sources changed since). */
  function distDirEnv(): { NEXT_DIST_DIR: string } {
    const { NEXT_DIST_DIR } = e2eDistDir();
    if (existsSync(path.join(webDir, NEXT_DIST_DIR, 'BUILD_ID'))) return { NEXT_DIST_DIR };
    const builds = readdirSync(webDir).filter((name) => name.startsWith('.next-e2e-') && existsSync(path.join(webDir, name, 'BUILD_ID')));
    builds.sort((a, b) => statSync(path.join(webDir, b, 'BUILD_ID')).mtimeMs - statSync(path.join(webDir, a, 'BUILD_ID')).mtimeMs);
    return { NEXT_DIST_DIR: builds[0] ?? NEXT_DIST_DIR };
  }

  it('is not on the pages by default', async () => {
    const page = await browser.page(asVisitor(DESKTOP));
    const requested: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('hm.baidu.com')) requested.push(request.url());
    });
    await page.goto('/');
    await drain(page);
    await expect(page.locator('script[src*="hm.baidu.com"]').count()).resolves.toBe(0);
    expect(requested).toEqual([]);
  });

  it('is added to the head with the configured Baidu Tongji site id, and not for a visitor with Do-Not-Track', async () => {
    const siteId = '0123456789abcdef0123456789abcdef';
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    configured = spawnWeb(
      withEmbeddedDefaults({
        ...process.env,
        NODE_ENV: 'production',
        ...distDirEnv(),
        API_ORIGIN: inject('apiUrl'),
        SITE_URL: origin,
        PUBLIC_ORIGIN: origin,
        BAIDU_TONGJI_ID: siteId,
        LOG_LEVEL: 'warn',
      }),
      port,
      'ignore',
    );
    await waitForHttp(`${origin}/`, 60_000, configured);

    // A page rendered per request reads the setting at once (prerendered ones at their next regeneration).
    const open = async (page: Page) => {
      const requested: string[] = [];
      await page.route('https://hm.baidu.com/**', (route) => {
        requested.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'application/javascript', body: 'window.__tongjiLoaded = true;' });
      });
      await page.goto(`${origin}/personal.html`);
      return requested;
    };
    const page = await browser.page(asVisitor(DESKTOP));
    const requested = await open(page);
    const script = page.locator(`head script[src="https://hm.baidu.com/hm.js?${siteId}"]`);
    await expect.poll(() => script.count()).toBe(1);
    await expect.poll(() => page.evaluate(() => (window as Window & { __tongjiLoaded?: boolean }).__tongjiLoaded === true)).toBe(true);
    expect(requested).toEqual([`https://hm.baidu.com/hm.js?${siteId}`]);

    const private_ = await browser.page(asVisitor(WITH_DNT));
    await withDoNotTrack(private_);
    const privateRequests = await open(private_);
    await sleep(1_000);
    await expect(private_.locator('script[src*="hm.baidu.com"]').count()).resolves.toBe(0);
    expect(privateRequests).toEqual([]);
  });
});
