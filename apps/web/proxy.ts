import { NextResponse } from 'next/server';
import type { NextRequest } from 'next/server';
import { isSearchCacheHost, originalPathFromCacheUrl } from '@xcad/protocol';
import { isPagePath } from '@/lib/i18n/negotiate';
import { LOCALE_COOKIE } from '@/lib/i18n/locales';
import { decidePageRequest, publicSearch } from '@/lib/request-routing';
import { SITE_URL } from '@/lib/site-url';

const siteHosts = [new URL(SITE_URL).hostname];

// Locale routing (spec §2, §4, §9) and 404s: the decisions live in lib/request-routing.ts; this
// file only reads the request and applies them. Runs on the Node.js runtime (the default for proxy.ts).
export function proxy(request: NextRequest): NextResponse {
  // Not request.nextUrl: it renames 127.0.0.1 to localhost, and a rewrite to another origin than
  // the one Next.js started with is proxied over HTTP instead of being served in-process.
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? '';
  // spec §2: a page opened from a search-engine cache host is routed by its original path.
  const isCacheCopy = isSearchCacheHost(host);
  const original = isCacheCopy ? originalPathFromCacheUrl(`http://${host}${url.pathname}${url.search}`, { siteHosts }) : null;
  const target = original ? new URL(original, url) : url;
  if (isCacheCopy && !isPagePath(target.pathname)) return NextResponse.next();

  const decision = decidePageRequest(
    {
      pathname: target.pathname,
      search: publicSearch(target.search),
      cookieLocale: request.cookies.get(LOCALE_COOKIE)?.value,
      acceptLanguage: request.headers.get('accept-language'),
    },
    { isCacheCopy },
  );
  if (decision.kind === 'redirect') {
    return NextResponse.redirect(new URL(decision.location, url), decision.status);
  }
  const rewritten = new URL(decision.pathname, url);
  rewritten.search = target.search;
  return decision.kind === 'not-found' ? NextResponse.rewrite(rewritten, { status: decision.status }) : NextResponse.rewrite(rewritten);
}

export const config = {
  // Mirrors isPagePath(): not the API, the content API, Next.js assets, /health, or any file whose
  // extension is not .html. Next.js needs this as a literal to analyse it at build time.
  matcher: ['/((?!api(?:/|$)|wp-json(?:/|$)|_next/|health$|.*\\.(?!html$)[^/.]+$).*)'],
};
