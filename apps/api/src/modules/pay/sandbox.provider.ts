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
} from './pay.provider';

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

  createPayment(request: PaymentRequest): Promise<PaymentCreated> {
    return Promise.resolve({ ok: true, payurl: new URL(sandboxCashierPath(request.orderno), this.publicOrigin).toString() });
  }

  /** The sandbox keeps no ledger of its own: a payment exists only as the notice it sent. */
  queryPayment(_orderno: string): Promise<PaymentState> {
    return Promise.resolve({ state: 'unpaid' });
  }

  closePayment(_orderno: string): Promise<void> {
    return Promise.resolve();
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
    const fields = body as Partial<PaidNotice> & { event?: unknown };
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
