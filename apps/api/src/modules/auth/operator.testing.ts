// Shared set-up of the back office's API tests (decision 0042): operators made the way the command
// line makes them, signed in through the console's own calls (phone + the SMS code from the dev
// outbox), and calls that carry the console cookie, the CSRF token and the site's Origin as the
// console's pages do.
import { OPERATOR_COOKIE, OPERATOR_CSRF_HEADER, ZOperatorMe, type TOperatorMe, type TOperatorRole } from '@xcad/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createOperator } from '../analytics/operator.service';
import { lastCode, type AuthTestApp } from './auth.testing';

export const SITE_ORIGIN = 'http://127.0.0.1:3000';

export interface SignedInOperator extends TOperatorMe {
  phone: string;
  cookie: string;
}

let sequence = 0;

/** A phone no other operator of the file uses. */
export function operatorPhone(): string {
  sequence += 1;
  return `1370000${String(sequence).padStart(4, '0')}`;
}

export function cookieOf(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [String(header ?? '')]).find((value) => value.startsWith(`${OPERATOR_COOKIE}=`));
  expect(line, 'the answer sets the operator cookie').toBeDefined();
  return String(line).split(';')[0] ?? '';
}

/** Makes an operator with `roles` and signs them in through /api/operator/login/sms and /api/operator/login. */
export async function signInOperator(t: AuthTestApp, roles: readonly TOperatorRole[], phone = operatorPhone()): Promise<SignedInOperator> {
  await createOperator(t.database.db, { phone, roles }, Math.floor(t.clock.now() / 1000));
  const sent = await t.app.inject({ method: 'POST', url: '/api/operator/login/sms', headers: { origin: SITE_ORIGIN }, payload: { phone } });
  expect(sent.json()).toEqual({ sent: true });
  const login = await t.app.inject({
    method: 'POST',
    url: '/api/operator/login',
    headers: { origin: SITE_ORIGIN },
    payload: { phone, code: lastCode(t, phone) },
  });
  expect(login.statusCode).toBe(200);
  return { ...ZOperatorMe.parse(login.json()), phone, cookie: cookieOf(login) };
}

export interface OperatorCallOptions {
  payload?: Record<string, unknown>;
  /** Headers to send instead of the console's (Origin, x-csrf-token). */
  headers?: Record<string, string>;
}

export async function operatorGet(t: AuthTestApp, operator: SignedInOperator, url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { cookie: operator.cookie } });
}

export async function operatorPost(
  t: AuthTestApp,
  operator: SignedInOperator,
  url: string,
  options: OperatorCallOptions = {},
): Promise<LightMyRequestResponse> {
  const headers = options.headers ?? { origin: SITE_ORIGIN, [OPERATOR_CSRF_HEADER]: operator.csrf };
  return t.app.inject({ method: 'POST', url, headers: { ...headers, cookie: operator.cookie }, payload: options.payload ?? {} });
}

/** The audit log's rows, newest last, read straight from the table. */
export async function auditRows(t: AuthTestApp, action?: string) {
  let query = t.database.db.selectFrom('audit_log').selectAll().orderBy('id');
  if (action !== undefined) query = query.where('action', '=', action);
  return query.execute();
}
