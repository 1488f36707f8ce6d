import { isSearchCacheHost } from '@xcad/protocol/search-cache';

// spec §2: pages opened from a search-engine cache host are routed by the original path. The
// server does that in the proxy; in the browser, a cache copy's links and assets would resolve
// against the cache host, so they are pointed at the site instead.

/** The `<base href>` for a page at `href`: the site's origin on a cache copy, null otherwise. */
export function cacheCopyBase(href: string, siteUrl: string): string | null {
  try {
    const page = new URL(href);
    const site = new URL(siteUrl);
    return isSearchCacheHost(page.host) && page.host !== site.host ? `${site.origin}/` : null;
  } catch {
    return null;
  }
}
