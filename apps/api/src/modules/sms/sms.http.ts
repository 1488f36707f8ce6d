// The HTTP call shared by the real adapters: one request, bounded in time, never throwing.

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** How long a provider may take before the send counts as failed. */
export const SMS_HTTP_TIMEOUT_MS = 10_000;

export type ProviderReply =
  | { kind: 'answer'; status: number; body: unknown }
  | { kind: 'failure'; detail: string };

/** POSTs `body` and reads a JSON answer; a network error, timeout or non-JSON body is a failure. */
export async function postToProvider(
  fetchImpl: FetchLike,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<ProviderReply> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(url, { method: 'POST', headers: init.headers, body: init.body, signal: controller.signal });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { kind: 'failure', detail: `HTTP ${response.status}: answer is not JSON` };
    }
    return { kind: 'answer', status: response.status, body };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'failure', detail: `no answer within ${timeoutMs} ms` };
    return { kind: 'failure', detail: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `record[key]` when `record` is an object, so hand-made or odd answers never throw. */
export function fieldOf(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null) return undefined;
  return (record as Record<string, unknown>)[key];
}

export function stringFieldOf(record: unknown, key: string): string | undefined {
  const value = fieldOf(record, key);
  return typeof value === 'string' ? value : undefined;
}
