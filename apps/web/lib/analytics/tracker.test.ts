import { ANALYTICS_LIMITS, ZAnalyticsBatch, ZAnalyticsEvent, type TAnalyticsCommon, type TAnalyticsEventRecord } from '@xcad/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  LEASE_MS,
  MAX_FAILED_SENDS,
  QUEUE_STORAGE_KEY,
  RETRY_DELAYS_MS,
  createTracker,
  outcomeOfStatus,
  type PostOutcome,
  type TrackerDeps,
} from './tracker';

// Decision 0022: the tracker's batching, retries, offline storage, cap and privacy switch, driven by a
// fake clock, fake timers, a fake collector and a storage shared like the browser's local storage.

const START = Date.parse('2026-11-22T10:00:00+08:00');

class FakeStorage {
  readonly map = new Map<string, string>();
  failWrites = false;
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.failWrites) throw new Error('QuotaExceededError');
    this.map.set(key, value);
  }
  queued(): TAnalyticsEventRecord[] {
    const raw = this.map.get(QUEUE_STORAGE_KEY);
    return raw ? (JSON.parse(raw) as { event: TAnalyticsEventRecord }[]).map((item) => item.event) : [];
  }
}

/** One page's world: its clock and timers; pages made by `pageOf` share the storage and the collector. */
class World {
  now = START;
  timers: { at: number; run: () => void; cancelled: boolean }[] = [];
  storage = new FakeStorage();
  /** Bodies the collector received by POST and by beacon, parsed. */
  posts: TAnalyticsEventRecord[][] = [];
  beacons: TAnalyticsEventRecord[][] = [];
  answers: PostOutcome[] = [];
  /** The collector's HTTP status for a batch, when the test plays one that judges what it gets. */
  statusFor: ((events: TAnalyticsEventRecord[]) => number) | null = null;
  isOnline = true;
  isAllowed = true;
  beaconRefuses = false;
  /** A POST that has not answered yet (to test sends under way). */
  held: ((outcome: PostOutcome) => void) | null = null;
  holdPosts = false;

  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      const next = this.timers.filter((timer) => !timer.cancelled && timer.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      next.cancelled = true;
      this.now = next.at;
      next.run();
      await settle();
    }
    this.now = until;
    await settle();
  }

  deps(overrides: Partial<TrackerDeps> = {}): TrackerDeps {
    return {
      common: (): TAnalyticsCommon => ({
        software_name: 'web',
        software_version: 'online',
        channel: '',
        platform: 'WEB',
        uid: 'uid-1',
        device_id: 'device-1',
        page: '/tools/cad2pdf',
        time: this.now,
      }),
      isAllowed: () => this.isAllowed,
      storage: this.storage,
      post: (body) => {
        const parsed = ZAnalyticsBatch.parse(JSON.parse(body));
        this.posts.push(parsed.events as TAnalyticsEventRecord[]);
        if (this.holdPosts) return new Promise((resolve) => (this.held = resolve));
        if (this.statusFor) return Promise.resolve(outcomeOfStatus(this.statusFor(parsed.events as TAnalyticsEventRecord[])));
        return Promise.resolve(this.answers.shift() ?? 'sent');
      },
      beacon: (body) => {
        if (this.beaconRefuses) return false;
        this.beacons.push(ZAnalyticsBatch.parse(JSON.parse(body)).events as TAnalyticsEventRecord[]);
        return true;
      },
      isOnline: () => this.isOnline,
      now: () => this.now,
      setTimer: (run, ms) => {
        const timer = { at: this.now + ms, run, cancelled: false };
        this.timers.push(timer);
        return () => {
          timer.cancelled = true;
        };
      },
      newId: (() => {
        let next = 0;
        return () => `id-${(next += 1)}-${Math.random()}`;
      })(),
      ...overrides,
    };
  }
}

const settle = async () => {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
};

const view = (title: string) => ({ event: 'view', title }) as const;

let world: World;
beforeEach(() => {
  world = new World();
});

describe('batching', () => {
  it('waits for flushMs, then sends what was queued as one batch of catalogue events', async () => {
    const tracker = createTracker(world.deps());
    tracker.track(view('首页'));
    tracker.track({ event: 'click', module: 'header', name: 'tools' });
    await world.advance(ANALYTICS_LIMITS.flushMs - 1);
    expect(world.posts).toHaveLength(0);
    await world.advance(1);
    expect(world.posts).toHaveLength(1);
    expect(world.posts[0]!.map((event) => event.event)).toEqual(['view', 'click']);
    for (const event of world.posts[0]!) expect(ZAnalyticsEvent.safeParse(event).success).toBe(true);
    expect(world.posts[0]![0]).toMatchObject({
      software_name: 'web',
      device_id: 'device-1',
      page: '/tools/cad2pdf',
      time: START,
      title: '首页',
    });
    expect(world.storage.queued()).toEqual([]);
  });

  it('sends at once when batchSize events are waiting, without waiting for the timer', async () => {
    const tracker = createTracker(world.deps());
    for (let index = 0; index < ANALYTICS_LIMITS.batchSize; index += 1) tracker.track(view(`p${index}`));
    await settle();
    expect(world.posts.map((batch) => batch.length)).toEqual([ANALYTICS_LIMITS.batchSize]);
  });

  it('keeps the time and page an event had when it was queued before the page set up the tracker', async () => {
    const tracker = createTracker(world.deps());
    tracker.track(view('早先'), { time: START - 2_000, page: '/buy.html' });
    await world.advance(ANALYTICS_LIMITS.flushMs);
    expect(world.posts[0]![0]).toMatchObject({ time: START - 2_000, page: '/buy.html' });
  });

  it('cuts over-long texts to the catalogue limits instead of losing the event', async () => {
    const tracker = createTracker(world.deps());
    tracker.track({ event: 'file', io: 'upload', name: `${'很长的文件名'.repeat(40)}.dwg`, extension: 'dwg', size: 10, result: 'success' });
    await world.advance(ANALYTICS_LIMITS.flushMs);
    const sent = world.posts[0]![0]!;
    expect(ZAnalyticsEvent.safeParse(sent).success).toBe(true);
    expect((sent as { name: string }).name).toHaveLength(128);
  });
});

describe('retries and offline', () => {
  it('keeps a batch the collector could not take and sends it again after a pause', async () => {
    world.answers = ['deferred'];
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs);
    expect(world.posts).toHaveLength(1);
    expect(world.storage.queued()).toHaveLength(1);
    await world.advance(RETRY_DELAYS_MS[0]! - 1);
    expect(world.posts).toHaveLength(1);
    await world.advance(1);
    expect(world.posts).toHaveLength(2);
    expect(world.posts[1]![0]).toMatchObject({ title: 'a' });
    expect(world.storage.queued()).toEqual([]);
  });

  it('backs off further after each failed send', async () => {
    world.answers = ['deferred', 'failed', 'deferred'];
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs);
    await world.advance(RETRY_DELAYS_MS[0]!);
    await world.advance(RETRY_DELAYS_MS[1]! - 1);
    expect(world.posts).toHaveLength(2);
    await world.advance(1);
    expect(world.posts).toHaveLength(3);
  });

  it('drops a batch the collector refuses for good, and does not ask again', async () => {
    world.answers = ['refused'];
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs);
    await world.advance(RETRY_DELAYS_MS.at(-1)!);
    expect(world.posts).toHaveLength(1);
    expect(world.storage.queued()).toEqual([]);
  });

  it('reads the collector’s status: content refused for good, server errors and busy answers retried', () => {
    expect([200, 204].map(outcomeOfStatus)).toEqual(['sent', 'sent']);
    expect([400, 401, 404, 413].map(outcomeOfStatus)).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect([408, 429].map(outcomeOfStatus)).toEqual(['deferred', 'deferred']);
    expect([500, 502, 503].map(outcomeOfStatus)).toEqual(['failed', 'failed', 'failed']);
  });

  it('drops a batch the collector refuses for its content (400), keeping none of it', async () => {
    world.statusFor = () => 400;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    tracker.track(view('b'));
    await world.advance(ANALYTICS_LIMITS.flushMs + RETRY_DELAYS_MS.at(-1)! * 3);
    expect(world.posts).toHaveLength(1);
    expect(tracker.pending()).toBe(0);
  });

  it('sends the rest of a batch the server keeps failing on (500), and drops the one event it cannot take', async () => {
    world.statusFor = (events) => (events.some((event) => (event as { title?: string }).title === 'poison') ? 500 : 200);
    const tracker = createTracker(world.deps());
    for (let index = 0; index < ANALYTICS_LIMITS.batchSize; index += 1) tracker.track(view(index === 7 ? 'poison' : `p${index}`));
    await settle();
    await world.advance(RETRY_DELAYS_MS.at(-1)! * (MAX_FAILED_SENDS + 2));
    const delivered = world.posts.filter((batch) => !batch.some((event) => (event as { title?: string }).title === 'poison'));
    expect(
      delivered
        .flat()
        .map((event) => (event as { title?: string }).title)
        .sort(),
    ).toEqual(
      Array.from({ length: ANALYTICS_LIMITS.batchSize }, (_, index) => `p${index}`)
        .filter((title) => title !== 'p7')
        .sort(),
    );
    expect(world.posts.filter((batch) => batch.some((event) => (event as { title?: string }).title === 'poison'))).toHaveLength(
      MAX_FAILED_SENDS,
    );
    expect(tracker.pending()).toBe(0);
  });

  it('gives up on a server that fails every send instead of retrying forever', async () => {
    world.statusFor = () => 500;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(RETRY_DELAYS_MS.at(-1)! * (MAX_FAILED_SENDS + 2));
    expect(world.posts).toHaveLength(MAX_FAILED_SENDS);
    expect(tracker.pending()).toBe(0);
    await world.advance(RETRY_DELAYS_MS.at(-1)! * 10);
    expect(world.posts).toHaveLength(MAX_FAILED_SENDS);
  });

  it('never drops events for a network failure or a busy collector (429): they go once it answers', async () => {
    world.answers = Array.from({ length: MAX_FAILED_SENDS * 2 }, () => 'deferred' as const);
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(RETRY_DELAYS_MS.at(-1)! * (MAX_FAILED_SENDS * 2 + 2));
    expect(world.posts).toHaveLength(MAX_FAILED_SENDS * 2 + 1);
    expect(world.posts.at(-1)![0]).toMatchObject({ title: 'a' });
    expect(tracker.pending()).toBe(0);
  });

  it('stores events while offline and sends them when the browser is back online', async () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    tracker.track(view('离线一'));
    tracker.track(view('离线二'));
    await world.advance(ANALYTICS_LIMITS.flushMs * 3);
    expect(world.posts).toHaveLength(0);
    expect(world.storage.queued().map((event) => (event as { title?: string }).title)).toEqual(['离线一', '离线二']);
    world.isOnline = true;
    tracker.resume();
    await settle();
    expect(world.posts).toHaveLength(1);
    expect(world.posts[0]!.map((event) => (event as { title?: string }).title)).toEqual(['离线一', '离线二']);
    expect(world.storage.queued()).toEqual([]);
  });

  it('sends what an earlier page left in storage when the next page loads', async () => {
    world.isOnline = false;
    createTracker(world.deps()).track(view('上一页'));
    world.isOnline = true;
    const nextPage = createTracker(world.deps());
    nextPage.resume();
    await settle();
    expect(world.posts.flat().map((event) => (event as { title?: string }).title)).toEqual(['上一页']);
  });

  it('sends a large backlog batch after batch', async () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    for (let index = 0; index < 45; index += 1) tracker.track(view(`p${index}`));
    world.isOnline = true;
    tracker.resume();
    await settle();
    expect(world.posts.map((batch) => batch.length)).toEqual([20, 20]);
    await world.advance(ANALYTICS_LIMITS.flushMs);
    expect(world.posts.map((batch) => batch.length)).toEqual([20, 20, 5]);
    expect(world.posts.flat().map((event) => (event as { title?: string }).title)).toEqual(
      Array.from({ length: 45 }, (_, index) => `p${index}`),
    );
  });

  it('keeps at most maxStored events while offline, dropping the oldest', async () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    const total = ANALYTICS_LIMITS.maxStored + 7;
    for (let index = 0; index < total; index += 1) tracker.track(view(`p${index}`));
    const stored = world.storage.queued();
    expect(stored).toHaveLength(ANALYTICS_LIMITS.maxStored);
    expect((stored[0] as { title: string }).title).toBe('p7');
    expect((stored.at(-1) as { title: string }).title).toBe(`p${total - 1}`);
    expect(tracker.pending()).toBe(ANALYTICS_LIMITS.maxStored);
  });

  it('drops stored events too old for the collector to accept', async () => {
    world.isOnline = false;
    createTracker(world.deps()).track(view('上周'));
    world.now += ANALYTICS_LIMITS.maxAgeMs;
    world.isOnline = true;
    const tracker = createTracker(world.deps());
    tracker.resume();
    await settle();
    expect(world.posts).toHaveLength(0);
    expect(tracker.pending()).toBe(0);
  });

  it('never sends an event twice while another tab is sending it', async () => {
    world.holdPosts = true;
    const tabA = createTracker(world.deps());
    const tabB = createTracker(world.deps());
    tabA.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs);
    expect(world.posts).toHaveLength(1);
    await tabB.flush();
    tabB.flushOnHide();
    expect(world.posts).toHaveLength(1);
    expect(world.beacons).toHaveLength(0);
    // A tab that died mid-send: its hold ends and another tab sends the events.
    world.now += LEASE_MS + 1;
    world.holdPosts = false;
    await tabB.flush();
    expect(world.posts).toHaveLength(2);
  });
});

describe('page hide', () => {
  it('sends everything queued with beacons of at most maxBatch events', async () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    for (let index = 0; index < ANALYTICS_LIMITS.maxBatch + 3; index += 1) tracker.track(view(`p${index}`));
    world.isOnline = true;
    tracker.flushOnHide();
    expect(world.beacons.map((batch) => batch.length)).toEqual([ANALYTICS_LIMITS.maxBatch, 3]);
    expect(world.posts).toHaveLength(0);
    expect(world.storage.queued()).toEqual([]);
  });

  it('falls back to a keep-alive POST when the browser refuses the beacon', async () => {
    world.beaconRefuses = true;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    tracker.flushOnHide();
    await settle();
    expect(world.posts).toHaveLength(1);
    expect(world.storage.queued()).toEqual([]);
  });

  it('leaves events in storage for the next page when hidden offline', () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    tracker.flushOnHide();
    expect(world.beacons).toHaveLength(0);
    expect(world.storage.queued()).toHaveLength(1);
  });
});

describe('privacy', () => {
  it('records and sends nothing when tracking is not allowed (Do-Not-Track, declined)', async () => {
    world.isAllowed = false;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs * 2);
    tracker.flushOnHide();
    expect(world.posts).toHaveLength(0);
    expect(world.beacons).toHaveLength(0);
    expect(world.storage.queued()).toEqual([]);
  });

  it('deletes what was waiting when the visitor declines, and sends none of it', async () => {
    world.isOnline = false;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    world.isAllowed = false;
    tracker.discard();
    world.isOnline = true;
    world.isAllowed = true;
    tracker.resume();
    await settle();
    expect(world.posts).toHaveLength(0);
    expect(world.storage.queued()).toEqual([]);
  });
});

describe('robustness', () => {
  it('keeps working in memory when storage refuses writes', async () => {
    world.storage.failWrites = true;
    const tracker = createTracker(world.deps());
    tracker.track(view('a'));
    await world.advance(ANALYTICS_LIMITS.flushMs);
    expect(world.posts).toHaveLength(1);
  });

  it('ignores unreadable stored queues and never throws into the page', async () => {
    world.storage.map.set(QUEUE_STORAGE_KEY, '{not json');
    const failing = createTracker(
      world.deps({
        common: () => {
          throw new Error('boom');
        },
      }),
    );
    expect(() => failing.track(view('a'))).not.toThrow();
    const tracker = createTracker(world.deps({ post: () => Promise.reject(new Error('network')) }));
    tracker.track(view('b'));
    await expect(world.advance(ANALYTICS_LIMITS.flushMs)).resolves.toBeUndefined();
    expect(world.storage.queued()).toHaveLength(1);
  });
});
