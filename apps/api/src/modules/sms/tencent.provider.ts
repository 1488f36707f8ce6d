import type { FetchLike } from '@xcad/protocol';
import { createHash, createHmac } from 'node:crypto';
import { z } from 'zod';
import { callVendorJson, VENDOR_HTTP_TIMEOUT_MS, vendorObject, vendorString, type VendorDeps } from '../../lib/vendor-http';
import type { SmsFailureReason, SmsMessage, SmsProvider, SmsSendResult } from './sms.provider';

// Tencent Cloud SMS SendSms (API version 2021-01-11), signed with TC3-HMAC-SHA256 as the API
// documents it, so no SDK is needed.

export const TENCENT_SMS_HOST = 'sms.tencentcloudapi.com';
const API_VERSION = '2021-01-11';
const SERVICE = 'sms';
const CONTENT_TYPE = 'application/json; charset=utf-8';
const SIGNED_HEADERS = 'content-type;host';

export interface TencentSmsConfig {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  region: string;
}

export interface TencentSmsDeps extends VendorDeps {
  now?: () => Date;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac('sha256', key).update(text, 'utf8').digest();
}

/** The Authorization header of a POST of `payload` at `timestamp` (epoch seconds). */
export function tencentAuthorization(payload: string, timestamp: number, secretId: string, secretKey: string): string {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${TENCENT_SMS_HOST}\n`,
    SIGNED_HEADERS,
    sha256Hex(payload),
  ].join('\n');
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${secretKey}`, date), SERVICE), 'tc3_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${secretId}/${scope}, SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
}

function reasonOf(code: string): SmsFailureReason {
  if (code.startsWith('LimitExceeded.')) return 'rate-limited';
  if (code === 'InvalidParameterValue.IncorrectPhoneNumber') return 'invalid-phone';
  return 'provider-error';
}

const ZStatus = vendorObject({ Code: vendorString, SerialNo: vendorString, Message: vendorString });
const ZTencentAnswer = vendorObject({
  Response: vendorObject({
    Error: vendorObject({ Code: vendorString, Message: vendorString }).optional(),
    SendStatusSet: z.array(ZStatus).catch([]),
  }),
});
type TencentAnswer = z.infer<typeof ZTencentAnswer>;

/**
 * Reads a Tencent SendSms answer. The per-number status is in `Response.SendStatusSet`; a
 * request-level failure is in `Response.Error`. The same error codes can come either way, so
 * both are mapped alike (a limit is a limit wherever it is reported).
 */
export function tencentResultOf(status: number, body: TencentAnswer): SmsSendResult {
  const { Error: error, SendStatusSet: statuses } = body.Response;
  if (error !== undefined) {
    const code = error.Code ?? 'no Code';
    return { ok: false, reason: reasonOf(code), detail: `HTTP ${status} ${code}: ${error.Message ?? ''}`.trim() };
  }
  const first = statuses[0];
  const code = first?.Code;
  const serialNo = first?.SerialNo;
  if (status === 200 && code === 'Ok' && serialNo !== undefined) return { ok: true, providerMessageId: serialNo };
  const detail = `HTTP ${status} ${code ?? 'no SendStatusSet'}: ${first?.Message ?? ''}`.trim();
  return { ok: false, reason: code !== undefined ? reasonOf(code) : 'provider-error', detail };
}

/** E.164 as Tencent wants it; mainland numbers arrive as 11 digits. */
function e164(phone: string): string {
  return phone.startsWith('+') ? phone : `+86${phone}`;
}

export class TencentSmsProvider implements SmsProvider {
  readonly name = 'tencent';
  private readonly fetchImpl: FetchLike;
  private readonly now: () => Date;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: TencentSmsConfig,
    deps: TencentSmsDeps = {},
  ) {
    this.fetchImpl = deps.fetch ?? fetch;
    this.now = deps.now ?? (() => new Date());
    this.timeoutMs = deps.timeoutMs ?? VENDOR_HTTP_TIMEOUT_MS;
  }

  async send(message: SmsMessage): Promise<SmsSendResult> {
    const payload = JSON.stringify({
      PhoneNumberSet: [e164(message.phone)],
      SmsSdkAppId: this.config.sdkAppId,
      SignName: this.config.signName,
      TemplateId: this.config.templateId,
      TemplateParamSet: [message.code],
    });
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const reply = await callVendorJson(
      this.fetchImpl,
      `https://${TENCENT_SMS_HOST}/`,
      {
        method: 'POST',
        headers: {
          Authorization: tencentAuthorization(payload, timestamp, this.config.secretId, this.config.secretKey),
          // fetch sets Host from the URL, which is the signed TENCENT_SMS_HOST.
          'Content-Type': CONTENT_TYPE,
          'X-TC-Action': 'SendSms',
          'X-TC-Version': API_VERSION,
          'X-TC-Timestamp': String(timestamp),
          'X-TC-Region': this.config.region,
        },
        body: payload,
      },
      this.timeoutMs,
      ZTencentAnswer,
    );
    if (reply.kind === 'failure') return { ok: false, reason: 'provider-error', detail: reply.detail };
    return tencentResultOf(reply.status, reply.body);
  }
}
