import { describe, expect, it } from 'vitest';
import { cacheCopyBase } from './cache-copy';

describe('cacheCopyBase (spec §2: pages opened from a search-engine cache host)', () => {
  it('points a cache copy at the site', () => {
    expect(
      cacheCopyBase('https://webcache.googleusercontent.com/search?q=cache:abc:https://www.example.cn/help.html', 'https://www.example.cn'),
    ).toBe('https://www.example.cn/');
    expect(cacheCopyBase('http://cache.baiducontent.com/c?m=abc', 'https://www.example.cn')).toBe('https://www.example.cn/');
  });

  it('does nothing on the site itself or elsewhere', () => {
    expect(cacheCopyBase('https://www.example.cn/help.html', 'https://www.example.cn')).toBeNull();
    expect(cacheCopyBase('https://mirror.example.org/help.html', 'https://www.example.cn')).toBeNull();
    expect(cacheCopyBase('not a url', 'https://www.example.cn')).toBeNull();
  });
});
