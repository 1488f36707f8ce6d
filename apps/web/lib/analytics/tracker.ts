import type { TAnalyticsCommon, TAnalyticsEventInput, TAnalyticsEventRecord } from '@xcad/protocol/analytics';
import type { KeyValueStorage } from '@/lib/device-id';
import { TRACKER_LIMITS, clipEvent } from './fields';

// The analytics tracker (decision 0022), free of the browser: events are queued in local storage
// (shared by the site's tabs), sent as a batch of ANALYTICS_LIMITS.batchSize (fields.ts
// TRACKER_LIMITS) or after flushMs,
// sent with a beacon when the page is hidden, kept while offline or refused for a while and sent
// again when the browser is back online or on the next page load. Nothing here throws into the
// page or waits on the network before returning. lib/analytics/browser.ts binds it to the window.
//
// Decision 0028: a batch is retried only while it may still succeed, and never forever. The collector
// refusing its content (4xx) drops it at once. A network failure, a time-out or "too many" (408,
// 429) says nothing of the content: the batch waits and goes again, bounded by the queue's age
// and size limits. A server error (5xx) may be the server's or the content's: the events go again
// in ever smaller batches (a half each time), so one event the server cannot take is soon sent
// alone, and an event whose sends failed MAX_FAILED_SENDS times is dropped.

/**
 * How a POST of a batch ended: stored; refused for its content (dropped); failed on the server
 * (retried in smaller batches, a few times); or not taken at all (retried, not counted).
 */
export type PostOutcome = 'sent' | 'refused' | 'failed' | 'deferred';

/** The outcome an HTTP status of the collector means. */
export function outcomeOfStatus(status: number): PostOutcome {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 408 || status === 429) return 'deferred';
  return status >= 500 ? 'failed' : 'refused';
}

interface TrackerLimits {
  readonly batchSize: number;
  readonly maxBatch: number;
  readonly flushMs: number;
  readonly maxStored: number;
  readonly maxAgeMs: number;
  readonly maxBodyBytes: number;
}

export interface TrackerDeps {
  /** The common fields (software info, device, page, time) at the moment of an event. */
  common(): TAnalyticsCommon;
  /** Do-Not-Track and the consent choice, asked at every event and every send. */
  isAllowed(): boolean;
  readonly storage: KeyValueStorage | null;
  /** POSTs a batch body (`{"events":[...]}`) as JSON; never rejects. */
  post(body: string): Promise<PostOutcome>;
  /** `navigator.sendBeacon` of the body as text/plain; false when the browser would not queue it. */
  beacon(body: string): boolean;
  isOnline(): boolean;
  now(): number;
  /** Runs `run` after `ms`; returns what cancels it. */
  setTimer(run: () => void, ms: number): () => void;
  newId(): string;
  /** Debug mode (test host only): every event and send is described here. */
  debug?(message: string, detail?: unknown): void;
  readonly limits?: Partial<TrackerLimits>;
}

export interface Tracker {
  /** Queues an event; `at` overrides common fields (the time and page of an event queued earlier). */
  track(input: TAnalyticsEventInput, at?: Partial<TAnalyticsCommon>): void;
  /** Sends what is queued now (the batch timer, a full batch, a retry). Resolves when that send ended. */
  flush(): Promise<void>;
  /** The page is being hidden or left: everything queued goes out with beacons. */
  flushOnHide(): void;
  /** Back online, or a new page load: queued events from before are sent. */
  resume(): void;
  /** The visitor declined: what was waiting is deleted and nothing more is sent. */
  discard(): void;
  /** Events waiting in the queue (every tab's). */
  pending(): number;
}

export const QUEUE_STORAGE_KEY = 'xcad_analytics_queue';

/**
 * An event waiting to be sent. `lease`: until when a send under way (in any tab) holds it;
 * `failures`: sends of it that ended in a server error (absent in queues stored before it existed).
 */
interface QueuedEvent {
  readonly id: string;
  readonly lease: number;
  readonly failures?: number;
  readonly event: TAnalyticsEventRecord;
}

/** How long a send holds its events: longer than the POST's own time-out (browser.ts, 15 s). */
export const LEASE_MS = 30_000;
/** Pauses after failed sends, in order; the last one repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 15_000, 60_000, 300_000];
/** Events this close to the collector's age limit are dropped rather than sent to be refused. */
const AGE_MARGIN_MS = 3_600_000;
/** Sends ending in a server error after which an event is dropped (the last of them alone). */
export const MAX_FAILED_SENDS = 6;

const failuresOf = (item: QueuedEvent) => item.failures ?? 0;

function isQueuedEvent(value: unknown): value is QueuedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { id, lease, failures, event } = value as Record<string, unknown>;
  return (
    typeof id === 'string' &&
    typeof lease === 'number' &&
    (failures === undefined || typeof failures === 'number') &&
    typeof event === 'object' &&
    event !== null &&
    typeof (event as Record<string, unknown>).event === 'string' &&
    typeof (event as Record<string, unknown>).time === 'number'
  );
}

/**
 * The queue in local storage, read and written whole at each change so that the tabs of the site
 * share it; in memory when storage is missing or full.
 */
function queueStore(storage: KeyValueStorage | null) {
  let memory: QueuedEvent[] = [];
  let isStorageUsable = storage !== null;
  return {
    load(): QueuedEvent[] {
      if (!isStorageUsable || !storage) return [...memory];
      try {
        const raw = storage.getItem(QUEUE_STORAGE_KEY);
        if (raw === null) return [];
        const parsed: unknown = JSON.parse(raw);
        return Array.isArray(parsed) ? parsed.filter(isQueuedEvent) : [];
      } catch {
        return [...memory];
      }
    },
    save(items: readonly QueuedEvent[]): void {
      memory = [...items];
      if (!isStorageUsable || !storage) return;
      try {
        storage.setItem(QUEUE_STORAGE_KEY, JSON.stringify(items));
      } catch {
        // Storage refused (quota, private mode): this page keeps its queue in memory from now on.
        isStorageUsable = false;
      }
    },
  };
}

const byteLength = (text: string) => new TextEncoder().encode(text).length;

export function createTracker(deps: TrackerDeps): Tracker {
  const limits: TrackerLimits = { ...TRACKER_LIMITS, ...deps.limits };
  const store = queueStore(deps.storage);
  let cancelBatchTimer: (() => void) | null = null;
  let cancelRetryTimer: (() => void) | null = null;
  let retryAt = 0;
  let unsentInARow = 0;
  let isSending = false;

  const debug = (message: string, detail?: unknown) => {
    try {
      deps.debug?.(message, detail);
    } catch {
      // A console that throws must not break tracking.
    }
  };

  /** The queue without events the collector would refuse for their age, and within the cap. */
  function loadQueue(now: number): QueuedEvent[] {
    const oldest = now - (limits.maxAgeMs - AGE_MARGIN_MS);
    const items = store.load().filter((item) => item.event.time >= oldest);
    return items.length > limits.maxStored ? items.slice(items.length - limits.maxStored) : items;
  }

  const isFree = (item: QueuedEvent, now: number) => item.lease <= now;

  /**
   * The first free events that fit one request (count and body size). Events after a failed
   * send go in a batch halved for each failure of the first of them.
   */
  function takeBatch(items: readonly QueuedEvent[], now: number, count: number): { batch: QueuedEvent[]; body: string } | null {
    const free = items.filter((item) => isFree(item, now));
    const first = free[0];
    const size = first === undefined ? 0 : Math.max(1, Math.ceil(count / 2 ** failuresOf(first)));
    let batch = free.slice(0, size);
    while (batch.length > 0) {
      const body = JSON.stringify({ events: batch.map((item) => item.event) });
      if (batch.length === 1 || byteLength(body) <= limits.maxBodyBytes) return { batch, body };
      batch = batch.slice(0, Math.ceil(batch.length / 2));
    }
    return null;
  }

  function withLease(ids: ReadonlySet<string>, lease: number): void {
    store.save(store.load().map((item) => (ids.has(item.id) ? { ...item, lease } : item)));
  }

  /** After a server error: the batch's events count one more failure; those at the limit go. */
  function withFailure(ids: ReadonlySet<string>): void {
    const items = store.load().map((item) => (ids.has(item.id) ? { ...item, lease: 0, failures: failuresOf(item) + 1 } : item));
    const kept = items.filter((item) => failuresOf(item) < MAX_FAILED_SENDS);
    if (kept.length < items.length)
      debug(`${items.length - kept.length} event(s) the collector failed on ${MAX_FAILED_SENDS} times; dropped`);
    store.save(kept);
  }

  function without(ids: ReadonlySet<string>): void {
    store.save(store.load().filter((item) => !ids.has(item.id)));
  }

  function scheduleBatch(): void {
    if (cancelBatchTimer) return;
    cancelBatchTimer = deps.setTimer(() => {
      cancelBatchTimer = null;
      void flush();
    }, limits.flushMs);
  }

  function scheduleRetry(): void {
    cancelRetryTimer?.();
    const delay = RETRY_DELAYS_MS[Math.min(unsentInARow, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0]!;
    retryAt = deps.now() + delay;
    cancelRetryTimer = deps.setTimer(() => {
      cancelRetryTimer = null;
      void flush();
    }, delay);
  }

  function afterPost(ids: ReadonlySet<string>, outcome: PostOutcome): void {
    if (outcome === 'failed' || outcome === 'deferred') {
      if (outcome === 'failed') withFailure(ids);
      else withLease(ids, 0);
      unsentInARow += 1;
      debug(`send ${outcome}, ${ids.size} event(s) kept for a retry`);
      scheduleRetry();
      return;
    }
    without(ids);
    if (outcome === 'refused') debug(`the collector refused a batch of ${ids.size}; dropped`);
    unsentInARow = 0;
    retryAt = 0;
  }

  async function send(batch: readonly QueuedEvent[], body: string): Promise<PostOutcome> {
    const ids = new Set(batch.map((item) => item.id));
    withLease(ids, deps.now() + LEASE_MS);
    const outcome = await deps.post(body).catch((): PostOutcome => 'deferred');
    afterPost(ids, outcome);
    return outcome;
  }

  async function flush(): Promise<void> {
    try {
      if (isSending || !deps.isOnline() || !deps.isAllowed()) return;
      const now = deps.now();
      if (now < retryAt) return;
      cancelBatchTimer?.();
      cancelBatchTimer = null;
      const taken = takeBatch(loadQueue(now), now, limits.batchSize);
      if (!taken) return;
      isSending = true;
      let outcome: PostOutcome;
      try {
        outcome = await send(taken.batch, taken.body);
      } finally {
        isSending = false;
      }
      if (outcome === 'failed' || outcome === 'deferred') return;
      // A backlog (from offline, or an earlier page) goes out batch after batch; a few stragglers wait for the timer.
      const later = deps.now();
      const waiting = loadQueue(later).filter((item) => isFree(item, later)).length;
      if (waiting >= limits.batchSize) await flush();
      else if (waiting > 0) scheduleBatch();
    } catch (error) {
      isSending = false;
      debug('flush failed', error);
    }
  }

  function track(input: TAnalyticsEventInput, at?: Partial<TAnalyticsCommon>): void {
    try {
      if (!deps.isAllowed()) return;
      const event = clipEvent({ ...deps.common(), ...at, ...input } as TAnalyticsEventRecord);
      debug(event.event, event);
      const now = deps.now();
      const items = [...loadQueue(now), { id: deps.newId(), lease: 0, event }];
      // Over the cap the oldest go: a long offline spell keeps its latest events.
      store.save(items.length > limits.maxStored ? items.slice(items.length - limits.maxStored) : items);
      const waiting = items.filter((item) => isFree(item, now)).length;
      if (waiting >= limits.batchSize) void flush();
      else scheduleBatch();
    } catch (error) {
      debug('track failed', error);
    }
  }

  function flushOnHide(): void {
    try {
      if (!deps.isAllowed() || !deps.isOnline()) return;
      cancelBatchTimer?.();
      cancelBatchTimer = null;
      for (;;) {
        const now = deps.now();
        const taken = takeBatch(loadQueue(now), now, limits.maxBatch);
        if (!taken) return;
        const ids = new Set(taken.batch.map((item) => item.id));
        if (deps.beacon(taken.body)) {
          without(ids);
          debug(`beacon with ${ids.size} event(s)`);
          continue;
        }
        // The beacon queue is full: a keep-alive fetch takes this batch; the rest waits for the next page.
        void send(taken.batch, taken.body);
        return;
      }
    } catch (error) {
      debug('flush on hide failed', error);
    }
  }

  function resume(): void {
    retryAt = 0;
    cancelRetryTimer?.();
    cancelRetryTimer = null;
    void flush();
  }

  function discard(): void {
    cancelBatchTimer?.();
    cancelBatchTimer = null;
    cancelRetryTimer?.();
    cancelRetryTimer = null;
    store.save([]);
  }

  function pending(): number {
    try {
      return loadQueue(deps.now()).length;
    } catch {
      return 0;
    }
  }

  return { track, flush, flushOnHide, resume, discard, pending };
}
