import { describe, expect, it } from 'vitest';
import { isSearchCacheHost, originalPathFromCacheUrl } from './search-cache';

const siteHosts = ['www.xunjiecad.com', 'localhost'];
const options = { siteHosts };

describe('isSearchCacheHost', () => {
  it.each([
    'webcache.googleusercontent.com',
    'cc.bingj.com',
    'snapshot.sogoucdn.com',
    'cache.baiducontent.com',
    'c.360webcache.com',
    'WWW.360webcache.com',
    'cc.bingj.com:443',
  ])('knows %s', (host) => {
    expect(isSearchCacheHost(host)).toBe(true);
  });

  it.each(['www.xunjiecad.com', 'google.com', 'evil360webcache.com', 'bingj.com'])('does not take %s for a cache', (host) => {
    expect(isSearchCacheHost(host)).toBe(false);
  });
});

describe('originalPathFromCacheUrl', () => {
  it('is null on the site itself', () => {
    expect(originalPathFromCacheUrl('https://www.xunjiecad.com/help.html?x=1', options)).toBeNull();
    expect(originalPathFromCacheUrl('http://xunjiecad.com/buy.html', options)).toBeNull();
    expect(originalPathFromCacheUrl('http://localhost:3000/help.html', options)).toBeNull();
  });

  it('reads Google cache:KEY:URL', () => {
    const href =
      'https://webcache.googleusercontent.com/search?q=cache:AbC_12-xy:https://www.xunjiecad.com/help/2.html%3Fa%3D1+cad&hl=zh-CN';
    expect(originalPathFromCacheUrl(href, options)).toBe('/help/2.html?a=1');
  });

  it('reads Google cache:URL without key or scheme', () => {
    expect(originalPathFromCacheUrl('https://webcache.googleusercontent.com/search?q=cache:www.xunjiecad.com/buy.html', options)).toBe(
      '/buy.html',
    );
    expect(
      originalPathFromCacheUrl('https://webcache.googleusercontent.com/search?q=cache:https://www.xunjiecad.com/tools/cad2pdf', options),
    ).toBe('/tools/cad2pdf');
    expect(originalPathFromCacheUrl('https://webcache.googleusercontent.com/search?q=cache:k1:xunjiecad.com/dwglist', options)).toBe(
      '/dwglist',
    );
  });

  it('reads Bing u= and url=', () => {
    const encoded = encodeURIComponent('https://www.xunjiecad.com/dailypics/3/2');
    expect(originalPathFromCacheUrl(`https://cc.bingj.com/cache.aspx?d=123&w=abc&u=${encoded}`, options)).toBe('/dailypics/3/2');
    expect(originalPathFromCacheUrl(`http://cc.bingj.com/cache.aspx?q=cad&url=${encoded}`, options)).toBe('/dailypics/3/2');
  });

  it('reads Sogou url=', () => {
    const href = `https://snapshot.sogoucdn.com/websnapshot?ie=utf8&url=${encodeURIComponent('http://www.xunjiecad.com/%E6%84%8F%E8%A7%81%E5%8F%8D%E9%A6%88.html')}&did=1`;
    expect(originalPathFromCacheUrl(href, options)).toBe('/%E6%84%8F%E8%A7%81%E5%8F%8D%E9%A6%88.html');
  });

  it('reads 360 u=', () => {
    const href = `https://c.360webcache.com/c?m=abc&q=cad&u=${encodeURIComponent('https://www.xunjiecad.com/lingwai/some-slug')}`;
    expect(originalPathFromCacheUrl(href, options)).toBe('/lingwai/some-slug');
  });

  it('falls back to the canonical link on Baidu', () => {
    const href =
      'http://cache.baiducontent.com/c?m=9f65cb4a8c8507ed4fece7631046893b4c4380146d96864968d4e414c42246&p=8b2a9715d9c&user=baidu';
    expect(originalPathFromCacheUrl(href, { siteHosts, canonical: 'https://www.xunjiecad.com/video.html' })).toBe('/video.html');
    expect(originalPathFromCacheUrl(href, { siteHosts, canonical: '/help/3?a=b' })).toBe('/help/3?a=b');
    expect(originalPathFromCacheUrl(href, { siteHosts, canonical: 'https://other.example/x.html' })).toBeNull();
    expect(originalPathFromCacheUrl(href, options)).toBeNull();
  });

  it('reads u/url on any foreign host only when it points at the site', () => {
    const target = encodeURIComponent('https://www.xunjiecad.com/tag/7');
    expect(originalPathFromCacheUrl(`https://snapshot.example.net/view?url=${target}`, options)).toBe('/tag/7');
    expect(
      originalPathFromCacheUrl(`https://snapshot.example.net/view?u=${encodeURIComponent('https://elsewhere.com/tag/7')}`, options),
    ).toBeNull();
    expect(originalPathFromCacheUrl('https://snapshot.example.net/view', { siteHosts, canonical: '/help.html' })).toBeNull();
  });

  it('is null when the cached original is another site or unreadable', () => {
    expect(originalPathFromCacheUrl('https://webcache.googleusercontent.com/search?q=cache:k:https://other.com/a', options)).toBeNull();
    expect(originalPathFromCacheUrl('https://webcache.googleusercontent.com/search?q=cad', options)).toBeNull();
    expect(originalPathFromCacheUrl('not a url', options)).toBeNull();
  });
});
