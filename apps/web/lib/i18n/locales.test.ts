import { afterEach, describe, expect, it, vi } from 'vitest';
import { hreflangOf, localeCookieString, localizePath, splitLocalePath } from './locales';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('locale paths', () => {
  it('prefixes English and leaves Chinese unprefixed', () => {
    expect(localizePath('/', 'zh-CN')).toBe('/');
    expect(localizePath('/help.html', 'zh-CN')).toBe('/help.html');
    expect(localizePath('/', 'en')).toBe('/en');
    expect(localizePath('/help.html', 'en')).toBe('/en/help.html');
  });

  it('splits a path into its locale and the rest', () => {
    expect(splitLocalePath('/en')).toEqual({ locale: 'en', rest: '/' });
    expect(splitLocalePath('/en/tools/cad2pdf')).toEqual({ locale: 'en', rest: '/tools/cad2pdf' });
    expect(splitLocalePath('/zh-CN/help.html')).toEqual({ locale: 'zh-CN', rest: '/help.html' });
    expect(splitLocalePath('/english')).toEqual({ locale: null, rest: '/english' });
    expect(splitLocalePath('/')).toEqual({ locale: null, rest: '/' });
  });
});

describe('locale cookie (spec §9: 365 days)', () => {
  it('is stored for the whole site for 365 days', () => {
    expect(localeCookieString('en')).toBe('NEXT_LOCALE=en; Path=/; Max-Age=31536000; SameSite=Lax');
  });
});

describe('hreflangOf (spec §8)', () => {
  it('uses the ISO code', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(hreflangOf({ code: 'en', iso: 'en', dir: 'ltr' })).toBe('en');
    expect(warn).not.toHaveBeenCalled();
  });

  it('warns on a missing ISO code and falls back to the locale code', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(hreflangOf({ code: 'fr', dir: 'ltr' })).toBe('fr');
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('fr');
  });
});
