// Token buckets kept in this process's memory, for the analytics collector (issue 11). Each key
// (an address, a device) may spend `perMinute` events in a burst and earns them back evenly over a
// minute. Memory is bounded: past `maxKeys` the least recently used buckets are forgotten, which
// only ever gives a forgotten key a fresh budget.
//
// Why not the database, as the sign-in limits do: the collector takes far more requests than any
// sign-in, and a counter written per request would double its writes. With several API processes
// each keeps its own buckets, so a client spread over N of them gets up to N times the budget.

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, epoch ms. */
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    private readonly maxKeys = 100_000,
  ) {
    if (!(perMinute > 0)) throw new Error(`a rate limit needs a positive budget, not ${perMinute}`);
    this.perMs = perMinute / 60_000;
  }

  /** Milliseconds until `key` has `cost` tokens (0: it has them now). */
  waitMs(key: string, cost: number, now: number): number {
    const tokens = this.tokensOf(key, now);
    return tokens >= cost ? 0 : (Math.min(cost, this.perMinute) - tokens) / this.perMs;
  }

  /** Takes `cost` tokens from `key` (after `waitMs` answered 0). */
  spend(key: string, cost: number, now: number): void {
    const bucket = { tokens: this.tokensOf(key, now) - cost, at: now };
    // Re-inserted so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    for (const oldest of this.buckets.keys()) {
      if (this.buckets.size <= this.maxKeys) break;
      this.buckets.delete(oldest);
    }
  }

  /** Keys with a bucket (for tests of the memory bound). */
  get size(): number {
    return this.buckets.size;
  }

  private tokensOf(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return this.perMinute;
    return Math.min(this.perMinute, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs);
  }
}

export interface Charge {
  limiter: RateLimiter;
  key: string;
  cost: number;
}

/** Spends every charge, or none of them: answers when all would fit again. */
export function takeAll(charges: readonly Charge[], now: number): TakeResult {
  const waitMs = Math.max(0, ...charges.map(({ limiter, key, cost }) => limiter.waitMs(key, cost, now)));
  if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  for (const { limiter, key, cost } of charges) limiter.spend(key, cost, now);
  return { ok: true };
}
