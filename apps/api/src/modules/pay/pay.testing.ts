import type { PayProviderName } from '@xcad/db';
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
import { SandboxPayProvider } from './sandbox.provider';
import type { StatementRow } from './statement';

/**
 * A provider played in the API tests under a real provider's name: it takes payments, keeps what
 * it was asked (created and closed orders), and posts notices signed the sandbox's way, so two
 * providers can serve one app (WeChat Pay for wxpay, Alipay for alipay) without the network.
 */
export class PlayedProvider implements PayProvider {
  readonly created: PaymentRequest[] = [];
  readonly closed: string[] = [];
  /** Payments the provider vouches for when asked (a notice that never came). */
  readonly ledger = new Map<string, PaidNotice>();
  readonly refunds: RefundRequest[] = [];
  /** What the provider answers a refund (WeChat: PROCESSING until its notice, usually). */
  refundAnswer: (request: RefundRequest) => RefundOutcome = (request) => ({
    state: 'processing',
    providerRefundId: `RF-${request.refundNo}`,
  });
  readonly #signer = new SandboxPayProvider('http://shop.test');

  constructor(readonly name: PayProviderName) {}

  createPayment(request: PaymentRequest): Promise<PaymentCreated> {
    this.created.push(request);
    return Promise.resolve({ ok: true, payurl: `https://pay.test/${this.name}/${request.orderno}` });
  }

  queryPayment(orderno: string): Promise<PaymentState> {
    const notice = this.ledger.get(orderno);
    return Promise.resolve(notice ? { state: 'paid', notice } : { state: 'unpaid' });
  }

  closePayment(orderno: string): Promise<void> {
    this.closed.push(orderno);
    return Promise.resolve();
  }

  refund(request: RefundRequest): Promise<RefundOutcome> {
    this.refunds.push(request);
    return Promise.resolve(this.refundAnswer(request));
  }

  queryRefund(request: RefundRequest): Promise<RefundOutcome> {
    return Promise.resolve(this.refundAnswer(request));
  }

  /** The day's statement the provider would give (set by a test). */
  statement: StatementRow[] | string = 'no statement';

  downloadStatement(_billDate: string): Promise<StatementRow[] | string> {
    return Promise.resolve(this.statement);
  }

  /** The notice this provider would post for a refund. */
  refundNotice(refund: RefundNotice): IncomingNotice {
    return this.#signer.signRefundNotice(refund);
  }

  /** The notice this provider would post for a payment. */
  notice(notice: PaidNotice): IncomingNotice {
    return this.#signer.signNotice(notice);
  }

  readNotice(notice: IncomingNotice): Promise<NoticeReading> {
    return this.#signer.readNotice(notice);
  }

  noticeReply(outcome: NoticeOutcome): NoticeReply {
    return this.#signer.noticeReply(outcome);
  }
}
