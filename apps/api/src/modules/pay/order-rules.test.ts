import { describe, expect, it } from 'vitest';
import { MEMBERSHIP } from '@xcad/protocol';
import { addMonths, cutUtf8, extendedExpiry, newOrderNo, orderSubject } from './order-rules';
import { ORDER_NO_PATTERN } from '@xcad/protocol';

const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('order numbers', () => {
  it('carry the Beijing date and time and eight random digits', () => {
    const orderno = newOrderNo(at('2026-11-22T16:30:05Z'), () => 42);
    expect(orderno).toBe('XC2026112300300500000042');
    expect(orderno).toMatch(ORDER_NO_PATTERN);
  });
});

describe('calendar months in Beijing time', () => {
  it('adds a month to the same day and clock time', () => {
    expect(addMonths(at('2026-03-15T02:00:00Z'), 1)).toBe(at('2026-04-15T02:00:00Z'));
    expect(addMonths(at('2026-01-10T00:00:00Z'), 12)).toBe(at('2027-01-10T00:00:00Z'));
  });

  it('keeps the month-end: 31 January plus one month is the end of February', () => {
    // 31 Jan 10:00 Beijing is 02:00Z; a month on is 28 Feb 10:00 Beijing.
    expect(addMonths(at('2026-01-31T02:00:00Z'), 1)).toBe(at('2026-02-28T02:00:00Z'));
    expect(addMonths(at('2028-01-31T02:00:00Z'), 1)).toBe(at('2028-02-29T02:00:00Z'));
  });

  it('uses the Beijing date, not UTC, near midnight', () => {
    // 31 March 23:30Z is 1 April 07:30 in Beijing: a month on is 1 May 07:30 Beijing.
    expect(addMonths(at('2026-03-31T23:30:00Z'), 1)).toBe(at('2026-04-30T23:30:00Z'));
  });
});

describe('extending a membership', () => {
  const now = at('2026-11-22T04:00:00Z');

  it('starts from now when there was none or it had lapsed', () => {
    expect(extendedExpiry(undefined, now, 12)).toBe(at('2027-11-22T04:00:00Z'));
    expect(extendedExpiry(at('2026-01-01T00:00:00Z'), now, 1)).toBe(at('2026-12-22T04:00:00Z'));
  });

  it('extends an active membership from its current expiry', () => {
    const current = at('2027-02-01T00:00:00Z');
    expect(extendedExpiry(current, now, 12)).toBe(at('2028-02-01T00:00:00Z'));
  });

  it('makes lifetime lifelong by spec §4 and never shortens a later expiry', () => {
    const lifetime = extendedExpiry(undefined, now, null);
    expect(lifetime - now).toBeGreaterThan(MEMBERSHIP.lifelongThresholdSeconds);
    expect(extendedExpiry(lifetime, now, null)).toBe(lifetime);
    expect(extendedExpiry(lifetime, now, 1)).toBeGreaterThan(lifetime);
  });
});

describe('order subjects', () => {
  it('names a single package, a bundle, or the items joined', () => {
    expect(orderSubject([{ productName: '迅捷CAD编辑器', name: '12个月会员' }], null)).toBe('迅捷CAD编辑器 12个月会员');
    expect(orderSubject([{ productName: 'a', name: 'b' }], '编辑器终身 + 转换器终身')).toBe('编辑器终身 + 转换器终身');
    expect(
      orderSubject(
        [
          { productName: 'A', name: 'x' },
          { productName: 'B', name: 'y' },
        ],
        null,
      ),
    ).toBe('A x、B y');
  });

  it('cuts to a byte budget on a character boundary', () => {
    expect(cutUtf8('迅捷CAD', 4)).toBe('迅');
    expect(Buffer.byteLength(cutUtf8('编'.repeat(100), 127))).toBe(126);
  });
});
