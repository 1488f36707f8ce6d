import { z } from 'zod';
import { ANALYTICS_PLATFORMS } from '../constants';
import { zLine, zText } from '../input';
import { ANALYTICS_LIMITS } from './analytics-limits';

// Decision 0022: the analytics event catalogue. Spec §3 names the software info (name, version online
// or test by host, channel, platform, generated unique id) and each event with its own fields; §1
// and §7 name visitor analytics and a third-party statistics script. The field names are ours,
// snake_case as the event names themselves (add_payment_info, transaction_id) are. One schema set
// serves the tracker (what it may send), the collector (what it accepts) and the reports.

export const ANALYTICS_EVENTS = [
  'click',
  'task',
  'file',
  'view',
  'checkout',
  'add_payment_info',
  'purchase',
  'login',
  'activation',
  'startup',
] as const;
export type TAnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

/** spec §3: the version is 'online' on the production host, 'test' on the test host. */
export const ANALYTICS_SOFTWARE_VERSIONS = ['online', 'test'] as const;

export const LOGIN_METHODS = ['wechat', 'sms', 'password', 'qq'] as const;
export type TLoginMethod = (typeof LOGIN_METHODS)[number];

export const EVENT_RESULTS = ['success', 'fail', 'cancel'] as const;
export type TEventResult = (typeof EVENT_RESULTS)[number];

export const FILE_IO = ['upload', 'download', 'open', 'save', 'share'] as const;

export { ANALYTICS_LIMITS } from './analytics-limits';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The fields every event carries (software info, device, page, time). */
export const ZAnalyticsCommon = z.object({
  /** Software name: 'web' for the site, 'desktop' for the desktop shell. */
  software_name: zLine(64).min(1),
  software_version: z.enum(ANALYTICS_SOFTWARE_VERSIONS),
  channel: zLine(64),
  platform: z.enum(ANALYTICS_PLATFORMS),
  /** Generated unique id of this install / browser profile (kept in local storage). */
  uid: zLine(64).min(1),
  device_id: zLine(64).min(1),
  /** Path of the page, without query or hash: '/tools/cad2pdf'. */
  page: zLine(512).startsWith('/'),
  /** Client time, ms since the epoch. */
  time: count,
  locale: zLine(16).optional(),
  referrer: zLine(512).optional(),
});
export type TAnalyticsCommon = z.infer<typeof ZAnalyticsCommon>;

const event = <E extends TAnalyticsEvent, S extends z.ZodRawShape>(name: E, shape: S) =>
  ZAnalyticsCommon.extend({ event: z.literal(name), ...shape }).strict();

export const ZClickEvent = event('click', {
  title: zLine(128).optional(),
  module: zLine(64).min(1),
  tab_name: zLine(64).optional(),
  click_type: zLine(32).optional(),
  name: zLine(128).min(1),
  action_name: zLine(64).optional(),
  ab_tag: zLine(64).optional(),
});

export const ZTaskEvent = event('task', {
  title: zLine(128).optional(),
  action_name: zLine(64).optional(),
  /** The tool: cad2pdf, cad2jpg, cad2ver, pdf2cad. */
  name: zLine(64).min(1),
  extension: zLine(16),
  result: z.enum(EVENT_RESULTS),
  reason: zText(256).optional(),
  elapsed_ms: count,
  size: count,
});

export const ZFileEvent = event('file', {
  duration: count.optional(),
  size: count,
  extension: zLine(16),
  result: z.enum(EVENT_RESULTS),
  reason: zText(256).optional(),
  io: z.enum(FILE_IO),
  title: zLine(128).optional(),
  name: zLine(128).min(1),
  action_name: zLine(64).optional(),
});

export const ZViewEvent = event('view', {
  title: zLine(256).optional(),
  name: zLine(128).optional(),
  action_name: zLine(64).optional(),
});

export const ZCheckoutEvent = event('checkout', {
  action_name: zLine(64).optional(),
  title: zLine(128).optional(),
  /** The product, e.g. 'editor'. */
  name: zLine(128).min(1),
  /** The package chosen. */
  sub_item: zLine(128).optional(),
});

const payment = {
  sku: zLine(64).min(1),
  payment_type: z.enum(['wechat', 'alipay']),
  transaction_id: zLine(64).optional(),
  currency: z.literal('CNY'),
  /** Yuan, as in the order. */
  value: z.number().min(0).max(1_000_000),
  coupon: zLine(64).optional(),
  item_id: zLine(64).min(1),
  item_name: zLine(128).min(1),
  item_price: z.number().min(0).max(1_000_000),
  item_quantity: z.number().int().min(1).max(1000),
};
export const ZAddPaymentInfoEvent = event('add_payment_info', payment);
/** purchase: transaction_id (the order number) is required. */
export const ZPurchaseEvent = event('purchase', { ...payment, transaction_id: zLine(64).min(1) });

export const ZLoginEvent = event('login', {
  method: z.enum(LOGIN_METHODS),
  /** What identified the user (masked phone, account name); never a password or code. */
  login_id: zLine(64).optional(),
  result: z.enum(['success', 'fail']),
  reason: zText(256).optional(),
});

export const ZActivationEvent = event('activation', {});
export const ZStartupEvent = event('startup', {});

export const ZAnalyticsEvent = z.discriminatedUnion('event', [
  ZClickEvent,
  ZTaskEvent,
  ZFileEvent,
  ZViewEvent,
  ZCheckoutEvent,
  ZAddPaymentInfoEvent,
  ZPurchaseEvent,
  ZLoginEvent,
  ZActivationEvent,
  ZStartupEvent,
]);
export type TAnalyticsEventRecord = z.infer<typeof ZAnalyticsEvent>;
/** An event as the tracker builds it, before the common fields are filled in. */
export type TAnalyticsEventInput = TAnalyticsEventRecord extends infer E
  ? E extends TAnalyticsEventRecord
    ? Omit<E, keyof TAnalyticsCommon>
    : never
  : never;

/**
 * `POST /api/analytics/events` body. Events are validated one by one by the collector (a bad one
 * is counted in `rejected`, the others are kept), so the batch itself only checks the shape.
 */
export const ZAnalyticsBatch = z.object({ events: z.array(z.unknown()).min(1).max(ANALYTICS_LIMITS.maxBatch) });
export const ZAnalyticsBatchResult = z.object({ accepted: count, rejected: count });
export type TAnalyticsBatchResult = z.infer<typeof ZAnalyticsBatchResult>;

// ---- Operator reports (`GET /api/analytics/report?from=YYYY-MM-DD&to=YYYY-MM-DD`, operator only) ----

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const ZAnalyticsReportQuery = z.object({ from: day, to: day });

/** Days are Beijing-time calendar days. */
export const ZAnalyticsReport = z.object({
  from: day,
  to: day,
  /** Per day: distinct device ids with any event, and view events. */
  days: z.array(z.object({ day, visitors: count, views: count })),
  totals: z.object({ visitors: count, views: count, events: count }),
  topPages: z.array(z.object({ page: z.string(), views: count, visitors: count })),
  logins: z.array(z.object({ method: z.enum(LOGIN_METHODS), attempts: count, successes: count, rate: z.number().min(0).max(1) })),
  tasks: z.array(z.object({ tool: z.string(), tasks: count, successes: count, rate: z.number().min(0).max(1), medianMs: count })),
  /** Distinct devices reaching each step, in order; revenue in yuan over purchase events. */
  funnel: z.object({
    steps: z.array(z.object({ step: z.enum(['view', 'checkout', 'add_payment_info', 'purchase']), devices: count })),
    orders: count,
    revenue: z.number().min(0),
  }),
});
export type TAnalyticsReport = z.infer<typeof ZAnalyticsReport>;

/** `GET /api/analytics/me`: whether the visitor is signed in, and as an operator (the report pages' gate). */
export const ZAnalyticsAccess = z.object({ signedIn: z.boolean(), operator: z.boolean() });
export type TAnalyticsAccess = z.infer<typeof ZAnalyticsAccess>;

/** Longest report range, in days (from and to included). */
export const ANALYTICS_REPORT_MAX_DAYS = 366;

/** Refusals of the analytics routes: `{code, message}` with these HTTP statuses. */
export const ANALYTICS_ERRORS = {
  malformed: { code: 10001, status: 400, message: '统计数据格式错误' },
  bodyTooLarge: { code: 10001, status: 413, message: `统计数据过大，每次最多 ${ANALYTICS_LIMITS.maxBodyBytes / 1024} KB` },
  tooManyEvents: { code: 10429, status: 429, message: '统计事件发送过于频繁，请稍后再试' },
  invalidRange: {
    code: 10001,
    status: 400,
    message: `日期范围无效：from 和 to 为 YYYY-MM-DD 格式的北京时间日期，from 不晚于 to，最多 ${ANALYTICS_REPORT_MAX_DAYS} 天`,
  },
  // The same code as an expired usertoken (decision 0010): sign in and try again.
  signInRequired: { code: 10060, status: 401, message: '请先登录运营账号' },
  notOperator: { code: 10403, status: 403, message: '该账号没有查看统计报表的权限' },
} as const;
