import { ANALYTICS_LIMITS, ZAnalyticsReport, type TAnalyticsReport } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { createAuthTestApp, freshClient, signInBySms, type AuthTestApp } from '../auth/auth.testing';
import {
  beijingDay,
  beijingTime,
  databaseConfigOf,
  DAY_MS,
  freshDevice,
  getAs,
  postBody,
  postEvents,
  trackerEvent,
} from './analytics.testing';
import { runOperatorCreate } from './operator.cli';

// Decision 0022 on the real app and database (SQLite and PostgreSQL): the collector (counts, time
// window, sendBeacon's text/plain, hostile input, the user from the session, rate limits) and the
// operator's report (who may read it, and its figures after a known set of events).
//
// Days: the report figures use Beijing days 3 and 2 before today, which no other test here writes.

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp();
});

afterAll(async () => {
  await t.close();
});

let lastIp = 0;
/** An address of its own for each test: the per-address limit counts every event. */
function freshIp(): string {
  lastIp += 1;
  return `10.20.${lastIp >> 8}.${lastIp & 255}`;
}

async function storedOf(deviceId: string) {
  return t.database.db.selectFrom('analytics_events').selectAll().where('device_id', '=', deviceId).orderBy('id').execute();
}

function expectNoInternals(body: string): void {
  expect(body).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\.ts:\d+|stack/i);
}

async function signedInUser() {
  const caller = freshClient();
  const { userinfo } = await signInBySms(t, caller);
  return { phone: caller.phone, uid: Number(userinfo.uid), usertoken: userinfo.usertoken };
}

describe('POST /api/analytics/events', () => {
  it('stores the good events of a mixed batch and counts the bad ones', async () => {
    const device = freshDevice();
    const good = [
      trackerEvent(t, device, { event: 'view', page: '/tools/cad2pdf', title: 'CAD转PDF' }),
      trackerEvent(t, device, { event: 'click', module: 'header', name: '在线转换', tab_name: '工具' }),
      trackerEvent(t, device, { event: 'login', method: 'sms', result: 'fail', reason: '验证码错误' }),
    ];
    const bad = [
      trackerEvent(t, device, { event: 'scroll' }),
      trackerEvent(t, device, { event: 'login', method: 'sms' }),
      trackerEvent(t, device, { event: 'view', surprise: 'extra field' }),
      trackerEvent(t, device, { event: 'task', name: 'cad2pdf', extension: 'dwg', result: 'success', elapsed_ms: -5, size: 10 }),
      'view',
      null,
    ];
    const response = await postEvents(t, [good[0], bad[0], good[1], bad[1], bad[2], good[2], bad[3], bad[4], bad[5]], { ip: freshIp() });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 3, rejected: 6 });
    expect(response.headers['cache-control']).toBe('no-store');

    const rows = await storedOf(device);
    expect(rows.map((row) => [row.event, row.page, row.method, row.result, row.name])).toEqual([
      ['view', '/tools/cad2pdf', null, null, null],
      ['click', '/', null, null, '在线转换'],
      ['login', '/', 'sms', 'fail', null],
    ]);
    expect(rows[0]).toMatchObject({
      day: beijingDay(t.clock.now()),
      platform: 'WEB',
      software_name: 'web',
      software_version: 'online',
      channel: 'direct',
      user_id: null,
    });
    expect(JSON.parse(rows[1]?.props ?? '')).toEqual({ module: 'header', name: '在线转换', tab_name: '工具' });
  });

  it('refuses events outside the time window: older than 7 days or more than 10 minutes ahead', async () => {
    const device = freshDevice();
    const now = t.clock.now();
    // A minute's margin on each side: the app's clock moves on while the request travels.
    const times = {
      tooOld: now - ANALYTICS_LIMITS.maxAgeMs - 60_000,
      oldest: now - ANALYTICS_LIMITS.maxAgeMs + 60_000,
      ahead: now + ANALYTICS_LIMITS.maxSkewMs - 60_000,
      tooFarAhead: now + ANALYTICS_LIMITS.maxSkewMs + 60_000,
    };
    const events = Object.values(times).map((time) => trackerEvent(t, device, { event: 'startup', time }));
    const response = await postEvents(t, events, { ip: freshIp() });
    expect(response.json()).toEqual({ accepted: 2, rejected: 2 });
    const rows = await storedOf(device);
    expect(rows.map((row) => [row.client_time, row.day])).toEqual([
      [times.oldest, beijingDay(times.oldest)],
      [times.ahead, beijingDay(times.ahead)],
    ]);
  });

  it('takes the text/plain body navigator.sendBeacon sends', async () => {
    const device = freshDevice();
    const body = JSON.stringify({
      events: [
        trackerEvent(t, device, { event: 'view' }),
        trackerEvent(t, device, { event: 'activation', software_name: 'desktop', platform: 'WIN' }),
      ],
    });
    const response = await postBody(t, body, { ip: freshIp(), contentType: 'text/plain;charset=UTF-8' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 2, rejected: 0 });
    expect((await storedOf(device)).map((row) => [row.event, row.platform])).toEqual([
      ['view', 'WEB'],
      ['activation', 'WIN'],
    ]);
  });

  it('answers malformed, oversized and hostile bodies with a clear refusal and no internals', async () => {
    const device = freshDevice();
    const ip = freshIp();
    const cases: Array<{ body: string; contentType?: string; status: number; message: RegExp }> = [
      { body: 'events=1', contentType: 'text/plain', status: 400, message: /请求参数错误/ },
      {
        body: '{"events":[{"constructor":{"prototype":{"polluted":true}}}]}',
        contentType: 'text/plain',
        status: 400,
        message: /请求参数错误/,
      },
      { body: '{"events":[', status: 400, message: /请求参数错误/ },
      { body: '[]', status: 400, message: /统计数据格式错误/ },
      { body: '{"events":[]}', status: 400, message: /统计数据格式错误/ },
      { body: '{"events":"view"}', status: 400, message: /统计数据格式错误/ },
      {
        body: JSON.stringify({
          events: Array.from({ length: ANALYTICS_LIMITS.maxBatch + 1 }, () => trackerEvent(t, device, { event: 'view' })),
        }),
        status: 400,
        message: /统计数据格式错误/,
      },
      { body: '{"__proto__":{"polluted":true},"events":[{}]}', status: 400, message: /请求参数错误/ },
      {
        body: JSON.stringify({ events: [trackerEvent(t, device, { event: 'view', title: 'x'.repeat(ANALYTICS_LIMITS.maxBodyBytes) })] }),
        status: 413,
        message: /统计数据过大，每次最多 64 KB/,
      },
      { body: '\u0000\u0001binary', contentType: 'application/octet-stream', status: 400, message: /请求参数错误/ },
    ];
    for (const { body, contentType, status, message } of cases) {
      const response = await postBody(t, body, { ip, ...(contentType === undefined ? {} : { contentType }) });
      expect(response.statusCode, body.slice(0, 40)).toBe(status);
      expect(response.json<{ message: string }>().message).toMatch(message);
      expectNoInternals(response.body);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await storedOf(device)).toEqual([]);

    // Hostile values inside a well-formed batch are rejected one by one, never stored.
    const hostile = [
      trackerEvent(t, device, { event: 'view', page: '/' + 'a'.repeat(600) }),
      trackerEvent(t, device, { event: 'view', device_id: { $ne: null } }),
      trackerEvent(t, device, { event: 'view', time: 'yesterday' }),
      trackerEvent(t, device, {
        event: 'purchase',
        sku: '305',
        payment_type: 'wechat',
        transaction_id: 'T1',
        currency: 'USD',
        value: 88,
        item_id: '305',
        item_name: 'x',
        item_price: 88,
        item_quantity: 1,
      }),
      trackerEvent(t, device, { event: 'view', toString: 'not a function' }),
      trackerEvent(t, device, { event: 'view', page: "/'); drop table analytics_events; --" }),
    ];
    const response = await postEvents(t, hostile, { ip });
    expect(response.json()).toEqual({ accepted: 1, rejected: 5 });
    // The quoted SQL is only text: stored as given, and the table is still there.
    expect((await storedOf(device)).map((row) => row.page)).toEqual(["/'); drop table analytics_events; --"]);
  });

  it('records the signed-in user from the session cookie, never from the body', async () => {
    const user = await signedInUser();
    const device = freshDevice();
    const ip = freshIp();
    const signedIn = await postEvents(t, [trackerEvent(t, device, { event: 'view' })], { ip, usertoken: user.usertoken });
    expect(signedIn.json()).toEqual({ accepted: 1, rejected: 0 });
    // A user id in the body is not a field of any event: refused, whoever is signed in.
    const claimed = await postEvents(t, [trackerEvent(t, device, { event: 'view', user_id: user.uid + 1 })], {
      ip,
      usertoken: user.usertoken,
    });
    expect(claimed.json()).toEqual({ accepted: 0, rejected: 1 });
    // An unknown token is not an error: the event is stored as anonymous.
    const unknown = await postEvents(t, [trackerEvent(t, device, { event: 'click', module: 'footer', name: '关于' })], {
      ip,
      usertoken: 'not-a-session',
    });
    expect(unknown.json()).toEqual({ accepted: 1, rejected: 0 });
    expect((await storedOf(device)).map((row) => [row.event, row.user_id])).toEqual([
      ['view', user.uid],
      ['click', null],
    ]);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  // The last test closes the app to read what it logs on the way out.
  let isClosed = false;

  beforeAll(async () => {
    limited = await createTestApp({ ANALYTICS_RATE_PER_MINUTE: '60', ANALYTICS_DEVICE_RATE_PER_MINUTE: '50' });
  });

  afterAll(async () => {
    if (!isClosed) await limited.close();
  });

  const views = (deviceId: string, count: number) =>
    Array.from({ length: count }, () => trackerEvent(limited, deviceId, { event: 'view' }));

  it('answers 429 past the events a minute of one address, and takes events again in the next minute', async () => {
    const ip = '10.30.0.1';
    expect((await postEvents(limited, [...views(freshDevice(), 30), ...views(freshDevice(), 20)], { ip })).json()).toEqual({
      accepted: 50,
      rejected: 0,
    });
    const refused = await postEvents(limited, views(freshDevice(), 20), { ip });
    expect(refused.statusCode).toBe(429);
    // 10 of 60 left: the whole batch waits for the minute that began with the first event to end.
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual({ code: 10429, message: '统计事件发送过于频繁，请稍后再试', retryafter: 60 });
    // Other addresses are not affected.
    expect((await postEvents(limited, views(freshDevice(), 20), { ip: '10.30.0.2' })).statusCode).toBe(200);
    limited.clock.advance(59_000);
    expect((await postEvents(limited, views(freshDevice(), 20), { ip })).statusCode).toBe(429);
    limited.clock.advance(1_000);
    expect((await postEvents(limited, views(freshDevice(), 20), { ip })).json()).toEqual({ accepted: 20, rejected: 0 });
  });

  it('answers 429 past the events a minute of one device, from whatever address', async () => {
    const device = freshDevice();
    expect((await postEvents(limited, views(device, 40), { ip: '10.31.0.1' })).statusCode).toBe(200);
    const refused = await postEvents(limited, views(device, 20), { ip: '10.31.0.2' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 10429, retryafter: 60 });
    // Nothing of the refused batch was stored.
    expect(await limited.database.db.selectFrom('analytics_events').select('id').where('device_id', '=', device).execute()).toHaveLength(
      40,
    );
  });

  it('logs the rejected events by reason, not one line per event', async () => {
    const device = freshDevice();
    await postEvents(
      limited,
      [
        trackerEvent(limited, device, { event: 'scroll' }),
        trackerEvent(limited, device, { event: 'view', time: 1 }),
        trackerEvent(limited, device, { event: 'view', page: 'x' }),
      ],
      {
        ip: '10.32.0.1',
      },
    );
    isClosed = true;
    await limited.close();
    const lines = limited.logs.filter((line) => line['msg'] === 'analytics events rejected');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.['sinceStart']).toEqual({ rate_limited: 60, not_an_event: 1, too_old: 1, invalid_fields: 1 });
  });
});

describe('who may read the report', () => {
  const url = `/api/analytics/report?from=${beijingDay(Date.now() - DAY_MS)}&to=${beijingDay(Date.now())}`;

  it('refuses a signed-out visitor with 401 and a signed-in non-operator with 403; an operator made from the command line reads it', async () => {
    const signedOut = await getAs(t, url);
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json()).toEqual({ code: 10060, message: '请先登录运营账号' });
    expect((await getAs(t, url, 'expired-or-forged')).statusCode).toBe(401);

    const user = await signedInUser();
    const refused = await getAs(t, url, user.usertoken);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ code: 10403, message: '该账号没有查看统计报表的权限' });
    expect((await getAs(t, '/api/analytics/me', user.usertoken)).json()).toEqual({ signedIn: true, operator: false });

    const output: string[] = [];
    const code = await runOperatorCreate(['--phone', user.phone], {
      out: (line) => output.push(line),
      err: (line) => output.push(line),
      database: databaseConfigOf(t),
    });
    expect(code).toBe(0);
    expect(output.join('\n')).toContain('made them an operator');

    const allowed = await getAs(t, url, user.usertoken);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['cache-control']).toBe('no-store');
    expect(ZAnalyticsReport.safeParse(allowed.json()).success).toBe(true);
    expect((await getAs(t, '/api/analytics/me', user.usertoken)).json()).toEqual({ signedIn: true, operator: true });
    expect((await getAs(t, '/api/analytics/me')).json()).toEqual({ signedIn: false, operator: false });
  });
});

describe('the report', () => {
  let operator: { usertoken: string };

  beforeAll(async () => {
    const user = await signedInUser();
    const code = await runOperatorCreate(['--phone', user.phone], {
      out: () => undefined,
      err: () => undefined,
      database: databaseConfigOf(t),
    });
    if (code !== 0) throw new Error(`operator:create exited with ${code}`);
    operator = user;
  });

  it('refuses ranges that are not Beijing days in order, or longer than 366 days', async () => {
    for (const query of [
      '',
      '?from=2026-11-01',
      '?from=2026-11-02&to=2026-11-01',
      '?from=2026-02-30&to=2026-03-01',
      '?from=2025-01-01&to=2026-01-02',
      '?from=2026-1-1&to=2026-01-02',
      '?from=2026-01-01&to=2026-01-02&to=2026-01-03',
    ]) {
      const response = await getAs(t, `/api/analytics/report${query}`, operator.usertoken);
      expect(response.statusCode, query).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/日期范围无效/);
    }
  });

  it('counts visitors, views, pages, sign-ins, tasks, the purchase funnel and revenue exactly', async () => {
    const [a, b, c, d] = [freshDevice(), freshDevice(), freshDevice(), freshDevice()];
    const ip = freshIp();
    const day1 = (device: string, minute: number, own: Record<string, unknown>) =>
      trackerEvent(t, device, { time: beijingTime(t, 3, 12, minute), ...own });
    const day2 = (device: string, minute: number, own: Record<string, unknown>) =>
      trackerEvent(t, device, { time: beijingTime(t, 2, 12, minute), ...own });
    const payment = (transactionId: string | undefined, value: number) => ({
      sku: String(value),
      payment_type: 'wechat',
      currency: 'CNY',
      value,
      item_id: String(value),
      item_name: '迅捷CAD编辑器VIP',
      item_price: value,
      item_quantity: 1,
      ...(transactionId === undefined ? {} : { transaction_id: transactionId }),
    });
    const task = (name: string, result: string, elapsed: number) => ({
      event: 'task',
      name,
      extension: 'dwg',
      result,
      elapsed_ms: elapsed,
      size: 2048,
    });

    const firstDay = [
      // A: two pages, an SMS sign-in, a conversion, and the whole purchase.
      day1(a, 0, { event: 'view' }),
      day1(a, 1, { event: 'view', page: '/tools/cad2pdf' }),
      day1(a, 2, { event: 'login', method: 'sms', result: 'success' }),
      day1(a, 3, task('cad2pdf', 'success', 1000)),
      day1(a, 4, { event: 'checkout', name: 'editor', page: '/buy.html' }),
      day1(a, 5, { event: 'add_payment_info', page: '/buy.html', ...payment(undefined, 88) }),
      day1(a, 6, { event: 'purchase', page: '/buy.html', ...payment('XC20261101000000000000001', 88) }),
      // B: a failed then a good password sign-in, two conversions, a checkout.
      day1(b, 0, { event: 'view' }),
      day1(b, 1, { event: 'login', method: 'password', result: 'fail', reason: '账号密码错误' }),
      day1(b, 2, { event: 'login', method: 'password', result: 'success' }),
      day1(b, 3, task('cad2pdf', 'success', 3000)),
      day1(b, 4, task('cad2pdf', 'fail', 500)),
      day1(b, 5, { event: 'checkout', name: 'editor', page: '/buy.html' }),
      // C: never views a page; image conversions, one cancelled.
      day1(c, 0, { event: 'click', module: 'sidebar', name: '下载' }),
      day1(c, 1, task('cad2jpg', 'success', 2000)),
      day1(c, 2, task('cad2jpg', 'success', 5000)),
      day1(c, 3, task('cad2jpg', 'cancel', 100)),
    ];
    const secondDay = [
      day2(a, 0, { event: 'view' }),
      // B comes back and pays; the tracker resent the purchase it could not confirm.
      day2(b, 0, { event: 'view', page: '/buy.html' }),
      day2(b, 1, { event: 'add_payment_info', page: '/buy.html', ...payment(undefined, 68) }),
      day2(b, 2, { event: 'purchase', page: '/buy.html', ...payment('XC20261102000000000000002', 68) }),
      day2(b, 2, { event: 'purchase', page: '/buy.html', ...payment('XC20261102000000000000002', 68) }),
      // D: buys without a checkout step (from a link in the desktop app).
      day2(d, 0, { event: 'view' }),
      day2(d, 1, task('cad2pdf', 'success', 2000)),
      day2(d, 2, { event: 'login', method: 'wechat', result: 'success' }),
      day2(d, 3, { event: 'purchase', page: '/buy.html', ...payment('XC20261102000000000000003', 48) }),
    ];
    expect((await postEvents(t, firstDay, { ip })).json()).toEqual({ accepted: 17, rejected: 0 });
    expect((await postEvents(t, secondDay, { ip })).json()).toEqual({ accepted: 9, rejected: 0 });

    const from = beijingDay(beijingTime(t, 3));
    const to = beijingDay(beijingTime(t, 2));
    const response = await getAs(t, `/api/analytics/report?from=${from}&to=${to}`, operator.usertoken);
    expect(response.statusCode).toBe(200);
    const report = ZAnalyticsReport.parse(response.json()) satisfies TAnalyticsReport;

    expect(report.from).toBe(from);
    expect(report.to).toBe(to);
    expect(report.days).toEqual([
      { day: from, visitors: 3, views: 3 },
      { day: to, visitors: 3, views: 3 },
    ]);
    expect(report.totals).toEqual({ visitors: 4, views: 6, events: 26 });
    expect(report.topPages).toEqual([
      { page: '/', views: 4, visitors: 3 },
      { page: '/buy.html', views: 1, visitors: 1 },
      { page: '/tools/cad2pdf', views: 1, visitors: 1 },
    ]);
    expect(report.logins).toEqual([
      { method: 'password', attempts: 2, successes: 1, rate: 0.5 },
      { method: 'sms', attempts: 1, successes: 1, rate: 1 },
      { method: 'wechat', attempts: 1, successes: 1, rate: 1 },
    ]);
    expect(report.tasks).toHaveLength(2);
    // cad2pdf: successes took 1000, 2000, 3000 ms; cad2jpg: 2000 and 5000 (even: the mean of the two).
    expect(report.tasks[0]).toEqual({ tool: 'cad2pdf', tasks: 4, successes: 3, rate: 0.75, medianMs: 2000 });
    expect(report.tasks[1]).toMatchObject({ tool: 'cad2jpg', tasks: 3, successes: 2, medianMs: 3500 });
    expect(report.tasks[1]?.rate).toBeCloseTo(2 / 3, 10);
    expect(report.funnel).toEqual({
      steps: [
        { step: 'view', devices: 3 },
        { step: 'checkout', devices: 2 },
        { step: 'add_payment_info', devices: 2 },
        // D bought without a checkout: revenue counts its order, the funnel does not count D.
        { step: 'purchase', devices: 2 },
      ],
      orders: 3,
      revenue: 204,
    });

    // One day of the range alone, and a quiet day listed with zeros.
    const second = ZAnalyticsReport.parse((await getAs(t, `/api/analytics/report?from=${to}&to=${to}`, operator.usertoken)).json());
    expect(second.totals).toEqual({ visitors: 3, views: 3, events: 9 });
    expect(second.funnel).toMatchObject({
      steps: [{ devices: 3 }, { devices: 0 }, { devices: 0 }, { devices: 0 }],
      orders: 2,
      revenue: 116,
    });
    expect(second.tasks).toEqual([{ tool: 'cad2pdf', tasks: 1, successes: 1, rate: 1, medianMs: 2000 }]);
    const quietDay = beijingDay(beijingTime(t, 4));
    const withQuiet = ZAnalyticsReport.parse(
      (await getAs(t, `/api/analytics/report?from=${quietDay}&to=${from}`, operator.usertoken)).json(),
    );
    expect(withQuiet.days).toEqual([
      { day: quietDay, visitors: 0, views: 0 },
      { day: from, visitors: 3, views: 3 },
    ]);
  });
});
