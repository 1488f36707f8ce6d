import { randomUUID } from 'node:crypto';
import { smsTextOf, type SmsMessage, type SmsProvider, type SmsSendResult } from './sms.provider';

/** One message as the dev outbox shows it (`GET /api/dev/sms-outbox`). */
export interface OutboxMessage {
  account: string;
  code: string;
  text: string;
  /** ISO 8601 time of sending. */
  at: string;
}

export const DEFAULT_OUTBOX_SIZE = 500;

/** The part of the app's logger the provider writes with. */
export interface SmsLogger {
  info(details: Record<string, unknown>, message: string): void;
}

export interface ConsoleSmsOptions {
  logger: SmsLogger;
  /** Messages kept; the oldest are dropped beyond it so a long-running dev server stays small. */
  capacity?: number;
  now?: () => Date;
}

/** The development provider: nothing leaves the machine; codes are readable in the outbox. */
export class ConsoleSmsProvider implements SmsProvider {
  readonly name = 'console';
  private readonly outbox: OutboxMessage[] = [];
  private readonly capacity: number;
  private readonly logger: SmsLogger;
  private readonly now: () => Date;

  constructor(options: ConsoleSmsOptions) {
    this.logger = options.logger;
    this.capacity = options.capacity ?? DEFAULT_OUTBOX_SIZE;
    this.now = options.now ?? (() => new Date());
  }

  send(message: SmsMessage): Promise<SmsSendResult> {
    const entry: OutboxMessage = { account: message.phone, code: message.code, text: smsTextOf(message), at: this.now().toISOString() };
    this.outbox.push(entry);
    if (this.outbox.length > this.capacity) this.outbox.splice(0, this.outbox.length - this.capacity);
    // The code is logged only here: this provider exists for development and tests.
    this.logger.info({ account: entry.account, code: entry.code, purpose: message.purpose }, 'dev sms sent');
    return Promise.resolve({ ok: true, providerMessageId: `console-${randomUUID()}` });
  }

  /** Messages sent to `phone`, newest first. */
  messagesFor(phone: string): OutboxMessage[] {
    return this.outbox.filter((entry) => entry.account === phone).reverse();
  }
}
