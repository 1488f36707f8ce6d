import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, IdentityProvider, LoginSession, LoginSessionState } from '@xcad/db';
import { ApiError, AUTH_ERRORS, AUTH_LIMITS, LOGIN_ERRORS, type TUserInfo } from '@xcad/protocol';
import type { Accounts, IdentityProfile, SignInContext } from '../auth/auth.contract';
import type { QqProvider, WechatProvider } from './oauth.provider';
import {
  deleteLoginSessionsExpiredBefore,
  findLoginSession,
  findLoginSessionByOauthState,
  insertLoginSession,
  moveLoginSession,
} from './oauth.repository';

// WeChat QR and QQ popup sign-in (docs/decisions/0010): `wechatguid` opens a login session keyed
// by its logintag; the provider's confirmation (WeChat's callback, QQ's popup callback, or the dev
// pages) moves it to 'confirmed' with the user; the first `wechatstate` poll after that consumes
// it and opens the account session, so a login is handed out exactly once.

export interface OAuthContext {
  db: Kysely<Database>;
  /** Server time, epoch milliseconds. */
  clock: () => number;
  publicOrigin: string;
  accounts: Accounts;
  wechat: WechatProvider;
  qq: QqProvider;
}

/** States in which the provider may still confirm the login. */
const AWAITING: readonly LoginSessionState[] = ['pending', 'scanned'];

function nowSeconds(context: OAuthContext): number {
  return Math.floor(context.clock() / 1000);
}

function isAwaiting(session: LoginSession, now: number): boolean {
  return AWAITING.includes(session.state) && session.expires_at > now;
}

/** Compares secrets in time independent of where they differ (and of their lengths). */
function isSameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const QQ_START_PATH = '/api/oauth/qq/start';

export interface StartedLogin {
  logintag: string;
  qrurl: string;
  qrtype: 'link' | 'iframe' | 'popup';
  expiresin: number;
}

/** `wechatguid`: a new login session and what the modal shows for it. */
export async function startLogin(context: OAuthContext, request: { provider: IdentityProvider; deviceId: string }): Promise<StartedLogin> {
  const now = nowSeconds(context);
  const logintag = randomBytes(16).toString('hex');
  const oauthState = randomBytes(16).toString('base64url');
  const expiresin = AUTH_LIMITS.loginSessionTtlSeconds;
  // Sessions are worthless once expired; dropping them here keeps the table (and the callbacks'
  // lookups by oauth_state) small without a separate job.
  await deleteLoginSessionsExpiredBefore(context.db, now);
  await insertLoginSession(context.db, {
    logintag,
    provider: request.provider,
    oauthState,
    deviceId: request.deviceId,
    createdAt: now,
    expiresAt: now + expiresin,
  });
  if (request.provider === 'qq') {
    const qrurl = new URL(QQ_START_PATH, context.publicOrigin);
    qrurl.searchParams.set('logintag', logintag);
    return { logintag, qrurl: qrurl.toString(), qrtype: 'popup', expiresin };
  }
  return { logintag, qrurl: context.wechat.authorizeUrl({ logintag, state: oauthState }), qrtype: context.wechat.qrtype, expiresin };
}

export interface PollRequest {
  logintag: string;
  showvip: boolean;
  context: SignInContext;
}

/**
 * `wechatstate`: refuses with the state's code until the login is confirmed, then consumes it and
 * signs the user in. Only the device that asked for the logintag may collect the login: the tag
 * itself travels through the QR code and the provider's redirect.
 */
export async function pollLogin(context: OAuthContext, request: PollRequest): Promise<TUserInfo> {
  const now = nowSeconds(context);
  const session = await findLoginSession(context.db, request.logintag);
  if (session === undefined || session.expires_at <= now || session.device_id !== request.context.deviceId) {
    throw ApiError.business(AUTH_ERRORS.qrExpired, 'unknown, expired or foreign logintag');
  }
  switch (session.state) {
    case 'pending':
      throw ApiError.business(AUTH_ERRORS.qrPending);
    case 'scanned':
      throw ApiError.business(AUTH_ERRORS.qrScanned);
    case 'consumed':
      throw ApiError.business(AUTH_ERRORS.qrExpired, 'logintag already consumed');
    case 'illegal':
      throw ApiError.business(LOGIN_ERRORS.accountAbnormal, `user ${String(session.user_id)} is disabled`);
    case 'confirmed':
      break;
  }
  const userId = session.user_id;
  const isWinner = await moveLoginSession(context.db, { logintag: session.logintag, from: ['confirmed'], to: 'consumed', now });
  if (userId === null || !isWinner) throw ApiError.business(AUTH_ERRORS.qrExpired, 'another poll consumed the logintag');
  if (await context.accounts.isDisabled(userId)) {
    throw ApiError.business(LOGIN_ERRORS.accountAbnormal, `user ${userId} is disabled`);
  }
  return context.accounts.signIn(userId, request.context, request.showvip);
}

type ConfirmOutcome = 'confirmed' | 'illegal' | 'expired';

/** Attaches the provider's user to an awaiting session; disabled users leave it 'illegal'. */
async function confirmIdentity(context: OAuthContext, logintag: string, profile: IdentityProfile): Promise<ConfirmOutcome> {
  const userId = await context.accounts.userOfIdentity(profile);
  const isDisabled = await context.accounts.isDisabled(userId);
  const to = isDisabled ? 'illegal' : 'confirmed';
  const isMoved = await moveLoginSession(context.db, { logintag, from: AWAITING, to, userId, now: nowSeconds(context) });
  return isMoved ? to : 'expired';
}

/** The refusal of a confirmation that did not end in 'confirmed'. */
function throwUnlessConfirmed(outcome: ConfirmOutcome, userOfLog: string): void {
  if (outcome === 'expired') throw ApiError.business(AUTH_ERRORS.qrExpired, 'logintag expired or moved during confirmation');
  if (outcome === 'illegal') throw ApiError.business(LOGIN_ERRORS.accountAbnormal, `${userOfLog} is disabled`);
}

/** An awaiting session of `provider`, or the 19007 refusal. */
async function awaitingSession(context: OAuthContext, logintag: string, provider: IdentityProvider): Promise<LoginSession> {
  const session = await findLoginSession(context.db, logintag);
  if (session === undefined || session.provider !== provider || !isAwaiting(session, nowSeconds(context))) {
    throw ApiError.business(AUTH_ERRORS.qrExpired, `no awaiting ${provider} session for the logintag`);
  }
  return session;
}

/** `wechatcallback`: WeChat's code and state from /weixin-login-callback (Open Platform flow). */
export async function completeWechatCallback(
  context: OAuthContext,
  request: { logintag: string; code: string; state: string },
): Promise<void> {
  const session = await awaitingSession(context, request.logintag, 'wechat');
  if (!isSameSecret(request.state, session.oauth_state)) {
    throw ApiError.business(AUTH_ERRORS.providerFailed, 'wechat callback state does not match the session');
  }
  const exchange = await context.wechat.exchangeCode(request.code);
  if (!exchange.ok) throw ApiError.business(AUTH_ERRORS.providerFailed, `wechat ${exchange.reason}: ${exchange.detail}`);
  throwUnlessConfirmed(await confirmIdentity(context, session.logintag, exchange.profile), `wechat ${exchange.profile.openid}`);
}

/** Dev WeChat: the phone opened /scanlogin/{logintag}; the desktop QR shows '扫码成功'. */
export async function markScanned(context: OAuthContext, logintag: string): Promise<void> {
  await awaitingSession(context, logintag, 'wechat');
  const isMoved = await moveLoginSession(context.db, { logintag, from: AWAITING, to: 'scanned', now: nowSeconds(context) });
  if (!isMoved) throw ApiError.business(AUTH_ERRORS.qrExpired, 'logintag expired or moved while scanning');
}

/** Dev WeChat: the phone confirmed the login as this test user. */
export async function confirmDevWechat(
  context: OAuthContext,
  request: { logintag: string; openid: string; nickname: string },
): Promise<void> {
  await awaitingSession(context, request.logintag, 'wechat');
  const profile: IdentityProfile = { provider: 'wechat', openid: request.openid, unionid: null, nickname: request.nickname, avatarUrl: '' };
  throwUnlessConfirmed(await confirmIdentity(context, request.logintag, profile), `wechat ${request.openid}`);
}

/** Where the QQ popup goes for an awaiting session; undefined when the logintag is unknown or expired. */
export async function qqAuthorizeUrlOf(context: OAuthContext, logintag: string): Promise<string | undefined> {
  const session = await findLoginSession(context.db, logintag);
  if (session === undefined || session.provider !== 'qq' || !isAwaiting(session, nowSeconds(context))) return undefined;
  return context.qq.authorizeUrl({ logintag, state: session.oauth_state });
}

export interface QqCallbackRequest {
  code?: string;
  state?: string;
  /** Set by the provider instead of `code` when the user declined. */
  error?: string;
}

export type QqCallbackOutcome =
  | { kind: 'signed-in'; logintag: string }
  | { kind: 'abnormal'; logintag: string }
  | { kind: 'cancelled' }
  /** `detail` is for the log. */
  | { kind: 'failed'; reason: 'bad-state' | 'provider'; detail: string };

/** The QQ popup came back: confirm its session with the provider's user. */
export async function completeQqCallback(context: OAuthContext, request: QqCallbackRequest): Promise<QqCallbackOutcome> {
  if (request.error !== undefined) return { kind: 'cancelled' };
  if (request.state === undefined || request.code === undefined) {
    return { kind: 'failed', reason: 'bad-state', detail: 'callback without code or state' };
  }
  const session = await findLoginSessionByOauthState(context.db, 'qq', request.state);
  if (session === undefined || !isAwaiting(session, nowSeconds(context))) {
    return { kind: 'failed', reason: 'bad-state', detail: 'no awaiting qq session for the state' };
  }
  const exchange = await context.qq.exchangeCode(request.code);
  if (!exchange.ok) return { kind: 'failed', reason: 'provider', detail: `qq ${exchange.reason}: ${exchange.detail}` };
  const outcome = await confirmIdentity(context, session.logintag, exchange.profile);
  if (outcome === 'expired') return { kind: 'failed', reason: 'bad-state', detail: 'qq session expired during confirmation' };
  return { kind: outcome === 'confirmed' ? 'signed-in' : 'abnormal', logintag: session.logintag };
}
