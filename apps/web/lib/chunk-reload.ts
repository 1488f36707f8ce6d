import { PAGE } from '@xcad/protocol/constants';

// spec §4: an unknown chunk-load error (typically a new deployment removed the old chunks)
// reloads the page, but not more than once per 60 s so a broken build cannot loop.

/** sessionStorage key of the last reload's timestamp. */
export const CHUNK_RELOAD_KEY = 'xcad:chunk-reload-at';

export function isChunkLoadError(reason: unknown): boolean {
  if (reason === null || reason === undefined) return false;
  const name = typeof reason === 'object' && 'name' in reason ? String(reason.name) : '';
  const message = typeof reason === 'string' ? reason : typeof reason === 'object' && 'message' in reason ? String(reason.message) : '';
  return name === 'ChunkLoadError' || /Loading (CSS )?chunk [\w/.-]+ failed/i.test(message) || /Failed to load chunk/i.test(message);
}

/** Whether a reload is allowed now, given the previous reload's timestamp (ms) if any. */
export function mayReload(lastReloadAt: number | null, now: number, windowMs: number = PAGE.reloadGuardMs): boolean {
  return lastReloadAt === null || !Number.isFinite(lastReloadAt) || now - lastReloadAt >= windowMs || now < lastReloadAt;
}
