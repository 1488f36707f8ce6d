import { describe, expect, it } from 'vitest';
import { RateLimiter, takeAll } from './rate-limiter';

// Issue 11: the collector's per-address and per-device budgets.

const T0 = 1_800_000_000_000;

describe('RateLimiter', () => {
  it('allows a burst of the whole budget, then refills evenly over the minute', () => {
    const limiter = new RateLimiter(60);
    expect(takeAll([{ limiter, key: 'ip', cost: 50 }], T0)).toEqual({ ok: true });
    expect(takeAll([{ limiter, key: 'ip', cost: 10 }], T0)).toEqual({ ok: true });
    // Empty: 20 more events need 20 s of refill at one a second.
    expect(takeAll([{ limiter, key: 'ip', cost: 20 }], T0)).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(takeAll([{ limiter, key: 'ip', cost: 20 }], T0 + 19_000)).toMatchObject({ ok: false });
    expect(takeAll([{ limiter, key: 'ip', cost: 20 }], T0 + 20_000)).toEqual({ ok: true });
    // Never more than the budget, however long the key was quiet.
    expect(takeAll([{ limiter, key: 'ip', cost: 60 }], T0 + 3_600_000)).toEqual({ ok: true });
    expect(takeAll([{ limiter, key: 'ip', cost: 1 }], T0 + 3_600_000)).toMatchObject({ ok: false });
  });

  it('keeps keys apart', () => {
    const limiter = new RateLimiter(50);
    expect(takeAll([{ limiter, key: 'a', cost: 50 }], T0)).toEqual({ ok: true });
    expect(takeAll([{ limiter, key: 'b', cost: 50 }], T0)).toEqual({ ok: true });
    expect(takeAll([{ limiter, key: 'a', cost: 1 }], T0)).toMatchObject({ ok: false });
  });

  it('spends from every bucket of a request or from none', () => {
    const byAddress = new RateLimiter(100);
    const byDevice = new RateLimiter(50);
    expect(takeAll([{ limiter: byDevice, key: 'd1', cost: 45 }], T0)).toEqual({ ok: true });
    // The device lacks room: the address must not be charged for the refused request.
    expect(
      takeAll(
        [
          { limiter: byAddress, key: 'ip', cost: 10 },
          { limiter: byDevice, key: 'd1', cost: 10 },
        ],
        T0,
      ),
    ).toEqual({ ok: false, retryAfterSeconds: 6 });
    expect(takeAll([{ limiter: byAddress, key: 'ip', cost: 100 }], T0)).toEqual({ ok: true });
  });

  it('forgets the least recently used keys beyond its bound, which only frees their budget', () => {
    const limiter = new RateLimiter(50, 3);
    for (const key of ['a', 'b', 'c']) limiter.spend(key, 50, T0);
    limiter.spend('a', 0, T0);
    limiter.spend('d', 50, T0);
    expect(limiter.size).toBe(3);
    // b was the least recently used: forgotten, so full again; a, c and d are still empty.
    expect(limiter.waitMs('b', 50, T0)).toBe(0);
    for (const key of ['a', 'c', 'd']) expect(limiter.waitMs(key, 1, T0)).toBeGreaterThan(0);
  });

  it('refuses a budget that could never let an event through', () => {
    expect(() => new RateLimiter(0)).toThrow(/positive budget/);
  });
});
