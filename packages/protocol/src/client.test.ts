import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiClientError, createApiClient, defineEndpoint, endpoints, resolveApiUrl, type DeviceInfo } from './client';
import type { FetchLike } from './mirror';
import { PROTOCOL_ERRORS, successOf } from './envelope';
import { isDatasignValid, type SignableFields } from './signing';
import { ZPhone } from './validation';

const SECRET = 'test-secret';
const BASE_URL = 'https://www.xunjiecad.com';
const SIGN_WINDOW_SECONDS = 300;
const CLIENT_START = Date.UTC(2026, 10, 21, 8, 0, 0);

const device: DeviceInfo = {
  deviceid: 'dev-123',
  softname: 'xunjiecadeditor',
  softversion: '5.0',
  productid: 211,
  devicetype: 'web',
  language: 'zh-CN',
  deviceos: 'Windows 10',
};

const ZEchoRequest = z.object({ account: ZPhone, showvip: z.number().int(), note: z.string().optional() });
const echo = defineEndpoint({
  path: '/api/v4/echo',
  request: ZEchoRequest,
  response: successOf({ account: z.string(), stamp: z.number() }),
});

interface Received {
  readonly url: string;
  readonly init: RequestInit;
  readonly headers: Headers;
  readonly fields: SignableFields;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * A fake product API checking what the real one checks: the product header, the signature
 * (isDatasignValid) and the timestamp window against its own clock, which runs
 * `serverAheadSeconds` ahead of the client's.
 */
function fakeServer(options: { serverAheadSeconds?: number; answer?: (fields: SignableFields) => Response } = {}) {
  const received: Received[] = [];
  const serverNow = () => Math.floor(Date.now() / 1000) + (options.serverAheadSeconds ?? 0);
  const fetch: FetchLike = async (url, init) => {
    const headers = new Headers(init.headers);
    if (init.method === 'GET') {
      received.push({ url, init, headers, fields: {} });
      return json({ code: 10000, message: '成功', utctime: serverNow() });
    }
    const fields: SignableFields =
      init.body instanceof URLSearchParams ? Object.fromEntries(init.body) : (JSON.parse(String(init.body)) as SignableFields);
    received.push({ url, init, headers, fields });
    if (headers.get('X-Product') !== '141') return json({ code: 10001, message: '请求参数错误' }, 400);
    if (!isDatasignValid(fields, SECRET)) return json({ code: 10002, message: '请求签名校验失败' }, 401);
    if (Math.abs(Number(fields['timestamp']) - serverNow()) > SIGN_WINDOW_SECONDS) {
      return json({ code: 10003, message: '请求已过期，请校准时间后重试' }, 401);
    }
    return (
      options.answer?.(fields) ?? json({ code: 10000, message: '成功', account: fields['account'], stamp: Number(fields['timestamp']) })
    );
  };
  return { fetch, received, serverNow };
}

function clientFor(fetch: FetchLike, extra: { timeoutMs?: number; device?: () => DeviceInfo } = {}) {
  return createApiClient({ baseUrl: `${BASE_URL}/`, secret: SECRET, fetch, domain: 'www.xunjiecad.com', device: () => device, ...extra });
}

async function rejectionOf(promise: Promise<unknown>): Promise<ApiClientError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiClientError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

beforeEach(() => {
  vi.useFakeTimers({ now: CLIENT_START });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('client.call', () => {
  it('posts a signed JSON body with the common fields and headers', async () => {
    const server = fakeServer();
    const answer = await clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 1 });

    expect(answer).toEqual({ code: 10000, message: '成功', account: '13800138000', stamp: CLIENT_START / 1000 });
    const [request] = server.received;
    expect(request?.url).toBe('https://www.xunjiecad.com/api/v4/echo');
    expect(request?.init.method).toBe('POST');
    expect(request?.headers.get('X-Product')).toBe('141');
    expect(request?.headers.get('X-Domain')).toBe('www.xunjiecad.com');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.fields).toMatchObject({ ...device, account: '13800138000', showvip: 1, timestamp: CLIENT_START / 1000 });
    expect(request?.fields['nonce']).toMatch(/^[0-9a-f]{16}$/);
    expect(request?.fields['datasign']).toMatch(/^[0-9a-f]{32}$/);
    expect(isDatasignValid(request?.fields ?? {}, SECRET)).toBe(true);
  });

  it('posts a signed form-encoded body on request', async () => {
    const server = fakeServer();
    await clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 0, note: '你好 & 再见' }, { encoding: 'form' });
    const [request] = server.received;
    expect(request?.headers.get('Content-Type')).toMatch(/^application\/x-www-form-urlencoded/);
    expect(request?.init.body).toBeInstanceOf(URLSearchParams);
    expect(request?.fields).toMatchObject({ productid: '211', showvip: '0', note: '你好 & 再见' });
    expect(isDatasignValid(request?.fields ?? {}, SECRET)).toBe(true);
  });

  it('uses a fresh nonce and reads the device info at every call', async () => {
    const server = fakeServer();
    let language = 'zh-CN';
    const client = clientFor(server.fetch, { device: () => ({ ...device, language }) });
    await client.call(echo, { account: '13800138000', showvip: 1 });
    language = 'en';
    await client.call(echo, { account: '13800138000', showvip: 1 });
    const [first, second] = server.received;
    expect(first?.fields['nonce']).not.toBe(second?.fields['nonce']);
    expect(first?.fields['language']).toBe('zh-CN');
    expect(second?.fields['language']).toBe('en');
  });

  it('refuses invalid fields before sending, with the validation message', async () => {
    const server = fakeServer();
    const error = await rejectionOf(clientFor(server.fetch).call(echo, { account: '123', showvip: 1 }));
    expect(error.code).toBe(-4);
    expect(error.message).toBe('请您填写正确的11位手机号');
    expect(server.received).toEqual([]);
  });

  it('rejects a business refusal with its code and message', async () => {
    const server = fakeServer({ answer: () => json({ code: 19002, message: '当前账号未注册，请先注册！' }) });
    const error = await rejectionOf(clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 1 }));
    expect(error).toBeInstanceOf(ApiClientError);
    expect(error.code).toBe(19002);
    expect(error.message).toBe('当前账号未注册，请先注册！');
    expect(error.httpStatus).toBe(200);
  });

  it("keeps a refusal's other fields, such as the wait before the next SMS", async () => {
    const server = fakeServer({ answer: () => json({ code: 10061, message: '短信发送太多频繁，请稍等', retryafter: 2400 }) });
    const error = await rejectionOf(clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 1 }));
    expect(error.code).toBe(10061);
    expect(error.details).toEqual({ retryafter: 2400 });
  });

  it('rejects a contract failure with the HTTP status', async () => {
    const fetch: FetchLike = async () => json({ code: 10002, message: '请求签名校验失败' }, 401);
    const error = await rejectionOf(clientFor(fetch).call(echo, { account: '13800138000', showvip: 1 }));
    expect({ code: error.code, message: error.message, status: error.httpStatus }).toEqual({
      code: 10002,
      message: '请求签名校验失败',
      status: 401,
    });
  });

  it('signs with the secret the server checks', async () => {
    const server = fakeServer();
    const client = createApiClient({ baseUrl: BASE_URL, secret: 'wrong-secret', fetch: server.fetch, domain: 'x', device: () => device });
    const error = await rejectionOf(client.call(echo, { account: '13800138000', showvip: 1 }));
    expect(error.code).toBe(PROTOCOL_ERRORS.badSignature.code);
  });

  it('rejects a malformed success answer through the zod schema', async () => {
    const server = fakeServer({ answer: () => json({ code: 10000, message: '成功', account: 138, stamp: 'late' }) });
    const error = await rejectionOf(clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 1 }));
    expect(error.code).toBe(-3);
  });

  it('rejects an answer that is not JSON or has no code', async () => {
    const html: FetchLike = async () => new Response('<html>502 Bad Gateway</html>', { status: 502 });
    expect((await rejectionOf(clientFor(html).call(echo, { account: '13800138000', showvip: 1 }))).code).toBe(-3);
    const noCode: FetchLike = async () => json({ ok: true });
    expect((await rejectionOf(clientFor(noCode).call(echo, { account: '13800138000', showvip: 1 }))).code).toBe(-3);
  });

  it('rejects a network failure with the network code', async () => {
    const down: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    const error = await rejectionOf(clientFor(down).call(echo, { account: '13800138000', showvip: 1 }));
    expect(error.code).toBe(-1);
    expect(error.message).toBe('网络异常，请检查网络后重试');
  });
});

/** A server that never answers, but notices an abort like a real fetch does. */
const hanging: FetchLike = (_url, init) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

describe('client time-out and cancel', () => {
  it('aborts after 60,000 ms by default', async () => {
    const outcome = rejectionOf(clientFor(hanging).call(echo, { account: '13800138000', showvip: 1 }));
    let isSettled = false;
    void outcome.then(() => {
      isSettled = true;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(isSettled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error.code).toBe(-2);
    expect(error.message).toBe('请求超时，请稍后重试');
  });

  it('honours a configured time-out', async () => {
    const outcome = rejectionOf(clientFor(hanging, { timeoutMs: 5_000 }).call(echo, { account: '13800138000', showvip: 1 }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await outcome).code).toBe(-2);
  });

  it("rejects with the aborted code when the caller's signal fires", async () => {
    const controller = new AbortController();
    const outcome = rejectionOf(clientFor(hanging).call(echo, { account: '13800138000', showvip: 1 }, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect((await outcome).code).toBe(-5);
    const already = await rejectionOf(clientFor(hanging).call(echo, { account: '13800138000', showvip: 1 }, { signal: controller.signal }));
    expect(already.code).toBe(-5);
  });
});

describe('server time', () => {
  it('syncTime reads GET /api/v4/getutctime and corrects later timestamps', async () => {
    const server = fakeServer({ serverAheadSeconds: 3_600 });
    const client = clientFor(server.fetch);
    await expect(client.syncTime()).resolves.toBe(CLIENT_START / 1000 + 3_600);
    const [sync] = server.received;
    expect(sync?.url).toBe('https://www.xunjiecad.com/api/v4/getutctime');
    expect(sync?.init.method).toBe('GET');
    expect(sync?.headers.get('X-Product')).toBe('141');
    expect(client.timeOffsetSeconds).toBe(3_600);

    await vi.advanceTimersByTimeAsync(10_000);
    expect(client.nowSeconds()).toBe(CLIENT_START / 1000 + 10 + 3_600);
    const answer = await client.call(echo, { account: '13800138000', showvip: 1 });
    expect(answer.stamp).toBe(CLIENT_START / 1000 + 10 + 3_600);
  });

  it('shares one request between concurrent synchronisations', async () => {
    const server = fakeServer({ serverAheadSeconds: -50 });
    const client = clientFor(server.fetch);
    await Promise.all([client.syncTime(), client.syncTime()]);
    expect(server.received).toHaveLength(1);
    expect(client.timeOffsetSeconds).toBe(-50);
  });

  it('re-syncs once and retries once on 10003', async () => {
    const server = fakeServer({ serverAheadSeconds: 900 });
    const client = clientFor(server.fetch);
    const answer = await client.call(echo, { account: '13800138000', showvip: 1 });
    expect(answer.stamp).toBe(server.serverNow());
    expect(server.received.map((r) => r.init.method)).toEqual(['POST', 'GET', 'POST']);
    const [stale, , retried] = server.received;
    expect(stale?.fields['timestamp']).toBe(CLIENT_START / 1000);
    expect(retried?.fields['timestamp']).toBe(CLIENT_START / 1000 + 900);
    expect(retried?.fields['nonce']).not.toBe(stale?.fields['nonce']);
  });

  it('gives up after one retry when the server keeps refusing the time', async () => {
    const server = fakeServer({ answer: () => json({ code: 10003, message: '请求已过期，请校准时间后重试' }, 401) });
    const error = await rejectionOf(clientFor(server.fetch).call(echo, { account: '13800138000', showvip: 1 }));
    expect(error.code).toBe(10003);
    expect(server.received.map((r) => r.init.method)).toEqual(['POST', 'GET', 'POST']);
  });

  it('rejects a malformed getutctime answer', async () => {
    const fetch: FetchLike = async () => json({ code: 10000, message: '', utctime: 'now' });
    expect((await rejectionOf(clientFor(fetch).syncTime())).code).toBe(-3);
  });

  it('registers getutctime in the endpoint registry', () => {
    expect(endpoints.getutctime.path).toBe('/api/v4/getutctime');
    expect(endpoints.getutctime.response.safeParse({ code: 10000, message: '', utctime: 1 }).success).toBe(true);
    expect(endpoints.getutctime.response.safeParse({ code: 10001, message: '', utctime: 1 }).success).toBe(false);
  });
});

describe('resolveApiUrl (spec §7)', () => {
  const web = { host: 'www.xunjiecad.com', protocol: 'https:', isDesktop: false };

  it('prefixes relative wp- URLs with the page protocol and host', () => {
    expect(resolveApiUrl('/wp-json/wp/v2/posts?page=1', web)).toBe('https://www.xunjiecad.com/wp-json/wp/v2/posts?page=1');
    expect(resolveApiUrl('wp-content/uploads/a.png', web)).toBe('https://www.xunjiecad.com/wp-content/uploads/a.png');
    expect(resolveApiUrl('/wp-json/x', { ...web, protocol: 'http' })).toBe('http://www.xunjiecad.com/wp-json/x');
  });

  it('uses http in the desktop app', () => {
    expect(resolveApiUrl('/wp-json/wp/v2/tags', { ...web, protocol: 'file:', isDesktop: true })).toBe(
      'http://www.xunjiecad.com/wp-json/wp/v2/tags',
    );
  });

  it('leaves absolute URLs and URLs without wp- alone', () => {
    expect(resolveApiUrl('https://cdn.example.com/wp-content/a.png', web)).toBe('https://cdn.example.com/wp-content/a.png');
    expect(resolveApiUrl('//cdn.example.com/wp-content/a.png', web)).toBe('//cdn.example.com/wp-content/a.png');
    expect(resolveApiUrl('/api/v4/login', web)).toBe('/api/v4/login');
  });
});
