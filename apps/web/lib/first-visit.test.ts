import { afterEach, describe, expect, it, vi } from 'vitest';
import { isFirstVisit } from './first-visit';

afterEach(() => vi.unstubAllGlobals());

describe('isFirstVisit', () => {
  it('is true once per key and tab session', () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('window', {
      sessionStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
      },
    });
    expect(isFirstVisit('xcad:viewed:1')).toBe(true);
    expect(isFirstVisit('xcad:viewed:1')).toBe(false);
    expect(isFirstVisit('xcad:viewed:2')).toBe(true);
  });

  it('counts every visit when storage is blocked', () => {
    vi.stubGlobal('window', {
      get sessionStorage(): Storage {
        throw new Error('SecurityError');
      },
    });
    expect(isFirstVisit('xcad:viewed:1')).toBe(true);
    expect(isFirstVisit('xcad:viewed:1')).toBe(true);
  });
});
