import type { NextConfig } from 'next';
import createNextIntlPlugin from 'next-intl/plugin';
import { loadWebEnv } from './server/env';

// The same check as the front server's (server/env.ts): a production build refuses to inline the
// development signing secret, and a bad value stops the build with the list of mistakes.
const env = loadWebEnv();

// `/api/*`, `/wp-json/*` and `/health` never reach Next.js: the front server (server/main.ts, also
// in development with --dev) streams them to the API (decision 0003).
const nextConfig: NextConfig = {
  // Lets a second dev server or build run beside the default one (e.g. NEXT_DIST_DIR=.next-chrome).
  distDir: env.NEXT_DIST_DIR,
  transpilePackages: ['@xcad/protocol', '@xcad/cad', '@xcad/cad-dwg'],
  // The viewer's DWG worker bundles LibreDWG's Emscripten glue, which imports Node's `module`
  // only when it runs under Node: the browser gets an empty module in its place (decision 0021).
  turbopack: { resolveAlias: { module: { browser: './lib/viewer/empty-module.ts' } } },
  poweredByHeader: false,
  // Next.js would hash every HTML response on every request to compute an ETag; pages are cached
  // (ISR, 300 s) and served with Cache-Control, so the hash only costs throughput.
  generateEtags: false,
  // proxy.ts then gets the request URL with the origin Next.js resolves rewrites against (the
  // normalised URL says `localhost`, while the front server starts Next.js on 127.0.0.1): a
  // rewrite to any other origin would be proxied over HTTP back into the same server.
  skipProxyUrlNormalize: true,
  reactStrictMode: true,
  // The CSS stays in cacheable files rather than inline <style>: inlined, Next.js also repeats it
  // as text in every page's RSC payload (the 115 kB the pages share became 350 kB of HTML, and a
  // phone parsed it all before it could answer a tap). Measured both ways with Lighthouse: decision 0015.
  // authInterrupts: forbidden() answers a console page the operator's roles do not cover with 403 (decision 0042).
  experimental: { inlineCss: false, authInterrupts: true },
  // The browser signs API calls (spec §7) with the same secret as the API; it is public by nature
  // (FACTS.md), so it is inlined at build time.
  env: { XCAD_SIGN_SECRET: env.PRODUCT_SIGN_SECRET },
};

const withNextIntl = createNextIntlPlugin('./i18n/request.ts');

export default withNextIntl(nextConfig);
