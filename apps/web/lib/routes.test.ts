import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROUTES, areParamsValid, breadcrumbOf, folderOf, paramsFromSegments, pathOf, resolveRoute, routeByName } from './routes';

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// spec §2, as the concrete URLs a visitor opens, with the route that must serve each.
const SPEC_URLS: [string, string, Record<string, string>?][] = [
  ['/', 'home'],
  ['/123', 'index-id', { id: '123' }],
  ['/123.html', 'index-id', { id: '123.html' }],
  ['/123/2', 'index-id-page', { id: '123', page: '2' }],
  ['/404', 'not-found'],
  ['/basics.html', 'basics'],
  ['/buy.html', 'buy'],
  ['/complaint.html', 'complaint'],
  ['/dailypic.html', 'dailypic'],
  ['/download.html', 'download'],
  ['/download-cadapp.html', 'download-cadapp'],
  ['/download-cadkantuapp.html', 'download-cadkantuapp'],
  ['/download-converter-app.html', 'download-converter-app'],
  ['/download-converter.html', 'download-converter'],
  ['/download-holdall.html', 'download-holdall'],
  ['/download-lookchart.html', 'download-lookchart'],
  ['/download-major.html', 'download-major'],
  ['/download-mobile-lookchart.html', 'download-mobile-lookchart'],
  ['/dwgItem/42', 'dwgItem-id', { id: '42' }],
  ['/dwglist', 'dwglist'],
  ['/help.html', 'help'],
  ['/help', 'help-page', {}],
  ['/help/2', 'help-page', { page: '2' }],
  ['/invoice.html', 'invoice'],
  ['/jianyi.html', 'jianyi'],
  ['/kantu', 'kantu'],
  ['/lingwai.html', 'lingwai'],
  ['/lingwai', 'lingwai-slug', {}],
  ['/lingwai/cad-shortcuts', 'lingwai-slug', { slug: 'cad-shortcuts' }],
  ['/loginPhone', 'loginPhone'],
  ['/master.html', 'master'],
  ['/personal.html', 'personal'],
  ['/personal-base.html', 'personal-base'],
  ['/personal-buy.html', 'personal-buy'],
  ['/personal-download.html', 'personal-download'],
  ['/personal-openvip.html', 'personal-openvip'],
  ['/privacy.html', 'privacy'],
  ['/resources.html', 'resources'],
  ['/share.html', 'share'],
  ['/shengming.html', 'shengming'],
  ['/tag/7', 'tag-id', { id: '7' }],
  ['/tools', 'tools-index'],
  ['/tools.html', 'tools'],
  ['/video.html', 'video'],
  ['/weixin-login-callback', 'weixin-login-callback'],
  ['/意见反馈.html', 'feedback'],
  [`/${encodeURIComponent('意见反馈')}.html`, 'feedback'],
  ['/buy/cadconverter.html', 'buy-cadconverter'],
  ['/buy/cadconverterapp.html', 'buy-cadconverterapp'],
  ['/buy/cadeditor.html', 'buy-cadeditor'],
  ['/buy/cadholdall.html', 'buy-cadholdall'],
  ['/buy/cadresources.html', 'buy-cadresources'],
  ['/buy/cadtuku.html', 'buy-cadtuku'],
  ['/tools/cad2jpg', 'tools-cad2jpg'],
  ['/tools/cad2pdf', 'tools-cad2pdf'],
  ['/tools/cad2ver', 'tools-cad2ver'],
  ['/tools/pdf2cad', 'tools-pdf2cad'],
  ['/dailypics/5', 'dailypics-id', { id: '5' }],
  ['/dailypics/5/2', 'dailypics-id-page', { id: '5', page: '2' }],
  ['/scanlogin/abc123', 'scanlogin-logintag', { logintag: 'abc123' }],
];

describe('route table (spec §2)', () => {
  it.each(SPEC_URLS)('%s is served by %s', (url, name, params = {}) => {
    const resolved = resolveRoute(url);
    expect(resolved?.route.name).toBe(name);
    expect(resolved?.params).toEqual(params);
  });

  it.each(['/no/such/page', '/buy/nothing.html', '/abc', '/123/x', '/dailypics/x', '/help/2/3', '/tag/', '/scanlogin/a b'])(
    '%s is served by no route (404)',
    (url) => {
      expect(resolveRoute(url)).toBeNull();
    },
  );

  it('has unique names and patterns, and every parent exists', () => {
    expect(new Set(ROUTES.map((route) => route.name)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((route) => route.pattern)).size).toBe(ROUTES.length);
    for (const route of ROUTES) if (route.parent) expect(() => routeByName(route.parent ?? '')).not.toThrow();
  });

  it.each(ROUTES.map((route) => [route.name, route] as const))('%s has a page file in its layout group', (_name, route) => {
    const file = path.join(webRoot, 'app', '[locale]', `(${route.layout})`, folderOf(route), 'page.tsx');
    expect(existsSync(file), file).toBe(true);
  });

  it.each(['zh-CN', 'en'])('every route has a title and a description in %s', (locale) => {
    const pages = JSON.parse(readFileSync(path.join(webRoot, 'messages', locale, 'pages.json'), 'utf8')) as Record<
      string,
      { title?: string; description?: string }
    >;
    for (const route of ROUTES) {
      expect(pages[route.messageKey]?.title, route.name).toMatch(/\S/);
      expect(pages[route.messageKey]?.description?.length ?? 0, route.name).toBeGreaterThan(10);
    }
  });
});

describe('paths and parameters', () => {
  it('builds public paths from names and parameters', () => {
    expect(pathOf('home')).toBe('/');
    expect(pathOf('help')).toBe('/help.html');
    expect(pathOf('index-id', { id: '123.html' })).toBe('/123.html');
    expect(pathOf('dailypics-id-page', { id: '5', page: '2' })).toBe('/dailypics/5/2');
    expect(pathOf('help-page')).toBe('/help');
    expect(pathOf('feedback')).toBe(`/${encodeURIComponent('意见反馈')}.html`);
    expect(() => pathOf('tag-id')).toThrow(/id/);
  });

  it('checks the parameters Next.js matched against the table', () => {
    expect(areParamsValid('index-id', { id: '123' })).toBe(true);
    expect(areParamsValid('index-id', { id: '123.html' })).toBe(true);
    expect(areParamsValid('index-id', { id: 'about' })).toBe(false);
    expect(areParamsValid('index-id-page', { id: '123', page: 'x' })).toBe(false);
    expect(areParamsValid('help-page', {})).toBe(true);
  });

  it('reads catch-all segments as one optional parameter', () => {
    expect(paramsFromSegments({ page: ['2'] })).toEqual({ page: '2' });
    expect(paramsFromSegments({ page: [] })).toEqual({});
    expect(paramsFromSegments({ page: undefined, id: '5' })).toEqual({ id: '5' });
    expect(paramsFromSegments({ page: ['2', '3'] })).toBeNull();
  });
});

describe('breadcrumbs', () => {
  it('lists the ancestors from the top, then the page', () => {
    expect(breadcrumbOf('buy-cadeditor').map((route) => route.name)).toEqual(['buy', 'buy-cadeditor']);
    expect(breadcrumbOf('index-id-page').map((route) => route.name)).toEqual(['help', 'index-id', 'index-id-page']);
    expect(breadcrumbOf('dailypics-id-page').map((route) => route.name)).toEqual(['dailypic', 'dailypics-id-page']);
    expect(breadcrumbOf('help').map((route) => route.name)).toEqual(['help']);
    expect(breadcrumbOf('home')).toEqual([]);
  });
});
