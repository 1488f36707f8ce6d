// The public origin of the site, for canonical and alternate links, the sitemap and robots.txt.
// Env SITE_URL (default http://localhost:3000). Static pages read it at build time.
export const SITE_URL = (process.env.SITE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

export function absoluteUrl(path: string): string {
  return `${SITE_URL}${path}`;
}
