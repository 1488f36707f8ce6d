import { randomInt } from 'node:crypto';
import { PAY_LIMITS } from '@xcad/protocol';

// The arithmetic of orders and memberships (decision 0018), pure so every rule is tested on its own:
// order numbers, how a payment extends a membership, and what an order is called.

const BEIJING_OFFSET_SECONDS = 8 * 3_600;

/** XC + the Beijing date and time (yyyyMMddHHmmss) + 8 random digits: 24 characters. */
export function newOrderNo(nowSeconds: number, random: () => number = () => randomInt(0, 100_000_000)): string {
  const stamp = new Date((nowSeconds + BEIJING_OFFSET_SECONDS) * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
  return `XC${stamp}${String(random()).padStart(8, '0')}`;
}

/** `seconds` plus whole calendar months in Beijing time; the 31st becomes the month's last day. */
export function addMonths(seconds: number, months: number): number {
  const local = new Date((seconds + BEIJING_OFFSET_SECONDS) * 1000);
  const day = local.getUTCDate();
  const target = new Date(local.getTime());
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000) - BEIJING_OFFSET_SECONDS;
}

/**
 * The expiry after paying for `months` (null: lifetime). An active membership is extended from its
 * current expiry, a lapsed or absent one from now; lifetime runs PAY_LIMITS.lifetimeYears from now
 * (far past spec §4's 315,360,000 s), and never shortens an expiry already further away.
 */
export function extendedExpiry(current: number | undefined, nowSeconds: number, months: number | null): number {
  const base = current !== undefined && current > nowSeconds ? current : nowSeconds;
  if (months === null) return Math.max(base, addMonths(nowSeconds, PAY_LIMITS.lifetimeYears * 12));
  return addMonths(base, months);
}

/** What an order buys in one line: 迅捷CAD编辑器 12个月会员, or a bundle's name, or the items joined. */
export function orderSubject(items: ReadonlyArray<{ productName: string; name: string }>, bundleName: string | null): string {
  if (bundleName !== null) return bundleName;
  return items.map((item) => `${item.productName} ${item.name}`).join('、');
}

/** WeChat Pay's description is at most 127 bytes of UTF-8: cut on a character boundary. */
export function cutUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let out = '';
  for (const character of text) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > maxBytes) break;
    out += character;
  }
  return out;
}

/**
 * Decision 0043: the expiry once an order is refunded in full. What the order granted is taken
 * back: `months` calendar months off the current expiry; a lifetime membership falls back to the
 * moment the order was paid. An expiry that would lie in the past becomes now (the membership ends).
 */
export function takenBackExpiry(current: number, nowSeconds: number, months: number | null, paidAt: number): number {
  const back = months === null ? Math.min(current, paidAt) : addMonths(current, -months);
  return Math.max(back, nowSeconds);
}
