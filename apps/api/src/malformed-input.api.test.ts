import { seedPayCatalogue } from '@xcad/db';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { LEAK_PATTERN, probesOf, type Probe, type SweepContext, type SweptRoute } from './malformed-input.testing';
import { beijingDayOf } from './modules/analytics/analytics-rules';
import { openSession } from './modules/auth/session.service';
import { insertUser } from './modules/auth/user.repository';
import { createTestApp, signedCall } from './test-app';

// Decision 0028: every route the app registers (seen as it is registered,
// so a route added later is swept too) gets a few hundred hostile requests: each field of the
// route in turn replaced by a hostile value (wrong types, NUL and controls, lone surrogates, huge,
// negative and 32/64-bit-overflowing numbers, long texts, arrays, objects, traversal, ...), signed
// and not, signed in and not; hostile path parameters; broken, deep, huge and non-object bodies;
// wrong content types; odd methods and query strings. No answer may be a 5xx or show a stack
// frame or the database's words, a product API answer keeps its envelope, and the process must
// serve normally afterwards. Runs on SQLite and on PostgreSQL (the `sqlite` and `postgres`
// projects), where NUL and integer overflow bite. Replaces decision 0010's sign-in-only sweep.

const routes: SweptRoute[] = [];
const t = await createTestApp(
  { LOG_LEVEL: 'warn' },
  {
    onRoute: (route) => {
      const isSigned = route.url.startsWith('/api/v4/') && route.config?.signed !== false;
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, isSigned });
    },
  },
);

afterAll(async () => {
  await t.close();
});

const nowSeconds = () => Math.floor(t.clock.now() / 1000);
const db = t.database.db;
await seedPayCatalogue(db);
const phone = '13900000000';
const userId = await insertUser(db, { username: phone, mobile: phone, nickname: 'sweep', passwordHash: null, now: nowSeconds() });

async function sessionOf(): Promise<SweepContext['session']> {
  const tokens = await openSession(db, userId, { deviceId: 'sweep-device', ip: '127.0.0.1' }, nowSeconds());
  return { account: phone, usertoken: tokens.usertoken, filetoken: tokens.token };
}

/** A signed call that must succeed: the sweep's baseline needs a real task, order and login tag. */
async function mustCall(path: string, fields: Record<string, string | number>): Promise<Record<string, unknown>> {
  const result = await signedCall(t, path, fields, { deviceid: 'sweep-device' });
  if (result.body['code'] !== 10000) throw new Error(`${path} refused the sweep's set-up: ${JSON.stringify(result.body)}`);
  return result.body;
}

const owner = await sessionOf();
const signedIn = { account: owner.account, usertoken: owner.usertoken };
const task = await mustCall('/api/v4/uploadpar', {
  ...signedIn,
  tasktype: 'cad2pdf',
  outputfileextension: 'pdf',
  filename: 'plan.dxf',
  filecount: 1,
  limitsize: 51_200,
  isshare: 0,
});
const order = await mustCall('/api/v4/memorder', { ...signedIn, productid: 211, packageid: 304, paytype: 'wxpay' });
const login = await mustCall('/api/v4/wechatguid', {});
const today = beijingDayOf(t.clock.now());

const EXAMPLES: Record<string, unknown> = {
  account: phone,
  smscode: '1234',
  imgcode: 'ab12',
  password: 'abc12345',
  oldpassword: 'abc12345',
  nickname: '测试用户',
  mobile: '13900000001',
  logintag: login['logintag'],
  verifytype: 'quicklogin',
  width: 90,
  height: 40,
  fontsize: 16,
  length: 4,
  showvip: 1,
  code: 'dev-code',
  state: 'dev-state',
  seriesid: 'series-1',
  provider: 'wechat',
  productid: 211,
  packageid: 304,
  packageids: [304],
  paytype: 'wxpay',
  orderno: order['orderno'],
  page: 1,
  pagesize: 10,
  per_page: 10,
  titletype: 'personal',
  title: '张三',
  email: 'sweep@example.com',
  tasktag: task['tasktag'],
  tasktoken: task['tasktoken'],
  filename: 'plan.dxf',
  filecount: 1,
  tasktype: 'cad2pdf',
  outputfileextension: 'pdf',
  limitsize: 51_200,
  isshare: 0,
  ifshowtxt: 1,
  downtype: 2,
  lessonid: 1,
  position: 10,
  completed: 0,
  category: 'software',
  product: 'editor',
  content: '打开图纸时软件没有反应，请帮忙看一下原因。',
  contact: '13900000002',
  pagepath: '/',
  contactname: '张三',
  fileindex: 0,
  chunks: 1,
  chunk: 0,
  timestamp: nowSeconds(),
  events: [
    {
      event: 'view',
      software_name: 'web',
      software_version: 'online',
      channel: '',
      platform: 'WEB',
      uid: 'sweep',
      device_id: 'sweep',
      page: '/',
      time: t.clock.now(),
    },
  ],
  from: today,
  to: today,
  id: 1,
  q: '图纸',
  platform: 'windows',
  name: 'plan.dxf',
  size: 1000,
  chunknum: 0,
  key: 'editor',
};

/** Probes of one route answered at once, a few at a time (the inject calls share the event loop with the app). */
const CONCURRENCY = 16;

/** Whether a product API answer lacks the envelope's numeric `code` (decision 0004). */
function isOutsideEnvelope(route: SweptRoute, response: LightMyRequestResponse): boolean {
  if (!route.url.startsWith('/api/v4/') || !String(response.headers['content-type']).startsWith('application/json')) return false;
  const body: unknown = JSON.parse(response.body);
  return typeof body !== 'object' || body === null || typeof (body as { code?: unknown }).code !== 'number';
}

/** A probe's answer that breaks the rules, as one readable line; undefined when the answer is fine. */
function failureOf(route: SweptRoute, probe: Probe, response: LightMyRequestResponse): string | undefined {
  const isServerError = response.statusCode >= 500;
  const leak = LEAK_PATTERN.exec(response.body);
  if (!isServerError && leak === null && !isOutsideEnvelope(route, response)) return undefined;
  const requestId = response.headers['x-request-id'];
  const logged = t.logs.find((line) => line['reqId'] === requestId && line['level'] === 50);
  const error = (logged?.['err'] as { message?: string } | undefined)?.message;
  const shown = leak === null ? response.body.slice(0, 120) : `leaks "${leak[0]}"`;
  return `${probe.label}: ${response.statusCode} ${shown}${error === undefined ? '' : ` (logged: ${error.slice(0, 120)})`}`;
}

async function sweep(route: SweptRoute): Promise<{ count: number; failures: string[] }> {
  const probes = probesOf(route, { secret: t.env.PRODUCT_SIGN_SECRET, now: t.clock.now, session: await sessionOf(), examples: EXAMPLES });
  const failures: string[] = [];
  for (let start = 0; start < probes.length; start += CONCURRENCY) {
    const batch = probes.slice(start, start + CONCURRENCY);
    const responses = await Promise.all(batch.map((probe) => t.app.inject(probe.request)));
    responses.forEach((response, index) => {
      const failure = failureOf(route, batch[index]!, response);
      if (failure !== undefined) failures.push(failure);
    });
  }
  return { count: probes.length, failures };
}

describe('the malformed-input sweep', () => {
  it('finds every route of the app', () => {
    // Far more than the handful a broken enumeration would see; the exact set grows with the app.
    expect(routes.length).toBeGreaterThan(70);
    expect(routes).toContainEqual({ method: 'POST', url: '/api/v4/memorder', isSigned: true });
    expect(routes).toContainEqual({ method: 'POST', url: '/api/v4/uploadfile', isSigned: false });
    expect(routes).toContainEqual({ method: 'GET', url: '/content/*', isSigned: false });
  });

  it.each(routes.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s answers every hostile input without a 5xx or a leak',
    async (_name, route) => {
      const { count, failures } = await sweep(route);
      expect(count).toBeGreaterThan(100);
      expect(failures).toEqual([]);
    },
    60_000,
  );

  it('leaves the process healthy: health, a signed call and a signed-in call answer normally', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    const time = await signedCall(t, '/api/v4/getutctime', {});
    expect(time.body).toMatchObject({ code: 10000 });
    const session = await sessionOf();
    const signedProfile = await signedCall(t, '/api/v4/memprofile', { account: session.account, usertoken: session.usertoken });
    expect(signedProfile.body).toMatchObject({ code: 10000, userinfo: { username: phone } });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
