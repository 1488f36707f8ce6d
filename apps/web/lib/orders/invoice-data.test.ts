import type { TInvoice, TOrderDetails } from '@xcad/protocol';
import { describe, expect, it } from 'vitest';
import { fetchAllPaidOrders, PAID_ORDERS_MAX_PAGES, PAID_ORDERS_PAGE_SIZE, sortedInvoices, withInvoice } from './invoice-data';

function orders(count: number, from = 0): TOrderDetails[] {
  return Array.from({ length: count }, (_, index) => ({
    orderno: `XC${String(from + index).padStart(22, '0')}`,
    state: 'paid',
    amount: 68,
    paytype: 'alipay',
    subject: '',
    items: [],
    createtime: 1_700_000_000,
    expiretime: 1_700_001_800,
    paidtime: 1_700_000_100,
    transactionid: null,
    invoice: 'none',
    refund: 0,
  }));
}

function invoice(orderno: string, createtime: number, state: TInvoice['state'] = 'submitted'): TInvoice {
  return {
    orderno,
    titletype: 'personal',
    title: '张三',
    taxno: '',
    email: 'a@example.cn',
    address: null,
    phone: null,
    bank: null,
    bankaccount: null,
    state,
    amount: 68,
    createtime,
    issuedtime: null,
  };
}

describe('paid orders for the invoice page', () => {
  it('asks one page when everything fits on it', async () => {
    const asked: number[] = [];
    const result = await fetchAllPaidOrders(async (page, pagesize) => {
      asked.push(page);
      expect(pagesize).toBe(PAID_ORDERS_PAGE_SIZE);
      return { orders: orders(3), total: 3 };
    });
    expect(asked).toEqual([1]);
    expect(result).toHaveLength(3);
  });

  it('pages on until the total is reached', async () => {
    const total = PAID_ORDERS_PAGE_SIZE * 2 + 5;
    const asked: number[] = [];
    const result = await fetchAllPaidOrders(async (page) => {
      asked.push(page);
      const from = (page - 1) * PAID_ORDERS_PAGE_SIZE;
      return { orders: orders(Math.min(PAID_ORDERS_PAGE_SIZE, total - from), from), total };
    });
    expect(asked).toEqual([1, 2, 3]);
    expect(new Set(result.map((order) => order.orderno)).size).toBe(total);
  });

  it('stops after its page limit even if the server claims more', async () => {
    let calls = 0;
    await fetchAllPaidOrders(async (page) => {
      calls += 1;
      return { orders: orders(PAID_ORDERS_PAGE_SIZE, page * 1000), total: 1_000_000 };
    });
    expect(calls).toBe(PAID_ORDERS_MAX_PAGES);
  });
});

describe('invoice list', () => {
  it('shows the newest application first', () => {
    expect(sortedInvoices([invoice('A', 10), invoice('B', 30), invoice('C', 20)]).map((item) => item.orderno)).toEqual(['B', 'C', 'A']);
  });

  it('puts a new application on top without listing its order twice', () => {
    const list = withInvoice([invoice('A', 10), invoice('B', 5)], invoice('B', 40, 'submitted'));
    expect(list.map((item) => [item.orderno, item.createtime])).toEqual([
      ['B', 40],
      ['A', 10],
    ]);
  });
});
