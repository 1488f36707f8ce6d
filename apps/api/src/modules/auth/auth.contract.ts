import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, IdentityProvider } from '@xcad/db';
import type { TUserInfo } from '@xcad/protocol';
import type { Env } from '../../env';
import type { LimitStore } from '../../limits';
import type { SmsProvider } from '../sms/sms.provider';
import type { CaptchaOutbox } from './captcha-outbox';

// What the sign-in modules share: the auth module (SMS, password, sessions, profile) implements
// `Accounts`; the oauth module (WeChat QR and QQ popup) completes its logins through it.

export interface AuthDeps {
  db: Kysely<Database>;
  env: Env;
  sms: SmsProvider;
  log: FastifyBaseLogger;
  /** Server time, epoch milliseconds. */
  clock: () => number;
  /** Where the sign-in and SMS limits and locks are counted (decision 0029). */
  limits: LimitStore;
  /** Only with the console SMS provider: where the answers of drawn captchas are kept for dev and tests. */
  captchaOutbox?: CaptchaOutbox;
}

/** Where a sign-in comes from; kept on the session and used by the rate limits. */
export interface SignInContext {
  deviceId: string;
  ip: string;
}

/** A WeChat or QQ user as the provider describes them. */
export interface IdentityProfile {
  provider: IdentityProvider;
  openid: string;
  unionid?: string | null;
  nickname: string;
  /** Avatar URL from the provider, '' when none. */
  avatarUrl: string;
}

export interface Accounts {
  /**
   * The user of a WeChat/QQ identity, created on first sight (username `wx_…`/`qq_…`, logintype
   * '1'); a unionid already linked to a user of the same provider finds that user.
   */
  userOfIdentity(profile: IdentityProfile): Promise<number>;
  /** True when the account is disabled (spec §8 10063 '账号异常，请联系客服'). */
  isDisabled(userId: number): Promise<boolean>;
  /** Opens a session and answers spec §3 userinfo (with `vip` and `nowtime` when `showvip`). */
  signIn(userId: number, context: SignInContext, showvip: boolean): Promise<TUserInfo>;
}
