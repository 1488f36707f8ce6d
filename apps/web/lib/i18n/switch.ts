import { isLocale, localizePath, splitLocalePath } from './locales';

/**
 * Where a locale switch goes (spec §4): the same page and query in `next`'s path, or null when
 * `next` is empty, unknown or the current locale (then nothing happens).
 */
export function switchLocaleTarget(
  current: string,
  next: string,
  location: { pathname: string; search: string; hash: string },
): string | null {
  if (!next || next === current || !isLocale(next)) return null;
  const { rest } = splitLocalePath(location.pathname);
  return `${localizePath(rest, next)}${location.search}${location.hash}`;
}
