'use client';

import { useEffect } from 'react';
import { CHUNK_RELOAD_KEY, isChunkLoadError, mayReload } from '@/lib/chunk-reload';

// spec §4: a chunk-load error reloads the page, at most once per 60 s (timestamp in sessionStorage).

/** Reloads the page if `reason` is a chunk-load error and the guard allows it; true if reloading. */
export function reloadOnChunkError(reason: unknown): boolean {
  if (!isChunkLoadError(reason)) return false;
  const now = Date.now();
  try {
    const stored = window.sessionStorage.getItem(CHUNK_RELOAD_KEY);
    if (!mayReload(stored === null ? null : Number(stored), now)) return false;
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // Without sessionStorage the guard cannot count; do not risk a reload loop.
    return false;
  }
  window.location.reload();
  return true;
}

/** Listens for chunk-load failures that no error boundary caught. */
export function ChunkReloadGuard() {
  useEffect(() => {
    const onError = (event: ErrorEvent) => reloadOnChunkError(event.error ?? event.message);
    const onRejection = (event: PromiseRejectionEvent) => reloadOnChunkError(event.reason);
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, []);
  return null;
}
