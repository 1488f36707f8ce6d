import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

// Tables of accounts and sign-in (migration 2026-11-21T2200_accounts). Epochs are seconds.

export type UserStatus = 'active' | 'disabled';

export interface AppUserTable {
  id: Generated<number>;
  /** Unique login name: the mobile number for phone sign-ups, `wx_…`/`qq_…` for WeChat/QQ ones. */
  username: string;
  mobile: string | null;
  email: string | null;
  nickname: string;
  head_portrait: Generated<string>;
  /** Argon2id PHC string; null until the user sets a password (spec §4: ispwd 0). */
  password_hash: string | null;
  /** `disabled` accounts are refused with 10063 (spec §8: 账号异常). */
  status: Generated<UserStatus>;
  created_at: number;
  updated_at: number;
}

export type IdentityProvider = 'wechat' | 'qq';

export interface UserIdentityTable {
  id: Generated<number>;
  user_id: number;
  provider: IdentityProvider;
  openid: string;
  unionid: string | null;
  created_at: number;
}

export interface UserSessionTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 hex of `usertoken`; the token itself is never stored. */
  token_hash: string;
  /** SHA-256 hex of `token` (the file-service token, X-Auth-Token). */
  file_token_hash: string;
  device_id: Generated<string>;
  ip: Generated<string>;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** `operatorlogin`: the code of a back-office sign-in (decision 0042). */
export type SmsPurpose = 'quicklogin' | 'register' | 'forgetpwd' | 'bindmobile' | 'operatorlogin';

export interface SmsCodeTable {
  id: Generated<number>;
  phone: string;
  purpose: SmsPurpose;
  /** SHA-256 hex of phone, purpose and the 4 digits. */
  code_hash: string;
  attempts: Generated<number>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The one image captcha a device may answer; replaced by every new image, deleted when used. */
export interface CaptchaTable {
  device_id: string;
  code_hash: string;
  expires_at: number;
}

export type LoginSessionState = 'pending' | 'scanned' | 'confirmed' | 'consumed' | 'illegal';

/** A QR (WeChat) or popup (QQ) sign-in in progress, keyed by its `logintag`. */
export interface LoginSessionTable {
  logintag: string;
  provider: IdentityProvider;
  state: LoginSessionState;
  /** The OAuth `state` guard sent to the provider and checked on its callback. */
  oauth_state: string;
  user_id: number | null;
  device_id: Generated<string>;
  created_at: number;
  expires_at: number;
}

/** spec §3: a product membership; `auth_value` is its expiry in epoch seconds. */
export interface MembershipTable {
  user_id: number;
  product_id: number;
  auth_value: number;
  updated_at: number;
}

export type AppUser = Selectable<AppUserTable>;
export type NewAppUser = Insertable<AppUserTable>;
export type AppUserUpdate = Updateable<AppUserTable>;
export type UserIdentity = Selectable<UserIdentityTable>;
export type UserSession = Selectable<UserSessionTable>;
export type SmsCode = Selectable<SmsCodeTable>;
export type LoginSession = Selectable<LoginSessionTable>;
export type Membership = Selectable<MembershipTable>;
