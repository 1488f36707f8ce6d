import type { FetchLike } from '@xcad/protocol';

// A stand-in for WeChat's and QQ's servers in tests: answers chosen per endpoint (matched by the
// URL without its query), every call recorded. No network.

export type FakeAnswer =
  | { status?: number; json: unknown }
  | { status?: number; text: string }
  /** The endpoint never answers; only the caller's abort ends the wait. */
  | { hang: true }
  /** The connection fails. */
  | { networkError: string };

export interface FakeProvider {
  fetch: FetchLike;
  /** Every URL requested, in order. */
  calls: URL[];
}

export function fakeProvider(answers: Record<string, FakeAnswer>): FakeProvider {
  const calls: URL[] = [];
  const fetchImpl: FetchLike = (url, init) => {
    const parsed = new URL(url);
    calls.push(parsed);
    const answer = answers[`${parsed.origin}${parsed.pathname}`];
    if (answer === undefined) return Promise.resolve(new Response('not found', { status: 404 }));
    if ('hang' in answer) {
      return new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
      });
    }
    if ('networkError' in answer) return Promise.reject(new TypeError(answer.networkError));
    const body = 'json' in answer ? JSON.stringify(answer.json) : answer.text;
    return Promise.resolve(new Response(body, { status: answer.status ?? 200, headers: { 'content-type': 'text/plain' } }));
  };
  return { fetch: fetchImpl, calls };
}
