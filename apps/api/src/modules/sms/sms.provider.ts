// The SMS layer behind one interface, so sign-in code never knows which provider sends (decision 0010
// "Providers behind interfaces"); the provider is chosen by SMS_PROVIDER (sms.factory.ts).

export type SmsProviderName = 'console' | 'aliyun' | 'tencent';

/** Why a code is sent; the auth module passes it through (spec §7 smsverify `type`; `operatorlogin`: the back office, decision 0042). */
export type SmsPurpose = 'quicklogin' | 'forgetpwd' | 'register' | 'bindmobile' | 'operatorlogin';

export interface SmsMessage {
  /** Mainland mobile number, 11 digits. */
  phone: string;
  /** The 4-digit verification code. */
  code: string;
  purpose: SmsPurpose;
}

export type SmsFailureReason = 'rate-limited' | 'invalid-phone' | 'provider-error';

export type SmsSendResult = { ok: true; providerMessageId: string } | { ok: false; reason: SmsFailureReason; detail: string };

export interface SmsProvider {
  readonly name: SmsProviderName;
  /** Never throws: every failure comes back as `{ ok: false }` so callers answer a spec code. */
  send(message: SmsMessage): Promise<SmsSendResult>;
}

/** Minutes a code stays valid, as the text tells the user. */
export const SMS_CODE_VALID_MINUTES = 5;

/**
 * The text the user receives. Aliyun and Tencent send their registered template instead (only
 * the code travels), so this is what the console provider shows and what templates should read.
 */
export function smsTextOf(message: SmsMessage): string {
  return `【迅捷CAD】您的验证码为${message.code}，${SMS_CODE_VALID_MINUTES}分钟内有效，请勿泄露给他人。`;
}
