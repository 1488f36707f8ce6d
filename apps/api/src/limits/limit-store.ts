// Quotas and rate limits (decision 0029): one mechanism for the conversion quota, the
// analytics collector and the sign-in and SMS limits, kept where every API process sees the same
// counts (Redis when the deployment has one, else the database).
//
// A counter holds the units taken under a key in a window that opens with its first unit and
// lasts `windowMs`; once the window has ended the count starts again from zero. Windows are
// judged by the `now` the caller passes (the app's clock), never by the store's own clock, so a
// test that moves the app's clock moves the limits with it.

/** What one request takes from one counter. */
export interface Charge {
  /** The counter, built with `limitKey`. */
  key: string;
  /** Units this request takes; 0 only checks that the counter is within its limit. */
  cost: number;
  /** Most units the counter may hold in one window (UNLIMITED: it only counts). */
  limit: number;
  /** How long a window lasts from its first unit, in milliseconds. */
  windowMs: number;
}

/** A limit no count reaches: the counter only counts (distinct phones of a device, failures). */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

export type Consumed =
  /** Every charge was taken; `counts[i]` is the i-th counter's count after it. */
  | { ok: true; counts: number[] }
  /** Nothing was taken: `key` would go over its limit; its window ends in `retryAfterMs`. */
  | { ok: false; key: string; retryAfterMs: number };

export interface CounterState {
  /** 0 for a counter without a live window. */
  count: number;
  /** Epoch milliseconds when the live window ends; 0 without one. */
  windowEnd: number;
}

export interface LimitStore {
  readonly kind: 'redis' | 'database';
  /**
   * Takes every charge if each counter stays within its limit after it, else takes nothing. Atomic
   * across processes: of any number of concurrent requests, only as many as fit are let through.
   */
  consume(charges: readonly Charge[], now: number): Promise<Consumed>;
  /** Gives back what `consume` took, when the step it paid for did not happen; a counter back at zero is forgotten. */
  refund(charges: ReadonlyArray<Pick<Charge, 'key' | 'cost'>>, now: number): Promise<void>;
  read(keys: readonly string[], now: number): Promise<CounterState[]>;
  /** Forgets counters (a right password clears the failures counted against the account). */
  reset(keys: readonly string[]): Promise<void>;
  /** Deletes ended windows (the database store; Redis expires its keys itself). Answers how many went. */
  purge(now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * A counter's key from its parts, joined by ':'. Parts come from clients (device ids, addresses),
 * so anything but letters, digits and `_ . @ -` is percent-encoded from its UTF-8 bytes: no part
 * can forge a separator, and a key holds no byte a store refuses (PostgreSQL text takes no NUL).
 */
export function limitKey(...parts: ReadonlyArray<string | number>): string {
  return parts
    .map((part) =>
      String(part).replace(/[^\w.@-]/gu, (character) =>
        [...Buffer.from(character, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
      ),
    )
    .join(':');
}

/** Whole seconds to wait, at least 1 (the `retryafter` of a refusal). */
export function retryAfterSecondsOf(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** Refuses charges that name one counter twice: their sum would be checked against neither. */
export function assertDistinctKeys(charges: ReadonlyArray<Pick<Charge, 'key'>>): void {
  if (new Set(charges.map((charge) => charge.key)).size !== charges.length) throw new Error('a limit charge names one counter twice');
}
