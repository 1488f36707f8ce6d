import { describe, expect, it } from 'vitest';
import { decideRoute, internalPathOf, isPagePath, localeFromAcceptLanguage, negotiateLocale } from './negotiate';

const FEEDBACK_ENCODED = `/${encodeURIComponent('意见反馈')}.html`;

describe('localeFromAcceptLanguage', () => {
  it.each([
    ['zh-CN,zh;q=0.9,en;q=0.5', 'zh-CN'],
    ['en-US,en;q=0.9', 'en'],
    ['zh-TW', 'zh-CN'],
    ['fr-FR,fr;q=0.9,en;q=0.8,zh;q=0.7', 'en'],
    ['en;q=0.3,zh-CN;q=0.8', 'zh-CN'],
    ['EN-gb', 'en'],
  ])('%s -> %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it.each([null, '', 'fr,de;q=0.5', 'en;q=0', '*'])('%s -> no supported locale', (header) => {
    expect(localeFromAcceptLanguage(header)).toBeNull();
  });
});

describe('negotiateLocale (spec §4 order: prefix, cookie, browser, default)', () => {
  it('takes the route prefix over everything else', () => {
    expect(negotiateLocale({ pathname: '/en/help.html', cookieLocale: 'zh-CN', acceptLanguage: 'zh-CN' })).toBe('en');
    expect(negotiateLocale({ pathname: '/zh-CN', cookieLocale: 'en', acceptLanguage: 'en' })).toBe('zh-CN');
  });

  it('takes the stored cookie over the browser language', () => {
    expect(negotiateLocale({ pathname: '/', cookieLocale: 'en', acceptLanguage: 'zh-CN' })).toBe('en');
    expect(negotiateLocale({ pathname: '/', cookieLocale: 'zh-CN', acceptLanguage: 'en-US' })).toBe('zh-CN');
  });

  it('ignores a cookie naming no configured locale', () => {
    expect(negotiateLocale({ pathname: '/', cookieLocale: 'fr', acceptLanguage: 'en-US' })).toBe('en');
  });

  it('falls back to zh-CN', () => {
    expect(negotiateLocale({ pathname: '/', acceptLanguage: 'de-DE' })).toBe('zh-CN');
    expect(negotiateLocale({ pathname: '/' })).toBe('zh-CN');
  });
});

describe('decideRoute', () => {
  const request = (pathname: string, extra: { cookieLocale?: string; acceptLanguage?: string; search?: string } = {}) => ({
    pathname,
    search: extra.search ?? '',
    cookieLocale: extra.cookieLocale,
    acceptLanguage: extra.acceptLanguage,
  });

  it('redirects the root with 302 to /en when English is chosen, keeping the query', () => {
    expect(decideRoute(request('/', { cookieLocale: 'en', search: '?from=ad' }))).toEqual({
      kind: 'redirect',
      location: '/en?from=ad',
      status: 302,
    });
    expect(decideRoute(request('/', { acceptLanguage: 'en-US,en;q=0.9' }))).toMatchObject({ kind: 'redirect', location: '/en' });
  });

  it('serves the root in Chinese otherwise', () => {
    expect(decideRoute(request('/', { acceptLanguage: 'zh-CN,zh;q=0.9' }))).toEqual({
      kind: 'rewrite',
      pathname: '/zh-CN',
      locale: 'zh-CN',
    });
    expect(decideRoute(request('/'))).toEqual({ kind: 'rewrite', pathname: '/zh-CN', locale: 'zh-CN' });
  });

  it('serves other unprefixed paths in Chinese whatever the cookie says', () => {
    expect(decideRoute(request('/help.html', { cookieLocale: 'en', acceptLanguage: 'en' }))).toEqual({
      kind: 'rewrite',
      pathname: '/zh-CN/help.html',
      locale: 'zh-CN',
    });
  });

  it('serves /en paths in English', () => {
    expect(decideRoute(request('/en'))).toEqual({ kind: 'rewrite', pathname: '/en', locale: 'en' });
    expect(decideRoute(request('/en/tools/cad2pdf', { cookieLocale: 'zh-CN' }))).toEqual({
      kind: 'rewrite',
      pathname: '/en/tools/cad2pdf',
      locale: 'en',
    });
  });

  it('redirects the /zh-CN prefix to the unprefixed URL', () => {
    expect(decideRoute(request('/zh-CN/help.html', { search: '?a=1' }))).toEqual({
      kind: 'redirect',
      location: '/help.html?a=1',
      status: 302,
    });
    expect(decideRoute(request('/zh-CN'))).toMatchObject({ kind: 'redirect', location: '/' });
  });

  it('routes the feedback page, encoded or not, to its folder', () => {
    for (const path of [FEEDBACK_ENCODED, '/意见反馈.html', FEEDBACK_ENCODED.toLowerCase()]) {
      expect(decideRoute(request(path))).toEqual({ kind: 'rewrite', pathname: '/zh-CN/feedback.html', locale: 'zh-CN' });
    }
    expect(decideRoute(request(`/en${FEEDBACK_ENCODED}`))).toEqual({ kind: 'rewrite', pathname: '/en/feedback.html', locale: 'en' });
  });

  it('sends the feedback folder name to the public feedback URL', () => {
    expect(decideRoute(request('/feedback.html'))).toEqual({ kind: 'redirect', location: FEEDBACK_ENCODED, status: 302 });
    expect(decideRoute(request('/en/feedback.html'))).toMatchObject({ kind: 'redirect', location: `/en${FEEDBACK_ENCODED}` });
  });

  it('never redirects on a search-engine cache copy', () => {
    expect(decideRoute(request('/', { cookieLocale: 'en' }), { isCacheCopy: true })).toEqual({
      kind: 'rewrite',
      pathname: '/en',
      locale: 'en',
    });
    expect(decideRoute(request('/zh-CN/help.html'), { isCacheCopy: true })).toEqual({
      kind: 'rewrite',
      pathname: '/zh-CN/help.html',
      locale: 'zh-CN',
    });
  });
});

describe('internalPathOf', () => {
  it('maps the feedback page to its folder and leaves other paths alone', () => {
    expect(internalPathOf('/意见反馈.html')).toBe('/feedback.html');
    expect(internalPathOf('/help.html')).toBe('/help.html');
    expect(internalPathOf('/%E0%A4%A.html')).toBe('/%E0%A4%A.html');
  });
});

describe('isPagePath (the proxy matcher)', () => {
  it.each(['/', '/help.html', '/123', '/en/tools/cad2pdf', FEEDBACK_ENCODED, '/dailypics/5/2', '/apiary', '/healthy'])(
    '%s is a page',
    (path) => {
      expect(isPagePath(path)).toBe(true);
    },
  );

  it.each([
    '/api/v4/getutctime',
    '/api',
    '/wp-json/wp/v2/posts',
    '/_next/static/chunks/a.js',
    '/health',
    '/favicon.ico',
    '/brand/logo.svg',
    '/robots.txt',
  ])('%s is not a page', (path) => {
    expect(isPagePath(path)).toBe(false);
  });
});
