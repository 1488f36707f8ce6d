import { effectiveNow, MEMBERSHIP_LEVELS, PRODUCTS, productMembership } from '@xcad/protocol';
import type { LocalMembershipState, MembershipLevel, ProductKey, TUserInfo } from '@xcad/protocol';
import { PRODUCT_BUY_PATHS } from '../navigation/menu';
import { expiriesOfVip } from './session-store';

// What the header and the personal centre show of an account: pure, so it is tested here and the
// components only lay it out.

/** Message keys of the three levels of spec §3/§6 (`普通用户`, `高级会员`, `会员已过期`). */
export type LevelKey = 'ordinary' | 'premium' | 'expired';

export function levelKeyOf(level: MembershipLevel): LevelKey {
  if (level === MEMBERSHIP_LEVELS.premium) return 'premium';
  if (level === MEMBERSHIP_LEVELS.expired) return 'expired';
  return 'ordinary';
}

/** The name the site shows: the nickname, else the username (spec §2 "User drop-down"). */
export function displayNameOf(user: Pick<TUserInfo, 'nickname' | 'username'>): string {
  return user.nickname.trim() || user.username;
}

/**
 * The character a name's avatar shows: its first letter (a Latin or CJK character), or null for
 * a name that starts otherwise, such as a masked phone number (137****0003), whose first digit
 * would say nothing about the person.
 */
export function avatarInitialOf(name: string): string | null {
  const first = Array.from(name.trim())[0];
  return first !== undefined && /\p{L}/u.test(first) ? first.toUpperCase() : null;
}

/**
 * A mobile number with its middle hidden, as the site shows it (138****8000). A country prefix
 * (`852-…`) stays readable; anything too short to hide part of is hidden whole.
 */
export function maskMobile(mobile: string): string {
  const hyphen = mobile.lastIndexOf('-');
  const prefix = hyphen >= 0 ? mobile.slice(0, hyphen + 1) : '';
  const number = mobile.slice(prefix.length);
  if (number.length < 8) return `${prefix}${'*'.repeat(number.length)}`;
  return `${prefix}${number.slice(0, 3)}****${number.slice(-4)}`;
}

export interface ProductMembershipRow {
  readonly key: ProductKey;
  readonly productId: number;
  readonly level: LevelKey;
  /** spec §4: more than 315,360,000 s left shows as lifelong ('永久'). */
  readonly isLifelong: boolean;
  /** Epoch seconds; null when the product was never bought. */
  readonly expireTime: number | null;
  /** Where its membership is bought. */
  readonly buyPath: string;
}

/**
 * spec §4, §6: the membership of each of the six products, from a profile answer's `vip[]`
 * judged at the server's `nowtime` (the client clock only when within the 60 s skew).
 */
export function productMembershipRows(user: Pick<TUserInfo, 'vip' | 'nowtime'>, clientNow: number): readonly ProductMembershipRow[] {
  const now = effectiveNow(user.nowtime ?? clientNow, clientNow);
  const expiries = expiriesOfVip(user.vip);
  return PRODUCTS.map((product) => {
    const membership = productMembership(expiries[product.id], now);
    const level: LevelKey = membership.status === 'member' ? 'premium' : membership.status === 'lapsed' ? 'expired' : 'ordinary';
    return {
      key: product.key,
      productId: product.id,
      level,
      isLifelong: membership.isLifelong,
      expireTime: membership.expireTime,
      buyPath: PRODUCT_BUY_PATHS[product.key],
    };
  });
}

/**
 * The same rows from the membership state kept in the browser (the header's drop-down): each
 * product's stored expiry judged at `now`, so a membership that ran out since shows as lapsed.
 */
export function localMembershipRows(state: LocalMembershipState, now: number): readonly ProductMembershipRow[] {
  return PRODUCTS.map((product) => {
    const { expireTime } = state[product.key];
    const membership = productMembership(expireTime ?? undefined, now);
    const level: LevelKey = membership.status === 'member' ? 'premium' : membership.status === 'lapsed' ? 'expired' : 'ordinary';
    return {
      key: product.key,
      productId: product.id,
      level,
      isLifelong: membership.isLifelong,
      expireTime: membership.expireTime,
      buyPath: PRODUCT_BUY_PATHS[product.key],
    };
  });
}

/** spec §4: the account's level from its products' (any premium, else any expired, else ordinary). */
export function overallLevelOf(rows: readonly Pick<ProductMembershipRow, 'level'>[]): LevelKey {
  if (rows.some((row) => row.level === 'premium')) return 'premium';
  if (rows.some((row) => row.level === 'expired')) return 'expired';
  return 'ordinary';
}

export type SignInMethod = 'phone' | 'wechat' | 'qq';

export interface LinkedMethodsInput {
  readonly logintype: TUserInfo['logintype'];
  readonly bindmobile: string;
  readonly bindwechat?: boolean;
  readonly bindqq?: boolean;
}

/**
 * How the account can sign in (spec §3 logintype): a phone/account user ('0') or one with a bound
 * mobile ('2') signs in by phone; WeChat and QQ as the profile links them.
 */
export function signInMethodsOf(user: LinkedMethodsInput): readonly SignInMethod[] {
  const methods: SignInMethod[] = [];
  if (user.logintype !== '1' || user.bindmobile !== '') methods.push('phone');
  if (user.bindwechat) methods.push('wechat');
  if (user.bindqq) methods.push('qq');
  return methods;
}

/** spec §3: only a WeChat/QQ user without a mobile (logintype '1') may bind one. */
export function canBindMobile(user: Pick<TUserInfo, 'logintype'>): boolean {
  return user.logintype === '1';
}
