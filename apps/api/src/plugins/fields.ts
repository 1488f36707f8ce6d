import { ApiError, PROTOCOL_ERRORS } from '@xcad/protocol';
import { z } from 'zod';

/** What a broken field answers in every module (decision 0010). */
const INVALID_FIELD_CODE = 10020;

// Rules without a spec message of their own still answer in Chinese.
const zhCN = z.locales.zhCN();

/**
 * The request's fields as `schema` reads them. The first broken rule answers 10020 with the
 * rule's own message and the field's name (`extra.field`), so forms can show it under the field.
 */
export function readFields<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  // Parsed again for the messages: asking zod for the Chinese ones up front costs every call.
  const result = schema.safeParse(body, { error: zhCN.localeError });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  throw new ApiError({
    code: INVALID_FIELD_CODE,
    userMessage: issue?.message ?? PROTOCOL_ERRORS.malformed.message,
    logMessage: `invalid field ${field}`,
    extra: { field },
  });
}
