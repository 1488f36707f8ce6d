import type { PayProviderName, PayType } from '@xcad/db';

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
}

/** What the cashier's QR encodes, or why there is none. */
export type PaymentCreated = { ok: true; payurl: string } | { ok: false; detail: string };

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

/**
 * A verified notice: `paid` grants, `ignored` is genuine but says nothing to act on (a closed or
 * refunded trade), `invalid` failed its signature or decryption and changes nothing.
 */
export type NoticeReading =
  { kind: 'paid'; notice: PaidNotice } | { kind: 'ignored'; detail: string } | { kind: 'invalid'; detail: string };

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
  /** Verifies and reads a notice. Never throws. */
  readNotice(notice: IncomingNotice): Promise<NoticeReading>;
  /** The answer to a notice (NoticeOutcome). */
  noticeReply(outcome: NoticeOutcome): NoticeReply;
}

/** Which provider serves which pay type. */
export type PayProviders = Readonly<Record<PayType, PayProvider>>;
