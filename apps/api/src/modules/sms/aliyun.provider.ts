import type { FetchLike } from '@xcad/protocol';
import { createHmac, randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { callVendorJson, VENDOR_HTTP_TIMEOUT_MS, vendorObject, vendorString, type VendorDeps } from '../../lib/vendor-http';
import type { SmsFailureReason, SmsMessage, SmsProvider, SmsSendResult } from './sms.provider';

// Aliyun Dysmsapi SendSms (API version 2017-05-25), called through the documented RPC style with
// signature version 1.0 (HMAC-SHA1), so no SDK is needed.

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com/';
const API_VERSION = '2017-05-25';

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  regionId?: string;
}

export interface AliyunSmsDeps extends VendorDeps {
  now?: () => Date;
  nonce?: () => string;
}

/** RFC 3986 encoding as Aliyun's signature rules want it: only A-Z a-z 0-9 - _ . ~ stay as they are. */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The query sorted by name and encoded, as signed and as sent. */
export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key] ?? '')}`)
    .join('&');
}

/** Signature version 1.0 of `params` (every parameter except Signature) for an HTTP `method`. */
export function aliyunSignature(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(aliyunCanonicalQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign, 'utf8').digest('base64');
}

const REASONS: Record<string, SmsFailureReason> = {
  'isv.BUSINESS_LIMIT_CONTROL': 'rate-limited',
  'isv.DAY_LIMIT_CONTROL': 'rate-limited',
  'isv.MOBILE_NUMBER_ILLEGAL': 'invalid-phone',
};

const ZAliyunAnswer = vendorObject({ Code: vendorString, BizId: vendorString, Message: vendorString });

/** Reads an Aliyun SendSms answer: `Code: "OK"` with a BizId is success, other codes are mapped. */
export function aliyunResultOf(status: number, body: z.infer<typeof ZAliyunAnswer>): SmsSendResult {
  const { Code: code, BizId: bizId } = body;
  if (status === 200 && code === 'OK' && bizId !== undefined) return { ok: true, providerMessageId: bizId };
  const detail = `HTTP ${status} ${code ?? 'no Code'}: ${body.Message ?? ''}`.trim();
  return { ok: false, reason: (code !== undefined ? REASONS[code] : undefined) ?? 'provider-error', detail };
}

export class AliyunSmsProvider implements SmsProvider {
  readonly name = 'aliyun';
  private readonly fetchImpl: FetchLike;
  private readonly now: () => Date;
  private readonly nonce: () => string;
  private readonly timeoutMs: number;

  constructor(
    private readonly config: AliyunSmsConfig,
    deps: AliyunSmsDeps = {},
  ) {
    this.fetchImpl = deps.fetch ?? fetch;
    this.now = deps.now ?? (() => new Date());
    this.nonce = deps.nonce ?? randomUUID;
    this.timeoutMs = deps.timeoutMs ?? VENDOR_HTTP_TIMEOUT_MS;
  }

  /** Every parameter of the call except Signature. */
  requestParams(message: SmsMessage): Record<string, string> {
    return {
      AccessKeyId: this.config.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: message.phone,
      RegionId: this.config.regionId ?? 'cn-hangzhou',
      SignName: this.config.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: this.nonce(),
      SignatureVersion: '1.0',
      TemplateCode: this.config.templateCode,
      TemplateParam: JSON.stringify({ code: message.code }),
      // Aliyun wants ISO 8601 UTC without milliseconds.
      Timestamp: this.now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z'),
      Version: API_VERSION,
    };
  }

  async send(message: SmsMessage): Promise<SmsSendResult> {
    const params = this.requestParams(message);
    const signed = { ...params, Signature: aliyunSignature('POST', params, this.config.accessKeySecret) };
    const reply = await callVendorJson(
      this.fetchImpl,
      ALIYUN_SMS_ENDPOINT,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: aliyunCanonicalQuery(signed) },
      this.timeoutMs,
      ZAliyunAnswer,
    );
    if (reply.kind === 'failure') return { ok: false, reason: 'provider-error', detail: reply.detail };
    return aliyunResultOf(reply.status, reply.body);
  }
}
