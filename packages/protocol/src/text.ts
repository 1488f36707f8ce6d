import { TEXT_LIMITS } from './constants';

// spec §9: text helpers cut to 12 (short) or 80 (long) characters with an ellipsis. Characters
// are counted by code point so a CJK character or an emoji is never split into a broken half.

export function truncateText(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return text;
  return chars.slice(0, maxChars).join('') + TEXT_LIMITS.ellipsis;
}

export function truncateShort(text: string): string {
  return truncateText(text, TEXT_LIMITS.short);
}

export function truncateLong(text: string): string {
  return truncateText(text, TEXT_LIMITS.long);
}
