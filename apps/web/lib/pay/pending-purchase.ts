import { WECHAT_OPENID_PATH, type TPayType } from '@xcad/protocol';
import type { CashierPurchase } from './cashier';

// Decision 0043: inside WeChat's browser, JSAPI needs the buyer's openid, which only a round trip
// through WeChat's OAuth gives. Before leaving, the cashier keeps what was being bought in
// sessionStorage (this tab only); the buy page it comes back to opens the cashier again with it.

const KEY = 'xc-pending-purchase';

export interface PendingPurchase {
  readonly purchase: CashierPurchase;
  readonly paytype: TPayType;
}

/** The OAuth round trip's start, returning to this very page. */
export function wechatAuthHref(back: string): string {
  return `${WECHAT_OPENID_PATH}?back=${encodeURIComponent(back)}`;
}

export function goToWechatAuth(pending: PendingPurchase): void {
  const back = `${window.location.pathname}${window.location.search}`;
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify({ ...pending, back }));
  } catch {
    // Storage refused (private mode): the buyer taps 立即购买 once more after coming back.
  }
  window.location.assign(wechatAuthHref(back));
}

function isPurchase(value: unknown): value is CashierPurchase {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate['title'] !== 'string' || typeof candidate['price'] !== 'number') return false;
  if (candidate['kind'] === 'package') return typeof candidate['productid'] === 'number' && typeof candidate['packageid'] === 'number';
  return candidate['kind'] === 'bundle' && Array.isArray(candidate['packageids']);
}

/** The purchase kept for this page, once, if `accepts` takes it (a page may sell several products). */
export function takePendingPurchase(path: string, accepts: (purchase: CashierPurchase) => boolean): PendingPurchase | null {
  try {
    const text = window.sessionStorage.getItem(KEY);
    if (text === null) return null;
    const value = JSON.parse(text) as { purchase?: unknown; paytype?: unknown; back?: unknown };
    const back = typeof value.back === 'string' ? value.back.split('?')[0] : undefined;
    if (back !== path || !isPurchase(value.purchase) || (value.paytype !== 'wxpay' && value.paytype !== 'alipay')) return null;
    if (!accepts(value.purchase)) return null;
    window.sessionStorage.removeItem(KEY);
    return { purchase: value.purchase, paytype: value.paytype };
  } catch {
    return null;
  }
}
