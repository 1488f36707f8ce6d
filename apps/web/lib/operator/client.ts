import { OPERATOR_CSRF_HEADER } from '@xcad/protocol';

// The console's changes from the browser (decision 0042): POST /api/operator/* on the site's own
// origin (the browser adds Origin and the SameSite=Strict console cookie), with the session's CSRF
// token, which the page was rendered with. Answers are plain JSON; a refusal is {code, message}.

export type OperatorChange<T> =
  { readonly ok: true; readonly body: T } | { readonly ok: false; readonly status: number; readonly message: string };

export async function operatorPost<T = Record<string, unknown>>(
  path: string,
  csrf: string,
  body: unknown = {},
): Promise<OperatorChange<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [OPERATOR_CSRF_HEADER]: csrf },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, message: '' };
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  // A sign-in refusal (a wrong code) answers 200 with the code of decision 0010.
  if (!response.ok || typeof answer['code'] === 'number') {
    return { ok: false, status: response.status, message: typeof answer['message'] === 'string' ? answer['message'] : '' };
  }
  return { ok: true, body: answer as T };
}
