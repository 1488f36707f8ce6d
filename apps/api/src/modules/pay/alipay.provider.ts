import type { FetchLike } from '@xcad/protocol';
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { TextDecoder } from 'node:util';
import type { z } from 'zod';
import {
  callVendor,
  callVendorBytes,
  parseJson,
  VENDOR_HTTP_TIMEOUT_MS,
  vendorJsonOf,
  vendorObject,
  vendorString,
  type VendorDeps,
} from '../../lib/vendor-http';
import { zipEntries } from './bill-zip';
import { beijingDateTime, fenOf, parseBeijingDateTime, yuanOf } from './pay-adapter';
import { parseAlipayBill, type StatementRow } from './statement';
import type {
  IncomingNotice,
  NoticeOutcome,
  NoticeReading,
  NoticeReply,
  PaidNotice,
  PaymentCreated,
  PaymentRequest,
  PaymentState,
  PayProvider,
  RefundOutcome,
  RefundRequest,
} from './pay.provider';

// Alipay face-to-face payment (当面付): precreate gives the QR's content, the buyer scans it in
// the Alipay app; on a phone browser, 手机网站支付 (alipay.trade.wap.pay, decision 0043). Called through the open platform gateway as documented, with RSA2
// (SHA256withRSA) signatures both ways, so no SDK is needed.

export interface AlipayConfig {
  appId: string;
  /** The app's private key (its public half is uploaded to the Alipay console). */
  privateKeyPem: string;
  /** Alipay's public key, shown in the console next to the app's: not the app's own. */
  alipayPublicKeyPem: string;
  /** https://openapi.alipay.com/gateway.do */
  gateway: string;
}

export interface AlipayDeps extends VendorDeps {
  now?: () => Date;
}

type AlipayMethod =
  | 'alipay.trade.precreate'
  | 'alipay.trade.wap.pay'
  | 'alipay.trade.query'
  | 'alipay.trade.close'
  | 'alipay.trade.refund'
  | 'alipay.trade.fastpay.refund.query'
  | 'alipay.data.dataservice.bill.downloadurl.query';

const SUCCESS_CODE = '10000';
/** Alipay's limit on subject, in characters. */
const SUBJECT_MAX_CHARS = 256;
const PAID_STATUSES = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** Beijing `yyyy-MM-dd HH:mm:ss`, Alipay's format for every time. */
export function alipayTime(epochSeconds: number): string {
  return beijingDateTime(epochSeconds).replace('T', ' ');
}

/**
 * The text signed for a request: every parameter but `sign` and the empty ones, sorted by name,
 * joined as k=v with &, values raw (not URL-encoded).
 */
export function alipaySigningContent(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .filter((key) => key !== 'sign' && params[key] !== '')
    .sort()
    .map((key) => `${key}=${params[key] ?? ''}`)
    .join('&');
}

/** The index after the JSON string whose opening quote is at `start`, or -1 when it never closes. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') return index + 1;
    index += char === '\\' ? 2 : 1;
  }
  return -1;
}

/** The index after the JSON value starting at `start`, or -1 when it never ends. */
function valueEnd(text: string, start: number): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first === '{' || first === '[') {
    let depth = 0;
    let index = start;
    while (index < text.length && index !== -1) {
      const char = text[index];
      if (char === '"') {
        index = stringEnd(text, index);
        continue;
      }
      if (char === '{' || char === '[') depth += 1;
      if (char === '}' || char === ']') depth -= 1;
      index += 1;
      if (depth === 0) return index;
    }
    return -1;
  }
  let index = start;
  while (index < text.length && !/[\s,}\]]/.test(text[index] ?? '')) index += 1;
  return index > start ? index : -1;
}

function skipSpace(text: string, start: number): number {
  let index = start;
  while (/\s/.test(text[index] ?? '')) index += 1;
  return index;
}

/**
 * The exact text of each top-level member of the JSON object `raw`. Alipay signs the response
 * node's bytes as sent, so re-serialising parsed JSON (key order, escapes such as `\/`, number
 * forms) could break a genuine signature. Undefined when `raw` is not a JSON object.
 */
export function topLevelMembers(raw: string): Map<string, string> | undefined {
  const parsed = parseJson(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const members = new Map<string, string>();
  let index = skipSpace(raw, 0) + 1;
  for (;;) {
    index = skipSpace(raw, index);
    if (raw[index] === '}') return members;
    const keyEnd = valueEnd(raw, index);
    const key = raw[index] === '"' && keyEnd !== -1 ? parseJson(raw.slice(index, keyEnd)) : undefined;
    if (typeof key !== 'string') return undefined;
    index = skipSpace(raw, keyEnd);
    if (raw[index] !== ':') return undefined;
    const start = skipSpace(raw, index + 1);
    const end = valueEnd(raw, start);
    if (end === -1) return undefined;
    members.set(key, raw.slice(start, end));
    index = skipSpace(raw, end);
    if (raw[index] === ',') index += 1;
    else if (raw[index] !== '}') return undefined;
  }
}

/** The bytes of one form-encoded field: `+` is a space, `%XX` a byte. Undefined when malformed. */
function formBytes(text: string): Buffer | undefined {
  const parts: Buffer[] = [];
  for (const [part] of text.replace(/\+/g, ' ').matchAll(/%[0-9A-Fa-f]{2}|%|[^%]+/g)) {
    if (part === '%') return undefined;
    parts.push(part.startsWith('%') ? Buffer.from([Number.parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8'));
  }
  return Buffer.concat(parts);
}

/** A notice's fields, decoded, and the bytes each value arrived as (what Alipay signed). */
export interface NoticeForm {
  fields: Map<string, string>;
  rawValues: Map<string, Buffer>;
}

/**
 * An application/x-www-form-urlencoded body, decoded in the body's own `charset` (Alipay sends
 * the charset the app asked for, utf-8 here, but honours a gbk setting). A string names what is
 * wrong: bad escapes, bytes not in the charset, a field given twice.
 */
export function parseForm(raw: string): NoticeForm | string {
  const pairs = raw.split('&').filter((pair) => pair !== '');
  const charsetPair = pairs.find((pair) => pair.startsWith('charset='));
  const charset = charsetPair === undefined ? 'utf-8' : (formBytes(charsetPair.slice('charset='.length))?.toString('latin1') ?? '');
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    return `unknown charset ${charset}`;
  }
  const form: NoticeForm = { fields: new Map(), rawValues: new Map() };
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const keyBytes = formBytes(equals === -1 ? pair : pair.slice(0, equals));
    const valueBytes = formBytes(equals === -1 ? '' : pair.slice(equals + 1));
    if (keyBytes === undefined || valueBytes === undefined) return 'malformed % escape';
    let key: string;
    let value: string;
    try {
      key = decoder.decode(keyBytes);
      value = decoder.decode(valueBytes);
    } catch {
      return `bytes that are not ${charset}`;
    }
    if (form.fields.has(key)) return `field ${key} given twice`;
    form.fields.set(key, value);
    form.rawValues.set(key, valueBytes);
  }
  return form;
}

/**
 * The bytes Alipay signed for a notice: every field but `sign` and `sign_type`, sorted by name,
 * k=v joined with &, in the notice's charset. Built from the bytes as received, so a gbk notice
 * verifies without encoding anything back to gbk.
 */
export function noticeSigningBytes(rawValues: ReadonlyMap<string, Buffer>): Buffer {
  const keys = [...rawValues.keys()].filter((key) => key !== 'sign' && key !== 'sign_type').sort();
  const parts: Buffer[] = [];
  keys.forEach((key, index) => {
    parts.push(Buffer.from(`${index === 0 ? '' : '&'}${key}=`, 'latin1'), rawValues.get(key) ?? Buffer.alloc(0));
  });
  return Buffer.concat(parts);
}

/** The facts of a trade, as a query answer's node or a notice's form carries them. */
interface TradeFacts {
  out_trade_no?: string | undefined;
  trade_no?: string | undefined;
  total_amount?: string | undefined;
  send_pay_date?: string | undefined;
  gmt_payment?: string | undefined;
}

// The fields read of an answer's response node (lenient: an odd field reads as absent).
const ZAnswerNode = vendorObject({
  code: vendorString,
  msg: vendorString,
  sub_code: vendorString,
  sub_msg: vendorString,
  qr_code: vendorString,
  out_trade_no: vendorString,
  trade_no: vendorString,
  trade_status: vendorString,
  total_amount: vendorString,
  send_pay_date: vendorString,
  fund_change: vendorString,
  refund_fee: vendorString,
  refund_status: vendorString,
  refund_amount: vendorString,
  out_request_no: vendorString,
  bill_download_url: vendorString,
});
type AnswerNode = z.infer<typeof ZAnswerNode>;

/** `code msg: sub_code sub_msg` of an answer node, for logs. */
function answerDetail(node: AnswerNode): string {
  const part = (code: string | undefined, message: string | undefined): string =>
    [code, message].filter((text) => text !== undefined && text !== '').join(' ');
  const main = part(node.code, node.msg);
  const sub = part(node.sub_code, node.sub_msg);
  return sub === '' ? main || 'answer without code' : `${main}: ${sub}`;
}

/** An answer whose response node was found; `verified` says whether Alipay's sign over it holds. */
type AlipayAnswer = { kind: 'answer'; node: AnswerNode; verified: boolean } | { kind: 'failure'; detail: string };

export class AlipayProvider implements PayProvider {
  readonly name = 'alipay';
  readonly #privateKey: KeyObject;
  readonly #alipayKey: KeyObject;
  private readonly fetchImpl: FetchLike;
  private readonly now: () => Date;
  private readonly timeoutMs: number;

  /** Throws when a key cannot be read: the factory passes keys through loadPem first. */
  constructor(
    private readonly config: AlipayConfig,
    deps: AlipayDeps = {},
  ) {
    this.#privateKey = createPrivateKey(config.privateKeyPem);
    this.#alipayKey = createPublicKey(config.alipayPublicKeyPem);
    this.fetchImpl = deps.fetch ?? fetch;
    this.now = deps.now ?? (() => new Date());
    this.timeoutMs = deps.timeoutMs ?? VENDOR_HTTP_TIMEOUT_MS;
  }

  #nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** Every parameter of a call, `sign` included. */
  signedParams(method: AlipayMethod, bizContent: Record<string, string>, notifyUrl?: string, returnUrl?: string): Record<string, string> {
    const params: Record<string, string> = {
      app_id: this.config.appId,
      method,
      format: 'JSON',
      charset: 'utf-8',
      sign_type: 'RSA2',
      timestamp: alipayTime(this.#nowSeconds()),
      version: '1.0',
      ...(notifyUrl === undefined ? {} : { notify_url: notifyUrl }),
      ...(returnUrl === undefined ? {} : { return_url: returnUrl }),
      biz_content: JSON.stringify(bizContent),
    };
    const content = alipaySigningContent(params);
    return { ...params, sign: sign('sha256', Buffer.from(content, 'utf8'), this.#privateKey).toString('base64') };
  }

  #verifies(content: string | Buffer, signature: string): boolean {
    try {
      const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
      return verify('sha256', data, this.#alipayKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }

  async #call(method: AlipayMethod, bizContent: Record<string, string>, notifyUrl?: string): Promise<AlipayAnswer> {
    let body: string;
    try {
      body = new URLSearchParams(this.signedParams(method, bizContent, notifyUrl)).toString();
    } catch (error) {
      return { kind: 'failure', detail: error instanceof Error ? error.message : String(error) };
    }
    const reply = await callVendor(
      this.fetchImpl,
      this.config.gateway,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8', Accept: 'application/json' }, body },
      this.timeoutMs,
    );
    if (reply.kind === 'failure') return reply;
    if (reply.status !== 200) return { kind: 'failure', detail: `HTTP ${reply.status}` };
    const members = topLevelMembers(reply.text);
    if (members === undefined) return { kind: 'failure', detail: 'answer is not a JSON object' };
    // A refused call (bad app_id, unknown method) may answer in error_response instead.
    const nodeText = members.get(`${method.replace(/\./g, '_')}_response`) ?? members.get('error_response');
    if (nodeText === undefined) return { kind: 'failure', detail: 'answer without its response node' };
    const signature = parseJson(members.get('sign') ?? '');
    const verified = typeof signature === 'string' && this.#verifies(nodeText, signature);
    // The facts are read from the very text the signature covers.
    return { kind: 'answer', node: vendorJsonOf(nodeText, ZAnswerNode), verified };
  }

  /**
   * A desktop gets precreate's QR; a phone browser the signed alipay.trade.wap.pay page (a GET of
   * the gateway: Alipay's cashier opens the app, then returns to return_url); inside WeChat's
   * browser Alipay cannot be used (the page shows the open-in-browser guide instead).
   */
  async createPayment(request: PaymentRequest): Promise<PaymentCreated> {
    if (request.scene === 'wechat') return { ok: false, detail: 'Alipay cannot pay inside WeChat' };
    if (request.scene === 'mobile') return { ok: true, payurl: this.wapPayUrl(request) };
    const answer = await this.#call(
      'alipay.trade.precreate',
      {
        out_trade_no: request.orderno,
        total_amount: yuanOf(request.amountFen),
        subject: Array.from(request.subject).slice(0, SUBJECT_MAX_CHARS).join(''),
        time_expire: alipayTime(request.expiresAt),
      },
      request.notifyUrl,
    );
    if (answer.kind === 'failure') return { ok: false, detail: answer.detail };
    if (answer.node.code !== SUCCESS_CODE) return { ok: false, detail: answerDetail(answer.node) };
    if (!answer.verified) return { ok: false, detail: 'unverified answer (bad or missing sign)' };
    const qrCode = answer.node.qr_code;
    if (answer.node.out_trade_no !== request.orderno) return { ok: false, detail: 'answer is about another order' };
    if (qrCode === undefined || qrCode === '') return { ok: false, detail: 'answer without qr_code' };
    return { ok: true, payurl: qrCode };
  }

  /** The gateway URL of alipay.trade.wap.pay (page execution: the phone opens it, nothing is called here). */
  wapPayUrl(request: PaymentRequest): string {
    const params = this.signedParams(
      'alipay.trade.wap.pay',
      {
        out_trade_no: request.orderno,
        total_amount: yuanOf(request.amountFen),
        subject: Array.from(request.subject).slice(0, SUBJECT_MAX_CHARS).join(''),
        product_code: 'QUICK_WAP_WAY',
        time_expire: alipayTime(request.expiresAt),
        quit_url: request.returnUrl,
      },
      request.notifyUrl,
      request.returnUrl,
    );
    const url = new URL(this.config.gateway);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  async queryPayment(orderno: string): Promise<PaymentState> {
    const answer = await this.#call('alipay.trade.query', { out_trade_no: orderno });
    if (answer.kind === 'failure') return { state: 'unknown', detail: answer.detail };
    const node = answer.node;
    if (node.code !== SUCCESS_CODE) {
      // Alipay knows a face-to-face trade only once it is scanned (FACTS "Payments"); "unpaid"
      // leaves the order as it is, so this needs no signature.
      if (node.sub_code === 'ACQ.TRADE_NOT_EXIST') return { state: 'unpaid' };
      return { state: 'unknown', detail: answerDetail(node) };
    }
    if (!answer.verified) return { state: 'unknown', detail: 'unverified answer (bad or missing sign)' };
    if (node.out_trade_no !== orderno) return { state: 'unknown', detail: 'answer is about another order' };
    const status = node.trade_status;
    if (status === 'WAIT_BUYER_PAY') return { state: 'unpaid' };
    if (status === 'TRADE_CLOSED') return { state: 'closed' };
    if (status === undefined || !PAID_STATUSES.has(status)) return { state: 'unknown', detail: `trade_status ${status ?? 'missing'}` };
    const paid = this.#paidNotice(node, 'send_pay_date');
    return typeof paid === 'string' ? { state: 'unknown', detail: paid } : { state: 'paid', notice: paid };
  }

  async closePayment(orderno: string): Promise<void> {
    // alipay.trade.close, not cancel: cancel refunds a trade paid at the last moment, close only
    // ends an unpaid one (a payment racing it then arrives as a notice and is granted). Best
    // effort; a trade nobody scanned does not exist yet and needs no closing.
    await this.#call('alipay.trade.close', { out_trade_no: orderno });
  }

  /**
   * Decision 0043: alipay.trade.refund, idempotent by out_request_no. fund_change Y: the money moved
   * now; N: this request had been made before (or moved nothing), so the refund query tells.
   */
  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const answer = await this.#call('alipay.trade.refund', {
      out_trade_no: request.orderno,
      refund_amount: yuanOf(request.amountFen),
      out_request_no: request.refundNo,
      refund_reason: Array.from(request.reason).slice(0, 256).join(''),
    });
    if (answer.kind === 'failure') return { state: 'unknown', detail: answer.detail };
    const node = answer.node;
    if (node.code !== SUCCESS_CODE) {
      // A system error may still have refunded: ask later. Any other refusal moved nothing.
      if (node.code === '20000' || node.sub_code === 'ACQ.SYSTEM_ERROR') return { state: 'unknown', detail: answerDetail(node) };
      return { state: 'failed', detail: answerDetail(node) };
    }
    if (!answer.verified) return { state: 'unknown', detail: 'unverified answer (bad or missing sign)' };
    if (node.out_trade_no !== request.orderno) return { state: 'unknown', detail: 'answer is about another order' };
    if (node.fund_change === 'Y') return { state: 'succeeded', providerRefundId: `${node.trade_no ?? ''}#${request.refundNo}` };
    return this.queryRefund(request);
  }

  /** alipay.trade.fastpay.refund.query: a refund that exists answers its amount (and REFUND_SUCCESS). */
  async queryRefund(request: RefundRequest): Promise<RefundOutcome> {
    const answer = await this.#call('alipay.trade.fastpay.refund.query', {
      out_trade_no: request.orderno,
      out_request_no: request.refundNo,
    });
    if (answer.kind === 'failure') return { state: 'unknown', detail: answer.detail };
    const node = answer.node;
    if (node.code !== SUCCESS_CODE) return { state: 'unknown', detail: answerDetail(node) };
    if (!answer.verified) return { state: 'unknown', detail: 'unverified answer (bad or missing sign)' };
    const isDone = node.refund_status === 'REFUND_SUCCESS' || (node.refund_status === undefined && node.refund_amount !== undefined);
    if (!isDone) return { state: 'failed', detail: `no refund ${request.refundNo} (${node.refund_status ?? 'not found'})` };
    if (node.refund_amount !== undefined && fenOf(node.refund_amount) !== request.amountFen) {
      return { state: 'unknown', detail: `refund ${request.refundNo} is of ${node.refund_amount}, not ${yuanOf(request.amountFen)}` };
    }
    return { state: 'succeeded', providerRefundId: `${node.trade_no ?? ''}#${request.refundNo}` };
  }

  /**
   * Decision 0043: alipay.data.dataservice.bill.downloadurl.query (bill_type trade) for the bill's
   * URL, then the zip, whose 业务明细 CSV (GBK) lists the day's trades and refunds.
   */
  async downloadStatement(billDate: string): Promise<StatementRow[] | string> {
    const answer = await this.#call('alipay.data.dataservice.bill.downloadurl.query', { bill_type: 'trade', bill_date: billDate });
    if (answer.kind === 'failure') return answer.detail;
    if (answer.node.code !== SUCCESS_CODE) return answerDetail(answer.node);
    if (!answer.verified) return 'unverified answer (bad or missing sign)';
    const url = answer.node.bill_download_url;
    if (url === undefined || !url.startsWith('https://')) return 'answer without bill_download_url';
    const file = await callVendorBytes(this.fetchImpl, url, { method: 'GET', headers: {} }, this.timeoutMs);
    if (file.kind === 'failure') return file.detail;
    if (file.status !== 200) return `bill download: HTTP ${file.status}`;
    const entry = zipEntries(file.bytes)?.find((candidate) => candidate.name.includes('业务明细') && !candidate.name.includes('汇总'));
    if (entry === undefined) return 'bill zip without its 业务明细 CSV';
    try {
      return parseAlipayBill(new TextDecoder('gbk').decode(entry.read()));
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** The facts of a paid trade, from a query answer or a notice (its time under `timeField`). */
  #paidNotice(source: TradeFacts, timeField: 'send_pay_date' | 'gmt_payment'): PaidNotice | string {
    const { out_trade_no: orderno, trade_no: transactionId, total_amount: totalAmount } = source;
    const amountFen = totalAmount === undefined ? undefined : fenOf(totalAmount);
    if (orderno === undefined || transactionId === undefined) return 'trade without out_trade_no or trade_no';
    if (amountFen === undefined) return `total_amount ${totalAmount ?? 'missing'} is not an amount`;
    const time = source[timeField];
    // A paid trade always carries its time; should one lack it, the payment still stands.
    const paidAt = (time === undefined ? undefined : parseBeijingDateTime(time)) ?? this.#nowSeconds();
    return { orderno, transactionId, amountFen, paidAt };
  }

  readNotice(notice: IncomingNotice): Promise<NoticeReading> {
    try {
      return Promise.resolve(this.#readNotice(notice.rawBody));
    } catch (error) {
      return Promise.resolve({ kind: 'invalid', detail: error instanceof Error ? error.message : String(error) });
    }
  }

  #readNotice(rawBody: string): NoticeReading {
    const form = parseForm(rawBody);
    if (typeof form === 'string') return { kind: 'invalid', detail: `body: ${form}` };
    const params = Object.fromEntries(form.fields);
    const signature = params['sign'];
    if (signature === undefined || signature === '') return { kind: 'invalid', detail: 'notice without sign' };
    if (params['sign_type'] !== undefined && params['sign_type'] !== 'RSA2')
      return { kind: 'invalid', detail: `sign_type ${params['sign_type']}` };
    if (!this.#verifies(noticeSigningBytes(form.rawValues), signature)) return { kind: 'invalid', detail: 'bad sign' };
    if (params['app_id'] !== this.config.appId) return { kind: 'invalid', detail: `notice for app ${params['app_id'] ?? 'missing'}` };
    // A refund changes the trade too: Alipay's notice then carries out_biz_no (our refund number)
    // and refund_fee (what the trade has refunded in all); it is settled by the refund number.
    const refundNo = params['out_biz_no'];
    const refundFee = params['refund_fee'] === undefined ? undefined : fenOf(params['refund_fee']);
    if (refundNo !== undefined && refundNo !== '' && refundFee !== undefined && refundFee > 0) {
      const orderno = params['out_trade_no'];
      if (orderno === undefined) return { kind: 'invalid', detail: 'refund notice without out_trade_no' };
      const providerRefundId = `${params['trade_no'] ?? ''}#${refundNo}`;
      return { kind: 'refund', refund: { orderno, refundNo, providerRefundId, amountFen: refundFee, state: 'succeeded' } };
    }
    const status = params['trade_status'];
    if (status === undefined || !PAID_STATUSES.has(status)) return { kind: 'ignored', detail: `trade_status ${status ?? 'missing'}` };
    const paid = this.#paidNotice(params, 'gmt_payment');
    return typeof paid === 'string' ? { kind: 'invalid', detail: paid } : { kind: 'paid', notice: paid };
  }

  noticeReply(outcome: NoticeOutcome): NoticeReply {
    // Alipay stops only on the exact text "success"; anything else is sent again later.
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: outcome === 'handled' ? 'success' : 'failure' };
  }
}
