import { MEMBERSHIP, MEMBERSHIP_LEVELS, PRODUCTS, type MembershipLevel, type ProductId, type ProductKey } from './constants';

// spec §4, §6: membership per product. Times are epoch seconds throughout, as the vendor's
// memrole answers them (userinfo.nowtime, userinfo.vip[].auth_value).

/** Expiry per product id; a missing entry or `undefined` means the product was never bought. */
export type ExpiriesByProduct = Partial<Record<ProductId, number | undefined>>;

export type ProductMembershipStatus = 'member' | 'lapsed' | 'none';

export interface ProductMembership {
  readonly status: ProductMembershipStatus;
  readonly isLifelong: boolean;
  /** Expiry in epoch seconds, `null` when the product was never bought. */
  readonly expireTime: number | null;
}

/** spec §4: more than 315,360,000 s (about 10 years) remaining counts as lifelong. */
export function isLifelong(expiry: number, now: number): boolean {
  return expiry - now > MEMBERSHIP.lifelongThresholdSeconds;
}

// The vendor answers 0 (or nothing) for a product never bought: no expiry, not a lapse.
function hasExpiry(expiry: number | undefined): expiry is number {
  return expiry !== undefined && Number.isFinite(expiry) && expiry > 0;
}

/** spec §4: expiry in the future is a member; past is a lapsed member; absent is not a member. */
export function productMembership(expiry: number | undefined, now: number): ProductMembership {
  if (!hasExpiry(expiry)) return { status: 'none', isLifelong: false, expireTime: null };
  if (expiry > now) return { status: 'member', isLifelong: isLifelong(expiry, now), expireTime: expiry };
  return { status: 'lapsed', isLifelong: false, expireTime: expiry };
}

/**
 * spec §4: any product with a future expiry makes a 高级会员; otherwise any lapsed expiry makes
 * 会员已过期; otherwise (nothing ever bought) 普通用户.
 */
export function membershipLevelOf(expiriesByProduct: ExpiriesByProduct, now: number): MembershipLevel {
  const statuses = Object.values(expiriesByProduct).map((expiry) => productMembership(expiry, now).status);
  if (statuses.includes('member')) return MEMBERSHIP_LEVELS.premium;
  if (statuses.includes('lapsed')) return MEMBERSHIP_LEVELS.expired;
  return MEMBERSHIP_LEVELS.ordinary;
}

/** spec §4: the membership text: cleared for 普通用户, else the level. */
export function vipMsgOf(level: MembershipLevel): string {
  return level === MEMBERSHIP_LEVELS.ordinary ? '' : level;
}

/**
 * spec §4: "clock skew under 60 s is ignored". Our reading: when the client's clock is within
 * 60 s of the server's, the client clock is used as is (it keeps ticking between calls); at 60 s
 * or more apart the client clock is wrong and the server's time is used.
 */
export function effectiveNow(serverNow: number, clientNow: number): number {
  return Math.abs(serverNow - clientNow) < MEMBERSHIP.clockSkewToleranceSeconds ? clientNow : serverNow;
}

/** The expiry a memrole answer grants: the latest `auth_value` of its vip entries, if any. */
export function expiryOfVipEntries(entries: readonly { readonly auth_value: number | string }[]): number | undefined {
  const expiries = entries.map((entry) => Number(entry.auth_value)).filter(hasExpiry);
  return expiries.length === 0 ? undefined : Math.max(...expiries);
}

export interface ProductMembershipState {
  readonly isLifelong: boolean;
  readonly expireTime: number | null;
}

/** spec §3: the membership state the web keeps locally. */
export type LocalMembershipState = {
  readonly uuid: string;
  readonly version: string;
  readonly vipMsg: string;
  /** The latest expiry deciding the level (epoch seconds), `null` for 普通用户. */
  readonly vipExpiretime: number | null;
  readonly ActivityName: MembershipLevel;
} & { readonly [K in ProductKey]: ProductMembershipState };

export interface LocalMembershipInput {
  /** The device id (spec §3, kept under `_g_uuid`). */
  readonly uuid: string;
  readonly version: string;
  readonly expiries: ExpiriesByProduct;
  /** `userinfo.nowtime` of the memrole answer. */
  readonly serverNow: number;
  /** The client's clock, epoch seconds. */
  readonly clientNow: number;
}

export function buildLocalMembershipState(input: LocalMembershipInput): LocalMembershipState {
  const now = effectiveNow(input.serverNow, input.clientNow);
  const memberships = PRODUCTS.map((product) => ({
    key: product.key,
    membership: productMembership(input.expiries[product.id], now),
  }));
  const level = membershipLevelOf(input.expiries, now);
  const deciding = level === MEMBERSHIP_LEVELS.premium ? 'member' : 'lapsed';
  const decidingExpiries = memberships
    .filter(({ membership }) => membership.status === deciding)
    .map(({ membership }) => membership.expireTime ?? 0);
  const perProduct = Object.fromEntries(
    memberships.map(({ key, membership }) => [key, { isLifelong: membership.isLifelong, expireTime: membership.expireTime }]),
  ) as Record<ProductKey, ProductMembershipState>;
  return {
    uuid: input.uuid,
    version: input.version,
    vipMsg: vipMsgOf(level),
    vipExpiretime: level === MEMBERSHIP_LEVELS.ordinary ? null : Math.max(...decidingExpiries),
    ActivityName: level,
    ...perProduct,
  };
}
