import type { TUserInfo, TVipEntry } from '@xcad/protocol';

// The signed-in user as this browser stored it (spec §3 "User (local)"), read back without a
// schema library: the reader runs on every page load before the page answers a tap, and zod's
// schemas would put their whole runtime on that path (decision 0015, Lighthouse). What it accepts is
// what `ZUserInfo` accepts; stored-user.test.ts holds the two to the same answers.

type Json = Readonly<Record<string, unknown>>;

const LOGIN_TYPES: readonly unknown[] = ['0', '1', '2'];
const TEXT_FIELDS = ['uid', 'username', 'nickname', 'head_portrait', 'usertoken', 'token', 'bindmobile'] as const;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A whole number, or its decimal text (as `vip[]` may carry it). */
function numeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

function readVip(value: unknown): TVipEntry[] | null {
  if (!Array.isArray(value)) return null;
  const entries: TVipEntry[] = [];
  for (const entry of value) {
    if (!isRecord(entry)) return null;
    const productid = numeric(entry.productid);
    const authValue = numeric(entry.auth_value);
    if (productid === null || authValue === null) return null;
    entries.push({ ...entry, productid, auth_value: authValue });
  }
  return entries;
}

/** The user of a parsed JSON value, or null when anything a user must have is missing or wrong. */
export function readStoredUser(value: unknown): TUserInfo | null {
  if (!isRecord(value)) return null;
  if (TEXT_FIELDS.some((field) => typeof value[field] !== 'string')) return null;
  if (!LOGIN_TYPES.includes(value.logintype)) return null;
  if (value.ispwd !== 0 && value.ispwd !== 1) return null;
  let vip: TVipEntry[] | undefined;
  if (value.vip !== undefined) {
    const entries = readVip(value.vip);
    if (entries === null) return null;
    vip = entries;
  }
  if (value.nowtime !== undefined && !Number.isSafeInteger(value.nowtime)) return null;
  const user = { ...value } as TUserInfo;
  if (vip) user.vip = vip;
  return user;
}

/** One product's stored membership state: `{isLifelong, expireTime}` (spec §3). */
export function readProductMembership(value: unknown): { isLifelong: boolean; expireTime: number | null } | null {
  if (!isRecord(value) || typeof value.isLifelong !== 'boolean') return null;
  const { expireTime } = value;
  if (expireTime !== null && (typeof expireTime !== 'number' || !Number.isFinite(expireTime))) return null;
  return { isLifelong: value.isLifelong, expireTime };
}
