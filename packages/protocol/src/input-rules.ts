// Decision 0028: the rules every text and integer a client sends obeys, whatever the field, so nothing
// unchecked reaches the database (PostgreSQL answers a NUL in text, or an integer beyond its
// column's type, with an error) and nothing the site shows or stores carries invisible controls
// or half a character. Zod-free, so the analytics tracker every page loads can follow them too
// (decision 0015); the schema builders are in input.ts. The API also refuses NUL and broken text
// anywhere in a request before any route runs (decision 0028).

/** PostgreSQL's `integer` column type (ids, product and package ids, positions in seconds). */
export const INT32_MAX = 2_147_483_647;

/** Deepest nesting of objects and arrays a request may have: the contract's deepest is 3 (an analytics batch). */
export const MAX_INPUT_DEPTH = 16;

// eslint-disable-next-line no-control-regex -- the point is to find NUL
const NUL = /\u0000/;
// Half of a surrogate pair without its other half: not a character, and not valid UTF-8 once encoded.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex -- tab, line feed and carriage return are text; the other controls are not
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** What no string of a request may hold anywhere (keys included): NUL, or half a surrogate pair. */
export function isAcceptableString(text: string): boolean {
  return !NUL.test(text) && !LONE_SURROGATE.test(text);
}

/** One line of text (ids, names, codes, paths): no control character at all, no half character. */
export function isCleanLine(text: string): boolean {
  return !CONTROL_IN_LINE.test(text) && !LONE_SURROGATE.test(text);
}

/** Free text (content, reasons): tabs and line breaks allowed, no other control, no half character. */
export function isCleanText(text: string): boolean {
  return !CONTROL_IN_TEXT.test(text) && !LONE_SURROGATE.test(text);
}

const EVERY_CONTROL = new RegExp(CONTROL_IN_LINE.source, 'g');
const EVERY_LONE_SURROGATE = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * `text` made a clean line, for a sender that would rather fix a value than have it refused:
 * each control character becomes a space, each half surrogate pair U+FFFD; the length is kept.
 */
export function toCleanLine(text: string): string {
  return text.replace(EVERY_CONTROL, ' ').replace(EVERY_LONE_SURROGATE, '\ufffd');
}
