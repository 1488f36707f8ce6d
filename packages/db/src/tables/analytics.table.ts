import type { Generated, Insertable, Selectable } from 'kysely';

// Decision 0022: analytics (migration 2026-11-22T0700_analytics). Unlike the other tables, times here
// are epoch milliseconds: the events' own clock (`time`) is in milliseconds.

/**
 * One accepted event. The common fields and the fields reports group by are columns; the event's
 * own fields (and the optional common ones: locale, referrer) are kept whole in `props`. Written
 * only by the collector, removed only by the retention sweep (a whole day at a time).
 */
export interface AnalyticsEventsTable {
  id: Generated<number>;
  /** Server time of arrival. */
  received_at: number;
  /** The Beijing calendar day of `client_time`, 'YYYY-MM-DD' (the PostgreSQL partition key). */
  day: string;
  /** click, task, file, view, checkout, add_payment_info, purchase, login, activation, startup. */
  event: string;
  /** The event's `time` (the client's clock, checked against the server's on arrival). */
  client_time: number;
  device_id: string;
  uid: string;
  /**
   * The signed-in user, from the session the request carried (never from the body). Not a foreign
   * key: the log is append-only and partitioned, and the retention sweep bounds how long it is kept.
   */
  user_id: number | null;
  page: string;
  platform: string;
  software_name: string;
  software_version: string;
  channel: string;
  /** login: wechat, sms, password, qq. */
  method: string | null;
  /** login, task, file: success, fail (task and file also cancel). */
  result: string | null;
  /** The event's `name`: the tool of a task (cad2pdf, ...), the product of a checkout, the button of a click. */
  name: string | null;
  /** add_payment_info, purchase: the order's value in fen (the event sends yuan). */
  value_fen: number | null;
  transaction_id: string | null;
  /** task: how long the conversion took. */
  elapsed_ms: number | null;
  /** JSON object of the event's own fields. */
  props: Generated<string>;
}

/** Users who may read the analytics reports (`npm run operator:create`). */
export interface OperatorsTable {
  user_id: number;
  /** Epoch seconds, as app_user's. */
  created_at: number;
}

export interface AnalyticsTables {
  analytics_events: AnalyticsEventsTable;
  operators: OperatorsTable;
}

export type AnalyticsEventRow = Selectable<AnalyticsEventsTable>;
export type NewAnalyticsEvent = Insertable<AnalyticsEventsTable>;
