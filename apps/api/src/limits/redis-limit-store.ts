import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { assertDistinctKeys, type Charge, type Consumed, type CounterState, type LimitStore } from './limit-store';

// The limit store in Redis, when the deployment has one (decision 0029): a counter is a hash
// {c: count, e: window end in epoch ms}. Each call is one Lua script, which Redis runs alone, so
// a request's charges are checked and taken together without a lock. Keys expire a second after
// their window (Redis's own clock only cleans up; the windows follow the `now` passed in). All
// keys of one call must live on one server: a single Redis or a primary with replicas, not a
// Redis Cluster.

// ARGV: now, then cost, limit, window per key. Answers {1, count...} or {0, index, retry ms}.
const CONSUME = `
local now = tonumber(ARGV[1])
local counts, ends = {}, {}
for i, key in ipairs(KEYS) do
  local at = 2 + (i - 1) * 3
  local cost, limit, window = tonumber(ARGV[at]), tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
  local stored = redis.call('HMGET', key, 'c', 'e')
  local count, window_end = tonumber(stored[1]) or 0, tonumber(stored[2]) or 0
  if window_end <= now then count, window_end = 0, now + window end
  if count + cost > limit then return {0, i, window_end - now} end
  counts[i], ends[i] = count + cost, window_end
end
for i, key in ipairs(KEYS) do
  if tonumber(ARGV[2 + (i - 1) * 3]) > 0 then
    redis.call('HSET', key, 'c', string.format('%.0f', counts[i]), 'e', string.format('%.0f', ends[i]))
    redis.call('PEXPIRE', key, string.format('%.0f', ends[i] - now + 1000))
  end
end
local answer = {1}
for i = 1, #KEYS do answer[i + 1] = counts[i] end
return answer
`;

// ARGV: now, then the cost of each key. A counter back at zero is deleted.
const REFUND = `
local now = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local stored = redis.call('HMGET', key, 'c', 'e')
  local count, window_end = tonumber(stored[1]) or 0, tonumber(stored[2]) or 0
  if window_end > now then
    local left = count - tonumber(ARGV[i + 1])
    if left <= 0 then redis.call('DEL', key) else redis.call('HSET', key, 'c', string.format('%.0f', left)) end
  end
end
return 0
`;

interface Script {
  text: string;
  sha: string;
}

function scriptOf(text: string): Script {
  return { text, sha: createHash('sha1').update(text).digest('hex') };
}

const SCRIPTS = { consume: scriptOf(CONSUME), refund: scriptOf(REFUND) };

function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

function numbersOf(answer: unknown): number[] {
  if (!Array.isArray(answer)) throw new Error(`unexpected answer from the limit script: ${JSON.stringify(answer)}`);
  return answer.map((value) => Number(value));
}

export interface RedisLimitStoreOptions {
  url: string;
  /** Every key goes under `prefix:` (several sites, or test runs, sharing one Redis). */
  prefix: string;
  /** Told about a lost connection (ioredis reconnects by itself). */
  onError: (error: Error) => void;
}

export class RedisLimitStore implements LimitStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(options: RedisLimitStoreOptions) {
    // Fail a call after two reconnection attempts rather than hold the request while Redis is away.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: 2 });
    this.redis.on('error', options.onError);
    this.prefix = `${options.prefix}:`;
  }

  private async run(script: Script, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown> {
    const fullKeys = keys.map((key) => this.prefix + key);
    try {
      return await this.redis.evalsha(script.sha, fullKeys.length, ...fullKeys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return this.redis.eval(script.text, fullKeys.length, ...fullKeys, ...args);
    }
  }

  async consume(charges: readonly Charge[], now: number): Promise<Consumed> {
    assertDistinctKeys(charges);
    if (charges.length === 0) return { ok: true, counts: [] };
    const args = [now, ...charges.flatMap((charge) => [charge.cost, charge.limit, charge.windowMs])];
    const [isTaken = 0, ...rest] = numbersOf(
      await this.run(
        SCRIPTS.consume,
        charges.map((charge) => charge.key),
        args,
      ),
    );
    if (isTaken === 1) return { ok: true, counts: rest };
    const [index = 1, retryAfterMs = 0] = rest;
    return { ok: false, key: charges[index - 1]?.key ?? '', retryAfterMs };
  }

  async refund(charges: ReadonlyArray<Pick<Charge, 'key' | 'cost'>>, now: number): Promise<void> {
    const given = charges.filter((charge) => charge.cost > 0);
    if (given.length === 0) return;
    await this.run(
      SCRIPTS.refund,
      given.map((charge) => charge.key),
      [now, ...given.map((charge) => charge.cost)],
    );
  }

  async read(keys: readonly string[], now: number): Promise<CounterState[]> {
    if (keys.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.hmget(this.prefix + key, 'c', 'e');
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, value]) => {
      if (error !== null) throw error;
      const [count, windowEnd] = Array.isArray(value) ? value.map((field) => Number(field ?? 0)) : [0, 0];
      return windowEnd !== undefined && windowEnd > now ? { count: count ?? 0, windowEnd } : { count: 0, windowEnd: 0 };
    });
  }

  async reset(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.del(...keys.map((key) => this.prefix + key));
  }

  /** Redis expires ended windows itself. */
  purge(): Promise<number> {
    return Promise.resolve(0);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
