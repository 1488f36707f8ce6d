import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sandboxCashierPath } from '@xcad/protocol';
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
import type { StatementRow } from './statement';

// The sandbox (decision 0018's default provider): it behaves like the real ones from the site's point
// of view. Placing an order gives a URL to encode in the QR, the local cashier page
// /pay/sandbox/{orderno}; paying there (or POST /api/dev/pay/confirm) produces a signed notice that
// goes through the same notice path as WeChat Pay's and Alipay's: verified, then granted once.

const SIGNATURE_HEADER = 'x-sandbox-signature';

export class SandboxPayProvider implements PayProvider {
  readonly name = 'sandbox';
  /** Notices are signed with a key of this process: nobody outside can forge one. */
  readonly #key: Buffer;

  constructor(
    private readonly publicOrigin: string,
    key: Buffer = randomBytes(32),
  ) {
    this.#key = key;
  }

  /**
   * Decision 0043: a desktop's QR leads to the sandbox cashier; a phone goes there itself, as it
   * would to WeChat's h5_url or Alipay's wap.pay page, and comes back to `returnUrl` (`back`);
   * JSAPI gets parameters signed like WeChat's (here with the sandbox key), and the page, which
   * finds no WeixinJSBridge outside WeChat, opens the same cashier as the stand-in for the pay sheet.
   */
  createPayment(request: PaymentRequest): Promise<PaymentCreated> {
    const cashier = new URL(sandboxCashierPath(request.orderno), this.publicOrigin);
    if (request.scene === 'desktop') return Promise.resolve({ ok: true, payurl: cashier.toString() });
    if (request.scene === 'wechat' && request.openid === null) return Promise.resolve({ ok: false, detail: 'JSAPI without an openid' });
    cashier.searchParams.set('app', request.scene === 'wechat' ? 'jsapi' : 'h5');
    cashier.searchParams.set('back', new URL(request.returnUrl).pathname);
    if (request.scene === 'mobile') return Promise.resolve({ ok: true, payurl: cashier.toString() });
    const unsigned = {
      appId: 'sandbox',
      timeStamp: String(request.expiresAt),
      nonceStr: request.orderno,
      package: `prepay_id=sandbox${request.orderno}`,
    };
    const paySign = this.#sign(`${unsigned.appId}\n${unsigned.timeStamp}\n${unsigned.nonceStr}\n${unsigned.package}\n`);
    return Promise.resolve({ ok: true, payurl: cashier.toString(), jsapi: { ...unsigned, signType: 'RSA', paySign } });
  }

  /** The sandbox keeps no ledger of its own: a payment exists only as the notice it sent. */
  queryPayment(_orderno: string): Promise<PaymentState> {
    return Promise.resolve({ state: 'unpaid' });
  }

  closePayment(_orderno: string): Promise<void> {
    return Promise.resolve();
  }

  /** Decision 0043: the sandbox's money goes back at once, as a balance refund does. */
  refund(request: RefundRequest): Promise<RefundOutcome> {
    return Promise.resolve({ state: 'succeeded', providerRefundId: `SANDBOXRF${request.refundNo}` });
  }

  queryRefund(request: RefundRequest): Promise<RefundOutcome> {
    return this.refund(request);
  }

  downloadStatement(_billDate: string): Promise<StatementRow[] | string> {
    return Promise.resolve('the sandbox keeps no statement');
  }

  /** A refund's notice, as a provider would post it. */
  signRefundNotice(refund: RefundNotice): IncomingNotice {
    const rawBody = JSON.stringify({ event: 'refund', ...refund });
    return { headers: { [SIGNATURE_HEADER]: this.#sign(rawBody), 'content-type': 'application/json' }, rawBody };
  }

  /** The notice the cashier's 确认支付 sends, as a provider would post it. */
  signNotice(notice: PaidNotice): IncomingNotice {
    const rawBody = JSON.stringify({ event: 'paid', ...notice });
    return { headers: { [SIGNATURE_HEADER]: this.#sign(rawBody), 'content-type': 'application/json' }, rawBody };
  }

  readNotice(notice: IncomingNotice): Promise<NoticeReading> {
    const signature = notice.headers[SIGNATURE_HEADER];
    if (typeof signature !== 'string' || !this.#verify(notice.rawBody, signature)) {
      return Promise.resolve({ kind: 'invalid', detail: 'bad sandbox signature' });
    }
    let body: unknown;
    try {
      body = JSON.parse(notice.rawBody);
    } catch {
      return Promise.resolve({ kind: 'invalid', detail: 'body is not JSON' });
    }
    const refund = refundOf(body);
    if (refund !== null) return Promise.resolve({ kind: 'refund', refund });
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Partial<PaidNotice> & { event?: unknown };
    if (
      fields.event !== 'paid' ||
      typeof fields.orderno !== 'string' ||
      typeof fields.transactionId !== 'string' ||
      typeof fields.amountFen !== 'number' ||
      typeof fields.paidAt !== 'number'
    ) {
      return Promise.resolve({ kind: 'ignored', detail: 'not a payment' });
    }
    return Promise.resolve({
      kind: 'paid',
      notice: { orderno: fields.orderno, transactionId: fields.transactionId, amountFen: fields.amountFen, paidAt: fields.paidAt },
    });
  }

  noticeReply(outcome: NoticeOutcome): NoticeReply {
    if (outcome === 'handled') return { status: 200, contentType: 'application/json', body: '{"code":"SUCCESS"}' };
    return { status: outcome === 'invalid' ? 400 : 500, contentType: 'application/json', body: '{"code":"FAIL"}' };
  }

  #sign(rawBody: string): string {
    return createHmac('sha256', this.#key).update(rawBody).digest('base64url');
  }

  #verify(rawBody: string, signature: string): boolean {
    const expected = Buffer.from(this.#sign(rawBody));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function refundOf(body: unknown): RefundNotice | null {
  if (typeof body !== 'object' || body === null) return null;
  const fields = body as Partial<RefundNotice> & { event?: unknown };
  if (
    fields.event !== 'refund' ||
    typeof fields.orderno !== 'string' ||
    typeof fields.refundNo !== 'string' ||
    typeof fields.providerRefundId !== 'string' ||
    typeof fields.amountFen !== 'number' ||
    (fields.state !== 'succeeded' && fields.state !== 'failed')
  ) {
    return null;
  }
  const { orderno, refundNo, providerRefundId, amountFen, state } = fields;
  return { orderno, refundNo, providerRefundId, amountFen, state };
}
