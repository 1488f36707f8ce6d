import { describe, expect, it } from 'vitest';
import { MAX_PENDING_PERCENT, isNavigationTo, progressAt } from './loading-bar';

describe('progressAt (spec §9: 5000 ms)', () => {
  it('starts at 0, rises monotonically and reaches its cap at 5000 ms without completing', () => {
    expect(progressAt(0)).toBe(0);
    let previous = 0;
    for (let t = 200; t <= 5000; t += 200) {
      const value = progressAt(t);
      expect(value).toBeGreaterThanOrEqual(previous);
      previous = value;
    }
    expect(progressAt(200)).toBeGreaterThan(0);
    expect(progressAt(2500)).toBeGreaterThan(50);
    expect(progressAt(5000)).toBe(MAX_PENDING_PERCENT);
    expect(progressAt(60_000)).toBe(MAX_PENDING_PERCENT);
    expect(MAX_PENDING_PERCENT).toBeLessThan(100);
  });
});

describe('isNavigationTo', () => {
  const here = new URL('http://site.test/help.html?x=1');
  it('follows links to another page of the site', () => {
    expect(isNavigationTo('/tools/cad2pdf', here)).toBe(true);
    expect(isNavigationTo('http://site.test/', here)).toBe(true);
  });

  it('ignores other sites, the same page, hash and query changes, and broken URLs', () => {
    expect(isNavigationTo('https://other.test/', here)).toBe(false);
    expect(isNavigationTo('#top', here)).toBe(false);
    expect(isNavigationTo('/help.html?x=2', here)).toBe(false);
    expect(isNavigationTo('http://[bad', here)).toBe(false);
  });
});
