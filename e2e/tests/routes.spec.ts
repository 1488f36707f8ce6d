import http from 'node:http';
import { describe, expect, inject, it } from 'vitest';
import { specRoutes } from '../support/routes';

const baseUrl = inject('baseUrl');

const SPEC_ROUTES = await specRoutes();

async function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: { 'accept-language': 'zh-CN,zh;q=0.9', ...headers } });
}

function headOf(html: string) {
  const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  const description = /<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '';
  const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '';
  const alternates = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]*)"/gi)].map((m) => [m[1], m[2]]);
  return { title, description, canonical, alternates: Object.fromEntries(alternates) as Record<string, string> };
}

describe('every route of spec §2', () => {
  it.each(SPEC_ROUTES)('%s answers 200 in Chinese with its SEO head', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="zh-CN"');
    const head = headOf(html);
    expect(head.title).toMatch(/\S/);
    expect(head.description.length).toBeGreaterThan(10);
    expect(head.canonical).toMatch(/^https?:\/\//);
    expect(head.alternates['zh-CN']).toBe(head.canonical);
    expect(head.alternates['en']).toMatch(/\/en(\/|$)/);
    expect(head.alternates['x-default']).toBeTruthy();
  });

  it.each(['/en', '/en/help.html', '/en/tools/cad2pdf', '/en/buy/cadeditor.html', '/en/dailypics/0/2'])(
    '%s answers 200 in English',
    async (path) => {
      const response = await get(path, { 'accept-language': 'en-US,en;q=0.9' });
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<html lang="en"');
      expect(headOf(html).canonical).toContain('/en');
    },
  );

  it('/sitemap.xml lists the route pages and the content: articles, daily pictures and library drawings', async () => {
    const response = await get('/sitemap.xml');
    expect(response.status).toBe(200);
    const xml = await response.text();
    for (const path of ['/help.html', '/1001.html', '/1019.html', '/dailypics/3001', '/dwgItem/5001']) {
      expect(xml, path).toContain(`${path}</loc>`);
    }
    expect(xml).toContain('/en/1001.html</loc>');
  });

  it('/404 and unknown paths show the not-found page with status 404', async () => {
    for (const path of ['/404', '/no/such/page', '/buy/nothing.html']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('页面未找到!');
    }
  });

  it('the root redirects with 302 to the English site when the locale cookie says so', async () => {
    const response = await get('/', { cookie: 'NEXT_LOCALE=en' });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location') ?? '', baseUrl).pathname).toBe('/en');
  });

  it('the root follows the browser language when there is no cookie', async () => {
    const english = await get('/', { 'accept-language': 'en-US,en;q=0.9' });
    expect(english.status).toBe(302);
    const chinese = await get('/', { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.5' });
    expect(chinese.status).toBe(200);
  });

  it('a /zh-CN prefix redirects to the unprefixed default-locale URL', async () => {
    const response = await get('/zh-CN/help.html');
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get('location') ?? '', baseUrl).pathname).toBe('/help.html');
  });

  it('a page opened from a search-engine cache host is routed by its original path', async () => {
    const site = new URL(baseUrl);
    const original = `http://${site.host}/help.html`;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.get(
        {
          hostname: site.hostname,
          port: site.port,
          path: `/search?q=${encodeURIComponent(`cache:AbC123:${original}`)}+cad`,
          headers: { host: 'webcache.googleusercontent.com', 'accept-language': 'zh-CN' },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on('error', reject);
    });
    expect(status).toBe(200);
    expect(headOf(body).title).toContain('软件帮助');
    expect(headOf(body).canonical).toMatch(/\/help\.html$/);
  });

  it('the API answers on the site origin', async () => {
    const response = await get('/api/v4/getutctime');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { code: number; utctime: number };
    expect(body.code).toBe(10000);
    expect(Math.abs(body.utctime - Date.now() / 1000)).toBeLessThan(5);
  });
});
