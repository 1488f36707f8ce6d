import type { TOrderDetails, TOrderState } from '@xcad/protocol';

// What the purchase records and the invoice page show of an order: pure, so it is tested here and
// the components only lay it out.

/** Orders per page of the purchase records. */
export const ORDERS_PAGE_SIZE = 10;

/** China keeps one offset all year (no summer time): Beijing time is UTC+8. */
const BEIJING_OFFSET_SECONDS = 8 * 60 * 60;

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * Epoch seconds as Beijing wall-clock time, `2025-03-08 14:05` (with `:ss` when asked): the same
 * text on the server and in any browser, whatever their time zones.
 */
export function formatBeijingTime(seconds: number, options: { withSeconds?: boolean } = {}): string {
  const shifted = new Date((seconds + BEIJING_OFFSET_SECONDS) * 1000);
  const date = `${shifted.getUTCFullYear()}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}`;
  const time = `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}`;
  return options.withSeconds ? `${date} ${time}:${pad(shifted.getUTCSeconds())}` : `${date} ${time}`;
}

/** Epoch seconds as the Beijing date alone, `2025-03-08`. */
export function formatBeijingDate(seconds: number): string {
  return formatBeijingTime(seconds).slice(0, 10);
}

/**
 * The state a person should see: an unpaid order whose pay window has passed can no longer be
 * paid, so it reads as closed even before the server has swept it.
 */
export function displayedStateOf(order: Pick<TOrderDetails, 'state' | 'expiretime'>, now: number): TOrderState {
  if (order.state === 'unpaid' && order.expiretime <= now) return 'closed';
  return order.state;
}

/** What the invoice column offers: nothing before payment, else apply, or where the application is. */
export type InvoiceAction = 'none' | 'apply' | 'submitted' | 'issued';

export function invoiceActionOf(order: Pick<TOrderDetails, 'state' | 'invoice' | 'amount' | 'refund'>): InvoiceAction {
  if (order.state !== 'paid') return 'none';
  // Decision 0043: nothing to invoice once the whole amount went back.
  if (order.invoice === 'none' && order.refund > 0 && order.refund >= order.amount) return 'none';
  return order.invoice === 'none' ? 'apply' : order.invoice;
}

/** One invoice per paid order: the orders an application may still name. */
function isInvoiceable(order: Pick<TOrderDetails, 'state' | 'invoice' | 'amount' | 'refund'>): boolean {
  return invoiceActionOf(order) === 'apply';
}

/** The orders to choose from on the invoice page, newest payment first. */
export function invoiceableOrders<T extends Pick<TOrderDetails, 'state' | 'invoice' | 'paidtime' | 'createtime' | 'amount' | 'refund'>>(
  orders: readonly T[],
): T[] {
  return orders.filter(isInvoiceable).sort((a, b) => (b.paidtime ?? b.createtime) - (a.paidtime ?? a.createtime));
}

/** The invoice page's link for one order. */
export function invoiceHrefOf(orderno: string): string {
  return `/invoice.html?orderno=${encodeURIComponent(orderno)}`;
}

/**
 * The order the invoice form starts on: the one the link named when it can still be invoiced,
 * else the newest. `isRequestedUnavailable` says the named one cannot (unpaid, applied, not theirs).
 */
export function preselectedOrderNo(
  choices: readonly Pick<TOrderDetails, 'orderno'>[],
  requested: string | null,
): { orderno: string; isRequestedUnavailable: boolean } {
  const wanted = requested?.trim() ?? '';
  if (wanted !== '' && choices.some((order) => order.orderno === wanted)) return { orderno: wanted, isRequestedUnavailable: false };
  return { orderno: choices[0]?.orderno ?? '', isRequestedUnavailable: wanted !== '' };
}

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A page button, or a gap standing for the pages between. */
export type PageItem = number | 'gap';

/**
 * The page buttons of a pager: always the first and last page, the current one with a neighbour
 * either side, and a gap wherever pages are left out (a gap never stands for a single page: that
 * page is shown instead, since it takes the same room).
 */
export function pageItemsOf(current: number, count: number): PageItem[] {
  const shown = new Set([1, count, current - 1, current, current + 1].filter((page) => page >= 1 && page <= count));
  const pages = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  let previous = 0;
  for (const page of pages) {
    if (page - previous === 2) items.push(previous + 1);
    else if (page - previous > 2) items.push('gap');
    items.push(page);
    previous = page;
  }
  return items;
}
