import type { TOrderDetails } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import {
  displayedStateOf,
  formatBeijingDate,
  formatBeijingTime,
  invoiceActionOf,
  invoiceHrefOf,
  invoiceableOrders,
  pageCountOf,
  pageItemsOf,
  preselectedOrderNo,
} from './orders';

// 2025-03-08 06:05:09 UTC, 14:05:09 in Beijing.
const MARCH_8 = Date.UTC(2025, 2, 8, 6, 5, 9) / 1000;

function order(overrides: Partial<TOrderDetails>): TOrderDetails {
  return {
    orderno: 'XC2025030814050900000001',
    state: 'paid',
    amount: 68,
    paytype: 'wxpay',
    subject: '迅捷CAD编辑器 12个月会员',
    items: [],
    createtime: MARCH_8,
    expiretime: MARCH_8 + 1800,
    paidtime: MARCH_8 + 60,
    transactionid: '4200001',
    invoice: 'none',
    refund: 0,
    ...overrides,
  };
}

describe('Beijing times', () => {
  it('shows the Beijing wall clock whatever the machine’s time zone', () => {
    expect(formatBeijingTime(MARCH_8)).toBe('2025-03-08 14:05');
    expect(formatBeijingTime(MARCH_8, { withSeconds: true })).toBe('2025-03-08 14:05:09');
    expect(formatBeijingDate(MARCH_8)).toBe('2025-03-08');
  });

  it('moves to the next day and year at Beijing midnight, eight hours before UTC does', () => {
    const newYearsEveUtc = Date.UTC(2024, 11, 31, 16, 0, 0) / 1000;
    expect(formatBeijingTime(newYearsEveUtc)).toBe('2025-01-01 00:00');
    expect(formatBeijingTime(newYearsEveUtc - 1, { withSeconds: true })).toBe('2024-12-31 23:59:59');
  });
});

describe('order state as shown', () => {
  it('shows an unpaid order whose pay window has passed as closed', () => {
    const unpaid = order({ state: 'unpaid', paidtime: null, expiretime: MARCH_8 + 1800 });
    expect(displayedStateOf(unpaid, MARCH_8 + 1799)).toBe('unpaid');
    expect(displayedStateOf(unpaid, MARCH_8 + 1800)).toBe('closed');
  });

  it('keeps paid and closed orders as the server says, however old', () => {
    expect(displayedStateOf(order({ state: 'paid' }), MARCH_8 + 10 ** 8)).toBe('paid');
    expect(displayedStateOf(order({ state: 'closed' }), MARCH_8)).toBe('closed');
  });
});

describe('invoices of orders', () => {
  it('offers an application only on paid orders without one', () => {
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'none' }))).toBe('apply');
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'submitted' }))).toBe('submitted');
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'issued' }))).toBe('issued');
    // Decision 0043: refunded in full, nothing left to invoice; refunded in part, the invoice is still due.
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'none', refund: 68 }))).toBe('none');
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'none', refund: 10 }))).toBe('apply');
    expect(invoiceActionOf(order({ state: 'paid', invoice: 'issued', refund: 68 }))).toBe('issued');
    expect(invoiceActionOf(order({ state: 'unpaid', invoice: 'none', paidtime: null }))).toBe('none');
    expect(invoiceActionOf(order({ state: 'closed', invoice: 'none', paidtime: null }))).toBe('none');
  });

  it('lists the orders still to invoice, newest payment first', () => {
    const orders = [
      order({ orderno: 'A', paidtime: MARCH_8 + 10 }),
      order({ orderno: 'B', invoice: 'submitted' }),
      order({ orderno: 'C', paidtime: MARCH_8 + 500 }),
      order({ orderno: 'D', state: 'unpaid', paidtime: null }),
      order({ orderno: 'E', invoice: 'issued' }),
    ];
    expect(invoiceableOrders(orders).map((item) => item.orderno)).toEqual(['C', 'A']);
  });

  it('links to the invoice page with the order number', () => {
    expect(invoiceHrefOf('XC2025030814050900000001')).toBe('/invoice.html?orderno=XC2025030814050900000001');
  });

  it('starts the form on the order the link named, else on the newest', () => {
    const choices = [{ orderno: 'XC1' }, { orderno: 'XC2' }];
    expect(preselectedOrderNo(choices, 'XC2')).toEqual({ orderno: 'XC2', isRequestedUnavailable: false });
    expect(preselectedOrderNo(choices, null)).toEqual({ orderno: 'XC1', isRequestedUnavailable: false });
    expect(preselectedOrderNo(choices, 'XC9')).toEqual({ orderno: 'XC1', isRequestedUnavailable: true });
    expect(preselectedOrderNo([], 'XC9')).toEqual({ orderno: '', isRequestedUnavailable: true });
    expect(preselectedOrderNo([], '')).toEqual({ orderno: '', isRequestedUnavailable: false });
  });
});

describe('pager', () => {
  it('has one page even without orders', () => {
    expect(pageCountOf(0, 10)).toBe(1);
    expect(pageCountOf(10, 10)).toBe(1);
    expect(pageCountOf(11, 10)).toBe(2);
  });

  it('shows every page when there are few', () => {
    expect(pageItemsOf(1, 1)).toEqual([1]);
    expect(pageItemsOf(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps the first, last and current pages and puts gaps between', () => {
    expect(pageItemsOf(1, 20)).toEqual([1, 2, 'gap', 20]);
    expect(pageItemsOf(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20]);
    expect(pageItemsOf(20, 20)).toEqual([1, 'gap', 19, 20]);
  });

  it('shows a single left-out page instead of a gap', () => {
    expect(pageItemsOf(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageItemsOf(5, 9)).toEqual([1, 'gap', 4, 5, 6, 'gap', 9]);
  });
});
