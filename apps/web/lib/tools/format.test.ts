import { describe, expect, it } from 'vitest';
import { formatBytes, timeLeftOf } from './format';

const MB = 1024 * 1024;

describe('sizes', () => {
  it('read in KB, MB or GB with at most one decimal', () => {
    expect(formatBytes(10)).toBe('0.1 KB');
    expect(formatBytes(356 * 1024)).toBe('356 KB');
    expect(formatBytes(12.44 * MB)).toBe('12.4 MB');
    expect(formatBytes(50 * MB)).toBe('50 MB');
    expect(formatBytes(1.2 * 1024 * MB)).toBe('1.2 GB');
  });
});

describe('time left before deletion', () => {
  it('counts down in hours and minutes, and stops at zero', () => {
    const now = 1_760_000_000;
    expect(timeLeftOf(now + 24 * 3600, now)).toEqual({ hours: 24, minutes: 0 });
    expect(timeLeftOf(now + 5 * 3600 + 7 * 60 + 59, now)).toEqual({ hours: 5, minutes: 7 });
    expect(timeLeftOf(now - 10, now)).toEqual({ hours: 0, minutes: 0 });
  });
});
