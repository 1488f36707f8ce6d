import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPageCache, pageCacheKey, sharedMaxAgeSeconds } from './page-cache';

function request(url: string, headers: Record<string, string> = {}, method = 'GET'): IncomingMessage {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe('pageCacheKey', () => {
  it('keys a page by its locale decision, query and encoding', () => {
    expect(pageCacheKey(request('/'))).toBe('/zh-CN|identity');
    expect(pageCacheKey(request('/help.html?page=2', { 'accept-encoding': 'gzip, br' }))).toBe('/zh-CN/help.html?page=2|gzip');
    expect(pageCacheKey(request('/en/tools/cad2pdf'))).toBe('/en/tools/cad2pdf|identity');
  });

  it('never caches what differs per request: redirects, 404s, router requests, other methods, cache hosts', () => {
    expect(pageCacheKey(request('/', { cookie: 'NEXT_LOCALE=en' }))).toBeNull();
    expect(pageCacheKey(request('/zh-CN/help.html'))).toBeNull();
    expect(pageCacheKey(request('/no/such/page'))).toBeNull();
    expect(pageCacheKey(request('/help.html', { rsc: '1' }))).toBeNull();
    expect(pageCacheKey(request('/help.html?_rsc=abc'))).toBeNull();
    expect(pageCacheKey(request('/help.html', {}, 'POST'))).toBeNull();
    expect(pageCacheKey(request('/_next/static/chunks/a.js'))).toBeNull();
    expect(pageCacheKey(request('/search?q=cache:x', { host: 'webcache.googleusercontent.com' }))).toBeNull();
  });
});

describe('sharedMaxAgeSeconds', () => {
  it('reads s-maxage and refuses private, no-store and cookie-setting answers', () => {
    expect(sharedMaxAgeSeconds({ 'cache-control': 's-maxage=300, stale-while-revalidate=31535700' })).toBe(300);
    expect(sharedMaxAgeSeconds({ 'cache-control': 'private, no-cache, no-store, max-age=0, must-revalidate' })).toBe(0);
    expect(sharedMaxAgeSeconds({ 'cache-control': 's-maxage=300', 'set-cookie': ['a=b'] })).toBe(0);
    expect(sharedMaxAgeSeconds({})).toBe(0);
  });
});

describe('createPageCache', () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function serve(next: (req: IncomingMessage, res: ServerResponse) => void, clock = { t: 0 }) {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 2, now: () => clock.t });
    const server = http.createServer((req, res) => void cache.handle(req, res, next));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { cache, base, clock };
  }

  it('answers the second request from memory with the same status, headers and body', async () => {
    let renders = 0;
    const { base } = await serve((_req, res) => {
      renders += 1;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.writeHead(200, { 'Cache-Control': 's-maxage=300, stale-while-revalidate' });
      res.write('<html>');
      res.end(Buffer.from('首页</html>'));
    });
    const first = await fetch(`${base}/help.html`);
    expect(first.headers.get('x-page-cache')).toBe('MISS');
    const firstBody = await first.text();
    const second = await fetch(`${base}/help.html`);
    expect(second.headers.get('x-page-cache')).toBe('HIT');
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(second.headers.get('cache-control')).toBe('s-maxage=300, stale-while-revalidate');
    expect(await second.text()).toBe(firstBody);
    expect(firstBody).toBe('<html>首页</html>');
    expect(renders).toBe(1);
  });

  it('renders again after the time to live, capped by the page s-maxage', async () => {
    let renders = 0;
    const { base, clock } = await serve((_req, res) => {
      renders += 1;
      res.writeHead(200, { 'cache-control': 's-maxage=2' });
      res.end(`render ${renders}`);
    });
    await (await fetch(`${base}/help.html`)).text();
    clock.t = 1_999;
    expect(await (await fetch(`${base}/help.html`)).text()).toBe('render 1');
    clock.t = 2_000;
    expect(await (await fetch(`${base}/help.html`)).text()).toBe('render 2');
  });

  it('does not keep personal, cookie-setting or failed answers', async () => {
    let renders = 0;
    const { base, cache } = await serve((req, res) => {
      renders += 1;
      if (req.url === '/personal.html') res.writeHead(200, { 'cache-control': 'private, no-store' });
      else if (req.url === '/help.html') res.writeHead(200, { 'cache-control': 's-maxage=300', 'set-cookie': 'x=1' });
      else res.writeHead(500, { 'cache-control': 's-maxage=300' });
      res.end('x');
    });
    for (const path of ['/personal.html', '/help.html', '/buy.html']) {
      await (await fetch(`${base}${path}`)).text();
      await (await fetch(`${base}${path}`)).text();
    }
    expect(renders).toBe(6);
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries pages, dropping the oldest', async () => {
    const { base, cache } = await serve((_req, res) => {
      res.writeHead(200, { 'cache-control': 's-maxage=300' });
      res.end('x');
    });
    for (const path of ['/help.html', '/buy.html', '/tools.html']) await (await fetch(`${base}${path}`)).text();
    expect(cache.size).toBe(2);
    expect((await fetch(`${base}/help.html`)).headers.get('x-page-cache')).toBe('MISS');
  });
});
