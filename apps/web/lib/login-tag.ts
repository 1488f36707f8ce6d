// spec §2: /weixin-login-callback receives a `logintag` query parameter, uses it to complete the
// login and removes it from the URL (so it is not bookmarked, shared or sent as a referrer).

/** The login tag of a callback URL and the same URL (path, query, hash) without it. */
export function takeLoginTag(href: string): { loginTag: string | null; cleanPath: string } {
  const url = new URL(href);
  const loginTag = url.searchParams.get('logintag')?.trim() || null;
  url.searchParams.delete('logintag');
  return { loginTag, cleanPath: `${url.pathname}${url.search}${url.hash}` };
}
