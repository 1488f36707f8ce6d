// Paths the site origin hands to the API process (decision 0003): the product API, the
// WordPress-compatible content API, stored content files (/content/) and health checks. The front
// server streams them to the API; the locale proxy leaves them alone.
const API_PREFIXES = ['/api/', '/wp-json/', '/content/'];
const API_EXACT = new Set(['/api', '/wp-json', '/health']);

/** Whether a request URL or pathname (query string allowed) belongs to the API. */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return API_EXACT.has(pathname) || API_PREFIXES.some((prefix) => pathname.startsWith(prefix));
}
