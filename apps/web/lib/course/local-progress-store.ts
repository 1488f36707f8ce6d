import { LOCAL_PROGRESS_KEY, readLocalProgress, writeLocalProgress, type ProgressEntry, type ProgressMap } from './progress';

// A visitor's course progress as an external store for useSyncExternalStore: read from
// localStorage (other tabs' writes arrive as storage events), null during the server render.

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedMap: ProgressMap = {};

export function subscribeLocalProgress(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === LOCAL_PROGRESS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The same object while the stored text is unchanged, as useSyncExternalStore requires. */
export function localProgressSnapshot(): ProgressMap {
  const storage = safeLocalStorage();
  let raw: string | null = null;
  try {
    raw = storage?.getItem(LOCAL_PROGRESS_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedMap = readLocalProgress(storage);
  }
  return cachedMap;
}

export function serverLocalProgressSnapshot(): null {
  return null;
}

export function saveLocalProgress(lessonId: number, entry: ProgressEntry): void {
  const storage = safeLocalStorage();
  const map = writeLocalProgress(storage, lessonId, entry);
  // A storage that refused the write still shows the progress for this visit.
  let stored: string | null = null;
  try {
    stored = storage?.getItem(LOCAL_PROGRESS_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (stored !== JSON.stringify(map)) {
    cachedRaw = stored;
    cachedMap = map;
  }
  for (const listener of listeners) listener();
}
