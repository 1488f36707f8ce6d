import { describe, expect, it } from 'vitest';
import { contentDisposition, parseRange } from './send-stored';
import { isValidStorageKey } from './storage';

describe('parseRange', () => {
  it('reads the one range download managers and video players send', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
  });
  it('answers unsatisfiable for ranges past the end or backwards', () => {
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=50-10', 1000)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 1000)).toBe('unsatisfiable');
  });
  it('ignores what it does not serve: no header, other units, several ranges', () => {
    expect(parseRange(undefined, 1000)).toBeUndefined();
    expect(parseRange('items=0-1', 1000)).toBeUndefined();
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeUndefined();
    expect(parseRange('bytes=-', 1000)).toBeUndefined();
  });
});

describe('contentDisposition', () => {
  it('keeps a Chinese file name for browsers and an ASCII fallback for old clients', () => {
    const header = contentDisposition('attachment', '别墅平面图 (A3).dwg');
    expect(header).toContain('attachment; filename="');
    expect(header).toContain("filename*=UTF-8''%E5%88%AB%E5%A2%85%E5%B9%B3%E9%9D%A2%E5%9B%BE%20%28A3%29.dwg");
    expect(header).not.toMatch(/filename="[^"]*[^\x20-\x7e][^"]*"/);
  });
  it('cannot be broken out of by quotes in the name', () => {
    expect(contentDisposition('inline', 'a"b\\c.png')).toContain('filename="a_b_c.png"');
  });
});

describe('isValidStorageKey', () => {
  it('refuses keys that could leave the storage root', () => {
    for (const key of ['', '../etc/passwd', 'content/../../x', 'content//x', '/abs', 'a/./b', 'a\\b', 'a\0b']) {
      expect(isValidStorageKey(key), key).toBe(false);
    }
    expect(isValidStorageKey('content/images/dailypics/3001-别墅.png')).toBe(true);
  });
});
