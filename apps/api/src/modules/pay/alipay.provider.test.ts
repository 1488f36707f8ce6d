import { generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TextDecoder } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  alipaySigningContent,
  alipayTime,
  AlipayProvider,
  noticeSigningBytes,
  parseForm,
  topLevelMembers,
  type AlipayConfig,
} from './alipay.provider';
import { fenOf, yuanOf } from './pay-adapter';
import type { FetchLike } from '@xcad/protocol';
import type { IncomingNotice, NoticeReading, PaymentRequest } from './pay.provider';

const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

const pem = (key: KeyObject): string => key.export({ type: key.type === 'private' ? 'pkcs8' : 'spki', format: 'pem' }).toString();

const config: AlipayConfig = {
  appId: '2021004100000001',
  privateKeyPem: pem(app.privateKey),
  alipayPublicKeyPem: pem(alipay.publicKey),
  gateway: 'https://openapi.alipay.com/gateway.do',
};

// 2024-05-01 16:00:00 in Beijing.
const NOW = new Date('2024-05-01T08:00:00.400Z');
const TIMESTAMP = 1714550400;

const request: PaymentRequest = {
  orderno: 'XC20240501160000123456',
  amountFen: 1990,
  subject: '迅捷CAD编辑器 VIP会员 一年',
  expiresAt: TIMESTAMP + 15 * 60,
  notifyUrl: 'https://www.example.com/api/pay/notify/alipay',
  clientIp: '203.0.113.7',
  scene: 'desktop',
  returnUrl: 'https://www.example.com/pay/result/XC20240501160000123456',
  openid: null,
};

interface Captured {
  url: string;
  init: RequestInit;
}

/**
 * An answer as the gateway writes it: the response node's text exactly as given (spacing and
 * `\/` escapes included) and a sign over that text; `signedNode` signs other text instead.
 */
function answerText(nodeName: string, nodeText: string, signing: { key?: KeyObject; signedNode?: string } | 'unsigned' = {}): string {
  if (signing === 'unsigned') return `{"${nodeName}":${nodeText}}`;
  const signature = sign('sha256', Buffer.from(signing.signedNode ?? nodeText), signing.key ?? alipay.privateKey).toString('base64');
  return `{"${nodeName}":${nodeText},"sign":"${signature}"}`;
}

function answering(text: string, captured: Captured[] = [], status = 200): FetchLike {
  return (url, init) => {
    captured.push({ url, init });
    return Promise.resolve(new Response(text, { status, headers: { 'content-type': 'text/html;charset=utf-8' } }));
  };
}

function providerWith(fetchImpl: FetchLike, timeoutMs?: number): AlipayProvider {
  return new AlipayProvider(config, { fetch: fetchImpl, now: () => NOW, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

const hanging: FetchLike = (_url, init) =>
  new Promise((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new Error('aborted')));
  });

const PRECREATE_OK =
  '{"code":"10000","msg":"Success","out_trade_no":"XC20240501160000123456","qr_code":"https:\\/\\/qr.alipay.com\\/bax03431ljhokirwl38f00a7"}';

describe('Alipay request signing', () => {
  it('signs the sorted raw parameters, leaving out sign and empty values', () => {
    const content = alipaySigningContent({
      sign_type: 'RSA2',
      method: 'alipay.trade.query',
      app_id: '2014072300007148',
      biz_content: '{"out_trade_no":"20150320010101001"}',
      charset: 'utf-8',
      timestamp: '2014-07-24 03:07:50',
      version: '1.0',
      notify_url: '',
      sign: 'leftover',
    });
    expect(content).toBe(
      'app_id=2014072300007148&biz_content={"out_trade_no":"20150320010101001"}&charset=utf-8&method=alipay.trade.query&sign_type=RSA2&timestamp=2014-07-24 03:07:50&version=1.0',
    );
  });

  it('posts a signed, form-encoded precreate the app public key verifies', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(answerText('alipay_trade_precreate_response', PRECREATE_OK), captured)).createPayment(request);
    expect(captured).toHaveLength(1);
    const [call] = captured;
    expect(call?.url).toBe('https://openapi.alipay.com/gateway.do');
    expect(call?.init.method).toBe('POST');
    expect(new Headers(call?.init.headers).get('content-type')).toBe('application/x-www-form-urlencoded;charset=utf-8');

    const sent = Object.fromEntries(new URLSearchParams(String(call?.init.body)));
    const bizContent =
      '{"out_trade_no":"XC20240501160000123456","total_amount":"19.90","subject":"迅捷CAD编辑器 VIP会员 一年","time_expire":"2024-05-01 16:15:00"}';
    expect(sent).toMatchObject({
      app_id: '2021004100000001',
      method: 'alipay.trade.precreate',
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: '2024-05-01 16:00:00',
      version: '1.0',
      notify_url: 'https://www.example.com/api/pay/notify/alipay',
      biz_content: bizContent,
    });
    // Written out by hand: values raw, Chinese and JSON as they are, not URL-encoded.
    const content = [
      'app_id=2021004100000001',
      `biz_content=${bizContent}`,
      'charset=utf-8',
      'format=JSON',
      'method=alipay.trade.precreate',
      'notify_url=https://www.example.com/api/pay/notify/alipay',
      'sign_type=RSA2',
      'timestamp=2024-05-01 16:00:00',
      'version=1.0',
    ].join('&');
    const signature = Buffer.from(sent['sign'] ?? '', 'base64');
    expect(verify('sha256', Buffer.from(content), app.publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from(content.replace('19.90', '0.01')), app.publicKey, signature)).toBe(false);
  });

  it('writes money as yuan with two decimals and times on the Beijing clock', () => {
    expect([1, 10, 100, 1990, 29_900, 123_456_789].map(yuanOf)).toEqual(['0.01', '0.10', '1.00', '19.90', '299.00', '1234567.89']);
    expect(alipayTime(TIMESTAMP)).toBe('2024-05-01 16:00:00');
    expect(alipayTime(Date.UTC(2024, 11, 31, 23, 30, 0) / 1000)).toBe('2025-01-01 07:30:00');
  });
});

describe('Alipay createPayment answers', () => {
  it('gives the qr_code of a verified answer, checked over the node text as sent', async () => {
    // Re-serialising the parsed node would drop the \/ escapes and break this signature.
    const result = await providerWith(answering(answerText('alipay_trade_precreate_response', PRECREATE_OK))).createPayment(request);
    expect(result).toEqual({ ok: true, payurl: 'https://qr.alipay.com/bax03431ljhokirwl38f00a7' });
  });

  it.each<[string, string]>([
    ['signed by another key', answerText('alipay_trade_precreate_response', PRECREATE_OK, { key: stranger.privateKey })],
    [
      'signed over another node',
      answerText('alipay_trade_precreate_response', PRECREATE_OK, { signedNode: PRECREATE_OK.replace('bax03431', 'bax99999') }),
    ],
    ['without sign', answerText('alipay_trade_precreate_response', PRECREATE_OK, 'unsigned')],
  ])('refuses a success %s', async (_case, text) => {
    expect(await providerWith(answering(text)).createPayment(request)).toEqual({
      ok: false,
      detail: 'unverified answer (bad or missing sign)',
    });
  });

  it('reports a refusal with its sub_code and sub_msg', async () => {
    const node = '{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TOTAL_FEE_EXCEED","sub_msg":"订单金额超过限额"}';
    const result = await providerWith(answering(answerText('alipay_trade_precreate_response', node))).createPayment(request);
    expect(result).toEqual({ ok: false, detail: '40004 Business Failed: ACQ.TOTAL_FEE_EXCEED 订单金额超过限额' });
  });

  it('reports an unsigned error_response', async () => {
    const node = '{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-app-id","sub_msg":"无效的AppID参数"}';
    const result = await providerWith(answering(answerText('error_response', node, 'unsigned'))).createPayment(request);
    expect(result).toEqual({ ok: false, detail: '40002 Invalid Arguments: isv.invalid-app-id 无效的AppID参数' });
  });

  it('fails (without throwing) on a timeout, a network error, an HTTP error or a page that is not JSON', async () => {
    expect(await providerWith(hanging, 20).createPayment(request)).toEqual({ ok: false, detail: 'no answer within 20 ms' });
    expect(await providerWith(() => Promise.reject(new Error('ECONNREFUSED'))).createPayment(request)).toEqual({
      ok: false,
      detail: 'ECONNREFUSED',
    });
    expect(await providerWith(answering('Bad Gateway', [], 502)).createPayment(request)).toEqual({ ok: false, detail: 'HTTP 502' });
    expect(await providerWith(answering('<html>系统繁忙</html>')).createPayment(request)).toEqual({
      ok: false,
      detail: 'answer is not a JSON object',
    });
  });
});

function queryNode(tradeStatus: string, extra = ''): string {
  return `{"code":"10000","msg":"Success","buyer_logon_id":"159****5620","buyer_pay_amount":"19.90","out_trade_no":"XC20240501160000123456","send_pay_date":"2024-05-01 16:03:27","total_amount":"19.90","trade_no":"2024050122001480381423456789","trade_status":"${tradeStatus}"${extra}}`;
}

describe('Alipay queryPayment', () => {
  it('asks alipay.trade.query for the order, with no notify_url', async () => {
    const captured: Captured[] = [];
    await providerWith(answering(answerText('alipay_trade_query_response', queryNode('WAIT_BUYER_PAY')), captured)).queryPayment(
      request.orderno,
    );
    const sent = new URLSearchParams(String(captured[0]?.init.body));
    expect(sent.get('method')).toBe('alipay.trade.query');
    expect(sent.get('biz_content')).toBe('{"out_trade_no":"XC20240501160000123456"}');
    expect(sent.has('notify_url')).toBe(false);
  });

  it.each(['TRADE_SUCCESS', 'TRADE_FINISHED'])('reads a verified %s as paid, in exact fen and Beijing time', async (status) => {
    const state = await providerWith(answering(answerText('alipay_trade_query_response', queryNode(status)))).queryPayment(request.orderno);
    expect(state).toEqual({
      state: 'paid',
      notice: { orderno: request.orderno, transactionId: '2024050122001480381423456789', amountFen: 1990, paidAt: TIMESTAMP + 207 },
    });
  });

  it('maps WAIT_BUYER_PAY to unpaid, TRADE_CLOSED to closed and ACQ.TRADE_NOT_EXIST to unpaid', async () => {
    const ask = async (text: string): Promise<unknown> => providerWith(answering(text)).queryPayment(request.orderno);
    expect(await ask(answerText('alipay_trade_query_response', queryNode('WAIT_BUYER_PAY')))).toEqual({ state: 'unpaid' });
    expect(await ask(answerText('alipay_trade_query_response', queryNode('TRADE_CLOSED')))).toEqual({ state: 'closed' });
    const missing =
      '{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_NOT_EXIST","sub_msg":"交易不存在","out_trade_no":"XC20240501160000123456"}';
    expect(await ask(answerText('alipay_trade_query_response', missing))).toEqual({ state: 'unpaid' });
  });

  it('answers unknown for a system error, a network failure or an unverified payment', async () => {
    const busy = '{"code":"20000","msg":"Service Currently Unavailable","sub_code":"aop.ACQ.SYSTEM_ERROR","sub_msg":"系统繁忙"}';
    expect(await providerWith(answering(answerText('alipay_trade_query_response', busy))).queryPayment(request.orderno)).toEqual({
      state: 'unknown',
      detail: '20000 Service Currently Unavailable: aop.ACQ.SYSTEM_ERROR 系统繁忙',
    });
    expect((await providerWith(hanging, 20).queryPayment(request.orderno)).state).toBe('unknown');
    const forged = answerText('alipay_trade_query_response', queryNode('TRADE_SUCCESS'), { key: stranger.privateKey });
    expect((await providerWith(answering(forged)).queryPayment(request.orderno)).state).toBe('unknown');
    const closedForged = answerText('alipay_trade_query_response', queryNode('TRADE_CLOSED'), 'unsigned');
    expect((await providerWith(answering(closedForged)).queryPayment(request.orderno)).state).toBe('unknown');
  });

  it('reads amounts as decimal text, so no float error creeps into the fen', () => {
    expect(['0.01', '0.07', '0.29', '1.1', '4.35', '19.90', '20', '1234567.89'].map(fenOf)).toEqual([
      1, 7, 29, 110, 435, 1990, 2000, 123_456_789,
    ]);
    expect(['19.999', '-1.00', '1e3', '', '19.9 ', '１９.９0'].map(fenOf)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('Alipay closePayment', () => {
  it('closes the unpaid trade by out_trade_no (close, which never refunds, not cancel)', async () => {
    const captured: Captured[] = [];
    const node = '{"code":"10000","msg":"Success","out_trade_no":"XC20240501160000123456","trade_no":"2024050122001400000000000001"}';
    await expect(
      providerWith(answering(answerText('alipay_trade_close_response', node), captured)).closePayment(request.orderno),
    ).resolves.toBeUndefined();
    const sent = new URLSearchParams(String(captured[0]?.init.body));
    expect(sent.get('method')).toBe('alipay.trade.close');
    expect(sent.get('biz_content')).toBe('{"out_trade_no":"XC20240501160000123456"}');
  });

  it('does not throw when Alipay cannot be reached', async () => {
    await expect(providerWith(() => Promise.reject(new Error('ETIMEDOUT'))).closePayment(request.orderno)).resolves.toBeUndefined();
  });
});

/** The fields of an asynchronous notice for a paid trade, as Alipay posts them. */
function noticeFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    gmt_create: '2024-05-01 16:03:20',
    charset: 'utf-8',
    seller_email: 'pay@example.com',
    subject: '迅捷CAD编辑器 VIP会员 一年',
    buyer_id: '2088102177846880',
    invoice_amount: '19.90',
    notify_id: '2024050100222160327046801453561234',
    fund_bill_list: '[{"amount":"19.90","fundChannel":"ALIPAYACCOUNT"}]',
    notify_type: 'trade_status_sync',
    trade_status: 'TRADE_SUCCESS',
    receipt_amount: '19.90',
    app_id: config.appId,
    buyer_pay_amount: '19.90',
    seller_id: '2088102176341234',
    gmt_payment: '2024-05-01 16:03:27',
    notify_time: '2024-05-01 16:03:28',
    version: '1.0',
    out_trade_no: request.orderno,
    total_amount: '19.90',
    trade_no: '2024050122001480381423456789',
    auth_app_id: config.appId,
    buyer_logon_id: '159****5620',
    point_amount: '0.00',
    passback_params: '',
    ...overrides,
  };
}

/** A notice body signed as Alipay signs it: all but sign and sign_type, sorted, raw values. */
function noticeBody(fields: Record<string, string>, key: KeyObject = alipay.privateKey): string {
  const content = Object.keys(fields)
    .sort()
    .map((name) => `${name}=${fields[name] ?? ''}`)
    .join('&');
  const signature = sign('sha256', Buffer.from(content), key).toString('base64');
  return new URLSearchParams({ ...fields, sign: signature, sign_type: 'RSA2' }).toString();
}

async function read(rawBody: string): Promise<NoticeReading> {
  const incoming: IncomingNotice = { headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, rawBody };
  return providerWith(() => Promise.reject(new Error('no calls expected'))).readNotice(incoming);
}

describe('Alipay notices', () => {
  it('reads a genuine TRADE_SUCCESS as paid, with the fen of total_amount', async () => {
    expect(await read(noticeBody(noticeFields()))).toEqual({
      kind: 'paid',
      notice: { orderno: request.orderno, transactionId: '2024050122001480381423456789', amountFen: 1990, paidAt: TIMESTAMP + 207 },
    });
    expect((await read(noticeBody(noticeFields({ trade_status: 'TRADE_FINISHED' })))).kind).toBe('paid');
  });

  it('also reads a body encoded with %20 rather than +', async () => {
    const body = noticeBody(noticeFields()).replace(/\+/g, '%20');
    expect((await read(body)).kind).toBe('paid');
  });

  it('refuses a tampered or forged notice', async () => {
    const genuine = noticeBody(noticeFields());
    expect(await read(genuine.replace('total_amount=19.90', 'total_amount=0.01'))).toEqual({ kind: 'invalid', detail: 'bad sign' });
    expect(await read(noticeBody(noticeFields(), stranger.privateKey))).toEqual({ kind: 'invalid', detail: 'bad sign' });
    expect(await read(noticeBody(noticeFields(), app.privateKey))).toEqual({ kind: 'invalid', detail: 'bad sign' });
    expect(await read(genuine.replace(/&sign=[^&]*/, ''))).toEqual({ kind: 'invalid', detail: 'notice without sign' });
    expect(await read(genuine.replace('sign_type=RSA2', 'sign_type=RSA'))).toEqual({ kind: 'invalid', detail: 'sign_type RSA' });
    // A second total_amount after the signed one must not slip through.
    expect(await read(`${genuine}&total_amount=0.01`)).toEqual({ kind: 'invalid', detail: 'body: field total_amount given twice' });
    expect((await read('total_amount=%zz')).kind).toBe('invalid');
  });

  it('refuses a genuine notice for another app', async () => {
    expect(await read(noticeBody(noticeFields({ app_id: '2021004100000002' })))).toEqual({
      kind: 'invalid',
      detail: 'notice for app 2021004100000002',
    });
  });

  it('ignores genuine notices with nothing to grant', async () => {
    expect(await read(noticeBody(noticeFields({ trade_status: 'WAIT_BUYER_PAY' })))).toEqual({
      kind: 'ignored',
      detail: 'trade_status WAIT_BUYER_PAY',
    });
    expect(await read(noticeBody(noticeFields({ trade_status: 'TRADE_CLOSED' })))).toEqual({
      kind: 'ignored',
      detail: 'trade_status TRADE_CLOSED',
    });
  });

  it('honours a gbk notice: decodes its text and checks the sign over its gbk bytes', async () => {
    // 迅捷CAD 年度会员 in GBK.
    const subjectGbk = Buffer.from('d1b8bddd43414420c4eab6c8bbe1d4b1', 'hex');
    expect(new TextDecoder('gbk').decode(subjectGbk)).toBe('迅捷CAD 年度会员');
    const fields = noticeFields({ charset: 'gbk' });
    delete fields['subject'];
    const ascii = Object.keys({ ...fields, subject: '' })
      .sort()
      .map((name) =>
        name === 'subject' ? Buffer.concat([Buffer.from('subject='), subjectGbk]) : Buffer.from(`${name}=${fields[name] ?? ''}`),
      );
    const signed = Buffer.concat(ascii.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from('&'), part])));
    const signature = sign('sha256', signed, alipay.privateKey).toString('base64');
    const percent = [...subjectGbk].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const body = `${new URLSearchParams({ ...fields, sign: signature, sign_type: 'RSA2' }).toString()}&subject=${percent}`;

    const form = parseForm(body);
    expect(typeof form === 'string' ? form : form.fields.get('subject')).toBe('迅捷CAD 年度会员');
    expect((await read(body)).kind).toBe('paid');
    // The same body declared utf-8 holds bytes that are not UTF-8.
    expect(await read(body.replace('charset=gbk', 'charset=utf-8'))).toEqual({ kind: 'invalid', detail: 'body: bytes that are not utf-8' });
    expect(await read(body.replace('charset=gbk', 'charset=klingon'))).toEqual({
      kind: 'invalid',
      detail: 'body: unknown charset klingon',
    });
  });

  it('signs notices over every field but sign and sign_type, empty ones included', () => {
    const raw = new Map([
      ['sign', Buffer.from('x')],
      ['trade_status', Buffer.from('TRADE_SUCCESS')],
      ['app_id', Buffer.from('1')],
      ['passback_params', Buffer.from('')],
      ['sign_type', Buffer.from('RSA2')],
    ]);
    expect(noticeSigningBytes(raw).toString()).toBe('app_id=1&passback_params=&trade_status=TRADE_SUCCESS');
  });

  it('answers success once handled and failure to be asked again', () => {
    const provider = providerWith(answering('{}'));
    expect(provider.noticeReply('handled')).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'success' });
    for (const outcome of ['invalid', 'failed'] as const) {
      expect(provider.noticeReply(outcome)).toEqual({ status: 200, contentType: 'text/plain; charset=utf-8', body: 'failure' });
    }
  });
});

describe('topLevelMembers', () => {
  it('cuts each member out of the raw text, whatever it contains', () => {
    const raw = ' { "a_response" : {"msg":"}{\\"x\\"","n":[1,{"b":2}]} ,"sign":"c2ln\\/bg==", "n": -1.50e2 }';
    const members = topLevelMembers(raw);
    expect(members?.get('a_response')).toBe('{"msg":"}{\\"x\\"","n":[1,{"b":2}]}');
    expect(members?.get('sign')).toBe('"c2ln\\/bg=="');
    expect(members?.get('n')).toBe('-1.50e2');
  });

  it('refuses text that is not one JSON object', () => {
    expect(topLevelMembers('[1,2]')).toBeUndefined();
    expect(topLevelMembers('{"a":1')).toBeUndefined();
    expect(topLevelMembers('')).toBeUndefined();
  });
});

// Decision 0043: 手机网站支付 (alipay.trade.wap.pay), refunds and their notices.

/** Whether the app's key signed `params` the way Alipay checks a request (sorted, raw values). */
function appSigned(params: URLSearchParams): boolean {
  const fields = Object.fromEntries([...params.entries()].filter(([key]) => key !== 'sign'));
  const content = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key] ?? ''}`)
    .join('&');
  return verify('sha256', Buffer.from(content), app.publicKey, Buffer.from(params.get('sign') ?? '', 'base64'));
}

describe('Alipay WAP (a phone browser)', () => {
  it('gives the signed gateway URL of alipay.trade.wap.pay with the return and notify URLs, calling nothing', async () => {
    const captured: Captured[] = [];
    const created = await providerWith(answering('{}', captured)).createPayment({ ...request, scene: 'mobile' });
    expect(captured).toHaveLength(0);
    expect(created.ok).toBe(true);
    const url = new URL(created.ok ? created.payurl : '');
    expect(`${url.origin}${url.pathname}`).toBe(config.gateway);
    const params = url.searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      app_id: config.appId,
      method: 'alipay.trade.wap.pay',
      charset: 'utf-8',
      sign_type: 'RSA2',
      return_url: request.returnUrl,
      notify_url: request.notifyUrl,
    });
    expect(JSON.parse(params.get('biz_content') ?? '')).toEqual({
      out_trade_no: request.orderno,
      total_amount: '19.90',
      subject: request.subject,
      product_code: 'QUICK_WAP_WAY',
      time_expire: '2024-05-01 16:15:00',
      quit_url: request.returnUrl,
    });
    expect(appSigned(params)).toBe(true);
    params.set('return_url', 'https://evil.example/');
    expect(appSigned(params)).toBe(false);
  });

  it('cannot pay inside WeChat', async () => {
    expect(await providerWith(answering('{}')).createPayment({ ...request, scene: 'wechat' })).toEqual({
      ok: false,
      detail: 'Alipay cannot pay inside WeChat',
    });
  });
});

const refundRequest = {
  orderno: request.orderno,
  transactionId: '2024050122001480381423456789',
  refundNo: 'RF20240502100000001',
  amountFen: 990,
  totalFen: 1990,
  reason: '用户申请退款',
  notifyUrl: 'https://www.example.com/api/pay/notify/alipay',
};

describe('Alipay refunds', () => {
  it('posts alipay.trade.refund signed, and reads fund_change Y as refunded', async () => {
    const captured: Captured[] = [];
    const node =
      '{"code":"10000","msg":"Success","trade_no":"2024050122001480381423456789","out_trade_no":"XC20240501160000123456","fund_change":"Y","refund_fee":"9.90"}';
    const outcome = await providerWith(answering(answerText('alipay_trade_refund_response', node), captured)).refund(refundRequest);
    expect(outcome).toEqual({ state: 'succeeded', providerRefundId: '2024050122001480381423456789#RF20240502100000001' });
    const params = new URLSearchParams(String(captured[0]?.init.body));
    expect(params.get('method')).toBe('alipay.trade.refund');
    expect(JSON.parse(params.get('biz_content') ?? '')).toEqual({
      out_trade_no: request.orderno,
      refund_amount: '9.90',
      out_request_no: 'RF20240502100000001',
      refund_reason: '用户申请退款',
    });
    expect(appSigned(params)).toBe(true);
  });

  it('asks alipay.trade.fastpay.refund.query when fund_change is N (a repeated request)', async () => {
    const captured: Captured[] = [];
    const answers = [
      answerText(
        'alipay_trade_refund_response',
        '{"code":"10000","msg":"Success","trade_no":"2024050122001480381423456789","out_trade_no":"XC20240501160000123456","fund_change":"N"}',
      ),
      answerText(
        'alipay_trade_fastpay_refund_query_response',
        '{"code":"10000","msg":"Success","trade_no":"2024050122001480381423456789","out_trade_no":"XC20240501160000123456","out_request_no":"RF20240502100000001","refund_amount":"9.90","refund_status":"REFUND_SUCCESS"}',
      ),
    ];
    const fetchImpl: FetchLike = (url, init) => {
      captured.push({ url, init });
      return Promise.resolve(new Response(answers[captured.length - 1] ?? '{}', { status: 200 }));
    };
    expect(await providerWith(fetchImpl).refund(refundRequest)).toEqual({
      state: 'succeeded',
      providerRefundId: '2024050122001480381423456789#RF20240502100000001',
    });
    const query = new URLSearchParams(String(captured[1]?.init.body));
    expect(query.get('method')).toBe('alipay.trade.fastpay.refund.query');
    expect(appSigned(query)).toBe(true);
  });

  it("reads a refusal as failed, and never takes an unverified answer's word", async () => {
    const refused = '{"code":"40004","msg":"Business Failed","sub_code":"ACQ.SELLER_BALANCE_NOT_ENOUGH","sub_msg":"卖家余额不足"}';
    expect(await providerWith(answering(answerText('alipay_trade_refund_response', refused))).refund(refundRequest)).toEqual({
      state: 'failed',
      detail: '40004 Business Failed: ACQ.SELLER_BALANCE_NOT_ENOUGH 卖家余额不足',
    });
    const forged = answerText(
      'alipay_trade_refund_response',
      '{"code":"10000","msg":"Success","out_trade_no":"XC20240501160000123456","fund_change":"Y"}',
      { key: stranger.privateKey },
    );
    expect((await providerWith(answering(forged)).refund(refundRequest)).state).toBe('unknown');
  });

  it('reads a refund notice (out_biz_no, refund_fee) signed with RSA2, and refuses a forged one', async () => {
    const fields = noticeFields({ out_biz_no: 'RF20240502100000001', refund_fee: '9.90', gmt_refund: '2024-05-02 10:00:01.234' });
    expect(await read(noticeBody(fields))).toEqual({
      kind: 'refund',
      refund: {
        orderno: request.orderno,
        refundNo: 'RF20240502100000001',
        providerRefundId: '2024050122001480381423456789#RF20240502100000001',
        amountFen: 990,
        state: 'succeeded',
      },
    });
    expect((await read(noticeBody(fields, stranger.privateKey))).kind).toBe('invalid');
  });
});

/** A zip of deflated entries whose names are GBK, as Alipay's bill zip is. */
function gbkZip(entries: ReadonlyArray<{ name: Buffer; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const packed = deflateRawSync(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(entry.name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(entry.name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, entry.name, packed);
    centrals.push(central, entry.name);
    offset += 30 + entry.name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('Alipay bill (reconciliation)', () => {
  // The recorded 业务明细 is GBK; so are the names in the zip (their bytes, written with iconv).
  const details = readFileSync(new URL('./statements/alipay-bill-2026-11-28.csv', import.meta.url));
  const prefix = Buffer.from('20881021763412340156_20261128_');
  // 业务明细 and (汇总) in GBK.
  const DETAILS = Buffer.from('d2b5cef1c3f7cfb8', 'hex');
  const SUMMARY = Buffer.from('28bbe3d7dc29', 'hex');

  it('asks alipay.data.dataservice.bill.downloadurl.query (signed), fetches the zip and reads its 业务明细', async () => {
    const zip = gbkZip([
      { name: Buffer.concat([prefix, DETAILS, SUMMARY, Buffer.from('.csv')]), data: Buffer.from('#totals') },
      { name: Buffer.concat([prefix, DETAILS, Buffer.from('.csv')]), data: details },
    ]);
    const captured: Captured[] = [];
    const node =
      '{"code":"10000","msg":"Success","bill_download_url":"https:\\/\\/dwbillcenter.alipay.com\\/downloadBillFile.resource?bizType=trade&fileType=csv.zip"}';
    const fetchImpl: FetchLike = (url, init) => {
      captured.push({ url, init });
      if (captured.length === 1)
        return Promise.resolve(new Response(answerText('alipay_data_dataservice_bill_downloadurl_query_response', node)));
      return Promise.resolve(new Response(zip, { status: 200 }));
    };
    const rows = await providerWith(fetchImpl).downloadStatement('2026-11-28');
    expect(Array.isArray(rows) ? rows.map((row) => [row.orderno, row.kind, row.amountFen]) : rows).toEqual([
      ['XC2026112810000012345611', 'payment', 8800],
      ['XC2026112815000012345612', 'payment', 6800],
      ['XC2026112810000012345611', 'refund', 8800],
    ]);
    const params = new URLSearchParams(String(captured[0]?.init.body));
    expect(params.get('method')).toBe('alipay.data.dataservice.bill.downloadurl.query');
    expect(JSON.parse(params.get('biz_content') ?? '')).toEqual({ bill_type: 'trade', bill_date: '2026-11-28' });
    expect(appSigned(params)).toBe(true);
    expect(captured[1]?.url).toBe('https://dwbillcenter.alipay.com/downloadBillFile.resource?bizType=trade&fileType=csv.zip');
  });
});
