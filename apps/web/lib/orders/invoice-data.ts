import type { TInvoice, TOrderDetails } from '@xcad/protocol';

// What the invoice page reads: every paid order (to offer those without an invoice) and the
// user's invoices. The calls are passed in, so the paging is tested without a server.

/** The largest page payorderlist serves (its schema's `pagesize` maximum). */
export const PAID_ORDERS_PAGE_SIZE = 50;

/** Enough for any real customer; a runaway total cannot keep the page asking forever. */
export const PAID_ORDERS_MAX_PAGES = 10;

export type OrderPageFetcher = (
  page: number,
  pagesize: number,
) => Promise<{ readonly orders: readonly TOrderDetails[]; readonly total: number }>;

/** The paid orders of every page, asked one page after another until the total is reached. */
export async function fetchAllPaidOrders(fetchPage: OrderPageFetcher): Promise<TOrderDetails[]> {
  const orders: TOrderDetails[] = [];
  for (let page = 1; page <= PAID_ORDERS_MAX_PAGES; page += 1) {
    const answer = await fetchPage(page, PAID_ORDERS_PAGE_SIZE);
    orders.push(...answer.orders);
    if (answer.orders.length < PAID_ORDERS_PAGE_SIZE || orders.length >= answer.total) break;
  }
  return orders;
}

/** The invoice list, newest application first. */
export function sortedInvoices(invoices: readonly TInvoice[]): TInvoice[] {
  return [...invoices].sort((a, b) => b.createtime - a.createtime);
}

/** The list after an application: the new invoice on top, replacing any older copy of it. */
export function withInvoice(invoices: readonly TInvoice[], invoice: TInvoice): TInvoice[] {
  return sortedInvoices([invoice, ...invoices.filter((existing) => existing.orderno !== invoice.orderno)]);
}
