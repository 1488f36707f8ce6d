// spec §7's URL rule, zod-free: every page of the site may load it (decision 0015).

export interface PageLocation {
  /** The site host, e.g. `www.example.com`. */
  readonly host: string;
  /** The page protocol, with or without the colon (`https:`). */
  readonly protocol: string;
  readonly isDesktop: boolean;
}

/**
 * spec §7: a relative URL containing `wp-` gets the site host prefixed: `http` in the desktop app
 * (whose pages are not served over the web), else the page's protocol. Other URLs are unchanged.
 */
export function resolveApiUrl(url: string, location: PageLocation): string {
  const isRelative = !/^[a-z][a-z\d+.-]*:/i.test(url) && !url.startsWith('//');
  if (!isRelative || !url.includes('wp-')) return url;
  const protocol = location.isDesktop ? 'http:' : location.protocol.replace(/:?$/, ':');
  return `${protocol}//${location.host}${url.startsWith('/') ? '' : '/'}${url}`;
}
