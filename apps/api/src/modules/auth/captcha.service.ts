import type { Executor } from '@xcad/db';
import { ApiError, AUTH_LIMITS, SMS_SEND_ERRORS } from '@xcad/protocol';
import type { AuthDeps } from './auth.contract';
import { normalizeCaptchaAnswer, randomCaptchaText, renderCaptcha } from './captcha';
import { saveCaptcha, takeCaptcha } from './captcha.repository';
import { isSameDigest, sha256Hex } from './credentials';

// spec §7 imgverify: one image captcha per device, replaced by each new image, good for one check.

export interface CaptchaRequest {
  deviceId: string;
  width: number;
  height: number;
  fontSize: number;
  length: number;
}

function answerDigest(text: string): string {
  return sha256Hex(normalizeCaptchaAnswer(text));
}

/** Draws a new captcha for the device and answers it as a `data:image/png;base64,…` URL. */
export async function newCaptcha(deps: AuthDeps, request: CaptchaRequest): Promise<string> {
  const text = randomCaptchaText(request.length);
  const png = renderCaptcha(text, { width: request.width, height: request.height, fontSize: request.fontSize });
  const now = Math.floor(deps.clock() / 1000);
  await saveCaptcha(deps.db, request.deviceId, answerDigest(text), now + AUTH_LIMITS.captchaTtlSeconds);
  deps.captchaOutbox?.record(request.deviceId, text);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/**
 * Checks an answer against the device's captcha, case-insensitively. The captcha is used up
 * either way, so every wrong guess needs a new image. Throws 10008 when there is none, it
 * expired, or the answer is wrong.
 */
export async function checkCaptcha(db: Executor, deviceId: string, answer: string, now: number): Promise<void> {
  const captcha = await takeCaptcha(db, deviceId);
  if (captcha === undefined) throw ApiError.business(SMS_SEND_ERRORS.imageCodeInvalid, 'no captcha for this device');
  if (captcha.expires_at <= now) throw ApiError.business(SMS_SEND_ERRORS.imageCodeInvalid, 'captcha expired');
  if (!isSameDigest(captcha.code_hash, answerDigest(answer)))
    throw ApiError.business(SMS_SEND_ERRORS.imageCodeInvalid, 'wrong captcha answer');
}
