// Content types of the files the site stores and serves, by extension. Unknown extensions are
// served as opaque downloads, never sniffed (the API sets X-Content-Type-Options: nosniff).
const TYPES: Readonly<Record<string, string>> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  vtt: 'text/vtt; charset=utf-8',
  pdf: 'application/pdf',
  dwg: 'image/vnd.dwg',
  dxf: 'image/vnd.dxf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

const OPAQUE_TYPE = 'application/octet-stream';

export function contentTypeOf(key: string): string {
  const dot = key.lastIndexOf('.');
  const extension = dot === -1 ? '' : key.slice(dot + 1).toLowerCase();
  return TYPES[extension] ?? OPAQUE_TYPE;
}

/** Types a browser may render inline from our origin without risk (SVG is served with a CSP sandbox). */
const INLINE: ReadonlySet<string> = new Set([
  'image/svg+xml',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/webm',
  'application/pdf',
  'text/vtt; charset=utf-8',
]);

/** Types a browser may show inline from our origin (SVG is served under a sandboxing CSP); the rest download. */
export function isInlineSafe(type: string): boolean {
  return INLINE.has(type);
}
