// The development providers' routes under /api/dev/* (the WeChat scan page, the sandbox cashier):
// plain JSON, unsigned, and answering 404 unless that provider is in use. The API's signed routes
// go through `apiClient()` instead.

/** What a dev route answered (its code, its message and the whole body), or `null` for a 404. */
export type DevAnswer = { readonly code: number; readonly message: string; readonly body: object } | null;

/** POSTs `body` to a dev route; rejects on a network failure or an answer without a numeric code. */
export async function postDevRoute(path: string, body: Readonly<Record<string, string>>): Promise<DevAnswer> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status === 404) return null;
  const answer: unknown = await response.json();
  if (typeof answer !== 'object' || answer === null || !('code' in answer) || typeof answer.code !== 'number') {
    throw new Error(`unexpected answer from ${path}`);
  }
  const message = 'message' in answer && typeof answer.message === 'string' ? answer.message : '';
  return { code: answer.code, message, body: answer };
}
