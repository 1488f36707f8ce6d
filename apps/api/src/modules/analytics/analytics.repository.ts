import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Executor, NewAnalyticsEvent } from '@xcad/db';

// All SQL of the analytics events and the operators (tables analytics_events, operators), except
// the partition housekeeping (analytics-partitions.repository.ts). Every report query is bounded
// by `day` first: the (day, event) index on SQLite, partition pruning on PostgreSQL. The queries
// are the same text on both engines; PostgreSQL answers sums and averages as strings (numeric),
// hence the Number() on every figure.

export interface DayRange {
  from: string;
  to: string;
}

/** Stores a batch in one multi-row insert (one statement, so all of it or none). */
export async function insertEvents(db: Executor, rows: readonly NewAnalyticsEvent[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('analytics_events')
    .values([...rows])
    .execute();
}

function inRange<O>(query: SelectQueryBuilder<Database, 'analytics_events', O>, range: DayRange) {
  return query.where('day', '>=', range.from).where('day', '<=', range.to);
}

const isView = sql<number>`case when event = 'view' then 1 else 0 end`;
const isSuccess = sql<number>`case when result = 'success' then 1 else 0 end`;

export interface DayCounts {
  day: string;
  visitors: number;
  views: number;
}

/** Per day with any event: distinct devices and view events. */
export async function dailyCounts(db: Executor, range: DayRange): Promise<DayCounts[]> {
  const rows = await inRange(db.selectFrom('analytics_events'), range)
    .select((eb) => [
      'day',
      eb.fn.count<number | string>('device_id').distinct().as('visitors'),
      eb.fn.sum<number | string>(isView).as('views'),
    ])
    .groupBy('day')
    .orderBy('day')
    .execute();
  return rows.map((row) => ({ day: row.day, visitors: Number(row.visitors), views: Number(row.views) }));
}

export interface RangeTotals {
  visitors: number;
  views: number;
  events: number;
}

/** Over the whole range: distinct devices (not the sum of the days'), views and events. */
export async function rangeTotals(db: Executor, range: DayRange): Promise<RangeTotals> {
  const row = await inRange(db.selectFrom('analytics_events'), range)
    .select((eb) => [
      eb.fn.count<number | string>('device_id').distinct().as('visitors'),
      eb.fn.sum<number | string | null>(isView).as('views'),
      eb.fn.countAll<number | string>().as('events'),
    ])
    .executeTakeFirst();
  return { visitors: Number(row?.visitors ?? 0), views: Number(row?.views ?? 0), events: Number(row?.events ?? 0) };
}

export interface PageCounts {
  page: string;
  views: number;
  visitors: number;
}

/** The most viewed pages, most views first (ties by path). */
export async function topPages(db: Executor, range: DayRange, limit: number): Promise<PageCounts[]> {
  const rows = await inRange(db.selectFrom('analytics_events'), range)
    .where('event', '=', 'view')
    .select((eb) => [
      'page',
      eb.fn.countAll<number | string>().as('views'),
      eb.fn.count<number | string>('device_id').distinct().as('visitors'),
    ])
    .groupBy('page')
    .orderBy('views', 'desc')
    .orderBy('page')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ page: row.page, views: Number(row.views), visitors: Number(row.visitors) }));
}

export interface Outcomes {
  key: string;
  attempts: number;
  successes: number;
}

/** Events of one kind grouped by a column, with how many succeeded; most attempts first. */
async function outcomesBy(db: Executor, range: DayRange, event: 'login' | 'task', column: 'method' | 'name'): Promise<Outcomes[]> {
  const rows = await inRange(db.selectFrom('analytics_events'), range)
    .where('event', '=', event)
    .where(column, 'is not', null)
    .select((eb) => [
      eb.ref(column).as('key'),
      eb.fn.countAll<number | string>().as('attempts'),
      eb.fn.sum<number | string>(isSuccess).as('successes'),
    ])
    .groupBy(column)
    .orderBy('attempts', 'desc')
    .orderBy(column)
    .execute();
  return rows.map((row) => ({ key: String(row.key), attempts: Number(row.attempts), successes: Number(row.successes) }));
}

/** Sign-in attempts by method. */
export function loginOutcomes(db: Executor, range: DayRange): Promise<Outcomes[]> {
  return outcomesBy(db, range, 'login', 'method');
}

/** Conversion tasks by tool. */
export function taskOutcomes(db: Executor, range: DayRange): Promise<Outcomes[]> {
  return outcomesBy(db, range, 'task', 'name');
}

/**
 * The median `elapsed_ms` of each tool's successful tasks: the middle row of the tool's sorted
 * times, or the mean of the two middle rows for an even count. Window functions give the same
 * answer on both engines, and only one or two rows per tool leave the database.
 */
export async function successfulTaskMedians(db: Executor, range: DayRange): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; median_ms: number | string }>`
    select name, avg(elapsed_ms) as median_ms from (
      select name, elapsed_ms,
        row_number() over (partition by name order by elapsed_ms) as position,
        count(*) over (partition by name) as total
      from analytics_events
      where day >= ${range.from} and day <= ${range.to}
        and event = 'task' and result = 'success' and name is not null and elapsed_ms is not null
    ) ranked
    where position in ((total + 1) / 2, (total + 2) / 2)
    group by name`.execute(db);
  return new Map(rows.map((row) => [row.name, Math.round(Number(row.median_ms))]));
}

export interface FunnelCounts {
  view: number;
  checkout: number;
  add_payment_info: number;
  purchase: number;
}

/**
 * Distinct devices reaching each step of view -> checkout -> add_payment_info -> purchase, a step
 * counting only devices that also reached every step before it within the range.
 */
export async function funnelCounts(db: Executor, range: DayRange): Promise<FunnelCounts> {
  const step = (event: string) => sql<number>`max(case when event = ${event} then 1 else 0 end)`;
  const devices = inRange(db.selectFrom('analytics_events'), range)
    .where('event', 'in', ['view', 'checkout', 'add_payment_info', 'purchase'])
    .select([step('view').as('v'), step('checkout').as('c'), step('add_payment_info').as('a'), step('purchase').as('p')])
    .groupBy('device_id');
  const row = await db
    .selectFrom(devices.as('d'))
    .select((eb) => [
      eb.fn.sum<number | string | null>('d.v').as('view'),
      eb.fn.sum<number | string | null>(sql`d.v * d.c`).as('checkout'),
      eb.fn.sum<number | string | null>(sql`d.v * d.c * d.a`).as('add_payment_info'),
      eb.fn.sum<number | string | null>(sql`d.v * d.c * d.a * d.p`).as('purchase'),
    ])
    .executeTakeFirst();
  return {
    view: Number(row?.view ?? 0),
    checkout: Number(row?.checkout ?? 0),
    add_payment_info: Number(row?.add_payment_info ?? 0),
    purchase: Number(row?.purchase ?? 0),
  };
}

export interface PurchaseTotals {
  orders: number;
  revenueFen: number;
}

/**
 * Orders and revenue of the purchase events, one per transaction id: a tracker that resends a
 * batch it could not confirm must not count an order twice.
 */
export async function purchaseTotals(db: Executor, range: DayRange): Promise<PurchaseTotals> {
  const orders = inRange(db.selectFrom('analytics_events'), range)
    .where('event', '=', 'purchase')
    .where('transaction_id', 'is not', null)
    .select((eb) => ['transaction_id', eb.fn.max<number | string | null>('value_fen').as('value_fen')])
    .groupBy('transaction_id');
  const row = await db
    .selectFrom(orders.as('o'))
    .select((eb) => [eb.fn.countAll<number | string>().as('orders'), eb.fn.sum<number | string | null>('o.value_fen').as('revenue_fen')])
    .executeTakeFirst();
  return { orders: Number(row?.orders ?? 0), revenueFen: Number(row?.revenue_fen ?? 0) };
}

export async function isOperator(db: Executor, userId: number): Promise<boolean> {
  const row = await db.selectFrom('operators').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Makes the user an operator; false when they were one already. */
export async function insertOperator(db: Executor, userId: number, now: number): Promise<boolean> {
  const result = await db
    .insertInto('operators')
    .values({ user_id: userId, created_at: now })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}
