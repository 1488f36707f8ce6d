import type { TAnalyticsReport } from '@xcad/protocol';
import { dailyChart, DAILY_CHART_BOX } from '@/lib/analytics/chart';
import styles from './operator.module.css';

// The report's daily chart (decision 0022): page views as bars, visitors as a line, drawn here as SVG
// with round ticks. Screen readers get its title and a one-line description; the exact figures
// are in the table beside it (components/operator/analytics-report.tsx).

export interface DailyChartLabels {
  readonly title: string;
  readonly description: string;
  readonly views: string;
  readonly visitors: string;
  /** Formats a count for the ticks and tooltips. */
  readonly count: (value: number) => string;
}

export function DailyChart({ days, labels }: { readonly days: TAnalyticsReport['days']; readonly labels: DailyChartLabels }) {
  const chart = dailyChart(days);
  const box = DAILY_CHART_BOX;
  return (
    <figure className={styles.chart}>
      <svg
        className={styles.chartSvg}
        viewBox={`0 0 ${box.width} ${box.height}`}
        role="img"
        aria-labelledby="daily-chart-title daily-chart-desc"
        data-testid="daily-chart"
      >
        <title id="daily-chart-title">{labels.title}</title>
        <desc id="daily-chart-desc">{labels.description}</desc>
        <g className={styles.grid} aria-hidden="true">
          {chart.ticks.map((tick) => (
            <g key={tick.value}>
              <line x1={box.left} x2={box.width - box.right} y1={tick.y} y2={tick.y} />
              <text x={box.left - 8} y={tick.y} dy="0.32em" textAnchor="end">
                {labels.count(tick.value)}
              </text>
            </g>
          ))}
        </g>
        <g className={styles.bars}>
          {chart.bars.map((bar, index) => (
            <rect
              key={bar.day}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
              rx={Math.min(3, bar.width / 4)}
              data-testid="daily-bar"
              data-day={bar.day}
            >
              <title>{`${bar.day} ${labels.views} ${labels.count(days[index]?.views ?? 0)}, ${labels.visitors} ${labels.count(days[index]?.visitors ?? 0)}`}</title>
            </rect>
          ))}
        </g>
        <polyline className={styles.line} points={chart.line} aria-hidden="true" />
        <g className={styles.dots} aria-hidden="true">
          {chart.dots.map((dot) => (
            <circle key={dot.day} cx={dot.x} cy={dot.y} r={days.length > 60 ? 1.5 : 3} />
          ))}
        </g>
        <g className={styles.axis} aria-hidden="true">
          <line x1={box.left} x2={box.width - box.right} y1={chart.baseline} y2={chart.baseline} />
          {chart.labels.map((label) => (
            <text key={label.day} x={label.x} y={chart.baseline + 18} textAnchor="middle">
              {label.text}
            </text>
          ))}
        </g>
      </svg>
      <figcaption className={styles.legend}>
        <span className={styles.legendViews}>{labels.views}</span>
        <span className={styles.legendVisitors}>{labels.visitors}</span>
      </figcaption>
    </figure>
  );
}
