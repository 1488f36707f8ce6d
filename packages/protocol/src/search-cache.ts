// spec §2: pages opened from a search engine's cached copy are routed by the original path. The
// cache hosts carry the original address in their query (Google inside `q=cache:KEY:URL`, Bing,
// Sogou and 360 in `u`/`url`); Baidu's cache address does not, so the page's canonical link is
// the only way back there.

const GOOGLE_CACHE_HOST = 'webcache.googleusercontent.com';
const BAIDU_CACHE_HOST = 'cache.baiducontent.com';
const EXACT_CACHE_HOSTS: readonly string[] = [GOOGLE_CACHE_HOST, 'cc.bingj.com', 'snapshot.sogoucdn.com', BAIDU_CACHE_HOST];
const QIHOO_CACHE_DOMAIN = '360webcache.com';
const ORIGINAL_URL_PARAMS = ['u', 'url'] as const;

function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

function withoutWww(host: string): string {
  return host.replace(/^www\./, '');
}

export function isSearchCacheHost(host: string): boolean {
  const hostname = normalizeHost(host);
  return EXACT_CACHE_HOSTS.includes(hostname) || hostname === QIHOO_CACHE_DOMAIN || hostname.endsWith(`.${QIHOO_CACHE_DOMAIN}`);
}

function isSiteHost(host: string, siteHosts: readonly string[]): boolean {
  const hostname = withoutWww(normalizeHost(host));
  return siteHosts.some((siteHost) => withoutWww(normalizeHost(siteHost)) === hostname);
}

// Cached originals are often written without a scheme (`www.example.com/a.html`).
function parseAbsolute(raw: string): URL | null {
  const text = raw.trim();
  if (text === '') return null;
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `http://${text.replace(/^\/\//, '')}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

// `q` is `cache:KEY:URL`, or `cache:URL`, possibly followed by search words.
function googleOriginal(query: string | null): string | null {
  if (query === null || !query.startsWith('cache:')) return null;
  const target = query.slice('cache:'.length).trim().split(/\s+/)[0] ?? '';
  if (/^https?:\/\//i.test(target)) return target;
  const keyed = /^[^:/.]+:(.+)$/.exec(target);
  return keyed?.[1] ?? target;
}

function pathOf(url: URL): string {
  return url.pathname + url.search;
}

function pathFromCanonical(canonical: string | null | undefined, siteHosts: readonly string[]): string | null {
  if (canonical == null || canonical === '') return null;
  if (canonical.startsWith('/') && !canonical.startsWith('//')) {
    return pathOf(new URL(canonical, 'http://site.invalid'));
  }
  const url = parseAbsolute(canonical);
  return url && isSiteHost(url.hostname, siteHosts) ? pathOf(url) : null;
}

export interface CacheUrlOptions {
  /** Host names the site is served on; `www.` is ignored when comparing. */
  readonly siteHosts: readonly string[];
  /** The page's canonical link (absolute or a path), the fallback for Baidu's cache. */
  readonly canonical?: string | null;
}

/**
 * The original path and query of a page shown from a search-engine cache, or `null` when `href`
 * is on the site itself or no original on one of `siteHosts` can be recovered.
 */
export function originalPathFromCacheUrl(href: string, options: CacheUrlOptions): string | null {
  let page: URL;
  try {
    page = new URL(href);
  } catch {
    return null;
  }
  if (isSiteHost(page.hostname, options.siteHosts)) return null;

  const hostname = normalizeHost(page.hostname);
  const candidates =
    hostname === GOOGLE_CACHE_HOST
      ? [googleOriginal(page.searchParams.get('q'))]
      : ORIGINAL_URL_PARAMS.map((name) => page.searchParams.get(name));
  for (const candidate of candidates) {
    const url = candidate === null ? null : parseAbsolute(candidate);
    if (url && isSiteHost(url.hostname, options.siteHosts)) return pathOf(url);
  }
  return isSearchCacheHost(hostname) ? pathFromCanonical(options.canonical, options.siteHosts) : null;
}
