import { describe, expect, it } from 'vitest';
import { truncateLong, truncateShort, truncateText } from './text';

describe('truncateShort (spec §9: 12 characters)', () => {
  it('leaves 12 characters or fewer alone', () => {
    expect(truncateShort('')).toBe('');
    expect(truncateShort('迅捷CAD编辑器')).toBe('迅捷CAD编辑器');
    expect(truncateShort('一二三四五六七八九十一二')).toBe('一二三四五六七八九十一二');
  });

  it('cuts at 12 and appends ...', () => {
    expect(truncateShort('一二三四五六七八九十一二三')).toBe('一二三四五六七八九十一二...');
    expect(truncateShort('abcdefghijklmnop')).toBe('abcdefghijkl...');
  });

  it('never splits an emoji', () => {
    const text = `${'字'.repeat(11)}😀😀`;
    expect(truncateShort(text)).toBe(`${'字'.repeat(11)}😀...`);
    expect(truncateShort('😀'.repeat(12))).toBe('😀'.repeat(12));
  });
});

describe('truncateLong (spec §9: 80 characters)', () => {
  it('cuts at 80 only when longer', () => {
    expect(truncateLong('文'.repeat(80))).toBe('文'.repeat(80));
    expect(truncateLong('文'.repeat(81))).toBe(`${'文'.repeat(80)}...`);
  });
});

describe('truncateText', () => {
  it('cuts to any length', () => {
    expect(truncateText('abcdef', 3)).toBe('abc...');
    expect(truncateText('abc', 3)).toBe('abc');
  });
});
