import 'server-only';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { canUseSection, OPERATOR_COOKIE, ZOperatorMe, type TOperatorMe, type TOperatorSection } from '@xcad/protocol';
import type { z } from 'zod';
import { siteConfig } from '@/config/site';

// The back office's reads for the page being rendered (decision 0042): GET /api/operator/* at the API
// with the console's own cookie (xcad_operator), so the API's one guard decides who may see what;
// the pages never decide on their own. Changes are made by the browser (lib/operator/client.ts),
// which sends the CSRF token and the site's Origin.

export type OperatorLoad<T> =
  | { readonly kind: 'ok'; readonly body: T }
  | { readonly kind: 'signedOut' }
  | { readonly kind: 'forbidden' }
  | { readonly kind: 'notFound' }
  /** A refused query (400) with the API's message, or an API that could not answer. */
  | { readonly kind: 'failed'; readonly message: string };

const TIMEOUT_MS = 20_000;

function messageOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  return '';
}

export const LOGIN_PATH = '/operator/login';

/** One read of the console's API, its answer checked against `schema`. */
export async function operatorRead<T extends z.ZodType>(path: string, schema: T): Promise<OperatorLoad<z.output<T>>> {
  const token = (await cookies()).get(OPERATOR_COOKIE)?.value;
  if (!token) return { kind: 'signedOut' };
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(`${siteConfig().apiOrigin}${path}`, {
      headers: { cookie: `${OPERATOR_COOKIE}=${token}` },
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    console.error(`[web] operator read ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { kind: 'failed', message: '' };
  }
  if (response.status === 401) return { kind: 'signedOut' };
  if (response.status === 403) return { kind: 'forbidden' };
  if (response.status === 404) return { kind: 'notFound' };
  if (!response.ok) return { kind: 'failed', message: messageOf(body) };
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    console.error(`[web] operator read ${path} answered an unreadable body`);
    return { kind: 'failed', message: '' };
  }
  return { kind: 'ok', body: parsed.data };
}

/**
 * The signed-in operator of this request; a visitor without a live console session goes to the
 * sign-in page, and an operator whose roles do not cover `section` gets the 403 page.
 */
export async function requireOperator(section?: TOperatorSection, next?: string): Promise<TOperatorMe> {
  const me = await operatorRead('/api/operator/me', ZOperatorMe);
  if (me.kind === 'signedOut') redirect(next === undefined ? LOGIN_PATH : `${LOGIN_PATH}?next=${encodeURIComponent(next)}`);
  if (me.kind !== 'ok') throw new Error('the operator session could not be read');
  if (section !== undefined && !canUseSection(me.body.roles, section)) forbidden();
  return me.body;
}

/** The body of a read the page cannot do without: signed out -> sign-in, 403 -> the 403 page, 404 -> an error. */
export function bodyOf<T>(load: OperatorLoad<T>): T {
  if (load.kind === 'ok') return load.body;
  if (load.kind === 'signedOut') redirect(LOGIN_PATH);
  if (load.kind === 'forbidden') forbidden();
  throw new Error(load.kind === 'failed' ? `operator read failed: ${load.message}` : 'operator read found nothing');
}
