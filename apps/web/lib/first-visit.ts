/**
 * True the first time this tab session asks with `key` (views are counted once per visit); with
 * storage blocked (private mode) every visit counts: counting each view beats counting none.
 */
export function isFirstVisit(key: string): boolean {
  try {
    if (window.sessionStorage.getItem(key) !== null) return false;
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Storage blocked: counted.
  }
  return true;
}
