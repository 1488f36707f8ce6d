import 'server-only';
import { cookies } from 'next/headers';
import { endpoints, SESSION_COOKIE } from '@xcad/protocol';
import type { TPayOrderListResponse } from '@xcad/protocol';
import { serverApiClient } from '@/lib/api/server-client';
import { ORDERS_PAGE_SIZE } from './orders';

export type OrderPage = Pick<TPayOrderListResponse, 'orders' | 'total'>;

/**
 * The first page of the signed-in visitor's orders for the purchase records' first render,
 * authenticated by the session cookie. null when it cannot be read: the browser then asks itself.
 */
export async function loadFirstOrderPage(account: string): Promise<OrderPage | null> {
  const usertoken = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!usertoken) return null;
  try {
    const answer = await serverApiClient().call(endpoints.payorderlist, { account, usertoken, page: 1, pagesize: ORDERS_PAGE_SIZE });
    return { orders: answer.orders, total: answer.total };
  } catch (error) {
    console.error(`[web] payorderlist for the purchase records failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
