// The GET shared by the real adapters: one request, bounded in time, never throwing.

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export type ProviderAnswer =
  | { kind: 'answer'; body: unknown }
  | { kind: 'failure'; reason: 'unavailable' | 'malformed'; detail: string };

/**
 * GETs `url` and reads a JSON answer. A network error, a timeout or a 5xx is `unavailable`; a
 * body that is not JSON is `malformed`. `label` names the call in failure details, because the
 * URL itself carries the app secret or an access token.
 */
export async function getJson(fetchImpl: FetchLike, url: string, label: string, timeoutMs: number): Promise<ProviderAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(url, { method: 'GET', headers: { accept: 'application/json' }, signal: controller.signal });
    if (response.status >= 500) return { kind: 'failure', reason: 'unavailable', detail: `${label}: HTTP ${response.status}` };
    const text = await response.text();
    try {
      return { kind: 'answer', body: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'failure', reason: 'malformed', detail: `${label}: HTTP ${response.status}, answer is not JSON` };
    }
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'failure', reason: 'unavailable', detail: `${label}: no answer within ${timeoutMs} ms` };
    return { kind: 'failure', reason: 'unavailable', detail: `${label}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `record[key]` when `record` is an object, so odd answers never throw. */
export function fieldOf(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  return (record as Record<string, unknown>)[key];
}

/** A non-empty string field, or undefined. */
export function textFieldOf(record: unknown, key: string): string | undefined {
  const value = fieldOf(record, key);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
