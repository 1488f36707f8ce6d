import { z } from 'zod';
import { INT32_MAX, isCleanLine, isCleanText } from './input-rules';

// The schema builders of the input rules (input-rules.ts): every free text and every integer
// kept in an `integer` column of a request schema is made with one of these.

export * from './input-rules';

// wording ours
export const INPUT_MESSAGES = {
  characters: '内容包含不支持的字符',
  integer: '请填写有效的数字',
} as const;

/** A one-line text field of at most `max` UTF-16 units (the unit zod and the tracker count). */
export function zLine(max: number) {
  return z.string().max(max).refine(isCleanLine, { error: INPUT_MESSAGES.characters });
}

/** A multi-line text field of at most `max` UTF-16 units. */
export function zText(max: number) {
  return z.string().max(max).refine(isCleanText, { error: INPUT_MESSAGES.characters });
}

/**
 * A positive id kept in an `integer` column (product ids, package realIds), as a JSON number or
 * the digits a form body sends; one beyond the column's type can name nothing.
 */
export function zId(message: string = INPUT_MESSAGES.integer) {
  return z.coerce.number({ error: message }).int({ error: message }).positive({ error: message }).max(INT32_MAX, { error: message });
}
