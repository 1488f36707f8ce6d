import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiError, AUTH_ERRORS } from '@xcad/protocol';
import type { HtmlPage } from './oauth.pages';

// What the oauth routes share: reading fields with the protocol schemas, and answering pages.

// Rules without a spec message of their own still answer in Chinese.
const zhCN = z.locales.zhCN();

/**
 * `body` checked against `schema`; the first failing rule answers 10020 with its own message and
 * the field's name (docs/decisions/0010).
 */
export function fieldsOf<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body ?? {}, { error: zhCN.localeError });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ApiError({
    code: AUTH_ERRORS.invalidField.codes[0],
    userMessage: issue?.message ?? AUTH_ERRORS.invalidField.message,
    logMessage: `invalid ${issue?.path.join('.') ?? 'body'}`,
    extra: { field: issue?.path.join('.') ?? '' },
  });
}

/** The device of a signed request; datasign has already checked the common fields. */
export function deviceIdOf(body: unknown): string {
  const parsed = z.object({ deviceid: z.string() }).safeParse(body);
  return parsed.success ? parsed.data.deviceid : '';
}

export function sendPage(reply: FastifyReply, page: HtmlPage): FastifyReply {
  return (
    reply
      .code(page.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', page.csp)
      // The popup's URLs carry OAuth codes and states: never cached, never sent on as a referrer.
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .send(page.html)
  );
}
