import { describe, expect, it } from 'vitest';
import { joinLines } from './course.import';

describe('joinLines', () => {
  it('joins lines of Chinese without a space and Latin words with one', () => {
    expect(joinLines('先画轴网，\n再用 MLINE 画墙。\n')).toBe('先画轴网，再用 MLINE 画墙。');
    expect(joinLines('Save as DWG\n2004 format')).toBe('Save as DWG 2004 format');
    expect(joinLines('  输入 @160,0\n\n  回车  ')).toBe('输入 @160,0回车');
  });
});
