// The geometry of the operator report's daily chart (decision 0022): page views as bars and visitors
// as a line over the days of the range, on one axis with round tick values. Pure numbers, drawn
// as SVG by components/operator/daily-chart.tsx.

export interface DailyPoint {
  readonly day: string;
  readonly visitors: number;
  readonly views: number;
}

export interface ChartBox {
  readonly width: number;
  readonly height: number;
  /** Room for the tick labels (left) and the day labels (bottom). */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export const DAILY_CHART_BOX: ChartBox = { width: 720, height: 260, left: 48, right: 12, top: 12, bottom: 28 };

/** The smallest 1, 2 or 5 times a power of ten that is at least `value` (1 for nothing). */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((multiple) => multiple * power >= value) ?? 10;
  return step * power;
}

/** Tick values from 0 in `count` equal steps of a round whole number (1, 2, 5, 10, 20, ...), the last at or above `max`. */
export function ticksFor(max: number, count = 4): number[] {
  const step = Math.max(1, niceCeiling(max / count));
  return Array.from({ length: count + 1 }, (_, index) => index * step);
}

export interface DailyChart {
  readonly ticks: readonly { readonly value: number; readonly y: number }[];
  readonly bars: readonly {
    readonly day: string;
    readonly x: number;
    readonly y: number;
    readonly width: number;
    readonly height: number;
  }[];
  /** The visitors line, as SVG polyline points. */
  readonly line: string;
  readonly dots: readonly { readonly day: string; readonly x: number; readonly y: number }[];
  /** Day labels, thinned so they never overlap (about one per 64 px). */
  readonly labels: readonly { readonly day: string; readonly x: number; readonly text: string }[];
  readonly baseline: number;
}

export function dailyChart(points: readonly DailyPoint[], box: ChartBox = DAILY_CHART_BOX): DailyChart {
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const baseline = box.top + plotHeight;
  const max = Math.max(0, ...points.map((point) => Math.max(point.views, point.visitors)));
  const tickValues = ticksFor(max);
  const top = tickValues.at(-1) ?? 1;
  const yOf = (value: number) => baseline - (value / top) * plotHeight;
  const slot = points.length > 0 ? plotWidth / points.length : plotWidth;
  const barWidth = Math.max(1, Math.min(40, slot * 0.6));
  const centreOf = (index: number) => box.left + slot * index + slot / 2;
  const round = (value: number) => Math.round(value * 10) / 10;
  const labelEvery = Math.max(1, Math.ceil(64 / slot));
  return {
    baseline,
    ticks: tickValues.map((value) => ({ value, y: round(yOf(value)) })),
    bars: points.map((point, index) => ({
      day: point.day,
      x: round(centreOf(index) - barWidth / 2),
      y: round(yOf(point.views)),
      width: round(barWidth),
      height: round(baseline - yOf(point.views)),
    })),
    line: points.map((point, index) => `${round(centreOf(index))},${round(yOf(point.visitors))}`).join(' '),
    dots: points.map((point, index) => ({ day: point.day, x: round(centreOf(index)), y: round(yOf(point.visitors)) })),
    labels: points
      .map((point, index) => ({ day: point.day, x: round(centreOf(index)), text: point.day.slice(5).replace('-', '/') }))
      .filter(
        (_, index) => index % labelEvery === 0 || (index === points.length - 1 && (points.length - 1) % labelEvery >= labelEvery / 2),
      ),
  };
}

/** A share as a percent: whole when exact ('50%'), else one decimal ('66.7%'). */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const value = (part / whole) * 100;
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}
