import {
  ApiError,
  AUTH_ERRORS,
  LOGIN_ERRORS,
  REGISTER_ERRORS,
  SMS_SEND_ERRORS,
  type TMemProfileResponse,
  type TUserInfo,
} from '@xcad/protocol';
import { isUniqueViolation } from '@xcad/db';
import type { AuthDeps, SignInContext } from './auth.contract';
import { purgeCaptchas } from './captcha.repository';
import { hashPassword, isPasswordRight, sha256Hex } from './credentials';
import { assertNotLocked, checkPasswordGuarded, lockOf } from './lockout.service';
import { maskedPhone, normalizePhone } from './phone';
import { revokeSessionByTokenHash, revokeUserSessions } from './session.repository';
import { openSession, signInUser, userInfoOf, type SignedIn } from './session.service';
import { withSmsCode } from './sms-code.service';
import { purgeSmsCodes } from './sms-code.repository';
import { transact } from './transaction';
import {
  findUserByAccount,
  findUserById,
  findUserByMobile,
  insertUser,
  setFirstMobile,
  setFirstPasswordHash,
  setNickname,
  setPasswordHash,
  type UserRecord,
} from './user.repository';

// The sign-in and account actions of decision 0010, one function each; routes parse and answer,
// these hold the rules.

const DAY_SECONDS = 86_400;

function nowOf(deps: AuthDeps): number {
  return Math.floor(deps.clock() / 1000);
}

function refuseDisabled(user: UserRecord): void {
  if (user.status === 'disabled') throw ApiError.business(LOGIN_ERRORS.accountAbnormal, 'disabled account');
}

function phoneRegistered(): ApiError {
  return ApiError.business(SMS_SEND_ERRORS.phoneRegistered, 'phone already registered');
}

function notRegistered(): ApiError {
  return ApiError.business(SMS_SEND_ERRORS.accountNotRegistered, 'phone not registered');
}

export interface SmsLoginRequest {
  account: string;
  smscode: string;
  showvip?: boolean | undefined;
}

/**
 * spec §7 loginquick (`mayRegister`: an unknown phone becomes a user without a password, ispwd 0)
 * and safloginquick (registered phones only: 19002).
 */
export async function loginWithSmsCode(
  deps: AuthDeps,
  request: SmsLoginRequest,
  context: SignInContext,
  mayRegister: boolean,
): Promise<TUserInfo> {
  try {
    return await smsLoginOnce(deps, request, context, mayRegister);
  } catch (error) {
    // The phone was registered in parallel; the rolled-back attempt now finds that user.
    if (isUniqueViolation(error)) return smsLoginOnce(deps, request, context, mayRegister);
    throw error;
  }
}

async function smsLoginOnce(deps: AuthDeps, request: SmsLoginRequest, context: SignInContext, mayRegister: boolean): Promise<TUserInfo> {
  const phone = normalizePhone(request.account);
  const now = nowOf(deps);
  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  if (!mayRegister && (await findUserByMobile(deps.db, phone)) === undefined) throw notRegistered();
  return withSmsCode(
    deps,
    { phone, purpose: 'quicklogin', code: request.smscode, wrongCode: LOGIN_ERRORS.wrongSmsCode },
    now,
    async (trx) => {
      let user = await findUserByMobile(trx, phone);
      if (user === undefined) {
        if (!mayRegister) throw notRegistered();
        const userId = await insertUser(trx, { username: phone, mobile: phone, nickname: maskedPhone(phone), passwordHash: null, now });
        user = await findUserById(trx, userId);
        if (user === undefined) throw new Error(`user ${userId} vanished after insert`);
      }
      refuseDisabled(user);
      return signInUser(trx, user, context, request.showvip ?? false, now);
    },
  );
}

export interface PasswordLoginRequest {
  account: string;
  password: string;
  showvip?: boolean | undefined;
}

function wrongAccountOrPassword(reason: string): ApiError {
  return ApiError.business(LOGIN_ERRORS.wrongAccountOrPassword, reason);
}

/**
 * spec §7 login with a mobile, e-mail or username. Unknown accounts, users without a password and
 * wrong passwords all answer 12001 after the same Argon2 work, and all count toward the lock-out.
 */
export async function loginWithPassword(deps: AuthDeps, request: PasswordLoginRequest, context: SignInContext): Promise<TUserInfo> {
  const account = request.account.includes('@') ? request.account.toLowerCase() : normalizePhone(request.account);
  const now = nowOf(deps);
  const user = await findUserByAccount(deps.db, account);
  const isRight = await checkPasswordGuarded(deps.limits, {
    subject: user === undefined ? lockOf.unknownAccount(account) : lockOf.user(user.id),
    ip: context.ip,
    now,
    isRight: () => isPasswordRight(user?.password_hash ?? null, request.password),
  });
  if (user === undefined || !isRight) throw wrongAccountOrPassword(user === undefined ? 'unknown account' : 'wrong password');
  refuseDisabled(user);
  return signInUser(deps.db, user, context, request.showvip ?? false, now);
}

export interface CodeAndPasswordRequest {
  account: string;
  smscode: string;
  password: string;
}

/** spec §7 safregister: a new user with a password, for a phone proven by a 'register' code. */
export async function register(deps: AuthDeps, request: CodeAndPasswordRequest): Promise<void> {
  const phone = normalizePhone(request.account);
  const now = nowOf(deps);
  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  if ((await findUserByMobile(deps.db, phone)) !== undefined) throw phoneRegistered();
  const passwordHash = await hashPassword(request.password);
  try {
    await withSmsCode(
      deps,
      { phone, purpose: 'register', code: request.smscode, wrongCode: REGISTER_ERRORS.wrongSmsCode },
      now,
      async (trx) => {
        await insertUser(trx, { username: phone, mobile: phone, nickname: maskedPhone(phone), passwordHash, now });
      },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneRegistered();
    throw error;
  }
}

/** spec §7 safforgetpwd: a new password for a phone proven by a 'forgetpwd' code; every session ends. */
export async function resetPassword(deps: AuthDeps, request: CodeAndPasswordRequest): Promise<void> {
  const phone = normalizePhone(request.account);
  const now = nowOf(deps);
  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  const user = await findUserByMobile(deps.db, phone);
  if (user === undefined) throw notRegistered();
  const passwordHash = await hashPassword(request.password);
  await withSmsCode(
    deps,
    { phone, purpose: 'forgetpwd', code: request.smscode, wrongCode: LOGIN_ERRORS.wrongSmsCode },
    now,
    async (trx) => {
      await setPasswordHash(trx, user.id, passwordHash, now);
      await revokeUserSessions(trx, user.id, now);
    },
  );
}

/** spec §7 setpwd: the first password of a user who signed up by SMS (ispwd 0); else 12003. */
export async function setFirstPassword(deps: AuthDeps, { user }: SignedIn, password: string): Promise<void> {
  if (user.password_hash !== null) throw ApiError.business(AUTH_ERRORS.passwordAlreadySet, 'password already set');
  const isSet = await setFirstPasswordHash(deps.db, user.id, await hashPassword(password), nowOf(deps));
  if (!isSet) throw ApiError.business(AUTH_ERRORS.passwordAlreadySet, 'password set in parallel');
}

/**
 * spec §7 changepwd: a wrong old password answers 12002 and counts toward the account's lock-out.
 * Success ends every session of the user and opens a new one for this caller.
 */
export async function changePassword(
  deps: AuthDeps,
  { user }: SignedIn,
  request: { oldpassword: string; password: string },
  context: SignInContext,
): Promise<TUserInfo> {
  const now = nowOf(deps);
  const isRight = await checkPasswordGuarded(deps.limits, {
    subject: lockOf.user(user.id),
    ip: context.ip,
    now,
    isRight: () => isPasswordRight(user.password_hash, request.oldpassword),
  });
  if (!isRight) throw ApiError.business(AUTH_ERRORS.wrongOldPassword, 'wrong old password');
  const passwordHash = await hashPassword(request.password);
  return transact(deps.db, async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash, now);
    await revokeUserSessions(trx, user.id, now);
    const tokens = await openSession(trx, user.id, context, now);
    return userInfoOf(trx, { ...user, password_hash: passwordHash }, tokens, false, now);
  });
}

/** spec §7 changenick. */
export async function changeNickname(deps: AuthDeps, { user, tokens }: SignedIn, nickname: string): Promise<TUserInfo> {
  const now = nowOf(deps);
  await setNickname(deps.db, user.id, nickname, now);
  return userInfoOf(deps.db, { ...user, nickname }, tokens, false, now);
}

/**
 * spec §7 bindaccount: a WeChat/QQ user without a mobile (logintype '1', else 19008) binds a
 * mobile proven by a 'bindmobile' code; a mobile of another user answers 19003.
 */
export async function bindMobile(
  deps: AuthDeps,
  { user, tokens }: SignedIn,
  request: { mobile: string; smscode: string },
): Promise<TUserInfo> {
  const phone = normalizePhone(request.mobile);
  const now = nowOf(deps);
  const isSocialWithoutMobile = (user.hasWechat || user.hasQq) && user.mobile === null;
  if (!isSocialWithoutMobile) throw ApiError.business(AUTH_ERRORS.alreadyBound, 'not a WeChat/QQ account without a mobile');
  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  if ((await findUserByMobile(deps.db, phone)) !== undefined) throw phoneRegistered();
  try {
    await withSmsCode(
      deps,
      { phone, purpose: 'bindmobile', code: request.smscode, wrongCode: LOGIN_ERRORS.wrongSmsCode },
      now,
      async (trx) => {
        if (!(await setFirstMobile(trx, user.id, phone, now)))
          throw ApiError.business(AUTH_ERRORS.alreadyBound, 'mobile bound in parallel');
      },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw phoneRegistered();
    throw error;
  }
  return userInfoOf(deps.db, { ...user, mobile: phone }, tokens, false, now);
}

export type MemberProfile = TMemProfileResponse['userinfo'];

/** spec §7 memprofile: userinfo with the registration time and the linked sign-in methods. */
export async function memberProfile(deps: AuthDeps, { user, tokens }: SignedIn, showvip: boolean): Promise<MemberProfile> {
  const now = nowOf(deps);
  const info = await userInfoOf(deps.db, user, tokens, showvip, now);
  return { ...info, regtime: user.created_at, bindwechat: user.hasWechat, bindqq: user.hasQq };
}

/** Ends the session of `usertoken`, if there is one; any token, or none, is fine. */
export async function logout(deps: AuthDeps, usertoken: string | undefined): Promise<void> {
  if (usertoken === undefined || usertoken === '') return;
  await revokeSessionByTokenHash(deps.db, sha256Hex(usertoken), nowOf(deps));
}

/** Deletes ended captchas and codes expired a day ago (the limit store purges its own counters). */
export async function purgeAuthRecords(deps: AuthDeps): Promise<void> {
  const now = nowOf(deps);
  await purgeCaptchas(deps.db, now);
  await purgeSmsCodes(deps.db, now - DAY_SECONDS);
}
