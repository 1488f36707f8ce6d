import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { selectMirror, selectMirrors, type FetchLike } from './mirror';

interface Answer {
  readonly delayMs: number;
  readonly status?: number;
  readonly machineId?: string | null;
  readonly fails?: boolean;
}

interface Seen {
  readonly url: string;
  readonly init: RequestInit;
}

/** A fake network: each host answers after its delay, unless its request is aborted first. */
function fakeNetwork(answers: Record<string, Answer>) {
  const seen: Seen[] = [];
  const aborted: string[] = [];
  const fetch: FetchLike = (url, init) => {
    seen.push({ url, init });
    const host = url.replace(/\/health$/, '');
    const answer = answers[host];
    if (!answer) return Promise.reject(new TypeError('unknown host'));
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (answer.fails) {
          reject(new TypeError('fetch failed'));
          return;
        }
        const headers = new Headers();
        if (answer.machineId !== null) headers.set('machine-id', answer.machineId ?? '20-201');
        resolve(new Response(null, { status: answer.status ?? 200, headers }));
      }, answer.delayMs);
      init.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        aborted.push(host);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  };
  return { fetch, seen, aborted };
}

/** Settles `promise` while fake time runs, reporting when it resolved. */
function track<T>(promise: Promise<T>) {
  const state: { value?: T; atMs?: number } = {};
  const start = Date.now();
  void promise.then((value) => {
    state.value = value;
    state.atMs = Date.now() - start;
  });
  return state;
}

const FALLBACK = 'https://fallback.example.com';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('selectMirror (spec §7)', () => {
  it('asks every mirror at once with HEAD /health and the X-Product header', async () => {
    const net = fakeNetwork({ 'https://a.example.com': { delayMs: 50 }, 'https://b.example.com': { delayMs: 50 } });
    const result = track(
      selectMirror(['https://a.example.com/', 'https://b.example.com'], {
        fetch: net.fetch,
        fallback: FALLBACK,
        headers: { 'X-Domain': 'www.xunjiecad.com' },
      }),
    );
    expect(net.seen.map((s) => s.url)).toEqual(['https://a.example.com/health', 'https://b.example.com/health']);
    for (const { init } of net.seen) {
      expect(init.method).toBe('HEAD');
      expect(new Headers(init.headers).get('X-Product')).toBe('141');
      expect(new Headers(init.headers).get('X-Domain')).toBe('www.xunjiecad.com');
    }
    await vi.advanceTimersByTimeAsync(50);
    expect(result.value).toBe('https://a.example.com/');
  });

  it('takes the fastest accepted mirror and aborts the others', async () => {
    const net = fakeNetwork({
      'https://slow.example.com': { delayMs: 700 },
      'https://fast.example.com': { delayMs: 120 },
      'https://mid.example.com': { delayMs: 300 },
    });
    const result = track(
      selectMirror(['https://slow.example.com', 'https://fast.example.com', 'https://mid.example.com'], {
        fetch: net.fetch,
        fallback: FALLBACK,
      }),
    );
    await vi.advanceTimersByTimeAsync(120);
    expect(result).toEqual({ value: 'https://fast.example.com', atMs: 120 });
    expect(net.aborted.sort()).toEqual(['https://mid.example.com', 'https://slow.example.com']);
  });

  it('refuses a mirror with the wrong or no machine-id', async () => {
    const net = fakeNetwork({
      'https://wrong.example.com': { delayMs: 10, machineId: '20-202' },
      'https://none.example.com': { delayMs: 20, machineId: null },
      'https://right.example.com': { delayMs: 400 },
    });
    const result = track(
      selectMirror(['https://wrong.example.com', 'https://none.example.com', 'https://right.example.com'], {
        fetch: net.fetch,
        fallback: FALLBACK,
      }),
    );
    await vi.advanceTimersByTimeAsync(399);
    expect(result.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result.value).toBe('https://right.example.com');
  });

  it('refuses a mirror answering anything but 200', async () => {
    const net = fakeNetwork({
      'https://busy.example.com': { delayMs: 10, status: 503 },
      'https://moved.example.com': { delayMs: 10, status: 204 },
      'https://ok.example.com': { delayMs: 90 },
    });
    const result = track(
      selectMirror(['https://busy.example.com', 'https://moved.example.com', 'https://ok.example.com'], {
        fetch: net.fetch,
        fallback: FALLBACK,
      }),
    );
    await vi.advanceTimersByTimeAsync(90);
    expect(result.value).toBe('https://ok.example.com');
  });

  it('falls back at 1000 ms when every mirror is slower, and aborts them all', async () => {
    const net = fakeNetwork({ 'https://a.example.com': { delayMs: 1_001 }, 'https://b.example.com': { delayMs: 5_000 } });
    const result = track(selectMirror(['https://a.example.com', 'https://b.example.com'], { fetch: net.fetch, fallback: FALLBACK }));
    await vi.advanceTimersByTimeAsync(999);
    expect(result.value).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual({ value: FALLBACK, atMs: 1_000 });
    expect(net.aborted.sort()).toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  it('honours a custom time-out', async () => {
    const net = fakeNetwork({ 'https://a.example.com': { delayMs: 300 } });
    const result = track(selectMirror(['https://a.example.com'], { fetch: net.fetch, fallback: FALLBACK, timeoutMs: 200 }));
    await vi.advanceTimersByTimeAsync(200);
    expect(result.value).toBe(FALLBACK);
  });

  it('falls back as soon as every mirror failed', async () => {
    const net = fakeNetwork({
      'https://down.example.com': { delayMs: 30, fails: true },
      'https://bad.example.com': { delayMs: 60, status: 500 },
    });
    const result = track(
      selectMirror(['https://down.example.com', 'https://bad.example.com', 'https://unknown.example.com'], {
        fetch: net.fetch,
        fallback: FALLBACK,
      }),
    );
    await vi.advanceTimersByTimeAsync(60);
    expect(result).toEqual({ value: FALLBACK, atMs: 60 });
  });

  it('falls back at once without mirrors', async () => {
    const net = fakeNetwork({});
    await expect(selectMirror([], { fetch: net.fetch, fallback: FALLBACK })).resolves.toBe(FALLBACK);
    expect(net.seen).toEqual([]);
  });
});

describe('selectMirrors', () => {
  it('chooses for the three services in parallel', async () => {
    const net = fakeNetwork({
      'https://doc1.example.com': { delayMs: 500, machineId: 'x' },
      'https://doc2.example.com': { delayMs: 200 },
      'https://sms1.example.com': { delayMs: 2_000 },
      'https://user1.example.com': { delayMs: 10, fails: true },
    });
    const result = track(
      selectMirrors(
        {
          docTool: ['https://doc1.example.com', 'https://doc2.example.com'],
          phoneReply: ['https://sms1.example.com'],
          userApi: ['https://user1.example.com'],
        },
        {
          fetch: net.fetch,
          fallbacks: { docTool: 'https://doc.fallback', phoneReply: 'https://sms.fallback', userApi: 'https://user.fallback' },
        },
      ),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(result).toEqual({
      value: { docTool: 'https://doc2.example.com', phoneReply: 'https://sms.fallback', userApi: 'https://user.fallback' },
      atMs: 1_000,
    });
  });
});
