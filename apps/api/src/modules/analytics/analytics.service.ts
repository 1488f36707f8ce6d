import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  ANALYTICS_ERRORS,
  ApiError,
  LOGIN_METHODS,
  type TAnalyticsAccess,
  type TAnalyticsBatchResult,
  type TAnalyticsEventRecord,
  type TAnalyticsReport,
  type TLoginMethod,
} from '@xcad/protocol';
import type { Database, NewAnalyticsEvent } from '@xcad/db';
import type { Env } from '../../env';
import { limitKey, retryAfterSecondsOf, type Charge, type LimitStore } from '../../limits';
import { signedInUserIdOrNull } from '../auth/session.service';
import {
  createDayPartitions,
  deleteEventsBefore,
  dropPartitionsBefore,
  isMissingPartition,
  isPostgres,
} from './analytics-partitions.repository';
import { addDays, beijingDayOf, checkEvent, checkReportRange, daysFrom, deviceCountsOf, rowOf, type RejectReason } from './analytics-rules';
import {
  dailyCounts,
  funnelCounts,
  insertEvents,
  isOperator,
  loginOutcomes,
  purchaseTotals,
  rangeTotals,
  successfulTaskMedians,
  taskOutcomes,
  topPages,
} from './analytics.repository';

// Analytics (decision 0022): the collector, the operator's report, and the housekeeping of the stored
// events (partitions ahead of time on PostgreSQL, the retention sweep).
//
// Writes: each request's accepted events go to the database in one multi-row insert before the
// answer is sent, so `accepted` means stored. A crash loses nothing that was acknowledged, and a
// failed write answers 5xx, which the tracker treats as "keep the events and retry". An in-process
// buffer flushed every second would save some write work, but would lose up to a second of events
// that had been acknowledged whenever the process died; one insert per request is already cheap
// (npm run bench:analytics measures it), so durability wins.

export interface AnalyticsDeps {
  db: Kysely<Database>;
  env: Env;
  log: FastifyBaseLogger;
  /** Server time, epoch milliseconds. */
  clock: () => number;
  /** Where the collector's limits are counted, shared by the API processes (decision 0029). */
  limits: LimitStore;
}

/** Where a batch came from. */
interface Arrival {
  ip: string;
  /** The session cookie's usertoken, if any: who was signed in (never taken from the body). */
  usertoken: string | undefined;
}

interface HousekeepingResult {
  /** Days whose partition was created (PostgreSQL). */
  created: string[];
  /** Days whose partition was dropped (PostgreSQL). */
  dropped: string[];
  /** Events deleted (SQLite). */
  deleted: number;
}

export interface Analytics {
  collect(events: readonly unknown[], arrival: Arrival): Promise<TAnalyticsBatchResult>;
  report(usertoken: string | undefined, range: { from: string; to: string }): Promise<TAnalyticsReport>;
  /** The report without asking who reads it: for callers that decided that already (the back office's guard). */
  rangeReport(range: { from: string; to: string }): Promise<TAnalyticsReport>;
  access(usertoken: string | undefined): Promise<TAnalyticsAccess>;
  /** Partitions for today and the next days, and the retention sweep. */
  housekeeping(): Promise<HousekeepingResult>;
  /** Logs the events rejected since the last call, by reason (nothing when there were none). */
  logRejects(): void;
  /** Housekeeping now and every hour, rejects logged every minute, until `stop`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

const TOP_PAGES = 20;
/** The collector's limits are events a minute. */
const RATE_WINDOW_MS = 60_000;
/** Partitions exist from today to this many days ahead, so a new day never waits for one. */
const PARTITION_DAYS_AHEAD = 2;
const HOUSEKEEPING_INTERVAL_MS = 3_600_000;
const REJECT_LOG_INTERVAL_MS = 60_000;

type RefusalKind = keyof typeof ANALYTICS_ERRORS;

export function analyticsRefusal(kind: RefusalKind, logMessage: string, extra?: Record<string, number>): ApiError {
  const { code, status, message } = ANALYTICS_ERRORS[kind];
  return new ApiError({ code, httpStatus: status, userMessage: message, logMessage, ...(extra === undefined ? {} : { extra }) });
}

function rateOf(successes: number, attempts: number): number {
  return attempts === 0 ? 0 : successes / attempts;
}

function isLoginMethod(value: string): value is TLoginMethod {
  return (LOGIN_METHODS as readonly string[]).includes(value);
}

export function createAnalytics(deps: AnalyticsDeps): Analytics {
  const { db, env, log, clock, limits } = deps;
  // Rejected events since the last log line, and since start.
  const pendingRejects = new Map<RejectReason | 'rate_limited', number>();
  const totalRejects = new Map<RejectReason | 'rate_limited', number>();
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();

  const countReject = (reason: RejectReason | 'rate_limited', count = 1) =>
    pendingRejects.set(reason, (pendingRejects.get(reason) ?? 0) + count);

  /** The signed-in user of the token, or null (none, expired, revoked, disabled). */
  function userIdOf(usertoken: string | undefined): Promise<number | null> {
    return signedInUserIdOrNull(db, { usertoken }, Math.floor(clock() / 1000));
  }

  /** Inserts the rows; on PostgreSQL a day without a partition gets one and the insert runs again. */
  async function store(rows: readonly NewAnalyticsEvent[]): Promise<void> {
    try {
      await insertEvents(db, rows);
    } catch (error) {
      if (!isMissingPartition(error)) throw error;
      const created = await createDayPartitions(
        db,
        rows.map((row) => row.day),
      );
      log.info({ days: created }, 'analytics partitions created on demand');
      await insertEvents(db, rows);
    }
  }

  async function collect(events: readonly unknown[], arrival: Arrival): Promise<TAnalyticsBatchResult> {
    const now = clock();
    // Every event counts against the budgets, good or bad: a flood of junk costs as much to read.
    const charges: Charge[] = [
      { key: limitKey('analytics-ip', arrival.ip), cost: events.length, limit: env.ANALYTICS_RATE_PER_MINUTE, windowMs: RATE_WINDOW_MS },
    ];
    for (const [deviceId, count] of deviceCountsOf(events)) {
      charges.push({
        key: limitKey('analytics-device', deviceId),
        cost: count,
        limit: env.ANALYTICS_DEVICE_RATE_PER_MINUTE,
        windowMs: RATE_WINDOW_MS,
      });
    }
    const taken = await limits.consume(charges, now);
    if (!taken.ok) {
      countReject('rate_limited', events.length);
      throw analyticsRefusal('tooManyEvents', `analytics batch of ${events.length} from ${arrival.ip} over the limit`, {
        retryafter: retryAfterSecondsOf(taken.retryAfterMs),
      });
    }

    const accepted: TAnalyticsEventRecord[] = [];
    for (const raw of events) {
      const checked = checkEvent(raw, now);
      if (checked.ok) accepted.push(checked.event);
      else countReject(checked.reason);
    }
    if (accepted.length > 0) {
      const userId = await userIdOf(arrival.usertoken);
      await store(accepted.map((event) => rowOf(event, { receivedAt: now, userId })));
    }
    return { accepted: accepted.length, rejected: events.length - accepted.length };
  }

  async function requireOperator(usertoken: string | undefined): Promise<void> {
    const userId = await userIdOf(usertoken);
    if (userId === null) throw analyticsRefusal('signInRequired', 'analytics report without a session');
    if (!(await isOperator(db, userId))) throw analyticsRefusal('notOperator', `analytics report for user ${userId}, not an operator`);
  }

  async function report(usertoken: string | undefined, range: { from: string; to: string }): Promise<TAnalyticsReport> {
    await requireOperator(usertoken);
    return rangeReport(range);
  }

  /** The report itself; who may read it was decided by the caller (the session above, or the back office's guard). */
  async function rangeReport(range: { from: string; to: string }): Promise<TAnalyticsReport> {
    const problem = checkReportRange(range.from, range.to);
    if (problem !== undefined) throw analyticsRefusal('invalidRange', problem);
    const [days, totals, pages, logins, tasks, medians, funnel, purchases] = await Promise.all([
      dailyCounts(db, range),
      rangeTotals(db, range),
      topPages(db, range, TOP_PAGES),
      loginOutcomes(db, range),
      taskOutcomes(db, range),
      successfulTaskMedians(db, range),
      funnelCounts(db, range),
      purchaseTotals(db, range),
    ]);
    // Every day of the range, quiet ones as zeros, so charts keep their time axis.
    const byDay = new Map(days.map((day) => [day.day, day]));
    return {
      from: range.from,
      to: range.to,
      days: daysFrom(range.from, range.to).map((day) => byDay.get(day) ?? { day, visitors: 0, views: 0 }),
      totals,
      topPages: pages,
      logins: logins.flatMap(({ key, attempts, successes }) =>
        isLoginMethod(key) ? [{ method: key, attempts, successes, rate: rateOf(successes, attempts) }] : [],
      ),
      tasks: tasks.map(({ key, attempts, successes }) => ({
        tool: key,
        tasks: attempts,
        successes,
        rate: rateOf(successes, attempts),
        medianMs: medians.get(key) ?? 0,
      })),
      funnel: {
        steps: [
          { step: 'view', devices: funnel.view },
          { step: 'checkout', devices: funnel.checkout },
          { step: 'add_payment_info', devices: funnel.add_payment_info },
          { step: 'purchase', devices: funnel.purchase },
        ],
        orders: purchases.orders,
        revenue: purchases.revenueFen / 100,
      },
    };
  }

  async function access(usertoken: string | undefined): Promise<TAnalyticsAccess> {
    const userId = await userIdOf(usertoken);
    if (userId === null) return { signedIn: false, operator: false };
    return { signedIn: true, operator: await isOperator(db, userId) };
  }

  async function housekeeping(): Promise<HousekeepingResult> {
    const today = beijingDayOf(clock());
    // Today and the ANALYTICS_RETENTION_DAYS days before it are kept.
    const cutoff = addDays(today, -env.ANALYTICS_RETENTION_DAYS);
    const result: HousekeepingResult = { created: [], dropped: [], deleted: 0 };
    if (isPostgres(db)) {
      result.created = await createDayPartitions(db, daysFrom(today, addDays(today, PARTITION_DAYS_AHEAD)));
      result.dropped = await dropPartitionsBefore(db, cutoff);
    } else {
      result.deleted = await deleteEventsBefore(db, cutoff);
    }
    if (result.created.length > 0 || result.dropped.length > 0 || result.deleted > 0)
      log.info({ ...result, cutoff }, 'analytics housekeeping');
    return result;
  }

  /** Housekeeping whose failure is logged: the collector keeps working (missing days are created on demand). */
  function housekeepingLogged(): Promise<void> {
    const run = running.then(housekeeping).then(
      () => undefined,
      (error: unknown) => log.error({ err: error }, 'analytics housekeeping failed'),
    );
    running = run;
    return run;
  }

  function logRejects(): void {
    if (pendingRejects.size === 0) return;
    const rejects = Object.fromEntries(pendingRejects);
    for (const [reason, count] of pendingRejects) totalRejects.set(reason, (totalRejects.get(reason) ?? 0) + count);
    pendingRejects.clear();
    log.warn({ rejects, sinceStart: Object.fromEntries(totalRejects) }, 'analytics events rejected');
  }

  return {
    collect,
    report,
    rangeReport,
    access,
    housekeeping,
    logRejects,
    start: async () => {
      timers.push(
        setInterval(() => void housekeepingLogged(), HOUSEKEEPING_INTERVAL_MS),
        setInterval(logRejects, REJECT_LOG_INTERVAL_MS),
      );
      for (const timer of timers) timer.unref();
      await housekeepingLogged();
    },
    stop: async () => {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await running;
      logRejects();
    },
  };
}
