import { toCleanLine } from '@xcad/protocol/input-rules';
import { ANALYTICS_LIMITS } from '@xcad/protocol/analytics-limits';
import type { TAnalyticsEvent, TAnalyticsEventRecord } from '@xcad/protocol/analytics';

// What the tracker needs of the catalogue (packages/protocol/src/site/analytics.ts) as plain
// numbers: the batch and storage limits (from the catalogue's zod-free limits module), and the
// longest text the collector accepts in each field (longer values are cut instead of losing the
// whole event: a 300-character file name still counts). The text limits are a copy, because the
// tracker runs on every page and the catalogue module builds its zod schemas when loaded, which
// decision 0015 keeps out of the code every page loads; fields.test.ts holds them to the catalogue.

/** The catalogue's limits, from its zod-free module. */
export const TRACKER_LIMITS = ANALYTICS_LIMITS;

const COMMON = { software_name: 64, channel: 64, uid: 64, device_id: 64, page: 512, locale: 16, referrer: 512 } as const;

export const TEXT_LIMITS: Readonly<Record<TAnalyticsEvent, Readonly<Record<string, number>>>> = {
  click: { ...COMMON, title: 128, module: 64, tab_name: 64, click_type: 32, name: 128, action_name: 64, ab_tag: 64 },
  task: { ...COMMON, title: 128, action_name: 64, name: 64, extension: 16, reason: 256 },
  file: { ...COMMON, extension: 16, reason: 256, title: 128, name: 128, action_name: 64 },
  view: { ...COMMON, title: 256, name: 128, action_name: 64 },
  checkout: { ...COMMON, action_name: 64, title: 128, name: 128, sub_item: 128 },
  add_payment_info: { ...COMMON, sku: 64, transaction_id: 64, coupon: 64, item_id: 64, item_name: 128 },
  purchase: { ...COMMON, sku: 64, transaction_id: 64, coupon: 64, item_id: 64, item_name: 128 },
  login: { ...COMMON, login_id: 64, reason: 256 },
  activation: COMMON,
  startup: COMMON,
};

/** Cuts a text to `max` UTF-16 units (the unit zod counts) without leaving half a surrogate pair. */
export function clipText(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/**
 * The event with every text field within its limit and free of what the collector refuses
 * (control characters, half surrogate pairs: a page title may hold them); fields left undefined
 * are dropped.
 */
export function clipEvent<E extends TAnalyticsEventRecord>(event: E): E {
  const limits = TEXT_LIMITS[event.event];
  const clipped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    if (value === undefined) continue;
    const max = limits[key];
    clipped[key] = typeof value === 'string' && max !== undefined ? clipText(toCleanLine(value), max) : value;
  }
  return clipped as E;
}
