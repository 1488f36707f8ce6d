import type { Executor, SmsPurpose } from '@xcad/db';
import { ApiError, AUTH_ERRORS, AUTH_LIMITS, LOGIN_ERRORS, SMS_SEND_ERRORS, VALIDATION_MESSAGES, type CodeGroup } from '@xcad/protocol';
import type { AuthDeps, SignInContext } from './auth.contract';
import { deleteEvents, deleteEventsById, distinctSubjects, recentEventTimes, recordAuthEvents } from './auth-event.repository';
import { serializeOn } from './auth-lock.repository';
import { checkCaptcha } from './captcha.service';
import { isSameDigest, newSmsCode, smsCodeDigest } from './credentials';
import { assertNotLocked, countFailure, FAILURE, lockOf } from './lockout.service';
import { normalizePhone } from './phone';
import { deleteSmsCode, insertSmsCode, latestSmsCode, markSmsCodeUsed, addSmsCodeAttempt } from './sms-code.repository';
import { transact } from './transaction';
import { findUserByMobile } from './user.repository';

// SMS codes (spec §4, §7 smsverify / safsmsverify; issue 3 limits): who may be sent one, when,
// and the single-use check of a code.

const HOUR_SECONDS = 3_600;

/** Event kinds the send limits count. */
const SENT = {
  toPhone: 'sms-phone',
  fromIp: 'sms-ip',
  /** Per device; the subject is the phone, so distinct subjects are the phones it asked codes for. */
  byDevice: (deviceId: string) => `sms-device:${deviceId}`,
};

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
  if (purpose === 'forgetpwd' && !isRegistered) throw ApiError.business(SMS_SEND_ERRORS.accountNotRegistered, 'forgetpwd for an unknown phone');
  if ((purpose === 'register' || purpose === 'bindmobile') && isRegistered) {
    throw ApiError.business(SMS_SEND_ERRORS.phoneRegistered, `${purpose} for a registered phone`);
  }
}

interface Reservation {
  code: string;
  codeId: number;
  eventIds: number[];
}

/**
 * Sends a code, after these checks in this order: the phone's lock (10062); for registering, the
 * image code (10010 without one, 10008 when wrong); the purpose's rule (19003 / 19002); the 60 s
 * resend wait of spec §9 and the hourly caps per phone and per address (10061 with `retryafter`);
 * an image code when the request looks automated (10010), checked whenever one is given (10008). The code and the counted events are written before the
 * provider is called, so parallel requests see each other; a failed send takes them back.
 */
export async function sendSmsCode(deps: AuthDeps, request: SmsCodeRequest, context: SignInContext): Promise<void> {
  const phone = normalizePhone(request.account);
  const purpose = request.verifytype;
  const { deviceId, ip } = context;
  const now = Math.floor(deps.clock() / 1000);
  const hourAgo = now - HOUR_SECONDS;

  const reservation = await transact<Reservation>(deps.db, async (trx) => {
    await serializeOn(trx, [lockOf.phone(phone), `sms-ip:${ip}`, `sms-device:${deviceId}`]);
    await assertNotLocked(trx, lockOf.phone(phone), now);
    // spec §5: registering always needs an image code. It is checked before the phone's
    // registration is, so that answer (19003) cannot be probed for free.
    const isRegistering = purpose === 'register';
    if (isRegistering) {
      if (request.imgcode === undefined) throw ApiError.business(SMS_SEND_ERRORS.imageCodeRequired, 'register without a captcha');
      await checkCaptcha(trx, deviceId, request.imgcode, now);
    }
    await assertPurposeAllowed(trx, phone, purpose);

    const phoneSends = await recentEventTimes(trx, SENT.toPhone, phone, hourAgo, AUTH_LIMITS.smsPerPhonePerHour);
    const lastSend = phoneSends[0];
    if (lastSend !== undefined && now - lastSend < AUTH_LIMITS.smsResendSeconds) {
      throw tooFrequent('resend within the wait', lastSend + AUTH_LIMITS.smsResendSeconds - now);
    }
    const oldestCountedPhoneSend = phoneSends[AUTH_LIMITS.smsPerPhonePerHour - 1];
    if (oldestCountedPhoneSend !== undefined) throw tooFrequent('hourly cap of the phone', oldestCountedPhoneSend + HOUR_SECONDS - now);
    const ipSends = await recentEventTimes(trx, SENT.fromIp, ip, hourAgo, AUTH_LIMITS.smsPerIpPerHour);
    const oldestCountedIpSend = ipSends[AUTH_LIMITS.smsPerIpPerHour - 1];
    if (oldestCountedIpSend !== undefined) throw tooFrequent('hourly cap of the address', oldestCountedIpSend + HOUR_SECONDS - now);

    if (request.imgcode === undefined) {
      const phonesOfDevice = new Set([...(await distinctSubjects(trx, SENT.byDevice(deviceId), hourAgo)), phone]);
      const looksAutomated =
        ipSends.length >= AUTH_LIMITS.captchaAfterIpSendsPerHour || phonesOfDevice.size > AUTH_LIMITS.captchaAfterDevicePhonesPerHour;
      if (looksAutomated) throw ApiError.business(SMS_SEND_ERRORS.imageCodeRequired, 'captcha demanded of an automated-looking sender');
    } else if (!isRegistering) {
      await checkCaptcha(trx, deviceId, request.imgcode, now);
    }

    const code = newSmsCode();
    const codeId = await insertSmsCode(trx, {
      phone,
      purpose,
      codeHash: smsCodeDigest(phone, purpose, code),
      createdAt: now,
      expiresAt: now + AUTH_LIMITS.smsCodeTtlSeconds,
    });
    const eventIds = await recordAuthEvents(
      trx,
      [
        { kind: SENT.toPhone, subject: phone },
        { kind: SENT.fromIp, subject: ip },
        { kind: SENT.byDevice(deviceId), subject: phone },
      ],
      now,
    );
    return { code, codeId, eventIds };
  });

  const result = await deps.sms.send({ phone, code: reservation.code, purpose });
  if (result.ok) return;

  // Nothing was sent: no usable code may remain, and the attempt must not hold back a retry.
  await transact(deps.db, async (trx) => {
    await deleteSmsCode(trx, reservation.codeId);
    await deleteEventsById(trx, reservation.eventIds);
  });
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
 * Uses up the phone's latest code for `purpose`, inside the caller's transaction so the code is
 * spent only together with what it authorises. No live code answers 19310; a wrong one counts a
 * failure (the failuresBeforeLock-th in the window locks the phone: 10062).
 */
export async function consumeSmsCode(trx: Executor, answer: SmsCodeAnswer, now: number): Promise<void> {
  const { phone, purpose } = answer;
  await serializeOn(trx, [lockOf.phone(phone)]);
  await assertNotLocked(trx, lockOf.phone(phone), now);
  const latest = await latestSmsCode(trx, phone, purpose);
  if (latest === undefined || latest.used_at !== null || latest.expires_at <= now) {
    throw ApiError.business(LOGIN_ERRORS.smsCodeRequired, 'no live sms code');
  }
  if (!isSameDigest(latest.code_hash, smsCodeDigest(phone, purpose, answer.code))) {
    await addSmsCodeAttempt(trx, latest.id);
    const lock = await countFailure(trx, FAILURE.smsCode, phone, lockOf.phone(phone), now);
    throw lock ?? ApiError.business(answer.wrongCode, 'wrong sms code');
  }
  if (!(await markSmsCodeUsed(trx, latest.id, now))) throw ApiError.business(LOGIN_ERRORS.smsCodeRequired, 'sms code used in parallel');
  await deleteEvents(trx, FAILURE.smsCode, phone);
}
