import { z } from 'zod';
import { FORM_LIMITS } from './constants';
import { PASSWORD_FORM_ERROR, PASSWORD_FORM_MESSAGES, SMS_FORM_ERROR, type PasswordFormErrorCode, type SmsFormErrorCode } from './errors';

// spec §5: the input masks and validation rules shared by the web forms and the API. Validators
// return '' when the value is valid, else the message to show.

export const VALIDATION_MESSAGES = {
  phone: '请您填写正确的11位手机号',
  smsCodeEmpty: '请输入验证码',
  smsCodeWrong: '请填写正确的验证码',
  imageCode: '请填写正确的图形验证码',
  password: '请您填写有效的密码。格式要求: 由6-20位字母或数字组成',
  confirmationEmpty: '请确认密码',
  confirmationMismatch: '两次密码不一致',
  account: PASSWORD_FORM_MESSAGES[PASSWORD_FORM_ERROR.wrongPhone],
  loginPasswordEmpty: PASSWORD_FORM_MESSAGES[PASSWORD_FORM_ERROR.emptyPassword],
  loginPasswordLength: PASSWORD_FORM_MESSAGES[PASSWORD_FORM_ERROR.wrongPass],
} as const;

/** spec §5: an optional 1-3 digit country prefix and a hyphen, then 1, then 3-9, then 9 digits. */
export const PHONE_PATTERN = /^(?:\d{1,3}-)?1[3-9]\d{9}$/;
export const SMS_CODE_PATTERN = /^\d{4}$/;
export const IMAGE_CODE_PATTERN = /^[\w/]{4}$/;
export const PASSWORD_PATTERN = /^[A-Za-z0-9]{6,20}$/;
// "E-mail-shaped": something@something.tld without spaces or control characters; deliverability
// is the mailer's concern.
export const EMAIL_PATTERN = /^[^\s@\p{Cc}]+@[^\s@.\p{Cc}]+(?:\.[^\s@.\p{Cc}]+)+$/u;

/** Keeps the first `max` code points, so a pasted emoji or CJK text is never split in half. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('') : text;
}

/** spec §5: phone input is stripped of non-digits and cut to 11. */
export function maskPhone(input: string): string {
  return input.replace(/\D/g, '').slice(0, FORM_LIMITS.phoneLength);
}

/** spec §5: account input is cut to 30 characters. */
export function maskAccount(input: string): string {
  return cut(input, FORM_LIMITS.accountMaxLength);
}

/** spec §5: password input accepts at most 20 characters. */
export function maskPassword(input: string): string {
  return cut(input, FORM_LIMITS.passwordMaxLength);
}

/** spec §5: SMS code input keeps digits only, at most 4. */
export function maskSmsCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, FORM_LIMITS.smsCodeLength);
}

/** spec §5: image code input keeps word characters and slashes, up to the configured length. */
export function maskImageCode(input: string, maxLength: number = FORM_LIMITS.imageCodeMaxLength): string {
  return input.replace(/[^\w/]/g, '').slice(0, maxLength);
}

export function isPhone(phone: string): boolean {
  return PHONE_PATTERN.test(phone);
}

export function isEmail(text: string): boolean {
  return EMAIL_PATTERN.test(text);
}

export function validatePhone(phone: string): string {
  return isPhone(phone) ? '' : VALIDATION_MESSAGES.phone;
}

export function validateSmsCode(code: string): string {
  if (code === '') return VALIDATION_MESSAGES.smsCodeEmpty;
  return SMS_CODE_PATTERN.test(code) ? '' : VALIDATION_MESSAGES.smsCodeWrong;
}

/** spec §5: registering needs an image code of exactly 4 word characters or slashes. */
export function validateImageCode(code: string): string {
  return IMAGE_CODE_PATTERN.test(code) ? '' : VALIDATION_MESSAGES.imageCode;
}

/** spec §5: a new password has 6-20 letters or digits. */
export function validatePassword(password: string): string {
  return PASSWORD_PATTERN.test(password) ? '' : VALIDATION_MESSAGES.password;
}

export function validatePasswordConfirmation(password: string, confirmation: string): string {
  if (confirmation === '') return VALIDATION_MESSAGES.confirmationEmpty;
  return confirmation === password ? '' : VALIDATION_MESSAGES.confirmationMismatch;
}

/** spec §5: the password-login account is a mobile number or an e-mail-shaped address, at most 30. */
export function isAccount(account: string): boolean {
  if (Array.from(account).length > FORM_LIMITS.accountMaxLength) return false;
  return isPhone(account) || isEmail(account);
}

export function validateAccount(account: string): string {
  return isAccount(account) ? '' : VALIDATION_MESSAGES.account;
}

/**
 * spec §5: the login password must not be empty and has at least 6 characters (the input accepts
 * 6 to 20). Any characters are allowed: accounts may predate the letters-or-digits rule.
 */
export function validateLoginPassword(password: string): string {
  if (password === '') return VALIDATION_MESSAGES.loginPasswordEmpty;
  const length = Array.from(password).length;
  const isLengthValid = length >= FORM_LIMITS.passwordMinLength && length <= FORM_LIMITS.passwordMaxLength;
  return isLengthValid ? '' : VALIDATION_MESSAGES.loginPasswordLength;
}

export interface SmsSendFormInput {
  readonly phoneNumber: string;
  readonly imageCode: string;
  readonly isImageShown: boolean;
  readonly isSending: boolean;
  /** Seconds left of the resend countdown; 0 when a code may be requested. */
  readonly secondsLeft: number;
}

/** spec §4, §5: may an SMS code be requested now? Returns the form's error code, 0 when it may. */
export function checkSmsSendForm(input: SmsSendFormInput): SmsFormErrorCode {
  if (input.phoneNumber === '') return SMS_FORM_ERROR.emptyPhone;
  if (!isPhone(input.phoneNumber)) return SMS_FORM_ERROR.wrongPhone;
  if (input.isSending) return SMS_FORM_ERROR.smsSending;
  if (input.secondsLeft > 0) return SMS_FORM_ERROR.smsWaiting;
  if (input.isImageShown) {
    if (input.imageCode === '') return SMS_FORM_ERROR.emptyImageCode;
    if (!IMAGE_CODE_PATTERN.test(input.imageCode)) return SMS_FORM_ERROR.wrongImageCode;
  }
  return SMS_FORM_ERROR.none;
}

export interface SmsLoginFormInput {
  readonly phoneNumber: string;
  readonly smsCode: string;
  readonly imageCode: string;
  readonly isImageShown: boolean;
  /** Whether an SMS code was requested for this phone number. */
  readonly hasRequestedSms: boolean;
}

/** spec §5: may the SMS login be submitted? Returns the form's error code, 0 when it may. */
export function checkSmsLoginForm(input: SmsLoginFormInput): SmsFormErrorCode {
  if (input.phoneNumber === '') return SMS_FORM_ERROR.emptyPhone;
  if (!isPhone(input.phoneNumber)) return SMS_FORM_ERROR.wrongPhone;
  if (input.isImageShown) {
    if (input.imageCode === '') return SMS_FORM_ERROR.emptyImageCode;
    if (!IMAGE_CODE_PATTERN.test(input.imageCode)) return SMS_FORM_ERROR.wrongImageCode;
  }
  if (!input.hasRequestedSms) return SMS_FORM_ERROR.smsCodeNeeded;
  if (input.smsCode === '') return SMS_FORM_ERROR.emptySms;
  if (!SMS_CODE_PATTERN.test(input.smsCode)) return SMS_FORM_ERROR.wrongSmsCode;
  return SMS_FORM_ERROR.none;
}

export interface PasswordLoginFormInput {
  readonly account: string;
  readonly password: string;
}

/** spec §5: may the password login be submitted? Returns the form's error code, 0 when it may. */
export function checkPasswordLoginForm(input: PasswordLoginFormInput): PasswordFormErrorCode {
  if (input.account === '') return PASSWORD_FORM_ERROR.emptyPhone;
  if (!isAccount(input.account)) return PASSWORD_FORM_ERROR.wrongPhone;
  if (input.password === '') return PASSWORD_FORM_ERROR.emptyPassword;
  if (validateLoginPassword(input.password) !== '') return PASSWORD_FORM_ERROR.wrongPass;
  return PASSWORD_FORM_ERROR.none;
}

// Zod schemas for the server side. A missing or non-string value reads as empty to the user.

export const ZPhone = z.string({ error: VALIDATION_MESSAGES.phone }).regex(PHONE_PATTERN, { error: VALIDATION_MESSAGES.phone });

export const ZSmsCode = z
  .string({ error: VALIDATION_MESSAGES.smsCodeEmpty })
  .min(1, { error: VALIDATION_MESSAGES.smsCodeEmpty, abort: true })
  .regex(SMS_CODE_PATTERN, { error: VALIDATION_MESSAGES.smsCodeWrong });

export const ZImageCode = z
  .string({ error: VALIDATION_MESSAGES.imageCode })
  .regex(IMAGE_CODE_PATTERN, { error: VALIDATION_MESSAGES.imageCode });

export const ZPassword = z.string({ error: VALIDATION_MESSAGES.password }).regex(PASSWORD_PATTERN, { error: VALIDATION_MESSAGES.password });

export const ZAccount = z.string({ error: VALIDATION_MESSAGES.account }).refine(isAccount, { error: VALIDATION_MESSAGES.account });

export const ZLoginPassword = z
  .string({ error: VALIDATION_MESSAGES.loginPasswordEmpty })
  .refine((password) => validateLoginPassword(password) === '', {
    error: (issue) => (issue.input === '' ? VALIDATION_MESSAGES.loginPasswordEmpty : VALIDATION_MESSAGES.loginPasswordLength),
  });
