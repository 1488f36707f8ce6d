import type { FetchLike, TJsapiParams } from '@xcad/protocol';
import { createDecipheriv, createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { z } from 'zod';
import {
  callVendor,
  VENDOR_HTTP_TIMEOUT_MS,
  vendorJsonOf,
  vendorObject,
  vendorString,
  vendorValue,
  type VendorReply,
  type VendorDeps,
} from '../../lib/vendor-http';
import { beijingDateTime, parseRfc3339 } from './pay-adapter';
import { parseWechatTradebill, type StatementRow } from './statement';
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
  RefundNotice,
  RefundOutcome,
  RefundRequest,
} from './pay.provider';

// WeChat Pay APIv3: Native payment (the buyer scans a QR on the cashier page), H5 (a phone
// browser opens WeChat) and JSAPI (inside WeChat's browser, decision 0043), called directly
// as the API documents it so no SDK is needed. Requests carry a SHA256withRSA signature by the
// merchant's API key; answers and notices are signed with WeChat Pay's public key (the "public key"
// mode, whose id comes in Wechatpay-Serial), and a notice's content is AES-256-GCM encrypted under
// the APIv3 key.

export interface WechatPayConfig {
  appid: string;
  mchid: string;
  /** Serial number of the merchant's API certificate. */
  mchSerialNo: string;
  privateKeyPem: string;
  /** The 32-character APIv3 key. */
  apiV3Key: string;
  platformPublicKeyPem: string;
  /** PUB_KEY_ID_...: the Wechatpay-Serial of everything WeChat Pay signs with that key. */
  platformPublicKeyId: string;
  /** https://api.mch.weixin.qq.com */
  apiBase: string;
}

export interface WechatPayDeps extends VendorDeps {
  now?: () => Date;
  nonce?: () => string;
}

const AUTH_SCHEME = 'WECHATPAY2-SHA256-RSA2048';
const USER_AGENT = 'xcad-api/1.0 (WeChatPay APIv3; Node.js)';
/** WeChat Pay's limit on a notice's age, which replays beyond it cannot meet. */
export const NOTICE_MAX_SKEW_SECONDS = 300;
/** WeChat's description field: at most 127 bytes of UTF-8. */
const DESCRIPTION_MAX_BYTES = 127;
const GCM_TAG_BYTES = 16;

/** The text both sides sign for a request: each part on its own line, the last one too. */
export function requestSigningMessage(method: string, pathAndQuery: string, timestamp: number, nonce: string, body: string): string {
  return `${method}\n${pathAndQuery}\n${timestamp}\n${nonce}\n${body}\n`;
}

/** The text of a JSAPI payment's paySign: appId, timeStamp, nonceStr and package, one per line. */
export function jsapiSigningMessage(appId: string, timeStamp: string, nonceStr: string, pack: string): string {
  return `${appId}\n${timeStamp}\n${nonceStr}\n${pack}\n`;
}

/** WeChat's h5_url with the page to come back to (its redirect_url, URL-encoded, appended). */
export function h5UrlWithRedirect(h5Url: string, redirectUrl: string): string {
  return `${h5Url}${h5Url.includes('?') ? '&' : '?'}redirect_url=${encodeURIComponent(redirectUrl)}`;
}

/** The text WeChat Pay signs for an answer or a notice. */
export function answerSigningMessage(timestamp: string, nonce: string, body: string): string {
  return `${timestamp}\n${nonce}\n${body}\n`;
}

/** `text` cut to at most `maxBytes` of UTF-8, never inside a character. */
export function cutToUtf8Bytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let cut = '';
  for (const char of text) {
    bytes += Buffer.byteLength(char, 'utf8');
    if (bytes > maxBytes) break;
    cut += char;
  }
  return cut;
}

/** RFC 3339 on the Beijing clock, as WeChat writes times: 2024-05-01T16:15:00+08:00. */
export function wechatTime(epochSeconds: number): string {
  return `${beijingDateTime(epochSeconds)}+08:00`;
}

/**
 * Opens a notice's `resource`: AES-256-GCM with the APIv3 key, the nonce as IV, associated_data
 * as AAD and the tag as the ciphertext's last 16 bytes. Undefined when anything does not match.
 */
export function decryptResource(
  apiV3Key: string,
  resource: { ciphertext: string; nonce: string; associatedData: string },
): string | undefined {
  try {
    const sealed = Buffer.from(resource.ciphertext, 'base64');
    if (sealed.length <= GCM_TAG_BYTES) return undefined;
    const decipher = createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'), {
      authTagLength: GCM_TAG_BYTES,
    });
    decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG_BYTES));
    decipher.setAAD(Buffer.from(resource.associatedData, 'utf8'));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - GCM_TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** A header of a notice as Fastify hands it over (lower-cased names; a repeated one as a list). */
function headerOf(headers: IncomingNotice['headers'], name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

// The fields read of WeChat Pay's answers and notices (lenient: an odd field reads as absent).
const ZErrorAnswer = vendorObject({ code: vendorString, message: vendorString });
const ZNativeAnswer = vendorObject({ code_url: vendorString });
const ZH5Answer = vendorObject({ h5_url: vendorString });
const ZJsapiAnswer = vendorObject({ prepay_id: vendorString });
const ZTransaction = vendorObject({
  appid: vendorString,
  mchid: vendorString,
  out_trade_no: vendorString,
  transaction_id: vendorString,
  trade_state: vendorString,
  success_time: vendorString,
  amount: vendorObject({ total: vendorValue }),
});
type Transaction = z.infer<typeof ZTransaction>;
const ZRefund = vendorObject({
  refund_id: vendorString,
  out_refund_no: vendorString,
  out_trade_no: vendorString,
  status: vendorString,
  refund_status: vendorString,
  mchid: vendorString,
  amount: vendorObject({ refund: vendorValue }),
});
type Refund = z.infer<typeof ZRefund>;
/** WEChat's refund states: SUCCESS, PROCESSING (with the bank), CLOSED and ABNORMAL (not done). */
function refundOutcomeOf(refund: Refund): RefundOutcome {
  const status = refund.status ?? refund.refund_status;
  const id = refund.refund_id;
  if (id === undefined || id === '') return { state: 'unknown', detail: 'refund without refund_id' };
  if (status === 'SUCCESS') return { state: 'succeeded', providerRefundId: id };
  if (status === 'PROCESSING') return { state: 'processing', providerRefundId: id };
  if (status === 'CLOSED' || status === 'ABNORMAL') return { state: 'failed', detail: `refund ${status}` };
  return { state: 'unknown', detail: `refund status ${status ?? 'missing'}` };
}
const ZBill = vendorObject({ download_url: vendorString, hash_type: vendorString, hash_value: vendorString });
const ZNotice = vendorObject({
  event_type: vendorString,
  resource: vendorObject({ algorithm: vendorString, ciphertext: vendorString, nonce: vendorString, associated_data: vendorString }),
});

/** The `code: message` of a WeChat Pay error answer, for logs. */
function errorDetail(status: number, text: string): string {
  const { code, message } = vendorJsonOf(text, ZErrorAnswer);
  return `HTTP ${status}${code === undefined ? '' : ` ${code}`}: ${message ?? text.slice(0, 200)}`.trim();
}

/** The facts of a paid transaction (an order query's answer or a decrypted notice). */
function paidNoticeOf(transaction: Transaction, fallbackPaidAt: number): PaidNotice | string {
  const { out_trade_no: orderno, transaction_id: transactionId } = transaction;
  const { total } = transaction.amount;
  if (orderno === undefined || transactionId === undefined) return 'transaction without out_trade_no or transaction_id';
  if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return 'transaction without a whole amount.total';
  const successTime = transaction.success_time;
  // A paid transaction always has its time; should one lack it, the payment still stands.
  const paidAt = (successTime === undefined ? undefined : parseRfc3339(successTime)) ?? fallbackPaidAt;
  return { orderno, transactionId, amountFen: total, paidAt };
}

export class WechatPayProvider implements PayProvider {
  readonly name = 'wechatpay';
  readonly #privateKey: KeyObject;
  readonly #platformKey: KeyObject;
  private readonly apiBase: string;
  private readonly fetchImpl: FetchLike;
  private readonly now: () => Date;
  private readonly nonce: () => string;
  private readonly timeoutMs: number;

  /** Throws when a key cannot be read: the factory passes keys through loadPem first. */
  constructor(
    private readonly config: WechatPayConfig,
    deps: WechatPayDeps = {},
  ) {
    this.#privateKey = createPrivateKey(config.privateKeyPem);
    this.#platformKey = createPublicKey(config.platformPublicKeyPem);
    this.apiBase = config.apiBase.replace(/\/+$/, '');
    this.fetchImpl = deps.fetch ?? fetch;
    this.now = deps.now ?? (() => new Date());
    this.nonce = deps.nonce ?? (() => randomBytes(16).toString('hex').toUpperCase());
    this.timeoutMs = deps.timeoutMs ?? VENDOR_HTTP_TIMEOUT_MS;
  }

  /** The Authorization header of a request. */
  authorization(method: string, pathAndQuery: string, body: string): string {
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const nonce = this.nonce();
    const message = requestSigningMessage(method, pathAndQuery, timestamp, nonce, body);
    const signature = sign('sha256', Buffer.from(message, 'utf8'), this.#privateKey).toString('base64');
    const { mchid, mchSerialNo } = this.config;
    return `${AUTH_SCHEME} mchid="${mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${mchSerialNo}"`;
  }

  /** Whether WeChat Pay's signature over `body` (in the given Wechatpay-* headers) holds. */
  #verified(get: (name: string) => string | undefined, body: string): { ok: true } | { ok: false; detail: string } {
    const serial = get('Wechatpay-Serial');
    const timestamp = get('Wechatpay-Timestamp');
    const nonce = get('Wechatpay-Nonce');
    const signature = get('Wechatpay-Signature');
    if (serial === undefined || timestamp === undefined || nonce === undefined || signature === undefined) {
      return { ok: false, detail: 'Wechatpay-* signature headers missing' };
    }
    // Only the configured key may vouch; a certificate serial or another key id is refused.
    if (serial !== this.config.platformPublicKeyId) return { ok: false, detail: `signed by unknown key ${serial}` };
    const message = Buffer.from(answerSigningMessage(timestamp, nonce, body), 'utf8');
    let good = false;
    try {
      good = verify('sha256', message, this.#platformKey, Buffer.from(signature, 'base64'));
    } catch {
      good = false;
    }
    return good ? { ok: true } : { ok: false, detail: 'bad Wechatpay-Signature' };
  }

  #verifiedAnswer(reply: VendorReply & { kind: 'answer' }): { ok: true } | { ok: false; detail: string } {
    const result = this.#verified((name) => reply.headers.get(name) ?? undefined, reply.text);
    return result.ok ? result : { ok: false, detail: `unverified answer (${result.detail})` };
  }

  async #call(method: 'GET' | 'POST', pathAndQuery: string, payload?: unknown): Promise<VendorReply> {
    try {
      const body = payload === undefined ? '' : JSON.stringify(payload);
      const headers: Record<string, string> = {
        Authorization: this.authorization(method, pathAndQuery, body),
        Accept: 'application/json',
        'User-Agent': USER_AGENT,
      };
      if (payload !== undefined) headers['Content-Type'] = 'application/json';
      const init = payload === undefined ? { method, headers } : { method, headers, body };
      return await callVendor(this.fetchImpl, `${this.apiBase}${pathAndQuery}`, init, this.timeoutMs);
    } catch (error) {
      // Signing cannot fail with a key that loaded, but the methods must never throw.
      return { kind: 'failure', detail: error instanceof Error ? error.message : String(error) };
    }
  }

  #orderPath(orderno: string): string {
    return `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderno)}`;
  }

  /**
   * Native (a desktop's QR), H5 (a phone browser: h5_url opens WeChat, then comes back to the
   * result page) or JSAPI (WeChat's browser: prepay_id, and the pay sheet's parameters signed here).
   */
  async createPayment(request: PaymentRequest): Promise<PaymentCreated> {
    const common = {
      appid: this.config.appid,
      mchid: this.config.mchid,
      description: cutToUtf8Bytes(request.subject, DESCRIPTION_MAX_BYTES),
      out_trade_no: request.orderno,
      time_expire: wechatTime(request.expiresAt),
      notify_url: request.notifyUrl,
      amount: { total: request.amountFen, currency: 'CNY' },
    };
    if (request.scene === 'wechat') {
      if (request.openid === null) return { ok: false, detail: 'JSAPI without an openid' };
      const reply = await this.#answer('/v3/pay/transactions/jsapi', { ...common, payer: { openid: request.openid } });
      if (!reply.ok) return reply;
      const prepayId = vendorJsonOf(reply.text, ZJsapiAnswer).prepay_id;
      if (prepayId === undefined || prepayId === '') return { ok: false, detail: 'HTTP 200 without prepay_id' };
      return { ok: true, payurl: '', jsapi: this.jsapiParams(prepayId) };
    }
    if (request.scene === 'mobile') {
      const reply = await this.#answer('/v3/pay/transactions/h5', {
        ...common,
        scene_info: { payer_client_ip: request.clientIp, h5_info: { type: 'Wap' } },
      });
      if (!reply.ok) return reply;
      const h5Url = vendorJsonOf(reply.text, ZH5Answer).h5_url;
      if (h5Url === undefined || h5Url === '') return { ok: false, detail: 'HTTP 200 without h5_url' };
      return { ok: true, payurl: h5UrlWithRedirect(h5Url, request.returnUrl) };
    }
    const reply = await this.#answer('/v3/pay/transactions/native', common);
    if (!reply.ok) return reply;
    const codeUrl = vendorJsonOf(reply.text, ZNativeAnswer).code_url;
    if (codeUrl === undefined || codeUrl === '') return { ok: false, detail: 'HTTP 200 without code_url' };
    return { ok: true, payurl: codeUrl };
  }

  /** A verified 200 answer to a POST, or why not. */
  async #answer(path: string, payload: unknown): Promise<{ ok: true; text: string } | { ok: false; detail: string }> {
    const reply = await this.#call('POST', path, payload);
    if (reply.kind === 'failure') return { ok: false, detail: reply.detail };
    if (reply.status !== 200) return { ok: false, detail: errorDetail(reply.status, reply.text) };
    const verified = this.#verifiedAnswer(reply);
    return verified.ok ? { ok: true, text: reply.text } : verified;
  }

  /** What WeixinJSBridge's getBrandWCPayRequest takes for a prepay_id, paySign by the merchant's key. */
  jsapiParams(prepayId: string): TJsapiParams {
    const timeStamp = String(Math.floor(this.now().getTime() / 1000));
    const nonceStr = this.nonce();
    const pack = `prepay_id=${prepayId}`;
    const message = jsapiSigningMessage(this.config.appid, timeStamp, nonceStr, pack);
    const paySign = sign('sha256', Buffer.from(message, 'utf8'), this.#privateKey).toString('base64');
    return { appId: this.config.appid, timeStamp, nonceStr, package: pack, signType: 'RSA', paySign };
  }

  async queryPayment(orderno: string): Promise<PaymentState> {
    const reply = await this.#call('GET', `${this.#orderPath(orderno)}?mchid=${encodeURIComponent(this.config.mchid)}`);
    if (reply.kind === 'failure') return { state: 'unknown', detail: reply.detail };
    // Not yet created on WeChat's side (or expired before anyone scanned): nothing was paid. Error
    // answers need no signature check here, since "unpaid" only leaves the order as it is.
    if (reply.status === 404 && vendorJsonOf(reply.text, ZErrorAnswer).code === 'ORDER_NOT_EXIST') return { state: 'unpaid' };
    if (reply.status !== 200) return { state: 'unknown', detail: errorDetail(reply.status, reply.text) };
    const verified = this.#verifiedAnswer(reply);
    if (!verified.ok) return { state: 'unknown', detail: verified.detail };
    const transaction = vendorJsonOf(reply.text, ZTransaction);
    if (transaction.out_trade_no !== orderno || transaction.mchid !== this.config.mchid) {
      return { state: 'unknown', detail: 'answer is about another order' };
    }
    const tradeState = transaction.trade_state;
    switch (tradeState) {
      case 'SUCCESS': {
        const notice = paidNoticeOf(transaction, Math.floor(this.now().getTime() / 1000));
        return typeof notice === 'string' ? { state: 'unknown', detail: notice } : { state: 'paid', notice };
      }
      case 'NOTPAY':
      case 'USERPAYING':
        return { state: 'unpaid' };
      // REFUND: it was paid, and the money went back; nothing is to be granted any more.
      case 'CLOSED':
      case 'REVOKED':
      case 'PAYERROR':
      case 'REFUND':
        return { state: 'closed' };
      default:
        return { state: 'unknown', detail: `trade_state ${tradeState ?? 'missing'}` };
    }
  }

  async closePayment(orderno: string): Promise<void> {
    // Best effort: WeChat answers 204; an order it refuses to close (already paid) shows in the query.
    await this.#call('POST', `${this.#orderPath(orderno)}/close`, { mchid: this.config.mchid });
  }

  /** Decision 0043: POST /v3/refund/domestic/refunds, by out_trade_no, idempotent by out_refund_no. */
  async refund(request: RefundRequest): Promise<RefundOutcome> {
    const reply = await this.#call('POST', '/v3/refund/domestic/refunds', {
      out_trade_no: request.orderno,
      out_refund_no: request.refundNo,
      reason: Array.from(request.reason).slice(0, 80).join(''),
      notify_url: request.notifyUrl,
      amount: { refund: request.amountFen, total: request.totalFen, currency: 'CNY' },
    });
    if (reply.kind === 'failure') return { state: 'unknown', detail: reply.detail };
    // A 4XX is a refusal (NOT_ENOUGH, INVALID_REQUEST...): nothing moved. A 5XX may have moved money.
    if (reply.status >= 400 && reply.status < 500) return { state: 'failed', detail: errorDetail(reply.status, reply.text) };
    if (reply.status !== 200) return { state: 'unknown', detail: errorDetail(reply.status, reply.text) };
    const verified = this.#verifiedAnswer(reply);
    if (!verified.ok) return { state: 'unknown', detail: verified.detail };
    return refundOutcomeOf(vendorJsonOf(reply.text, ZRefund));
  }

  /** GET /v3/refund/domestic/refunds/{out_refund_no}. */
  async queryRefund(request: RefundRequest): Promise<RefundOutcome> {
    const reply = await this.#call('GET', `/v3/refund/domestic/refunds/${encodeURIComponent(request.refundNo)}`);
    if (reply.kind === 'failure') return { state: 'unknown', detail: reply.detail };
    if (reply.status === 404) return { state: 'failed', detail: errorDetail(reply.status, reply.text) };
    if (reply.status !== 200) return { state: 'unknown', detail: errorDetail(reply.status, reply.text) };
    const verified = this.#verifiedAnswer(reply);
    if (!verified.ok) return { state: 'unknown', detail: verified.detail };
    return refundOutcomeOf(vendorJsonOf(reply.text, ZRefund));
  }

  /**
   * Decision 0043: GET /v3/bill/tradebill (bill_type ALL) for the download_url, then the file itself
   * (signed like any call; the file is not signed but its SHA1 is, in the verified answer).
   */
  async downloadStatement(billDate: string): Promise<StatementRow[] | string> {
    const reply = await this.#call('GET', `/v3/bill/tradebill?bill_date=${encodeURIComponent(billDate)}&bill_type=ALL`);
    if (reply.kind === 'failure') return reply.detail;
    if (reply.status !== 200) return errorDetail(reply.status, reply.text);
    const verified = this.#verifiedAnswer(reply);
    if (!verified.ok) return verified.detail;
    const bill = vendorJsonOf(reply.text, ZBill);
    if (bill.download_url === undefined || !bill.download_url.startsWith(`${this.apiBase}/`))
      return 'bill without a download_url of the API';
    const file = await this.#call('GET', bill.download_url.slice(this.apiBase.length));
    if (file.kind === 'failure') return file.detail;
    if (file.status !== 200) return errorDetail(file.status, file.text);
    const sha1 = createHash('sha1').update(file.text, 'utf8').digest('hex');
    if (bill.hash_type !== 'SHA1' || bill.hash_value?.toLowerCase() !== sha1) return 'bill file does not match its SHA1';
    return parseWechatTradebill(file.text);
  }

  readNotice(notice: IncomingNotice): Promise<NoticeReading> {
    try {
      return Promise.resolve(this.#readNotice(notice));
    } catch (error) {
      return Promise.resolve({ kind: 'invalid', detail: error instanceof Error ? error.message : String(error) });
    }
  }

  #readNotice(notice: IncomingNotice): NoticeReading {
    const get = (name: string): string | undefined => headerOf(notice.headers, name);
    const timestamp = get('Wechatpay-Timestamp');
    const sentAt = timestamp !== undefined && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : undefined;
    if (sentAt === undefined) return { kind: 'invalid', detail: 'Wechatpay-Timestamp missing or malformed' };
    const skew = Math.abs(Math.floor(this.now().getTime() / 1000) - sentAt);
    if (skew > NOTICE_MAX_SKEW_SECONDS) return { kind: 'invalid', detail: `notice timestamp ${skew} s off` };
    const verified = this.#verified(get, notice.rawBody);
    if (!verified.ok) return { kind: 'invalid', detail: verified.detail };

    const body = vendorJsonOf(notice.rawBody, ZNotice);
    const eventType = body.event_type;
    const isRefund = eventType === 'REFUND.SUCCESS' || eventType === 'REFUND.ABNORMAL' || eventType === 'REFUND.CLOSED';
    if (eventType !== 'TRANSACTION.SUCCESS' && !isRefund) return { kind: 'ignored', detail: `event_type ${eventType ?? 'missing'}` };
    const { algorithm, ciphertext, nonce } = body.resource;
    if (algorithm !== 'AEAD_AES_256_GCM' || ciphertext === undefined || nonce === undefined) {
      return { kind: 'invalid', detail: `resource not AEAD_AES_256_GCM (${algorithm ?? 'no algorithm'})` };
    }
    const plain = decryptResource(this.config.apiV3Key, { ciphertext, nonce, associatedData: body.resource.associated_data ?? '' });
    if (plain === undefined) return { kind: 'invalid', detail: 'resource does not decrypt with the APIv3 key' };
    if (isRefund) return this.#refundNotice(plain);
    const transaction = vendorJsonOf(plain, ZTransaction);
    if (transaction.mchid !== this.config.mchid || transaction.appid !== this.config.appid) {
      return { kind: 'invalid', detail: 'transaction of another merchant or app' };
    }
    const tradeState = transaction.trade_state;
    if (tradeState !== 'SUCCESS') return { kind: 'ignored', detail: `trade_state ${tradeState ?? 'missing'}` };
    const paid = paidNoticeOf(transaction, Math.floor(this.now().getTime() / 1000));
    return typeof paid === 'string' ? { kind: 'invalid', detail: paid } : { kind: 'paid', notice: paid };
  }

  /** A decrypted refund notice: its refund_status says whether the money went back. */
  #refundNotice(plain: string): NoticeReading {
    const refund = vendorJsonOf(plain, ZRefund);
    if (refund.mchid !== this.config.mchid) return { kind: 'invalid', detail: 'refund of another merchant' };
    const { out_trade_no: orderno, out_refund_no: refundNo, refund_id: providerRefundId } = refund;
    const amount = refund.amount.refund;
    if (orderno === undefined || refundNo === undefined || providerRefundId === undefined || typeof amount !== 'number') {
      return { kind: 'invalid', detail: 'refund notice without its numbers or amount' };
    }
    const status = refund.refund_status;
    if (status !== 'SUCCESS' && status !== 'CLOSED' && status !== 'ABNORMAL')
      return { kind: 'ignored', detail: `refund_status ${status ?? 'missing'}` };
    const state: RefundNotice['state'] = status === 'SUCCESS' ? 'succeeded' : 'failed';
    return { kind: 'refund', refund: { orderno, refundNo, providerRefundId, amountFen: amount, state } };
  }

  noticeReply(outcome: NoticeOutcome): NoticeReply {
    // 204 tells WeChat Pay to stop; a 4XX or 5XX with code FAIL makes it send the notice again later.
    if (outcome === 'handled') return { status: 204, contentType: 'text/plain; charset=utf-8', body: '' };
    return {
      status: outcome === 'invalid' ? 400 : 500,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ code: 'FAIL', message: '失败' }),
    };
  }
}
