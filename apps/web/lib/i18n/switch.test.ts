import { describe, expect, it } from 'vitest';
import { switchLocaleTarget } from './switch';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('switchLocaleTarget (spec §4)', () => {
  it('opens the same page in the new locale, keeping query and hash', () => {
    expect(switchLocaleTarget('zh-CN', 'en', at('/help.html', '?q=1', '#top'))).toBe('/en/help.html?q=1#top');
    expect(switchLocaleTarget('en', 'zh-CN', at('/en/tools/cad2pdf'))).toBe('/tools/cad2pdf');
    expect(switchLocaleTarget('zh-CN', 'en', at('/'))).toBe('/en');
    expect(switchLocaleTarget('en', 'zh-CN', at('/en'))).toBe('/');
  });

  it('does nothing when the choice is empty, unchanged or unknown', () => {
    expect(switchLocaleTarget('zh-CN', '', at('/help.html'))).toBeNull();
    expect(switchLocaleTarget('en', 'en', at('/en/help.html'))).toBeNull();
    expect(switchLocaleTarget('zh-CN', 'fr', at('/help.html'))).toBeNull();
  });
});
