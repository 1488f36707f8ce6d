import { describe, expect, it } from 'vitest';
import { beijingTime, firstOf, queryWith, yuanOf } from './format';

// Decision 0042: how the console writes times, money and its lists' addresses.

describe('console formats', () => {
  it('writes epoch seconds in Beijing time to the minute, nothing for 0', () => {
    // 2026-11-29 16:30 UTC is 2026-11-30 00:30 in Beijing.
    expect(beijingTime(Date.UTC(2026, 10, 29, 16, 30) / 1000)).toBe('2026-11-30 00:30');
    expect(beijingTime(0)).toBe('');
  });

  it('writes fen as yuan with two decimals', () => {
    expect(yuanOf(6800)).toBe('68.00');
    expect(yuanOf(5)).toBe('0.05');
  });

  it('keeps a list filter in the address when the page changes, and leaves empty ones out', () => {
    expect(queryWith({ q: '13800000000', status: '' }, { page: '2' })).toBe('?q=13800000000&page=2');
    expect(queryWith({ q: '张 三' }, {})).toBe('?q=%E5%BC%A0+%E4%B8%89');
    expect(queryWith({}, {})).toBe('');
    expect(firstOf(['a', 'b'])).toBe('a');
    expect(firstOf(undefined)).toBe('');
  });
});
