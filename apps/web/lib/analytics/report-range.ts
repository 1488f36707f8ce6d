import { ANALYTICS_REPORT_MAX_DAYS } from '@xcad/protocol/analytics';

// The date range of the operator report pages (decision 0022): Beijing calendar days as the collector
// counts them, `from` and `to` both included, the last 7 days unless the address asks otherwise.

const DEFAULT_REPORT_DAYS = 7;
const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface ReportRange {
  readonly from: string;
  readonly to: string;
}

type RangeProblem = 'format' | 'order' | 'tooLong';

export interface ReadRange extends ReportRange {
  /** Why the asked range was not used (the default was shown instead); null when it was. */
  readonly problem: RangeProblem | null;
}

/** The Beijing calendar day of an instant, as YYYY-MM-DD. */
export function beijingDay(epochMs: number): string {
  return new Date(epochMs + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** A real calendar day in YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** `day` moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both counted. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The last `days` days up to today (Beijing). */
export function lastDays(days: number, nowMs: number): ReportRange {
  const to = beijingDay(nowMs);
  return { from: addDays(to, -(days - 1)), to };
}

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim() ?? '';
}

/** The range a report address asks for (`?from=&to=`); the default, with the reason, when it is not usable. */
export function readReportRange(query: { readonly from?: string | string[]; readonly to?: string | string[] }, nowMs: number): ReadRange {
  const from = single(query.from);
  const to = single(query.to);
  const fallback = lastDays(DEFAULT_REPORT_DAYS, nowMs);
  if (from === '' && to === '') return { ...fallback, problem: null };
  if (!isCalendarDay(from) || !isCalendarDay(to)) return { ...fallback, problem: 'format' };
  if (from > to) return { ...fallback, problem: 'order' };
  if (daysBetween(from, to) > ANALYTICS_REPORT_MAX_DAYS) return { ...fallback, problem: 'tooLong' };
  return { from, to, problem: null };
}
