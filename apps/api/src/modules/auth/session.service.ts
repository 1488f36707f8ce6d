import type { Executor } from '@xcad/db';
import { ApiError, AUTH_ERRORS, AUTH_LIMITS, LOGIN_ERRORS, type TLoginType, type TUserInfo } from '@xcad/protocol';
import type { SignInContext } from './auth.contract';
import { fileTokenOf, newSessionToken, sha256Hex } from './credentials';
import { normalizePhone } from './phone';
import { findSessionByTokenHash, insertSession } from './session.repository';
import { findUserById, membershipsOf, type UserRecord } from './user.repository';

// Sessions (decision 0010): random tokens stored only as SHA-256, expiring after sessionTtlSeconds,
// revoked on logout and password change; and spec §3 userinfo built from a user and a session.

export interface SessionTokens {
  usertoken: string;
  /** The file-service token (userinfo.token). */
  token: string;
}

function tokensOf(usertoken: string): SessionTokens {
  return { usertoken, token: fileTokenOf(usertoken) };
}

export async function openSession(db: Executor, userId: number, context: SignInContext, now: number): Promise<SessionTokens> {
  const tokens = tokensOf(newSessionToken());
  await insertSession(db, {
    userId,
    tokenHash: sha256Hex(tokens.usertoken),
    fileTokenHash: sha256Hex(tokens.token),
    deviceId: context.deviceId,
    ip: context.ip,
    createdAt: now,
    expiresAt: now + AUTH_LIMITS.sessionTtlSeconds,
  });
  return tokens;
}

/** spec §3: '0' without a WeChat/QQ identity, '1' with one and no mobile, '2' with both. */
export function loginTypeOf(user: Pick<UserRecord, 'hasWechat' | 'hasQq' | 'mobile'>): TLoginType {
  if (!user.hasWechat && !user.hasQq) return '0';
  return user.mobile === null ? '1' : '2';
}

/** spec §3 userinfo; with `showvip`, the memberships (`vip[]`) and the server time (`nowtime`). */
export async function userInfoOf(db: Executor, user: UserRecord, tokens: SessionTokens, showvip: boolean, now: number): Promise<TUserInfo> {
  const info: TUserInfo = {
    uid: String(user.id),
    username: user.username,
    nickname: user.nickname,
    head_portrait: user.head_portrait,
    usertoken: tokens.usertoken,
    token: tokens.token,
    bindmobile: user.mobile ?? '',
    logintype: loginTypeOf(user),
    ispwd: user.password_hash === null ? 0 : 1,
  };
  if (!showvip) return info;
  return { ...info, vip: await membershipsOf(db, user.id), nowtime: now };
}

/** Opens a session for a user already loaded and answers its userinfo. */
export async function signInUser(
  db: Executor,
  user: UserRecord,
  context: SignInContext,
  showvip: boolean,
  now: number,
): Promise<TUserInfo> {
  const tokens = await openSession(db, user.id, context, now);
  return userInfoOf(db, user, tokens, showvip, now);
}

/** What a signed-in call presents: its usertoken (body, else cookie) and optionally its account. */
export interface Credentials {
  usertoken?: string | undefined;
  account?: string | undefined;
}

export interface SignedIn {
  user: UserRecord;
  tokens: SessionTokens;
}

function notSignedIn(reason: string): ApiError {
  return ApiError.business(AUTH_ERRORS.notSignedIn, reason);
}

/**
 * The user behind a usertoken: one lookup of the session by its token hash (unique index) and one
 * of the user by id. Refuses with 10060 when the token is unknown, revoked or expired, or the
 * given account is neither the user's username nor mobile; a disabled account answers 10063.
 */
export async function resolveSignedIn(db: Executor, credentials: Credentials, now: number): Promise<SignedIn> {
  const { usertoken, account } = credentials;
  if (usertoken === undefined || usertoken === '') throw notSignedIn('no usertoken');
  const session = await findSessionByTokenHash(db, sha256Hex(usertoken));
  if (session === undefined) throw notSignedIn('unknown usertoken');
  if (session.revoked_at !== null) throw notSignedIn('revoked session');
  if (session.expires_at <= now) throw notSignedIn('expired session');
  const user = await findUserById(db, session.user_id);
  if (user === undefined) throw notSignedIn('session of a deleted user');
  if (account !== undefined && account !== '') {
    const named = normalizePhone(account);
    if (named !== user.username && named !== user.mobile) throw notSignedIn('account does not match the session');
  }
  if (user.status === 'disabled') throw ApiError.business(LOGIN_ERRORS.accountAbnormal, 'disabled account');
  return { user, tokens: tokensOf(usertoken) };
}

/** The signed-in user's id, or null for no, a dead or a disabled session (calls anyone may make). */
export async function signedInUserIdOrNull(db: Executor, credentials: Credentials, now: number): Promise<number | null> {
  if (credentials.usertoken === undefined || credentials.usertoken === '') return null;
  try {
    return (await resolveSignedIn(db, credentials, now)).user.id;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
