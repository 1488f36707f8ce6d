import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALIYUN_SMS_ENDPOINT, AliyunSmsProvider, aliyunPercentEncode, aliyunSignature } from './aliyun.provider';
import type { FetchLike } from '@xcad/protocol';

const config = { accessKeyId: 'LTAI-test-id', accessKeySecret: 'test-secret', signName: '迅捷CAD', templateCode: 'SMS_000001' };
const message = { phone: '13800138000', code: '1234', purpose: 'quicklogin' } as const;

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

function providerWith(fetchImpl: FetchLike, timeoutMs?: number): AliyunSmsProvider {
  return new AliyunSmsProvider(config, {
    fetch: fetchImpl,
    now: () => new Date('2024-05-01T08:00:00.123Z'),
    nonce: () => 'nonce-0001',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

describe('Aliyun percent-encoding', () => {
  it("follows RFC 3986 as Aliyun signs: space %20, * %2A, ~ kept, !'() encoded", () => {
    expect(aliyunPercentEncode('a b*c~d')).toBe('a%20b%2Ac~d');
    expect(aliyunPercentEncode("!'()")).toBe('%21%27%28%29');
    expect(aliyunPercentEncode('{"code":"1234"}')).toBe('%7B%22code%22%3A%221234%22%7D');
    expect(aliyunPercentEncode('迅')).toBe('%E8%BF%85');
  });
});

describe('Aliyun signature 1.0', () => {
  it("reproduces the worked example of Aliyun's SendSms documentation", () => {
    const params = {
      AccessKeyId: 'testId',
      Action: 'SendSms',
      Format: 'XML',
      OutId: '123',
      PhoneNumbers: '15300000001',
      RegionId: 'cn-hangzhou',
      SignName: '阿里云短信测试专用',
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: '45e25e9b-0a6f-4070-8c85-2956eda1b466',
      SignatureVersion: '1.0',
      TemplateCode: 'SMS_71390007',
      TemplateParam: '{"customer":"test"}',
      Timestamp: '2017-07-12T02:42:19Z',
      Version: '2017-05-25',
    };
    expect(aliyunSignature('GET', params, 'testSecret')).toBe('zJDF+Lrzhj/ThnlvIToysFRq6t4=');
  });

  it('signs the POST it sends, computed here step by step', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(200, '{"Code":"OK","BizId":"900619746936498440^0"}', captured)).send(message);

    // The sorted, encoded query, written out by hand.
    const canonical = [
      'AccessKeyId=LTAI-test-id',
      'Action=SendSms',
      'Format=JSON',
      'PhoneNumbers=13800138000',
      'RegionId=cn-hangzhou',
      'SignName=%E8%BF%85%E6%8D%B7CAD',
      'SignatureMethod=HMAC-SHA1',
      'SignatureNonce=nonce-0001',
      'SignatureVersion=1.0',
      'TemplateCode=SMS_000001',
      'TemplateParam=%7B%22code%22%3A%221234%22%7D',
      'Timestamp=2024-05-01T08%3A00%3A00Z',
      'Version=2017-05-25',
    ].join('&');
    // The canonical query holds only unreserved characters, '%', '&' and '=', all of which
    // encodeURIComponent encodes exactly as RFC 3986 does.
    const stringToSign = `POST&%2F&${encodeURIComponent(canonical)}`;
    const expected = createHmac('sha1', 'test-secret&').update(stringToSign).digest('base64');

    expect(captured).toHaveLength(1);
    const [call] = captured;
    expect(call?.url).toBe(ALIYUN_SMS_ENDPOINT);
    expect(call?.init.method).toBe('POST');
    const sent = new URLSearchParams(String(call?.init.body));
    expect(sent.get('Signature')).toBe(expected);
    sent.delete('Signature');
    expect(sent.toString()).toBe(new URLSearchParams(canonical).toString());
    expect(sent.get('TemplateParam')).toBe('{"code":"1234"}');
  });
});

describe('Aliyun SendSms answers', () => {
  it('maps Code OK to success with the BizId', async () => {
    const result = await providerWith(answering(200, '{"Message":"OK","RequestId":"r1","Code":"OK","BizId":"900619746936498440^0"}')).send(
      message,
    );
    expect(result).toEqual({ ok: true, providerMessageId: '900619746936498440^0' });
  });

  it.each(['isv.BUSINESS_LIMIT_CONTROL', 'isv.DAY_LIMIT_CONTROL'])('maps %s to rate-limited', async (code) => {
    const result = await providerWith(
      answering(200, JSON.stringify({ Code: code, Message: '触发分钟级流控Permits:1', RequestId: 'r2' })),
    ).send(message);
    expect(result).toMatchObject({ ok: false, reason: 'rate-limited' });
    expect(result.ok ? '' : result.detail).toContain(code);
  });

  it('maps isv.MOBILE_NUMBER_ILLEGAL to invalid-phone', async () => {
    const result = await providerWith(answering(200, '{"Code":"isv.MOBILE_NUMBER_ILLEGAL","Message":"非法手机号","RequestId":"r3"}')).send(
      message,
    );
    expect(result).toMatchObject({ ok: false, reason: 'invalid-phone' });
  });

  it('maps any other code to provider-error', async () => {
    const result = await providerWith(
      answering(400, '{"Code":"SignatureDoesNotMatch","Message":"Specified signature is not matched","RequestId":"r4"}'),
    ).send(message);
    expect(result).toEqual({
      ok: false,
      reason: 'provider-error',
      detail: 'HTTP 400 SignatureDoesNotMatch: Specified signature is not matched',
    });
  });

  it('maps an HTTP 500 with a non-JSON page to provider-error', async () => {
    const result = await providerWith(answering(500, '<html>Internal Server Error</html>')).send(message);
    expect(result).toEqual({ ok: false, reason: 'provider-error', detail: 'HTTP 500: answer is not JSON' });
  });

  it('gives up when the provider does not answer in time', async () => {
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const result = await providerWith(hanging, 20).send(message);
    expect(result).toEqual({ ok: false, reason: 'provider-error', detail: 'no answer within 20 ms' });
  });

  it('maps a network failure to provider-error', async () => {
    const result = await providerWith(() => Promise.reject(new Error('getaddrinfo ENOTFOUND dysmsapi.aliyuncs.com'))).send(message);
    expect(result).toEqual({ ok: false, reason: 'provider-error', detail: 'getaddrinfo ENOTFOUND dysmsapi.aliyuncs.com' });
  });
});
