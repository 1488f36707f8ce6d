import { describe, expect, it } from 'vitest';
import { INPUT_MESSAGES, INT32_MAX, isAcceptableString, isCleanLine, isCleanText, toCleanLine, zId, zLine, zText } from './input';

describe('the characters a request may carry', () => {
  it('refuses NUL and half surrogate pairs anywhere, keeps everything else', () => {
    for (const text of ['a\u0000b', '\u0000', 'x\ud800', '\udc00y', '\udc00\ud800'])
      expect(isAcceptableString(text), JSON.stringify(text)).toBe(false);
    for (const text of ['', '图纸😀', 'a\u0001\u001f\u007fb', 'line\r\nbreak', '\ufeff\u202e'])
      expect(isAcceptableString(text), JSON.stringify(text)).toBe(true);
  });

  it('one line holds no control character; free text may hold tabs and line breaks', () => {
    expect(isCleanLine('文件 name-1.dwg')).toBe(true);
    for (const text of ['a\tb', 'a\nb', 'a\u0007b', 'a\u007f', 'a\ud800']) expect(isCleanLine(text), JSON.stringify(text)).toBe(false);
    expect(isCleanText('第一行\r\n第二行\t完')).toBe(true);
    for (const text of ['a\u0000', 'a\u0008', 'a\u000b', 'a\u001b[31m', 'a\udfff'])
      expect(isCleanText(text), JSON.stringify(text)).toBe(false);
  });

  it('makes a clean line of any text without changing its length', () => {
    const text = 'a\u0000b\tc\ud800d😀';
    const clean = toCleanLine(text);
    expect(clean).toBe('a b c\ufffdd😀');
    expect(clean).toHaveLength(text.length);
    expect(isCleanLine(clean)).toBe(true);
  });
});

describe('schema builders', () => {
  it('zLine and zText: the length and the character rule, with the rule’s own message', () => {
    expect(zLine(4).safeParse('abcd').success).toBe(true);
    expect(zLine(4).safeParse('abcde').success).toBe(false);
    expect(zLine(8).safeParse('a\nb').error?.issues[0]?.message).toBe(INPUT_MESSAGES.characters);
    expect(zText(8).safeParse('a\nb').success).toBe(true);
    expect(zText(8).safeParse('a\u0000b').error?.issues[0]?.message).toBe(INPUT_MESSAGES.characters);
  });

  it('zId: a positive id that fits an integer column, from a number or a form body’s digits', () => {
    expect(zId().parse(211)).toBe(211);
    expect(zId().parse('304')).toBe(304);
    expect(zId().parse(INT32_MAX)).toBe(INT32_MAX);
    for (const value of [INT32_MAX + 1, 2 ** 40, '9223372036854775808', 0, -1, 1.5, 'NaN', 'abc']) {
      expect(zId('套餐不存在').safeParse(value).error?.issues[0]?.message, String(value)).toBe('套餐不存在');
    }
  });
});
