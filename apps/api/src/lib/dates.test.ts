import { describe, expect, it } from 'vitest';
import { shanghaiDateToEpoch } from './dates';

describe('shanghaiDateToEpoch', () => {
  it('places a calendar date at 09:00 in Shanghai (01:00 UTC)', () => {
    expect(new Date(shanghaiDateToEpoch('2026-03-02') * 1000).toISOString()).toBe('2026-03-02T01:00:00.000Z');
  });

  it('refuses a day that does not exist', () => {
    expect(() => shanghaiDateToEpoch('2026-02-30')).toThrow(/calendar date/);
  });
});
