import { describe, expect, it } from 'vitest';
import { DAILY_CHART_BOX, dailyChart, niceCeiling, percent, ticksFor } from './chart';
import { addDays, beijingDay, daysBetween, isCalendarDay, lastDays, readReportRange } from './report-range';

// Decision 0022: the operator report's date range and the geometry of its daily chart.

// 2026-11-22 01:30 in Beijing is still 2026-11-21 in UTC.
const NOW = Date.parse('2026-11-22T01:30:00+08:00');

describe('report range', () => {
  it('counts Beijing calendar days', () => {
    expect(beijingDay(NOW)).toBe('2026-11-22');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-16', '2026-11-22')).toBe(7);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-1-2')).toBe(false);
  });

  it('defaults to the last 7 days, today included', () => {
    expect(readReportRange({}, NOW)).toEqual({ from: '2026-11-16', to: '2026-11-22', problem: null });
    expect(lastDays(30, NOW)).toEqual({ from: '2026-10-24', to: '2026-11-22' });
  });

  it('uses the range asked for, and the default with the reason when it cannot', () => {
    expect(readReportRange({ from: '2026-10-01', to: '2026-10-31' }, NOW)).toEqual({ from: '2026-10-01', to: '2026-10-31', problem: null });
    expect(readReportRange({ from: ['2026-10-01', 'x'], to: '2026-10-01' }, NOW)).toMatchObject({ from: '2026-10-01', problem: null });
    expect(readReportRange({ from: '2026-10-31', to: '2026-10-01' }, NOW)).toMatchObject({ from: '2026-11-16', problem: 'order' });
    expect(readReportRange({ from: '2026-02-30', to: '2026-03-01' }, NOW)).toMatchObject({ problem: 'format' });
    expect(readReportRange({ from: '2026-10-01' }, NOW)).toMatchObject({ problem: 'format' });
    expect(readReportRange({ from: '2024-01-01', to: '2026-01-01' }, NOW)).toMatchObject({ problem: 'tooLong' });
  });
});

describe('daily chart', () => {
  it('rounds the axis up to 1, 2 or 5 times a power of ten in whole steps', () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(7)).toBe(10);
    expect(niceCeiling(180)).toBe(200);
    expect(niceCeiling(4_100)).toBe(5_000);
    expect(ticksFor(0)).toEqual([0, 1, 2, 3, 4]);
    expect(ticksFor(3)).toEqual([0, 1, 2, 3, 4]);
    expect(ticksFor(180)).toEqual([0, 50, 100, 150, 200]);
    expect(ticksFor(7)).toEqual([0, 2, 4, 6, 8]);
    expect(ticksFor(8)).toEqual([0, 2, 4, 6, 8]);
  });

  it('draws each day’s views as a bar and the visitors as a line on the same scale', () => {
    const chart = dailyChart([
      { day: '2026-11-20', visitors: 2, views: 8 },
      { day: '2026-11-21', visitors: 0, views: 0 },
      { day: '2026-11-22', visitors: 4, views: 4 },
    ]);
    const plotHeight = DAILY_CHART_BOX.height - DAILY_CHART_BOX.top - DAILY_CHART_BOX.bottom;
    expect(chart.ticks.at(-1)?.value).toBe(8);
    const [tall, empty, half] = chart.bars;
    expect(tall!.height).toBeCloseTo(plotHeight, 1);
    expect(empty!.height).toBe(0);
    expect(half!.height).toBeCloseTo(plotHeight / 2, 1);
    expect(tall!.x).toBeLessThan(empty!.x);
    expect(chart.dots.map((dot) => dot.y)).toEqual(
      [chart.baseline - plotHeight / 4, chart.baseline, chart.baseline - plotHeight / 2].map((y) => Math.round(y * 10) / 10),
    );
    expect(chart.line.split(' ')).toHaveLength(3);
    expect(chart.labels.map((label) => label.text)).toEqual(['11/20', '11/21', '11/22']);
  });

  it('thins the day labels of a long range so they never overlap', () => {
    const days = Array.from({ length: 90 }, (_, index) => ({ day: addDays('2026-08-25', index), visitors: index, views: index * 2 }));
    const chart = dailyChart(days);
    const gaps = chart.labels.slice(1).map((label, index) => label.x - chart.labels[index]!.x);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(40);
    expect(chart.bars).toHaveLength(90);
  });

  it('writes shares as percents', () => {
    expect(percent(1, 2)).toBe('50%');
    expect(percent(2, 3)).toBe('66.7%');
    expect(percent(0, 0)).toBe('0%');
  });
});
