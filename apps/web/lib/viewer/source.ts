// Drawings the site stores open in the viewer by link (decision 0021): `/kantu?file=<path>&name=<title>`
// from a daily picture (`/content/files/...`) or the drawing library (`/api/site/drawings/{id}/file`,
// which checks membership itself with the session cookie). Only those same-site paths are taken:
// the viewer is not a way to make a visitor's browser fetch anything else.

export const VIEWER_PATH = '/kantu';

const LIBRARY_FILE = /^\/api\/site\/drawings\/\d{1,12}\/file$/;

/** The site path of a stored drawing, or null when `value` is not one. */
export function storedFilePath(value: string): string | null {
  if (value.length === 0 || value.length > 1024) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://site.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://site.invalid' || url.search !== '' || url.hash !== '') return null;
  const path = url.pathname;
  // new URL() has already resolved dot segments: a path that still reads as content is content.
  if (path.startsWith('/content/') && !/\/\.\.?(\/|$)|%2f|%5c/i.test(value)) return path;
  if (LIBRARY_FILE.test(path)) return path;
  return null;
}

export interface LinkedFile {
  path: string;
  /** The name to show (and to save an export under): `name` when given, else the path's last part. */
  name: string;
}

/** The stored drawing a viewer URL's query asks for. */
export function linkedFileOf(search: string): LinkedFile | null {
  const query = new URLSearchParams(search);
  const file = query.get('file');
  if (file === null) return null;
  const path = storedFilePath(file);
  if (path === null) return null;
  const given = (query.get('name') ?? '').trim().slice(0, 200);
  let last = path.split('/').pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // Keep it as it is.
  }
  return { path, name: given || (last === 'file' ? 'drawing' : last) };
}

/** The viewer's link for a stored drawing (`localizedViewerPath` is /kantu with the locale prefix). */
export function viewerHref(localizedViewerPath: string, file: string, name?: string): string {
  const query = new URLSearchParams({ file });
  if (name) query.set('name', name);
  return `${localizedViewerPath}?${query.toString()}`;
}

export type FetchFailure = 'signin' | 'forbidden' | 'fetch';

/** Downloads a stored drawing with the session cookie, reporting progress; rejects with a FetchFailure. */
export async function fetchStoredFile(path: string, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', signal: signal ?? null });
  } catch {
    throw new StoredFileError('fetch');
  }
  if (response.status === 401) throw new StoredFileError('signin');
  if (response.status === 403) throw new StoredFileError('forbidden');
  if (!response.ok || !response.body) throw new StoredFileError('fetch');
  const total = Number(response.headers.get('content-length') ?? 0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.length;
    if (total > 0) onProgress(Math.min(1, received / total));
  }
  return new Blob(parts as BlobPart[]);
}

export class StoredFileError extends Error {
  constructor(readonly failure: FetchFailure) {
    super(failure);
    this.name = 'StoredFileError';
  }
}
