import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '@xcad/protocol';
import { TencentSmsProvider } from './tencent.provider';

const config = {
  secretId: 'AKID-test-id',
  secretKey: 'test-key',
  sdkAppId: '1400000001',
  signName: '迅捷CAD',
  templateId: '100001',
  region: 'ap-guangzhou',
};
const message = { phone: '13800138000', code: '5678', purpose: 'register' } as const;
// 2024-05-01T23:59:30Z: the credential date is the UTC day, not the Beijing one (already 05-02).
const NOW = new Date('2024-05-01T23:59:30.500Z');
const TIMESTAMP = 1714607970;

interface Captured {
  url: string;
  init: RequestInit;
}

function answering(status: number, body: string, captured: Captured[] = []): FetchLike {
  return (url, init) => {
    captured.push({ url, init });
    return Promise.resolve(new Response(body, { status, headers: { 'content-type': 'application/json' } }));
  };
}

function providerWith(fetchImpl: FetchLike, timeoutMs?: number): TencentSmsProvider {
  return new TencentSmsProvider(config, { fetch: fetchImpl, now: () => NOW, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

function sent(status: string, serialNo = '2028:f825e6b16e23f73f4123', message = 'send success'): string {
  return JSON.stringify({
    Response: {
      SendStatusSet: [
        { SerialNo: serialNo, PhoneNumber: '+8613800138000', Fee: 1, SessionContext: '', Code: status, Message: message, IsoCode: 'CN' },
      ],
      RequestId: 'a0aabda6-cf91-4f3e-a81f-9198114a2279',
    },
  });
}

describe('Tencent TC3-HMAC-SHA256 signing', () => {
  it('sends the documented body and headers, signed as computed here step by step', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(200, sent('Ok'), captured)).send(message);
    expect(captured).toHaveLength(1);
    const [call] = captured;
    expect(call?.url).toBe('https://sms.tencentcloudapi.com/');
    expect(call?.init.method).toBe('POST');

    const body = String(call?.init.body);
    expect(JSON.parse(body)).toEqual({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: '1400000001',
      SignName: '迅捷CAD',
      TemplateId: '100001',
      TemplateParamSet: ['5678'],
    });

    const headers = call?.init.headers as Record<string, string>;
    expect(headers).toMatchObject({
      'Content-Type': 'application/json; charset=utf-8',
      'X-TC-Action': 'SendSms',
      'X-TC-Version': '2021-01-11',
      'X-TC-Timestamp': String(TIMESTAMP),
      'X-TC-Region': 'ap-guangzhou',
    });

    const hashedPayload = createHash('sha256').update(body).digest('hex');
    const canonicalRequest =
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:sms.tencentcloudapi.com\n\ncontent-type;host\n' + hashedPayload;
    const stringToSign =
      `TC3-HMAC-SHA256\n${TIMESTAMP}\n2024-05-01/sms/tc3_request\n` + createHash('sha256').update(canonicalRequest).digest('hex');
    const secretDate = createHmac('sha256', 'TC3test-key').update('2024-05-01').digest();
    const secretService = createHmac('sha256', secretDate).update('sms').digest();
    const secretSigning = createHmac('sha256', secretService).update('tc3_request').digest();
    const signature = createHmac('sha256', secretSigning).update(stringToSign).digest('hex');

    expect(headers['Authorization']).toBe(
      `TC3-HMAC-SHA256 Credential=AKID-test-id/2024-05-01/sms/tc3_request, SignedHeaders=content-type;host, Signature=${signature}`,
    );
  });
});

describe('Tencent SendSms answers', () => {
  it('maps SendStatusSet[0].Code Ok to success with the SerialNo', async () => {
    expect(await providerWith(answering(200, sent('Ok'))).send(message)).toEqual({
      ok: true,
      providerMessageId: '2028:f825e6b16e23f73f4123',
    });
  });

  it.each(['LimitExceeded.PhoneNumberThirtySecondLimit', 'LimitExceeded.PhoneNumberOneHourLimit', 'LimitExceeded.PhoneNumberDailyLimit'])(
    'maps %s to rate-limited',
    async (code) => {
      const result = await providerWith(answering(200, sent(code, '', 'limit exceeded'))).send(message);
      expect(result).toEqual({ ok: false, reason: 'rate-limited', detail: `HTTP 200 ${code}: limit exceeded` });
    },
  );

  it('maps InvalidParameterValue.IncorrectPhoneNumber to invalid-phone', async () => {
    const result = await providerWith(answering(200, sent('InvalidParameterValue.IncorrectPhoneNumber', '', 'incorrect number'))).send(
      message,
    );
    expect(result).toMatchObject({ ok: false, reason: 'invalid-phone' });
  });

  it('maps a request-level Response.Error to provider-error', async () => {
    const body = JSON.stringify({
      Response: {
        Error: { Code: 'AuthFailure.SignatureFailure', Message: 'The provided credentials could not be validated.' },
        RequestId: 'r1',
      },
    });
    expect(await providerWith(answering(200, body)).send(message)).toEqual({
      ok: false,
      reason: 'provider-error',
      detail: 'HTTP 200 AuthFailure.SignatureFailure: The provided credentials could not be validated.',
    });
  });

  it('maps an unknown per-number code to provider-error', async () => {
    const result = await providerWith(answering(200, sent('FailedOperation.TemplateIncorrectOrUnapproved', '', 'template'))).send(message);
    expect(result).toMatchObject({ ok: false, reason: 'provider-error' });
  });

  it('maps an HTTP 500 to provider-error', async () => {
    expect(await providerWith(answering(500, 'upstream failure')).send(message)).toEqual({
      ok: false,
      reason: 'provider-error',
      detail: 'HTTP 500: answer is not JSON',
    });
    expect(await providerWith(answering(500, '{}')).send(message)).toMatchObject({ ok: false, reason: 'provider-error' });
  });

  it('gives up when the provider does not answer in time', async () => {
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    expect(await providerWith(hanging, 20).send(message)).toEqual({
      ok: false,
      reason: 'provider-error',
      detail: 'no answer within 20 ms',
    });
  });
});
