import type { PayProviderName, PayType } from '@xcad/db';
import type { TJsapiParams, TPayScene } from '@xcad/protocol';
import type { StatementRow } from './statement';

// The payment layer behind one interface (decision 0018), so ordering and granting never know who takes
// the money. WeChat Pay (APIv3 Native) takes `wxpay` orders and Alipay (face-to-face precreate)
// `alipay` ones; the sandbox stands in for either while they are not configured
// (WXPAY_PROVIDER / ALIPAY_PROVIDER, pay.factory.ts). Amounts are fen, times epoch seconds.

export interface PaymentRequest {
  orderno: string;
  /** Fen, as the server computed it. */
  amountFen: number;
  /** One line naming what is bought (WeChat's description <= 127 bytes, Alipay's subject). */
  subject: string;
  /** Epoch seconds after which the payment must no longer be possible. */
  expiresAt: number;
  /** Where the provider sends its asynchronous notice (https, no query, for the real ones). */
  notifyUrl: string;
  /** The buyer's address, for providers that ask for it. */
  clientIp: string;
  /**
   * Decision 0043, where the cashier runs: desktop (a QR: WeChat Native, Alipay precreate), mobile
   * (the app opens: WeChat H5, Alipay WAP), wechat (WeChat's browser: JSAPI).
   */
  scene: TPayScene;
  /** Where a phone comes back to after paying (H5's redirect_url, WAP's return_url): the result page. */
  returnUrl: string;
  /** JSAPI: the buyer's openid under the merchant's official account (WeChat OAuth snsapi_base). */
  openid: string | null;
}

/**
 * What the cashier shows (the QR's content, or the URL a phone goes to) and, for JSAPI, the signed
 * parameters WeixinJSBridge takes; or why there is none.
 */
export type PaymentCreated = { ok: true; payurl: string; jsapi?: TJsapiParams } | { ok: false; detail: string };

/** A payment the provider vouches for (a verified notice or its order query). */
export interface PaidNotice {
  orderno: string;
  /** The provider's own transaction id (WeChat transaction_id, Alipay trade_no). */
  transactionId: string;
  /** Fen actually paid; must equal the order's amount to grant. */
  amountFen: number;
  /** Epoch seconds. */
  paidAt: number;
}

/** The answer of an order query: paid (with the same facts as a notice), still open, or over. */
export type PaymentState =
  | { state: 'paid'; notice: PaidNotice }
  | { state: 'unpaid' }
  | { state: 'closed' }
  /** The provider could not be asked; the order stays as it is and is asked again later. */
  | { state: 'unknown'; detail: string };

/** An HTTP notice as it arrived: the exact body bytes (signatures cover them) and the headers. */
export interface IncomingNotice {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: string;
}

/** Decision 0043: a refund asked of the provider (WeChat out_refund_no, Alipay out_request_no). */
export interface RefundRequest {
  orderno: string;
  /** The provider's transaction id of the payment (WeChat transaction_id, Alipay trade_no). */
  transactionId: string;
  refundNo: string;
  /** Fen to give back now. */
  amountFen: number;
  /** Fen the buyer paid for the order. */
  totalFen: number;
  /** Shown to the buyer in their bill (WeChat: at most 80 characters). */
  reason: string;
  /** Where the provider sends the refund's notice. */
  notifyUrl: string;
}

/** What became of a refund: done, still with the bank, refused (nothing moved), or not known now. */
export type RefundOutcome =
  | { state: 'succeeded' | 'processing'; providerRefundId: string }
  | { state: 'failed'; detail: string }
  | { state: 'unknown'; detail: string };

/** A refund the provider's notice vouches for. */
export interface RefundNotice {
  orderno: string;
  refundNo: string;
  providerRefundId: string;
  amountFen: number;
  state: 'succeeded' | 'failed';
}

/**
 * A verified notice: `paid` grants, `refund` settles a refund, `ignored` is genuine but says nothing to act on (a closed or
 * refunded trade), `invalid` failed its signature or decryption and changes nothing.
 */
export type NoticeReading =
  | { kind: 'paid'; notice: PaidNotice }
  | { kind: 'refund'; refund: RefundNotice }
  | { kind: 'ignored'; detail: string }
  | { kind: 'invalid'; detail: string };

/**
 * What became of a notice: recorded (or already was, or nothing to record); refused as not the
 * provider's (a bad signature, not a notice at all: a 4xx, as it is the sender's fault); or not
 * recorded for a fault of ours (a 5xx or the provider's own "failed", so it sends it again).
 */
export type NoticeOutcome = 'handled' | 'invalid' | 'failed';

/** The HTTP answer the provider expects back. */
export interface NoticeReply {
  status: number;
  contentType: string;
  body: string;
}

export interface PayProvider {
  readonly name: PayProviderName;
  /** Never throws: a refusal or an unreachable provider comes back as `{ ok: false }`. */
  createPayment(request: PaymentRequest): Promise<PaymentCreated>;
  /** Never throws. Used when a notice is late or lost. */
  queryPayment(orderno: string): Promise<PaymentState>;
  /** Best effort: stops an unpaid order being paid after it closed. Never throws. */
  closePayment(orderno: string): Promise<void>;
  /** Decision 0043: gives back part or all of a payment. Never throws. */
  refund(request: RefundRequest): Promise<RefundOutcome>;
  /** Where a refund stands (a notice late or lost). Never throws. */
  queryRefund(request: RefundRequest): Promise<RefundOutcome>;
  /**
   * Decision 0043: the day's statement (`billDate` yyyy-MM-dd, Beijing), downloaded and read; a
   * string says why there is none (not yet made, unreachable, the sandbox keeps none). Never throws.
   */
  downloadStatement(billDate: string): Promise<StatementRow[] | string>;
  /** Verifies and reads a notice. Never throws. */
  readNotice(notice: IncomingNotice): Promise<NoticeReading>;
  /** The answer to a notice (NoticeOutcome). */
  noticeReply(outcome: NoticeOutcome): NoticeReply;
}

/** Which provider serves which pay type. */
export type PayProviders = Readonly<Record<PayType, PayProvider>>;
