import { splitLocalePath } from '../i18n/locales';
import { FEEDBACK_INTERNAL_PATH, FEEDBACK_PUBLIC_PATH } from '../i18n/negotiate';
import type { MenuKey } from './menu';

// spec §2: the active header entry follows the route; route names `index-id` (articles at
// `/{id}` and `/{id}.html`) map to help and `dailypics-id` to the daily picture.

const ARTICLE = /^\/\d+(?:\.html)?(?:\/\d+)?\/?$/;

const RULES: ReadonlyArray<readonly [RegExp, MenuKey]> = [
  [/^\/dailypics?(?:\/|\.html$|$)/, 'dailypic'],
  [/^\/buy(?:\/|\.html$|$)/, 'buy'],
  [/^\/download(?:[-/]|\.html$|$)/, 'download'],
  [/^\/(?:help|tag|lingwai)(?:\/|\.html$|$)/, 'help'],
  [/^\/(?:basics|master|video|resources)\.html$/, 'tutorials'],
  [/^\/(?:tools(?:\/|\.html$|$)|kantu\/?$)/, 'tools'],
  [/^\/(?:invoice|complaint|jianyi|feedback)\.html$/, 'services'],
];

function decodedPath(pathname: string): string {
  try {
    return decodeURI(pathname);
  } catch {
    return pathname;
  }
}

function isFeedbackPath(path: string): boolean {
  return path === FEEDBACK_INTERNAL_PATH || path === decodedPath(FEEDBACK_PUBLIC_PATH);
}

/** The header entry to mark active for a public or internal pathname, or null when none applies. */
export function activeMenuKey(pathname: string): MenuKey | null {
  const { rest } = splitLocalePath(pathname.split(/[?#]/)[0] ?? '/');
  const path = decodedPath(rest);
  if (path === '/' || path === '') return 'home';
  if (isFeedbackPath(path)) return 'services';
  if (ARTICLE.test(path)) return 'help';
  for (const [pattern, key] of RULES) {
    if (pattern.test(path)) return key;
  }
  return null;
}
