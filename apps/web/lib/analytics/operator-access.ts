// Whether the signed-in account may read the analytics reports: GET /api/analytics/me, with the
// session cookie; the API decides who is an operator (decision 0022).

/** `true`/`false` as the API answered; `null` when it gave no readable answer (ask again later). */
export async function askOperatorAccess(): Promise<boolean | null> {
  const response = await fetch('/api/analytics/me', { credentials: 'same-origin', cache: 'no-store' });
  if (!response.ok) return null;
  const body = (await response.json()) as { operator?: unknown };
  return body.operator === true;
}
