import { getTranslations } from 'next-intl/server';
import Link from '@/components/ui/link';
import { lastDays, type ReadRange } from '@/lib/analytics/report-range';
import type { Locale } from '@/lib/i18n/locales';
import { ANALYTICS_REPORT_MAX_DAYS } from '@xcad/protocol/analytics';
import styles from './operator.module.css';

// The report's date range (decision 0022): a plain GET form, so it works before (and without) the
// page's JavaScript, and quick links to the usual ranges. The page renders the range it is given.

const PRESETS = [
  { key: 'last7', days: 7 },
  { key: 'last30', days: 30 },
  { key: 'last90', days: 90 },
] as const;

export async function RangeForm({
  locale,
  path,
  range,
  nowMs,
}: {
  readonly locale: Locale;
  readonly path: string;
  readonly range: ReadRange;
  readonly nowMs: number;
}) {
  const t = await getTranslations({ locale, namespace: 'operator.range' });
  const today = lastDays(1, nowMs).to;
  return (
    <section className={styles.rangeBar} aria-labelledby="report-range-label">
      <form className={styles.rangeForm} method="get" action={path} data-testid="report-range">
        <h2 id="report-range-label" className={styles.rangeLabel}>
          {t('label')}
        </h2>
        <label className={styles.dateField}>
          <span>{t('from')}</span>
          <input type="date" name="from" defaultValue={range.from} max={today} required data-testid="report-from" />
        </label>
        <span className={styles.dateDash} aria-hidden="true">
          –
        </span>
        <label className={styles.dateField}>
          <span>{t('to')}</span>
          <input type="date" name="to" defaultValue={range.to} max={today} required data-testid="report-to" />
        </label>
        <button type="submit" className={styles.rangeSubmit} data-testid="report-submit">
          {t('submit')}
        </button>
      </form>
      <nav className={styles.presets} aria-label={t('presets')}>
        {PRESETS.map((preset) => {
          const target = lastDays(preset.days, nowMs);
          const isCurrent = target.from === range.from && target.to === range.to;
          return (
            <Link
              key={preset.key}
              className={styles.preset}
              href={`${path}?${new URLSearchParams({ from: target.from, to: target.to }).toString()}`}
              aria-current={isCurrent ? 'true' : undefined}
              prefetch={false}
            >
              {t(preset.key)}
            </Link>
          );
        })}
      </nav>
      <p className={styles.rangeNote}>{t('note')}</p>
      {range.problem !== null && (
        <p className={styles.rangeProblem} role="alert" data-testid="report-range-problem">
          {t(`problems.${range.problem}`, { days: ANALYTICS_REPORT_MAX_DAYS })}
        </p>
      )}
    </section>
  );
}
