import { ApiError } from '@xcad/protocol';
import type { z } from 'zod';

/** A business error a broken field answers with (10020 in every module) and its fallback message. */
export interface InvalidFieldError {
  readonly codes: readonly number[];
  readonly message: string;
}

/**
 * The request's fields as `schema` reads them. The first broken rule answers `invalid`'s code with
 * the rule's own message and the field's name (`extra.field`), so forms can show it under the field.
 */
export function readFields<S extends z.ZodType>(schema: S, body: unknown, invalid: InvalidFieldError): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = String(issue?.path[0] ?? '');
  throw new ApiError({
    code: invalid.codes[0] ?? 10020,
    userMessage: issue?.message ?? invalid.message,
    logMessage: `invalid field ${field}`,
    extra: { field },
  });
}
