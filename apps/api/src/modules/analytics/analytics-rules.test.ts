import { ANALYTICS_LIMITS } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { addDays, beijingDayOf, checkEvent, checkReportRange, daysFrom, deviceCountsOf, isCalendarDay, rowOf } from './analytics-rules';

// Decision 0022: Beijing days, the collector's per-event checks, and the stored row.

const NOW = Date.parse('2026-11-22T04:00:00Z');

const common = {
  software_name: 'web',
  software_version: 'online',
  channel: 'baidu',
  platform: 'WEB',
  uid: 'u-1',
  device_id: 'd-1',
  page: '/tools/cad2pdf',
  time: NOW,
} as const;

describe('Beijing days', () => {
  it('turns a time into the calendar day on a Beijing clock (UTC+8, no daylight saving)', () => {
    expect(beijingDayOf(Date.parse('2026-11-21T15:59:59.999Z'))).toBe('2026-11-21');
    expect(beijingDayOf(Date.parse('2026-11-21T16:00:00Z'))).toBe('2026-11-22');
    expect(beijingDayOf(Date.parse('2026-07-01T00:00:00+08:00'))).toBe('2026-07-01');
  });

  it('knows real calendar days and counts days across months and leap years', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('2026-1-01')).toBe(false);
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysFrom('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(daysFrom('2026-03-02', '2026-03-01')).toEqual([]);
  });

  it('accepts report ranges of real days, in order, up to 366 days', () => {
    expect(checkReportRange('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(checkReportRange('2026-01-01', '2027-01-01')).toBeUndefined();
    expect(checkReportRange('2026-01-01', '2027-01-02')).toMatch(/longer than 366 days/);
    expect(checkReportRange('2026-01-02', '2026-01-01')).toMatch(/after/);
    expect(checkReportRange('2026-02-30', '2026-03-01')).toMatch(/not calendar days/);
    expect(checkReportRange('', '')).toMatch(/not calendar days/);
  });
});

describe('checkEvent', () => {
  it('accepts an event of the catalogue within the time window', () => {
    const checked = checkEvent({ ...common, event: 'login', method: 'sms', result: 'success' }, NOW);
    expect(checked).toMatchObject({ ok: true, event: { event: 'login', method: 'sms' } });
  });

  it('tells an unknown or unnamed event from an event with bad fields', () => {
    expect(checkEvent({ ...common, event: 'scroll' }, NOW)).toEqual({ ok: false, reason: 'not_an_event' });
    expect(checkEvent({ ...common }, NOW)).toEqual({ ok: false, reason: 'not_an_event' });
    expect(checkEvent('view', NOW)).toEqual({ ok: false, reason: 'not_an_event' });
    expect(checkEvent(null, NOW)).toEqual({ ok: false, reason: 'not_an_event' });
    expect(checkEvent({ ...common, event: 'login', method: 'email', result: 'success' }, NOW)).toEqual({
      ok: false,
      reason: 'invalid_fields',
    });
    expect(checkEvent({ ...common, event: 'view', user_id: 7 }, NOW)).toEqual({ ok: false, reason: 'invalid_fields' });
    expect(checkEvent({ ...common, event: 'view', page: 'tools' }, NOW)).toEqual({ ok: false, reason: 'invalid_fields' });
  });

  it('refuses events older than the window or ahead of the server beyond the skew', () => {
    const at = (time: number) => checkEvent({ ...common, event: 'startup', time }, NOW);
    expect(at(NOW - ANALYTICS_LIMITS.maxAgeMs)).toMatchObject({ ok: true });
    expect(at(NOW - ANALYTICS_LIMITS.maxAgeMs - 1)).toEqual({ ok: false, reason: 'too_old' });
    expect(at(NOW + ANALYTICS_LIMITS.maxSkewMs)).toMatchObject({ ok: true });
    expect(at(NOW + ANALYTICS_LIMITS.maxSkewMs + 1)).toEqual({ ok: false, reason: 'in_future' });
  });
});

describe('rowOf', () => {
  it("stores the common fields and the grouped ones as columns, the event's own fields as JSON", () => {
    const checked = checkEvent(
      {
        ...common,
        time: Date.parse('2026-11-21T17:30:00Z'),
        locale: 'zh-CN',
        event: 'purchase',
        sku: '305',
        payment_type: 'wechat',
        transaction_id: 'XC2026112200000000000001',
        currency: 'CNY',
        value: 88.1,
        item_id: '305',
        item_name: '终身VIP',
        item_price: 88.1,
        item_quantity: 1,
      },
      NOW,
    );
    if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
    const row = rowOf(checked.event, { receivedAt: NOW, userId: 42 });
    expect(row).toMatchObject({
      received_at: NOW,
      // 01:30 on the 22nd in Beijing.
      day: '2026-11-22',
      event: 'purchase',
      client_time: Date.parse('2026-11-21T17:30:00Z'),
      device_id: 'd-1',
      user_id: 42,
      page: '/tools/cad2pdf',
      method: null,
      result: null,
      name: null,
      value_fen: 8810,
      transaction_id: 'XC2026112200000000000001',
      elapsed_ms: null,
    });
    expect(JSON.parse(String(row.props))).toEqual({
      locale: 'zh-CN',
      sku: '305',
      payment_type: 'wechat',
      transaction_id: 'XC2026112200000000000001',
      currency: 'CNY',
      value: 88.1,
      item_id: '305',
      item_name: '终身VIP',
      item_price: 88.1,
      item_quantity: 1,
    });
  });

  it("keeps a task's tool, result and time in their columns", () => {
    const checked = checkEvent(
      { ...common, event: 'task', name: 'cad2pdf', extension: 'dwg', result: 'fail', reason: '文件已损坏', elapsed_ms: 5230, size: 1024 },
      NOW,
    );
    if (!checked.ok) throw new Error(`refused: ${checked.reason}`);
    expect(rowOf(checked.event, { receivedAt: NOW, userId: null })).toMatchObject({
      name: 'cad2pdf',
      result: 'fail',
      elapsed_ms: 5230,
      user_id: null,
      day: '2026-11-22',
    });
  });
});

describe('deviceCountsOf', () => {
  it('counts the events per device id of a raw batch, ignoring what names no usable id', () => {
    const counts = deviceCountsOf([
      { device_id: 'a' },
      { device_id: 'b' },
      { device_id: 'a' },
      { device_id: '' },
      { device_id: 'x'.repeat(65) },
      { device_id: 7 },
      'junk',
      null,
    ]);
    expect([...counts]).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
  });
});
