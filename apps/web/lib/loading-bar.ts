import { LOADING_BAR } from '@xcad/protocol/constants';

// spec §2, §9: a top loading bar runs from 0 to 100 percent; progress is timer-driven over
// 5000 ms and updated at most every 200 ms. It reaches 100 only when the new route has rendered.

/** Highest value the timer alone may reach: the last step belongs to the finished navigation. */
export const MAX_PENDING_PERCENT = 95;

/**
 * Percent shown `elapsedMs` after a navigation started: an ease-out curve that reaches
 * MAX_PENDING_PERCENT at the end of the 5000 ms duration and holds there.
 */
export function progressAt(elapsedMs: number, durationMs: number = LOADING_BAR.durationMs): number {
  if (elapsedMs <= 0) return 0;
  const t = Math.min(1, elapsedMs / durationMs);
  return Math.round(MAX_PENDING_PERCENT * (1 - (1 - t) ** 3));
}

/**
 * Whether a click on a link to `href` starts a navigation the bar follows: same origin, another
 * path (the bar completes when the path changes, so hash or query changes are not followed).
 */
export function isNavigationTo(href: string, current: URL): boolean {
  let target: URL;
  try {
    target = new URL(href, current);
  } catch {
    return false;
  }
  if (target.origin !== current.origin) return false;
  return target.pathname !== current.pathname;
}
