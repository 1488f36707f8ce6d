import { mkdirSync, openSync, closeSync } from 'node:fs';
import path from 'node:path';

// spec §3 (decision 0022): the desktop shells report `startup` on every launch and `activation` once,
// on the first launch with a data folder (the app activated on this machine for this user). The
// page's tracker takes them from `window.xcadAnalyticsQueue` (apps/web/lib/analytics/browser.ts),
// which may be pushed to before the tracker runs.

export type LifecycleEvent = 'activation' | 'startup';

const MARKER = 'activated';

/**
 * The events of this launch: ['activation', 'startup'] the first time (the marker file is then
 * created), ['startup'] after. A folder that cannot be written reports a start-up only.
 */
export function lifecycleEventsOf(dataDir: string): LifecycleEvent[] {
  try {
    mkdirSync(dataDir, { recursive: true });
    // 'wx' fails when the marker exists: exactly one launch ever creates it.
    closeSync(openSync(path.join(dataDir, MARKER), 'wx'));
    return ['activation', 'startup'];
  } catch {
    return ['startup'];
  }
}

/** Script for the page: queues the events for the site's tracker (safe before or after it starts). */
export function lifecycleScript(events: readonly LifecycleEvent[]): string {
  const pushes = events.map((event) => `q.push(${JSON.stringify({ event })});`).join('');
  return `(() => { const q = (window.xcadAnalyticsQueue ??= []); ${pushes} })();`;
}
