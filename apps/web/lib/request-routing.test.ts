import { describe, expect, it } from 'vitest';
import { decidePageRequest, publicSearch } from './request-routing';

const request = (pathname: string, cookieLocale?: string) => ({ pathname, search: '', cookieLocale, acceptLanguage: 'zh-CN' });

describe('decidePageRequest', () => {
  it('serves the pages of the route table', () => {
    expect(decidePageRequest(request('/help.html'))).toEqual({ kind: 'rewrite', pathname: '/zh-CN/help.html', locale: 'zh-CN' });
    expect(decidePageRequest(request('/en/dailypics/5/2'))).toEqual({ kind: 'rewrite', pathname: '/en/dailypics/5/2', locale: 'en' });
    expect(decidePageRequest(request('/意见反馈.html'))).toMatchObject({ kind: 'rewrite', pathname: '/zh-CN/feedback.html' });
  });

  it('answers unknown paths and /404 with the locale 404 page and status 404', () => {
    for (const path of ['/404', '/no/such/page', '/buy/nothing.html', '/abc', '/123/x']) {
      expect(decidePageRequest(request(path)), path).toEqual({ kind: 'not-found', pathname: '/zh-CN/404', status: 404 });
    }
    expect(decidePageRequest(request('/en/nothing'))).toEqual({ kind: 'not-found', pathname: '/en/404', status: 404 });
    expect(decidePageRequest(request('/en/404'))).toEqual({ kind: 'not-found', pathname: '/en/404', status: 404 });
  });

  it('redirects before looking the path up', () => {
    expect(decidePageRequest(request('/zh-CN/nothing'))).toEqual({ kind: 'redirect', location: '/nothing', status: 302 });
    expect(decidePageRequest(request('/', 'en'))).toEqual({ kind: 'redirect', location: '/en', status: 302 });
  });
});

describe('publicSearch', () => {
  it('drops only the client router parameter', () => {
    expect(publicSearch('?_rsc=abc')).toBe('');
    expect(publicSearch('?a=1&_rsc=abc&b=2')).toBe('?a=1&b=2');
    expect(publicSearch('?a=1')).toBe('?a=1');
    expect(publicSearch('')).toBe('');
  });
});
