import { describe, expect, it } from 'vitest';
import {
  ANALYTICS_EVENTS,
  ANALYTICS_LIMITS,
  ZAnalyticsBatch,
  ZAnalyticsEvent,
  ZAnalyticsReport,
  type TAnalyticsEventRecord,
} from './analytics';

// Decision 0022: the event catalogue of spec §3, shared by the tracker, the collector and the reports.

const common = {
  software_name: 'web',
  software_version: 'online',
  channel: 'baidu',
  platform: 'WEB',
  uid: 'u-4f1c2a',
  device_id: 'd-93ab01',
  page: '/tools/cad2pdf',
  time: 1_795_000_000_000,
} as const;

/** One valid event of each kind, with its own fields (spec §3). */
const samples: Record<(typeof ANALYTICS_EVENTS)[number], Record<string, unknown>> = {
  click: { event: 'click', module: 'header', tab_name: '在线转换', name: 'CAD转PDF', click_type: 'menu', ab_tag: 'b' },
  task: { event: 'task', name: 'cad2pdf', extension: 'dwg', result: 'fail', reason: '文件已损坏', elapsed_ms: 5230, size: 1_048_576 },
  file: { event: 'file', io: 'download', name: '平面图.pdf', extension: 'pdf', size: 20480, result: 'success', duration: 820 },
  view: { event: 'view', title: '迅捷CAD - 首页', name: 'home' },
  checkout: { event: 'checkout', name: 'editor', sub_item: '终身VIP', action_name: 'buy' },
  add_payment_info: {
    event: 'add_payment_info',
    sku: '305',
    payment_type: 'wechat',
    currency: 'CNY',
    value: 88,
    item_id: '305',
    item_name: '终身VIP',
    item_price: 88,
    item_quantity: 1,
  },
  purchase: {
    event: 'purchase',
    sku: '305',
    payment_type: 'alipay',
    transaction_id: 'XC2026112209301512345678',
    currency: 'CNY',
    value: 88,
    item_id: '305',
    item_name: '终身VIP',
    item_price: 88,
    item_quantity: 1,
  },
  login: { event: 'login', method: 'sms', login_id: '138****0000', result: 'fail', reason: '验证码错误' },
  activation: { event: 'activation' },
  startup: { event: 'startup' },
};

const parse = (fields: Record<string, unknown>) => ZAnalyticsEvent.safeParse({ ...common, ...fields });

describe('analytics event catalogue', () => {
  it.each(ANALYTICS_EVENTS)('accepts a complete %s event and keeps its own fields', (name) => {
    const result = parse(samples[name]);
    expect(result.success).toBe(true);
    const event = result.data as TAnalyticsEventRecord;
    expect(event.event).toBe(name);
    for (const [key, value] of Object.entries(samples[name])) expect((event as Record<string, unknown>)[key]).toEqual(value);
  });

  it('refuses an event name outside the catalogue', () => {
    expect(parse({ event: 'pageview' }).success).toBe(false);
  });

  it('refuses fields that belong to another event (each event is strict)', () => {
    expect(parse({ ...samples.view, method: 'sms' }).success).toBe(false);
    expect(parse({ ...samples.startup, value: 1 }).success).toBe(false);
  });

  it.each([
    ['platform outside the spec list', { platform: 'WINDOWS' }],
    ['version other than online/test', { software_version: '5.0' }],
    ['page that is not a path', { page: 'https://example.com/' }],
    ['negative time', { time: -1 }],
    ['missing device id', { device_id: '' }],
    ['over-long channel', { channel: 'x'.repeat(65) }],
  ])('refuses bad common fields: %s', (_label, change) => {
    expect(parse({ ...samples.view, ...change }).success).toBe(false);
  });

  it.each([
    ['login without a method', 'login', { method: undefined }],
    ['login with an unknown method', 'login', { method: 'email' }],
    ['login with result cancel', 'login', { result: 'cancel' }],
    ['task with a fractional size', 'task', { size: 1.5 }],
    ['task without elapsed time', 'task', { elapsed_ms: undefined }],
    ['file with an unknown io', 'file', { io: 'print' }],
    ['purchase without its order number', 'purchase', { transaction_id: undefined }],
    ['purchase in another currency', 'purchase', { currency: 'USD' }],
    ['add_payment_info with a negative value', 'add_payment_info', { value: -88 }],
    ['add_payment_info with an unknown pay type', 'add_payment_info', { payment_type: 'paypal' }],
    ['click without a module', 'click', { module: undefined }],
    ['checkout without the product', 'checkout', { name: undefined }],
  ] as const)('refuses bad own fields: %s', (_label, name, change) => {
    expect(parse({ ...samples[name], ...change }).success).toBe(false);
  });

  it('bounds the batch: one to the collector limit, any content (events are judged one by one)', () => {
    expect(ZAnalyticsBatch.safeParse({ events: [] }).success).toBe(false);
    expect(ZAnalyticsBatch.safeParse({ events: [{ event: 'nonsense' }] }).success).toBe(true);
    expect(ZAnalyticsBatch.safeParse({ events: Array.from({ length: ANALYTICS_LIMITS.maxBatch }, () => ({})) }).success).toBe(true);
    expect(ZAnalyticsBatch.safeParse({ events: Array.from({ length: ANALYTICS_LIMITS.maxBatch + 1 }, () => ({})) }).success).toBe(false);
  });

  it('sends batches no larger than the collector takes', () => {
    expect(ANALYTICS_LIMITS.batchSize).toBeLessThanOrEqual(ANALYTICS_LIMITS.maxBatch);
  });

  it('report rates stay within 0..1', () => {
    const report = {
      from: '2026-11-16',
      to: '2026-11-22',
      days: [{ day: '2026-11-22', visitors: 2, views: 5 }],
      totals: { visitors: 2, views: 5, events: 9 },
      topPages: [{ page: '/', views: 3, visitors: 2 }],
      logins: [{ method: 'sms', attempts: 2, successes: 1, rate: 0.5 }],
      tasks: [{ tool: 'cad2pdf', tasks: 1, successes: 1, rate: 1, medianMs: 5230 }],
      funnel: { steps: [{ step: 'view', devices: 2 }], orders: 1, revenue: 88 },
    };
    expect(ZAnalyticsReport.safeParse(report).success).toBe(true);
    expect(ZAnalyticsReport.safeParse({ ...report, logins: [{ ...report.logins[0], rate: 1.5 }] }).success).toBe(false);
  });
});
