import { createCipheriv, createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '@xcad/protocol';
import type { IncomingNotice, NoticeReading, PaymentRequest } from './pay.provider';
import {
  cutToUtf8Bytes,
  decryptResource,
  h5UrlWithRedirect,
  jsapiSigningMessage,
  requestSigningMessage,
  WechatPayProvider,
  wechatTime,
  type WechatPayConfig,
} from './wechatpay.provider';

const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 });
const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

const pem = (key: KeyObject): string => key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();

const API_V3_KEY = 'a7Kq2Lm9Xz4Tb8Rw1Nc6Vy3Hd5Gf0Pj2';
const config: WechatPayConfig = {
  appid: 'wx6c2d8e0f1a3b5c7d',
  mchid: '1900000109',
  mchSerialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  privateKeyPem: pem(merchant.privateKey),
  apiV3Key: API_V3_KEY,
  platformPublicKeyPem: pem(platform.publicKey),
  platformPublicKeyId: 'PUB_KEY_ID_0119000001092024050100000000000001',
  apiBase: 'https://api.mch.weixin.qq.com/',
};

// 2024-05-01 16:00:00 in Beijing.
const NOW = new Date('2024-05-01T08:00:00.400Z');
const TIMESTAMP = 1714550400;
const NONCE = '5K8264ILTKCH16CQ2502SI8ZNMTM67VS';

const request: PaymentRequest = {
  orderno: 'XC20240501160000123456',
  amountFen: 1990,
  subject: '迅捷CAD编辑器 VIP会员 一年',
  expiresAt: TIMESTAMP + 15 * 60,
  notifyUrl: 'https://www.example.com/api/pay/notify/wxpay',
  clientIp: '203.0.113.7',
  scene: 'desktop',
  returnUrl: 'https://www.example.com/pay/result/XC20240501160000123456',
  openid: null,
};

interface Captured {
  url: string;
  init: RequestInit;
}

interface Signing {
  key?: KeyObject;
  serial?: string;
  timestamp?: string;
  nonce?: string;
  /** The body the signature covers, when it is not the one sent. */
  signedBody?: string;
}

/** The Wechatpay-* headers WeChat Pay puts on an answer or a notice for `body`. */
function wechatpayHeaders(body: string, signing: Signing = {}): Record<string, string> {
  const timestamp = signing.timestamp ?? String(TIMESTAMP);
  const nonce = signing.nonce ?? 'c5ac7061fccab6bf3e254dcf98995b8c';
  const message = `${timestamp}\n${nonce}\n${signing.signedBody ?? body}\n`;
  return {
    'wechatpay-serial': signing.serial ?? config.platformPublicKeyId,
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-signature': sign('sha256', Buffer.from(message), signing.key ?? platform.privateKey).toString('base64'),
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
  };
}

function answering(status: number, body: string, captured: Captured[] = [], signing: Signing | 'unsigned' = {}): FetchLike {
  return (url, init) => {
    captured.push({ url, init });
    const headers = { 'content-type': 'application/json', ...(signing === 'unsigned' ? {} : wechatpayHeaders(body, signing)) };
    return Promise.resolve(new Response(status === 204 ? null : body, { status, headers }));
  };
}

function providerWith(fetchImpl: FetchLike, options: { timeoutMs?: number; now?: Date } = {}): WechatPayProvider {
  return new WechatPayProvider(config, {
    fetch: fetchImpl,
    now: () => options.now ?? NOW,
    nonce: () => NONCE,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}

/** The fields of an Authorization header, or undefined when it is not WeChat Pay's scheme. */
function authorizationFields(header: string): Record<string, string> | undefined {
  const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
  if (match === null) return undefined;
  return Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, key, value]) => [key ?? '', value ?? '']));
}

function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  return new Headers(init?.headers).get(name) ?? undefined;
}

const hanging: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
  });

describe('WeChat Pay request signing', () => {
  it("builds the signature message of the documentation's example (GET /v3/certificates)", () => {
    expect(requestSigningMessage('GET', '/v3/certificates', 1554208460, '593BEC0C930BF1AFEB40B4A08C8FB242', '')).toBe(
      'GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n',
    );
  });

  it('posts the Native order, with an Authorization the merchant public key verifies over the exact body', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(200, '{"code_url":"weixin://wxpay/bizpayurl?pr=p4lpSuKzz"}', captured)).createPayment(request);
    expect(captured).toHaveLength(1);
    const [call] = captured;
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/native');
    expect(call?.init.method).toBe('POST');
    expect(headerOf(call?.init, 'accept')).toBe('application/json');
    expect(headerOf(call?.init, 'content-type')).toBe('application/json');
    expect(headerOf(call?.init, 'user-agent')).toMatch(/\S/);

    const body = String(call?.init.body);
    expect(JSON.parse(body)).toEqual({
      appid: 'wx6c2d8e0f1a3b5c7d',
      mchid: '1900000109',
      description: '迅捷CAD编辑器 VIP会员 一年',
      out_trade_no: 'XC20240501160000123456',
      time_expire: '2024-05-01T16:15:00+08:00',
      notify_url: 'https://www.example.com/api/pay/notify/wxpay',
      amount: { total: 1990, currency: 'CNY' },
    });

    const fields = authorizationFields(headerOf(call?.init, 'authorization') ?? '');
    expect(fields).toMatchObject({ mchid: '1900000109', nonce_str: NONCE, timestamp: String(TIMESTAMP), serial_no: config.mchSerialNo });
    const signature = Buffer.from(fields?.['signature'] ?? '', 'base64');
    const signed = (text: string): boolean =>
      verify('sha256', Buffer.from(`POST\n/v3/pay/transactions/native\n${TIMESTAMP}\n${NONCE}\n${text}\n`), merchant.publicKey, signature);
    expect(signed(body)).toBe(true);
    // The signature covers these very bytes: one amount changed and it no longer holds.
    expect(signed(body.replace('"total":1990', '"total":1'))).toBe(false);
  });

  it('cuts the description to 127 bytes of UTF-8 without splitting a character', async () => {
    const captured: Captured[] = [];
    const subject = '迅捷CAD'.repeat(40);
    await providerWith(answering(200, '{"code_url":"weixin://wxpay/bizpayurl?pr=x"}', captured)).createPayment({ ...request, subject });
    const description = String((JSON.parse(String(captured[0]?.init.body)) as { description: unknown }).description);
    expect(Buffer.byteLength(description)).toBeLessThanOrEqual(127);
    expect(subject.startsWith(description)).toBe(true);
    // 迅捷CAD is 9 bytes: 14 of them make 126, and the 迅 that would follow does not fit.
    expect(description).toBe('迅捷CAD'.repeat(14));

    expect(cutToUtf8Bytes(`${'a'.repeat(125)}迅`, 127)).toBe('a'.repeat(125));
    expect(cutToUtf8Bytes(`${'a'.repeat(124)}📐b`, 127)).toBe(`${'a'.repeat(124)}`);
    expect(cutToUtf8Bytes(`${'a'.repeat(123)}📐b`, 127)).toBe(`${'a'.repeat(123)}📐`);
    expect(cutToUtf8Bytes('会员', 127)).toBe('会员');
  });

  it('writes times as RFC 3339 on the Beijing clock', () => {
    expect(wechatTime(TIMESTAMP)).toBe('2024-05-01T16:00:00+08:00');
    // 2024-12-31 23:30 UTC is already New Year's Day in Beijing.
    expect(wechatTime(Date.UTC(2024, 11, 31, 23, 30, 0) / 1000)).toBe('2025-01-01T07:30:00+08:00');
  });
});

describe('WeChat Pay createPayment answers', () => {
  const good = '{"code_url":"weixin://wxpay/bizpayurl?pr=p4lpSuKzz"}';

  it('gives the code_url of a verified answer', async () => {
    expect(await providerWith(answering(200, good)).createPayment(request)).toEqual({
      ok: true,
      payurl: 'weixin://wxpay/bizpayurl?pr=p4lpSuKzz',
    });
  });

  it.each<[string, Signing | 'unsigned']>([
    ['signed by another key', { key: stranger.privateKey }],
    ['signed over another body', { signedBody: '{"code_url":"weixin://wxpay/bizpayurl?pr=other"}' }],
    ['naming another key id', { serial: 'PUB_KEY_ID_0119000001092024050100000000000002' }],
    ['without signature headers', 'unsigned'],
  ])('refuses an answer %s', async (_case, signing) => {
    const result = await providerWith(answering(200, good, [], signing)).createPayment(request);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.detail).toMatch(/^unverified answer/);
  });

  it("reports WeChat Pay's refusal with its code", async () => {
    const result = await providerWith(answering(400, '{"code":"PARAM_ERROR","message":"参数错误"}')).createPayment(request);
    expect(result).toEqual({ ok: false, detail: 'HTTP 400 PARAM_ERROR: 参数错误' });
  });

  it('fails (without throwing) on a timeout, a network error or a verified answer without code_url', async () => {
    expect(await providerWith(hanging, { timeoutMs: 20 }).createPayment(request)).toEqual({ ok: false, detail: 'no answer within 20 ms' });
    expect(
      await providerWith(() => Promise.reject(new Error('getaddrinfo ENOTFOUND api.mch.weixin.qq.com'))).createPayment(request),
    ).toEqual({
      ok: false,
      detail: 'getaddrinfo ENOTFOUND api.mch.weixin.qq.com',
    });
    expect(await providerWith(answering(200, '{}')).createPayment(request)).toEqual({ ok: false, detail: 'HTTP 200 without code_url' });
  });
});

function transaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    appid: config.appid,
    mchid: config.mchid,
    out_trade_no: request.orderno,
    transaction_id: '4200002160202405016873291234',
    trade_type: 'NATIVE',
    trade_state: 'SUCCESS',
    trade_state_desc: '支付成功',
    bank_type: 'OTHERS',
    success_time: '2024-05-01T16:03:27+08:00',
    payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
    amount: { total: 1990, payer_total: 1990, currency: 'CNY', payer_currency: 'CNY' },
    ...overrides,
  };
}

describe('WeChat Pay queryPayment', () => {
  it('GETs the order by out_trade_no with the mchid, signed over path and query', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(200, JSON.stringify(transaction()), captured)).queryPayment(request.orderno);
    const [call] = captured;
    const path = '/v3/pay/transactions/out-trade-no/XC20240501160000123456?mchid=1900000109';
    expect(call?.url).toBe(`https://api.mch.weixin.qq.com${path}`);
    expect(call?.init.method).toBe('GET');
    expect(call?.init.body).toBeUndefined();
    const fields = authorizationFields(headerOf(call?.init, 'authorization') ?? '');
    const message = `GET\n${path}\n${TIMESTAMP}\n${NONCE}\n\n`;
    expect(verify('sha256', Buffer.from(message), merchant.publicKey, Buffer.from(fields?.['signature'] ?? '', 'base64'))).toBe(true);
  });

  it('reads a verified SUCCESS as paid: transaction id, fen and the time of payment', async () => {
    const state = await providerWith(answering(200, JSON.stringify(transaction()))).queryPayment(request.orderno);
    expect(state).toEqual({
      state: 'paid',
      notice: { orderno: request.orderno, transactionId: '4200002160202405016873291234', amountFen: 1990, paidAt: TIMESTAMP + 3 * 60 + 27 },
    });
  });

  it.each([
    ['NOTPAY', 'unpaid'],
    ['USERPAYING', 'unpaid'],
    ['CLOSED', 'closed'],
    ['REVOKED', 'closed'],
    ['PAYERROR', 'closed'],
    ['REFUND', 'closed'],
  ])('maps trade_state %s to %s', async (tradeState, expected) => {
    const body = JSON.stringify(transaction({ trade_state: tradeState, transaction_id: undefined, success_time: undefined }));
    expect(await providerWith(answering(200, body)).queryPayment(request.orderno)).toEqual({ state: expected });
  });

  it('reads ORDER_NOT_EXIST as unpaid', async () => {
    const state = await providerWith(answering(404, '{"code":"ORDER_NOT_EXIST","message":"订单不存在"}', [], 'unsigned')).queryPayment(
      request.orderno,
    );
    expect(state).toEqual({ state: 'unpaid' });
  });

  it('answers unknown for a server error, a timeout, a network error or an unknown state', async () => {
    expect(await providerWith(answering(500, '{"code":"SYSTEM_ERROR","message":"系统错误"}')).queryPayment(request.orderno)).toEqual({
      state: 'unknown',
      detail: 'HTTP 500 SYSTEM_ERROR: 系统错误',
    });
    expect(await providerWith(hanging, { timeoutMs: 20 }).queryPayment(request.orderno)).toEqual({
      state: 'unknown',
      detail: 'no answer within 20 ms',
    });
    expect((await providerWith(() => Promise.reject(new Error('ECONNRESET'))).queryPayment(request.orderno)).state).toBe('unknown');
    expect(
      (await providerWith(answering(200, JSON.stringify(transaction({ trade_state: 'ACCEPT' })))).queryPayment(request.orderno)).state,
    ).toBe('unknown');
  });

  it('never takes an unverified SUCCESS, or one about another order, as paid', async () => {
    const body = JSON.stringify(transaction());
    expect((await providerWith(answering(200, body, [], { key: stranger.privateKey })).queryPayment(request.orderno)).state).toBe(
      'unknown',
    );
    expect((await providerWith(answering(200, body, [], 'unsigned')).queryPayment(request.orderno)).state).toBe('unknown');
    const other = JSON.stringify(transaction({ out_trade_no: 'XC20240501160000999999' }));
    expect(await providerWith(answering(200, other)).queryPayment(request.orderno)).toEqual({
      state: 'unknown',
      detail: 'answer is about another order',
    });
  });
});

describe('WeChat Pay closePayment', () => {
  it('POSTs the close with the mchid and resolves on 204', async () => {
    const captured: Captured[] = [];
    await expect(providerWith(answering(204, '', captured)).closePayment(request.orderno)).resolves.toBeUndefined();
    const [call] = captured;
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/out-trade-no/XC20240501160000123456/close');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.body).toBe('{"mchid":"1900000109"}');
  });

  it('does not throw when WeChat Pay cannot be reached', async () => {
    await expect(providerWith(() => Promise.reject(new Error('ETIMEDOUT'))).closePayment(request.orderno)).resolves.toBeUndefined();
  });
});

interface NoticeParts {
  transaction?: Record<string, unknown>;
  eventType?: string;
  key?: string;
  associatedData?: string;
  nonce?: string;
}

/** A TRANSACTION.SUCCESS notice body, its resource sealed with AES-256-GCM as WeChat Pay does. */
function noticeBody(parts: NoticeParts = {}): string {
  const nonce = parts.nonce ?? 'fdasflkja484';
  const associatedData = parts.associatedData ?? 'transaction';
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(parts.key ?? API_V3_KEY), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(parts.transaction ?? transaction())), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({
    id: 'EV-2018022511223320873',
    create_time: '2024-05-01T16:03:28+08:00',
    resource_type: 'encrypt-resource',
    event_type: parts.eventType ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: {
      original_type: 'transaction',
      algorithm: 'AEAD_AES_256_GCM',
      ciphertext: sealed.toString('base64'),
      associated_data: associatedData,
      nonce,
    },
  });
}

function notice(body: string, signing: Signing = {}): IncomingNotice {
  return { headers: { 'content-type': 'application/json', ...wechatpayHeaders(body, signing) }, rawBody: body };
}

async function read(incoming: IncomingNotice, now: Date = NOW): Promise<NoticeReading> {
  return providerWith(() => Promise.reject(new Error('no calls expected')), { now }).readNotice(incoming);
}

describe('WeChat Pay notices', () => {
  it('reads a genuine TRANSACTION.SUCCESS as paid, with the fen of amount.total', async () => {
    expect(await read(notice(noticeBody()))).toEqual({
      kind: 'paid',
      notice: { orderno: request.orderno, transactionId: '4200002160202405016873291234', amountFen: 1990, paidAt: TIMESTAMP + 207 },
    });
  });

  it('finds the headers whatever their case', async () => {
    const body = noticeBody();
    const headers = Object.fromEntries(
      Object.entries(wechatpayHeaders(body)).map(([key, value]) => [key.replace(/(^|-)w/g, (w) => w.toUpperCase()), value]),
    );
    expect((await read({ headers, rawBody: body })).kind).toBe('paid');
  });

  it('accepts a notice up to 300 s away from the clock and refuses an older or later one', async () => {
    const body = noticeBody();
    expect((await read(notice(body, { timestamp: String(TIMESTAMP - 300) }))).kind).toBe('paid');
    expect(await read(notice(body, { timestamp: String(TIMESTAMP - 301) }))).toEqual({
      kind: 'invalid',
      detail: 'notice timestamp 301 s off',
    });
    expect((await read(notice(body, { timestamp: String(TIMESTAMP + 400) }))).kind).toBe('invalid');
    expect((await read(notice(body, { timestamp: 'yesterday' }))).kind).toBe('invalid');
  });

  it.each<[string, (body: string) => IncomingNotice]>([
    ['signed by another key', (body) => notice(body, { key: stranger.privateKey })],
    ['signed by the merchant key', (body) => notice(body, { key: merchant.privateKey })],
    ['naming another key id', (body) => notice(body, { serial: 'PUB_KEY_ID_0119000001092024050100000000000002' })],
    [
      'whose body was changed after signing',
      (body) => ({ ...notice(body), rawBody: body.replace('"summary":"支付成功"', '"summary":"支付成功 "') }),
    ],
    ['without a signature', (body) => ({ headers: { 'content-type': 'application/json' }, rawBody: body })],
  ])('refuses a notice %s', async (_case, make) => {
    const reading = await read(make(noticeBody()));
    expect(reading.kind).toBe('invalid');
  });

  it('refuses a properly signed notice whose resource does not open under the APIv3 key', async () => {
    // Each of these is signed as WeChat Pay would sign it, so only the AES-GCM check can catch it.
    const tamperedCiphertext = JSON.parse(noticeBody()) as { resource: { ciphertext: string } };
    const sealed = Buffer.from(tamperedCiphertext.resource.ciphertext, 'base64');
    sealed[10] = (sealed[10] ?? 0) ^ 0x01;
    tamperedCiphertext.resource.ciphertext = sealed.toString('base64');
    const otherAad = JSON.parse(noticeBody()) as { resource: { associated_data: string } };
    otherAad.resource.associated_data = 'certificate';

    for (const body of [JSON.stringify(tamperedCiphertext), JSON.stringify(otherAad), noticeBody({ key: 'b'.repeat(32) })]) {
      expect(await read(notice(body))).toEqual({ kind: 'invalid', detail: 'resource does not decrypt with the APIv3 key' });
    }
  });

  it('refuses a genuine notice about another merchant or app', async () => {
    for (const overrides of [{ mchid: '1900000110' }, { appid: 'wx0000000000000000' }]) {
      expect(await read(notice(noticeBody({ transaction: transaction(overrides) })))).toEqual({
        kind: 'invalid',
        detail: 'transaction of another merchant or app',
      });
    }
  });

  it('ignores genuine notices with nothing to grant', async () => {
    // Refund events are read as refunds (decision 0043, below); any other event is not ours to act on.
    expect(await read(notice(noticeBody({ eventType: 'MCHTRANSFER.BILL.FINISHED' })))).toEqual({
      kind: 'ignored',
      detail: 'event_type MCHTRANSFER.BILL.FINISHED',
    });
    expect(await read(notice(noticeBody({ transaction: transaction({ trade_state: 'CLOSED' }) })))).toEqual({
      kind: 'ignored',
      detail: 'trade_state CLOSED',
    });
  });

  it('opens a resource sealed as documented: tag after the ciphertext, nonce as IV, associated_data as AAD', () => {
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(API_V3_KEY), Buffer.from('0123456789ab'));
    cipher.setAAD(Buffer.from('transaction'));
    const ciphertext = Buffer.concat([cipher.update('{"trade_state":"SUCCESS"}'), cipher.final(), cipher.getAuthTag()]).toString('base64');
    expect(decryptResource(API_V3_KEY, { ciphertext, nonce: '0123456789ab', associatedData: 'transaction' })).toBe(
      '{"trade_state":"SUCCESS"}',
    );
    expect(decryptResource(API_V3_KEY, { ciphertext, nonce: '0123456789ac', associatedData: 'transaction' })).toBeUndefined();
    expect(decryptResource(API_V3_KEY, { ciphertext: 'AAAA', nonce: '0123456789ab', associatedData: 'transaction' })).toBeUndefined();
    expect(decryptResource('short', { ciphertext, nonce: '0123456789ab', associatedData: 'transaction' })).toBeUndefined();
  });

  it('answers 204 once handled, a 400 FAIL to a notice not its own and a 500 FAIL to be asked again', () => {
    const provider = providerWith(answering(200, '{}'));
    expect(provider.noticeReply('handled')).toMatchObject({ status: 204, body: '' });
    for (const [outcome, status] of [
      ['invalid', 400],
      ['failed', 500],
    ] as const) {
      const retry = provider.noticeReply(outcome);
      expect(retry.status).toBe(status);
      expect(retry.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(retry.body)).toEqual({ code: 'FAIL', message: '失败' });
    }
  });
});

// Decision 0043: H5 and JSAPI payments, refunds and their notices.

/** Whether the merchant's key signed `message` (the Authorization of a call, or a JSAPI paySign). */
function merchantSigned(message: string, signature: string): boolean {
  return verify('sha256', Buffer.from(message), merchant.publicKey, Buffer.from(signature, 'base64'));
}

describe('WeChat Pay H5 (a phone browser)', () => {
  it('posts /v3/pay/transactions/h5 with the scene_info, signed, and appends the redirect_url to h5_url', async () => {
    const captured: Captured[] = [];
    const answer =
      '{"h5_url":"https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016121516420242444321ca0631331346&package=1405458241"}';
    const created = await providerWith(answering(200, answer, captured)).createPayment({ ...request, scene: 'mobile' });
    const [call] = captured;
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/h5');
    const body = String(call?.init.body);
    expect(JSON.parse(body)).toMatchObject({
      out_trade_no: request.orderno,
      amount: { total: 1990, currency: 'CNY' },
      scene_info: { payer_client_ip: '203.0.113.7', h5_info: { type: 'Wap' } },
    });
    const fields = authorizationFields(headerOf(call?.init, 'authorization') ?? '');
    expect(merchantSigned(`POST\n/v3/pay/transactions/h5\n${TIMESTAMP}\n${NONCE}\n${body}\n`, fields?.['signature'] ?? '')).toBe(true);
    expect(created).toEqual({
      ok: true,
      payurl:
        'https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb?prepay_id=wx2016121516420242444321ca0631331346&package=1405458241' +
        '&redirect_url=https%3A%2F%2Fwww.example.com%2Fpay%2Fresult%2FXC20240501160000123456',
    });
    expect(h5UrlWithRedirect('https://wx.tenpay.com/x', 'https://a.b/c?d=1')).toBe(
      'https://wx.tenpay.com/x?redirect_url=https%3A%2F%2Fa.b%2Fc%3Fd%3D1',
    );
  });

  it('refuses an unverified h5_url', async () => {
    const result = await providerWith(answering(200, '{"h5_url":"https://evil.example/"}', [], { key: stranger.privateKey })).createPayment(
      {
        ...request,
        scene: 'mobile',
      },
    );
    expect(result.ok).toBe(false);
  });
});

describe('WeChat Pay JSAPI (inside WeChat)', () => {
  it("posts /v3/pay/transactions/jsapi with the payer's openid and signs the pay sheet's parameters (paySign)", async () => {
    const captured: Captured[] = [];
    const created = await providerWith(answering(200, '{"prepay_id":"wx201410272009395522657a690389285100"}', captured)).createPayment({
      ...request,
      scene: 'wechat',
      openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o',
    });
    const [call] = captured;
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/pay/transactions/jsapi');
    expect(JSON.parse(String(call?.init.body))).toMatchObject({ payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' } });
    expect(created.ok).toBe(true);
    const jsapi = created.ok ? created.jsapi : undefined;
    expect(jsapi).toMatchObject({
      appId: config.appid,
      timeStamp: String(TIMESTAMP),
      nonceStr: NONCE,
      package: 'prepay_id=wx201410272009395522657a690389285100',
      signType: 'RSA',
    });
    // The documented message: appId, timeStamp, nonceStr, package, each followed by a newline.
    const message = `${config.appid}\n${TIMESTAMP}\n${NONCE}\nprepay_id=wx201410272009395522657a690389285100\n`;
    expect(jsapiSigningMessage(config.appid, String(TIMESTAMP), NONCE, 'prepay_id=wx201410272009395522657a690389285100')).toBe(message);
    expect(merchantSigned(message, jsapi?.paySign ?? '')).toBe(true);
    expect(merchantSigned(message.replace('prepay_id=wx2014', 'prepay_id=wx2015'), jsapi?.paySign ?? '')).toBe(false);
  });

  it('asks nothing without an openid', async () => {
    const captured: Captured[] = [];
    expect(await providerWith(answering(200, '{}', captured)).createPayment({ ...request, scene: 'wechat' })).toEqual({
      ok: false,
      detail: 'JSAPI without an openid',
    });
    expect(captured).toHaveLength(0);
  });
});

const refundRequest = {
  orderno: request.orderno,
  transactionId: '4200002160202405016873291234',
  refundNo: 'RF20240502100000001',
  amountFen: 990,
  totalFen: 1990,
  reason: '用户申请退款',
  notifyUrl: 'https://www.example.com/api/pay/notify/wechatpay',
};

function refundBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    refund_id: '50000000382019052709732678859',
    out_refund_no: refundRequest.refundNo,
    transaction_id: refundRequest.transactionId,
    out_trade_no: request.orderno,
    channel: 'ORIGINAL',
    user_received_account: '支付用户零钱',
    status: 'PROCESSING',
    amount: { total: 1990, refund: 990, payer_total: 1990, payer_refund: 990, currency: 'CNY' },
    ...overrides,
  };
}

describe('WeChat Pay refunds', () => {
  it('posts /v3/refund/domestic/refunds signed over its body, and reads PROCESSING and SUCCESS', async () => {
    const captured: Captured[] = [];
    const outcome = await providerWith(answering(200, JSON.stringify(refundBody()), captured)).refund(refundRequest);
    expect(outcome).toEqual({ state: 'processing', providerRefundId: '50000000382019052709732678859' });
    const [call] = captured;
    expect(call?.url).toBe('https://api.mch.weixin.qq.com/v3/refund/domestic/refunds');
    const body = String(call?.init.body);
    expect(JSON.parse(body)).toEqual({
      out_trade_no: request.orderno,
      out_refund_no: 'RF20240502100000001',
      reason: '用户申请退款',
      notify_url: 'https://www.example.com/api/pay/notify/wechatpay',
      amount: { refund: 990, total: 1990, currency: 'CNY' },
    });
    const fields = authorizationFields(headerOf(call?.init, 'authorization') ?? '');
    expect(merchantSigned(`POST\n/v3/refund/domestic/refunds\n${TIMESTAMP}\n${NONCE}\n${body}\n`, fields?.['signature'] ?? '')).toBe(true);
    expect(await providerWith(answering(200, JSON.stringify(refundBody({ status: 'SUCCESS' })))).refund(refundRequest)).toMatchObject({
      state: 'succeeded',
    });
  });

  it('reads a refusal as failed (nothing moved), an unverified answer or a 5XX as unknown', async () => {
    expect(
      await providerWith(answering(403, '{"code":"NOT_ENOUGH","message":"基本账户余额不足"}', [], 'unsigned')).refund(refundRequest),
    ).toEqual({
      state: 'failed',
      detail: 'HTTP 403 NOT_ENOUGH: 基本账户余额不足',
    });
    expect(
      (await providerWith(answering(200, JSON.stringify(refundBody()), [], { key: stranger.privateKey })).refund(refundRequest)).state,
    ).toBe('unknown');
    expect((await providerWith(answering(500, '{"code":"SYSTEM_ERROR"}', [], 'unsigned')).refund(refundRequest)).state).toBe('unknown');
  });

  it('queries a refund by out_refund_no', async () => {
    const captured: Captured[] = [];
    const outcome = await providerWith(answering(200, JSON.stringify(refundBody({ status: 'SUCCESS' })), captured)).queryRefund(
      refundRequest,
    );
    expect(captured[0]?.url).toBe('https://api.mch.weixin.qq.com/v3/refund/domestic/refunds/RF20240502100000001');
    expect(outcome).toEqual({ state: 'succeeded', providerRefundId: '50000000382019052709732678859' });
  });

  it('reads a REFUND.SUCCESS notice (signed, resource sealed with AES-256-GCM) and refuses a tampered one', async () => {
    const plain = { mchid: config.mchid, ...refundBody({ status: undefined, refund_status: 'SUCCESS' }) };
    const body = noticeBody({ transaction: plain, eventType: 'REFUND.SUCCESS', associatedData: 'refund' });
    expect(await read(notice(body))).toEqual({
      kind: 'refund',
      refund: {
        orderno: request.orderno,
        refundNo: 'RF20240502100000001',
        providerRefundId: '50000000382019052709732678859',
        amountFen: 990,
        state: 'succeeded',
      },
    });
    expect((await read(notice(body, { key: stranger.privateKey }))).kind).toBe('invalid');
    const sealedWithAnotherKey = noticeBody({ transaction: plain, eventType: 'REFUND.SUCCESS', key: 'b'.repeat(32) });
    expect((await read(notice(sealedWithAnotherKey))).kind).toBe('invalid');
    const abnormal = noticeBody({ transaction: { ...plain, refund_status: 'ABNORMAL' }, eventType: 'REFUND.ABNORMAL' });
    expect(await read(notice(abnormal))).toMatchObject({ kind: 'refund', refund: { state: 'failed' } });
  });
});

describe('WeChat Pay tradebill (reconciliation)', () => {
  const bill = readFileSync(new URL('./statements/wechat-tradebill-2026-11-28.csv', import.meta.url), 'utf8');
  const downloadUrl =
    'https://api.mch.weixin.qq.com/v3/billdownload/file?token=6XIv5TUPto7pByrTQKhd6kwvyKLG2uY2wMMR8cNXqaA_Cv_isgaUtBzp4QtiozLO';

  function billFetch(captured: Captured[], hash: string): FetchLike {
    return (url, init) => {
      captured.push({ url, init });
      if (url.includes('/v3/bill/tradebill')) {
        const body = JSON.stringify({ hash_type: 'SHA1', hash_value: hash, download_url: downloadUrl });
        return Promise.resolve(new Response(body, { status: 200, headers: wechatpayHeaders(body) }));
      }
      return Promise.resolve(new Response(bill, { status: 200 }));
    };
  }

  it('asks for the bill (signed GET), downloads the file (signed too), checks its SHA1 and reads it', async () => {
    const captured: Captured[] = [];
    const rows = await providerWith(billFetch(captured, createHash('sha1').update(bill).digest('hex'))).downloadStatement('2026-11-28');
    expect(Array.isArray(rows) ? rows.length : rows).toBe(3);
    const path = '/v3/bill/tradebill?bill_date=2026-11-28&bill_type=ALL';
    expect(captured[0]?.url).toBe(`https://api.mch.weixin.qq.com${path}`);
    const fields = authorizationFields(headerOf(captured[0]?.init, 'authorization') ?? '');
    expect(merchantSigned(`GET\n${path}\n${TIMESTAMP}\n${NONCE}\n\n`, fields?.['signature'] ?? '')).toBe(true);
    expect(captured[1]?.url).toBe(downloadUrl);
    const fileFields = authorizationFields(headerOf(captured[1]?.init, 'authorization') ?? '');
    const filePath = downloadUrl.slice('https://api.mch.weixin.qq.com'.length);
    expect(merchantSigned(`GET\n${filePath}\n${TIMESTAMP}\n${NONCE}\n\n`, fileFields?.['signature'] ?? '')).toBe(true);
  });

  it('refuses a file whose SHA1 is not the one the signed answer gave', async () => {
    expect(await providerWith(billFetch([], 'da39a3ee5e6b4b0d3255bfef95601890afd80709')).downloadStatement('2026-11-28')).toBe(
      'bill file does not match its SHA1',
    );
  });
});
