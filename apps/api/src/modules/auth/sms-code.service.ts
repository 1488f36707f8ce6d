import type { Transaction } from 'kysely';
import type { Database, Executor, SmsPurpose } from '@xcad/db';
import { ApiError, AUTH_ERRORS, AUTH_LIMITS, LOGIN_ERRORS, SMS_SEND_ERRORS, VALIDATION_MESSAGES, type CodeGroup } from '@xcad/protocol';
import { limitKey, retryAfterSecondsOf, UNLIMITED, type Charge } from '../../limits';
import type { AuthDeps, SignInContext } from './auth.contract';
import { checkCaptcha } from './captcha.service';
import { isSameDigest, newSmsCode, smsCodeDigest } from './credentials';
import { assertNotLocked, countFailure, FAILURE, lockOf } from './lockout.service';
import { normalizePhone } from './phone';
import { deleteSmsCode, insertSmsCode, latestSmsCode, markSmsCodeUsed, addSmsCodeAttempt } from './sms-code.repository';
import { transact } from './transaction';
import { findUserByMobile } from './user.repository';

// SMS codes (spec §4, §7 smsverify / safsmsverify; decision 0010 limits): who may be sent one, when,
// and the single-use check of a code. The limits are counters of the limit store (decision 0029).

const HOUR_MS = 3_600_000;

export interface SmsCodeRequest {
  /** As typed; normalised here. */
  account: string;
  verifytype: SmsPurpose;
  imgcode?: string | undefined;
}

function tooFrequent(reason: string, retryAfter: number): ApiError {
  return ApiError.business(SMS_SEND_ERRORS.tooFrequent, reason, { retryafter: Math.max(1, retryAfter) });
}

/** Refuses what the code's purpose rules out: registering a registered phone, resetting an unknown one. */
async function assertPurposeAllowed(db: Executor, phone: string, purpose: SmsPurpose): Promise<void> {
  if (purpose === 'quicklogin') return;
  const isRegistered = (await findUserByMobile(db, phone)) !== undefined;
  if (purpose === 'forgetpwd' && !isRegistered)
    throw ApiError.business(SMS_SEND_ERRORS.accountNotRegistered, 'forgetpwd for an unknown phone');
  if ((purpose === 'register' || purpose === 'bindmobile') && isRegistered) {
    throw ApiError.business(SMS_SEND_ERRORS.phoneRegistered, `${purpose} for a registered phone`);
  }
}

/**
 * What one send takes: the 60 s resend wait of spec §9 and the hourly caps per phone and per
 * address; the device's counter of phones goes up only for a phone it has not asked for this hour.
 */
function sendCharges(phone: string, ip: string, deviceId: string, isNewPhoneOfDevice: boolean): Charge[] {
  return [
    { key: limitKey('sms-wait', phone), cost: 1, limit: 1, windowMs: AUTH_LIMITS.smsResendSeconds * 1000 },
    { key: limitKey('sms-phone', phone), cost: 1, limit: AUTH_LIMITS.smsPerPhonePerHour, windowMs: HOUR_MS },
    { key: limitKey('sms-ip', ip), cost: 1, limit: AUTH_LIMITS.smsPerIpPerHour, windowMs: HOUR_MS },
    { key: limitKey('sms-device-phone', deviceId, phone), cost: 1, limit: UNLIMITED, windowMs: HOUR_MS },
    { key: limitKey('sms-device-phones', deviceId), cost: isNewPhoneOfDevice ? 1 : 0, limit: UNLIMITED, windowMs: HOUR_MS },
  ];
}

/**
 * Sends a code, after these checks in this order: the phone's lock (10062); for registering, the
 * image code (10010 without one, 10008 when wrong); the purpose's rule (19003 / 19002); the 60 s
 * resend wait and the hourly caps per phone and per address (10061 with `retryafter`); an image
 * code when the request looks automated (10010), checked whenever one is given (10008). The sends
 * are counted and the code written before the provider is called, so parallel requests see each
 * other; a refused or failed send gives its counts back and leaves no code.
 */
export async function sendSmsCode(deps: AuthDeps, request: SmsCodeRequest, context: SignInContext): Promise<void> {
  const phone = normalizePhone(request.account);
  const purpose = request.verifytype;
  const { deviceId, ip } = context;
  const now = Math.floor(deps.clock() / 1000);
  const nowMs = now * 1000;

  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  // spec §5: registering always needs an image code. It is checked before the phone's
  // registration is, so that answer (19003) cannot be probed for free.
  const isRegistering = purpose === 'register';
  if (isRegistering) {
    if (request.imgcode === undefined) throw ApiError.business(SMS_SEND_ERRORS.imageCodeRequired, 'register without a captcha');
    await checkCaptcha(deps.db, deviceId, request.imgcode, now);
  }
  await assertPurposeAllowed(deps.db, phone, purpose);

  const [pair] = await deps.limits.read([limitKey('sms-device-phone', deviceId, phone)], nowMs);
  const charges = sendCharges(phone, ip, deviceId, (pair?.count ?? 0) === 0);
  const taken = await deps.limits.consume(charges, nowMs);
  if (!taken.ok) throw tooFrequent(`limit ${taken.key}`, retryAfterSecondsOf(taken.retryAfterMs));
  const [, , sendsFromIp = 0, , phonesOfDevice = 0] = taken.counts;

  let reservation: { code: string; codeId: number };
  try {
    // An operator's code goes only to a phone that holds a back-office role (decision 0042), so it
    // cannot be aimed at strangers; the console's staff share an office address.
    if (request.imgcode === undefined && purpose !== 'operatorlogin') {
      const looksAutomated =
        sendsFromIp - 1 >= AUTH_LIMITS.captchaAfterIpSendsPerHour || phonesOfDevice > AUTH_LIMITS.captchaAfterDevicePhonesPerHour;
      if (looksAutomated) throw ApiError.business(SMS_SEND_ERRORS.imageCodeRequired, 'captcha demanded of an automated-looking sender');
    } else if (request.imgcode !== undefined && !isRegistering) {
      await checkCaptcha(deps.db, deviceId, request.imgcode, now);
    }
    const code = newSmsCode();
    const codeId = await insertSmsCode(deps.db, {
      phone,
      purpose,
      codeHash: smsCodeDigest(phone, purpose, code),
      createdAt: now,
      expiresAt: now + AUTH_LIMITS.smsCodeTtlSeconds,
    });
    reservation = { code, codeId };
  } catch (error) {
    await deps.limits.refund(charges, nowMs);
    throw error;
  }

  const result = await deps.sms.send({ phone, code: reservation.code, purpose });
  if (result.ok) return;

  // Nothing was sent: no usable code may remain, and the attempt must not hold back a retry.
  await deleteSmsCode(deps.db, reservation.codeId);
  await deps.limits.refund(charges, nowMs);
  deps.log.warn({ provider: deps.sms.name, reason: result.reason, detail: result.detail, purpose }, 'sms code not sent');
  if (result.reason === 'rate-limited') throw tooFrequent('provider rate limit', AUTH_LIMITS.smsResendSeconds);
  if (result.reason === 'invalid-phone') {
    throw new ApiError({
      code: AUTH_ERRORS.invalidField.codes[0],
      userMessage: VALIDATION_MESSAGES.phone,
      logMessage: 'provider refused the phone number',
      extra: { field: 'account' },
    });
  }
  // spec §8 has no "could not send" code: 10016 is ours (decision 0010).
  throw ApiError.business(SMS_SEND_ERRORS.sendFailed, `sms provider failed: ${result.detail}`);
}

export interface SmsCodeAnswer {
  /** Normalised. */
  phone: string;
  purpose: SmsPurpose;
  code: string;
  /** What a wrong code answers: 12007 at login, 19004 at registration. */
  wrongCode: CodeGroup;
}

/**
 * Uses up the phone's latest code for `purpose` in `trx`; false when the code is wrong (the
 * attempt is recorded on the code). No live code answers 19310.
 */
async function spendSmsCode(trx: Executor, answer: SmsCodeAnswer, now: number): Promise<boolean> {
  const latest = await latestSmsCode(trx, answer.phone, answer.purpose);
  if (latest === undefined || latest.used_at !== null || latest.expires_at <= now) {
    throw ApiError.business(LOGIN_ERRORS.smsCodeRequired, 'no live sms code');
  }
  if (!isSameDigest(latest.code_hash, smsCodeDigest(answer.phone, answer.purpose, answer.code))) {
    await addSmsCodeAttempt(trx, latest.id);
    return false;
  }
  if (!(await markSmsCodeUsed(trx, latest.id, now))) throw ApiError.business(LOGIN_ERRORS.smsCodeRequired, 'sms code used in parallel');
  return true;
}

/**
 * Runs `work` in one transaction with spending the phone's code, so the code is spent only
 * together with what it authorises. A locked phone is refused first (10062); a wrong code counts
 * a failure (the failuresBeforeLock-th in the window locks the phone: 10062, else `wrongCode`); a
 * right one clears the phone's failures.
 */
export async function withSmsCode<T>(
  deps: AuthDeps,
  answer: SmsCodeAnswer,
  now: number,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const { phone } = answer;
  await assertNotLocked(deps.limits, lockOf.phone(phone), now);
  const outcome = await transact(deps.db, async (trx) => ((await spendSmsCode(trx, answer, now)) ? { value: await work(trx) } : undefined));
  if (outcome === undefined) {
    const locked = await countFailure(deps.limits, FAILURE.smsCode(phone), lockOf.phone(phone), now);
    throw locked ?? ApiError.business(answer.wrongCode, 'wrong sms code');
  }
  await deps.limits.reset([FAILURE.smsCode(phone)]);
  return outcome.value;
}
