import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeOf, isInlineSafe } from './content-type';
import type { ByteRange, Storage, StoredObject } from './storage';

// Serving a stored object over HTTP the way browsers and download managers expect: HEAD, ETag and
// Last-Modified with conditional requests (304), single byte ranges (206, 416) so video seeks and
// resumed downloads work, and a Content-Disposition whose file name survives Chinese characters.

export interface SendStoredOptions {
  /** Offer the object as a download under this file name (else inline when the type is safe). */
  downloadName?: string;
  /** Cache-Control; default one day public for content, callers pass `private, no-store` for gated files. */
  cacheControl?: string;
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The one range of a `Range: bytes=` header, undefined to send everything, 'unsatisfiable' for 416. */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | 'unsatisfiable' {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Multiple ranges or another unit: ignore the header and send the whole object (RFC 9110 allows it).
  if (match === null) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return 'unsatisfiable';
  return { start, end };
}

function isNotModified(request: FastifyRequest, object: StoredObject): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return ifNoneMatch.split(',').some((tag) => tag.trim() === object.etag || tag.trim() === '*');
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && Math.floor(object.modified / 1000) * 1000 <= since;
}

/** If-Range: the range applies only while the object is still the one the client started with. */
function rangeStillValid(request: FastifyRequest, object: StoredObject): boolean {
  const header = request.headers['if-range'];
  if (header === undefined) return true;
  const ifRange = Array.isArray(header) ? (header[0] ?? '') : header;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === object.etag;
  const date = Date.parse(ifRange);
  return Number.isFinite(date) && Math.floor(object.modified / 1000) * 1000 <= date;
}

/** Sends `object` (already looked up with `storage.stat`) as the answer to `request`. */
export function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  object: StoredObject,
  options: SendStoredOptions = {},
): FastifyReply {
  const type = contentTypeOf(options.downloadName ?? object.key);
  const fileName = options.downloadName ?? object.key.slice(object.key.lastIndexOf('/') + 1);
  reply
    .header('content-type', type)
    .header('etag', object.etag)
    .header('last-modified', new Date(object.modified).toUTCString())
    .header('accept-ranges', 'bytes')
    .header('cache-control', options.cacheControl ?? 'public, max-age=86400')
    .header(
      'content-disposition',
      contentDisposition(options.downloadName === undefined && isInlineSafe(type) ? 'inline' : 'attachment', fileName),
    );
  // An SVG opened directly must not run script in our origin.
  if (type === 'image/svg+xml') reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");

  if (isNotModified(request, object)) return reply.code(304).send();

  const range = rangeStillValid(request, object) ? parseRange(request.headers.range, object.size) : undefined;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${object.size}`).header('content-length', '0').send();
  }
  if (range !== undefined) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(object.size));
  }
  // HEAD too: Fastify's HEAD route drops the body but keeps the headers set here.
  return reply.send(storage.stream(object.key, range));
}
