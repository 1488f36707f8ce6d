import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isSearchCacheHost } from '@xcad/protocol';
import { LOCALE_COOKIE } from '../lib/i18n/locales';
import { decidePageRequest } from '../lib/request-routing';

// A short shared cache for pages Next.js itself marks as shared-cacheable (ISR pages answer
// `Cache-Control: s-maxage=...`), the "micro-cache" an nginx or CDN in front of Next.js would keep.
// Next 16 spends ~2.5 ms per cached page; a hit here is a memory copy. It never caches what could
// differ per visitor: only GET, no RSC/router requests, no responses that set cookies or say
// private/no-store, keyed by the routing decision (locale + internal path) and the encoding.
// See docs/decisions/0008.

interface Entry {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  expiresAt: number;
}

export interface PageCacheOptions {
  /** Longest time a page is kept; also capped by the page's own s-maxage. 0 disables the cache. */
  ttlMs: number;
  maxEntries: number;
  maxBodyBytes?: number;
  now?: () => number;
}

const ROUTER_HEADERS = ['rsc', 'next-router-prefetch', 'next-router-state-tree', 'next-router-segment-prefetch', 'next-action'];

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The cache key of a page request, or null when the request must go to Next.js every time. */
export function pageCacheKey(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return null;
  if (ROUTER_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
  const host = req.headers['x-forwarded-host'] ?? req.headers.host ?? '';
  if (isSearchCacheHost(String(host))) return null;
  const url = new URL(req.url ?? '/', 'http://front.invalid');
  if (url.pathname.startsWith('/_next/') || url.searchParams.has('_rsc')) return null;
  const decision = decidePageRequest({
    pathname: url.pathname,
    search: url.search,
    cookieLocale: cookieValue(req.headers.cookie, LOCALE_COOKIE),
    acceptLanguage: req.headers['accept-language'],
  });
  if (decision.kind !== 'rewrite') return null;
  const encoding = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? 'gzip' : 'identity';
  return `${decision.pathname}${url.search}|${encoding}`;
}

/** Seconds of shared caching a response allows, or 0. */
export function sharedMaxAgeSeconds(headers: OutgoingHttpHeaders): number {
  if (headers['set-cookie'] !== undefined) return 0;
  const cacheControl = String(headers['cache-control'] ?? '').toLowerCase();
  if (/\b(private|no-store|no-cache)\b/.test(cacheControl)) return 0;
  const match = /\bs-maxage=(\d+)/.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer | null {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return null;
}

export function createPageCache(options: PageCacheOptions) {
  const entries = new Map<string, Entry>();
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? 2 * 1024 * 1024;

  /** Answers from the cache; returns false on a miss. */
  function serve(key: string, res: ServerResponse): boolean {
    const entry = entries.get(key);
    if (!entry) return false;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return false;
    }
    res.writeHead(entry.status, { ...entry.headers, 'x-page-cache': 'HIT' });
    res.end(entry.body);
    return true;
  }

  /** Watches the response Next.js writes and keeps it if it may be shared. */
  function record(key: string, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let isTooBig = false;
    let headHeaders: OutgoingHttpHeaders = {};
    const collect = (chunk: unknown, encoding?: unknown) => {
      const buffer = toBuffer(chunk, encoding);
      if (!buffer || isTooBig) return;
      size += buffer.length;
      if (size > maxBodyBytes) isTooBig = true;
      else chunks.push(buffer);
    };

    const writeHead = res.writeHead.bind(res);
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      // writeHead(status, [reason], [headers]): headers given here bypass getHeaders().
      const headers = rest.find((arg) => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
      if (headers) headHeaders = headers as OutgoingHttpHeaders;
      return (writeHead as (...args: unknown[]) => ServerResponse)(status, ...rest);
    }) as typeof res.writeHead;
    const write = res.write.bind(res);
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof res.write;
    const end = res.end.bind(res);
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== 'function') collect(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
    }) as typeof res.end;

    res.once('finish', () => {
      if (isTooBig || res.statusCode !== 200) return;
      const headers: OutgoingHttpHeaders = { ...res.getHeaders(), ...lowerCaseKeys(headHeaders) };
      const maxAge = sharedMaxAgeSeconds(headers);
      if (maxAge <= 0) return;
      delete headers['date'];
      delete headers['x-page-cache'];
      delete headers['connection'];
      delete headers['keep-alive'];
      delete headers['transfer-encoding'];
      const body = Buffer.concat(chunks);
      headers['content-length'] = String(body.length);
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      entries.set(key, { status: 200, headers, body, expiresAt: now() + Math.min(options.ttlMs, maxAge * 1000) });
    });
  }

  return {
    /** Serves `req` from the cache, or hands it to `next` and records the answer. */
    async handle(
      req: IncomingMessage,
      res: ServerResponse,
      next: (req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
    ): Promise<void> {
      const key = options.ttlMs > 0 ? pageCacheKey(req) : null;
      if (key === null) return next(req, res);
      if (serve(key, res)) return;
      res.setHeader('x-page-cache', 'MISS');
      record(key, res);
      return next(req, res);
    },
    get size() {
      return entries.size;
    },
  };
}

function lowerCaseKeys(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
