import { DRAWINGS_API_PREFIX } from '@xcad/protocol';

// The browser's requests about one drawing of the library (decision 0012); the pages' server-side reads
// are in drawings-api.ts.

/** Counts a view of the drawing; the answer and any failure are ignored (counting never blocks reading). */
export function countDrawingView(id: number): void {
  fetch(`${DRAWINGS_API_PREFIX}/${id}/view`, { method: 'POST', keepalive: true }).catch(() => undefined);
}

/**
 * Asks the file URL itself (HEAD, with the session cookie) whether this visitor may download it:
 * the HTTP status (200 yes, 401 not signed in, 403 not a member); rejects on a network failure.
 */
export async function askDrawingAccess(fileUrl: string): Promise<number> {
  const answer = await fetch(fileUrl, { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
  return answer.status;
}
