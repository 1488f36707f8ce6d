import { ANALYTICS_LIMITS, ANALYTICS_REPORT_MAX_DAYS, ZAnalyticsEvent, type TAnalyticsEventRecord } from '@xcad/protocol';
import type { NewAnalyticsEvent } from '@xcad/db';

// The pure rules of analytics (decision 0022): Beijing calendar days, the checks an event passes before
// it is stored, and the row it becomes.

// Beijing time has no daylight saving: a day is always the UTC day of the time plus 8 hours.
const BEIJING_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The Beijing calendar day of an epoch time in ms, 'YYYY-MM-DD'. */
export function beijingDayOf(epochMs: number): string {
  return new Date(epochMs + BEIJING_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether `day` is a real calendar day written 'YYYY-MM-DD' (not 2026-02-30). */
export function isCalendarDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** `day` moved by `days` calendar days (negative: earlier). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included, in order. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A report range, or why it is refused: both real days, `from` not after `to`, at most the limit. */
export function checkReportRange(from: string, to: string): string | undefined {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return `not calendar days: ${from}..${to}`;
  if (from > to) return `from ${from} is after to ${to}`;
  if (addDays(from, ANALYTICS_REPORT_MAX_DAYS - 1) < to) return `${from}..${to} is longer than ${ANALYTICS_REPORT_MAX_DAYS} days`;
  return undefined;
}

/** Why the collector drops an event; counted per reason, never stored. */
export type RejectReason = 'not_an_event' | 'invalid_fields' | 'too_old' | 'in_future';

export type EventCheck = { ok: true; event: TAnalyticsEventRecord } | { ok: false; reason: RejectReason };

/**
 * One event of a batch against the catalogue and the time window: older than `maxAgeMs` or ahead of
 * the server by more than `maxSkewMs` is refused (a replayed or badly clocked client would
 * otherwise write into days long reported, or into days that have not happened).
 */
export function checkEvent(raw: unknown, now: number): EventCheck {
  const parsed = ZAnalyticsEvent.safeParse(raw);
  if (!parsed.success) {
    const isEventNamed = parsed.error.issues.every((issue) => issue.path[0] !== 'event');
    return { ok: false, reason: isEventNamed && typeof raw === 'object' && raw !== null ? 'invalid_fields' : 'not_an_event' };
  }
  if (parsed.data.time < now - ANALYTICS_LIMITS.maxAgeMs) return { ok: false, reason: 'too_old' };
  if (parsed.data.time > now + ANALYTICS_LIMITS.maxSkewMs) return { ok: false, reason: 'in_future' };
  return { ok: true, event: parsed.data };
}

/** The fields every event carries, stored as columns (locale and referrer stay in `props`). */
const COLUMN_FIELDS = new Set(['event', 'software_name', 'software_version', 'channel', 'platform', 'uid', 'device_id', 'page', 'time']);

export interface ArrivalContext {
  /** Server time in epoch ms. */
  receivedAt: number;
  userId: number | null;
}

function fieldOf(event: TAnalyticsEventRecord, name: string): unknown {
  return (event as Record<string, unknown>)[name];
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The row an accepted event is stored as. */
export function rowOf(event: TAnalyticsEventRecord, context: ArrivalContext): NewAnalyticsEvent {
  const props = Object.fromEntries(Object.entries(event).filter(([name]) => !COLUMN_FIELDS.has(name)));
  const value = fieldOf(event, 'value');
  const elapsed = fieldOf(event, 'elapsed_ms');
  return {
    received_at: context.receivedAt,
    day: beijingDayOf(event.time),
    event: event.event,
    client_time: event.time,
    device_id: event.device_id,
    uid: event.uid,
    user_id: context.userId,
    page: event.page,
    platform: event.platform,
    software_name: event.software_name,
    software_version: event.software_version,
    channel: event.channel,
    method: textOrNull(fieldOf(event, 'method')),
    result: textOrNull(fieldOf(event, 'result')),
    name: textOrNull(fieldOf(event, 'name')),
    // Yuan with at most fen precision: kept as whole fen so sums are exact.
    value_fen: typeof value === 'number' ? Math.round(value * 100) : null,
    transaction_id: textOrNull(fieldOf(event, 'transaction_id')),
    elapsed_ms: typeof elapsed === 'number' ? elapsed : null,
    props: JSON.stringify(props),
  };
}

/** How many events of a raw batch name each device id (for the per-device limit, before validation). */
export function deviceCountsOf(events: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (typeof event !== 'object' || event === null) continue;
    const id = (event as Record<string, unknown>)['device_id'];
    if (typeof id === 'string' && id.length > 0 && id.length <= 64) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}
