import type { TAnalyticsEventInput } from '@xcad/protocol/analytics';

// Menu and button clicks (spec §3 click: module, tab name, name), declared in the markup rather
// than wired per handler: a region carries `data-track-module` (header, footer, side bar, ...),
// an entry of it `data-track-tab` (the menu it belongs to), and a link or button inside may name
// itself with `data-track-name` (else its path, else its text). One listener on the document reads
// them (components/analytics/analytics-root.tsx); clicks outside any region are not reported.

/** The part of a DOM element this reads (so tests can pass plain objects). */
export interface ClickTarget {
  readonly tagName: string;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): ClickTarget | null;
}

const CLICKABLE_SELECTOR = 'a[href], button, [role="button"], [role="tab"], [role="menuitem"]';

const MAX_NAME = 128;

function textOf(element: ClickTarget): string {
  const label = element.getAttribute('aria-label') ?? element.textContent ?? '';
  return label.replace(/\s+/g, ' ').trim();
}

/** A link's target as a name: the path on this site, origin and path elsewhere; null for none. */
function hrefName(element: ClickTarget, pageUrl: string): string | null {
  const href = element.getAttribute('href');
  if (!href || href.startsWith('#') || href.startsWith('javascript:')) return null;
  try {
    const url = new URL(href, pageUrl);
    return url.origin === new URL(pageUrl).origin ? url.pathname : `${url.origin}${url.pathname}`;
  } catch {
    return null;
  }
}

/** The click event for a click on `target` (the element clicked, or one inside it); null when untracked. */
export function clickEventOf(target: ClickTarget, pageUrl: string): Extract<TAnalyticsEventInput, { event: 'click' }> | null {
  const element = target.closest(CLICKABLE_SELECTOR);
  if (!element) return null;
  const region = element.closest('[data-track-module]');
  const moduleName = region?.getAttribute('data-track-module')?.trim();
  if (!region || !moduleName) return null;
  const text = textOf(element);
  const name = element.getAttribute('data-track-name')?.trim() || hrefName(element, pageUrl) || text;
  if (!name) return null;
  const tab = element.closest('[data-track-tab]')?.getAttribute('data-track-tab')?.trim();
  const action = element.getAttribute('data-track-action')?.trim();
  return {
    event: 'click',
    module: moduleName,
    name: name.slice(0, MAX_NAME),
    ...(tab ? { tab_name: tab } : {}),
    click_type: element.tagName.toLowerCase() === 'a' ? 'link' : 'button',
    ...(text ? { title: text } : {}),
    ...(action ? { action_name: action } : {}),
  };
}
