import { PAGE } from '@xcad/protocol/constants';

// spec §3: the device id is generated once and kept in local storage under `_g_uuid`; signed API
// calls carry it as `deviceid`.

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The stored device id, created and stored on first use. Storage failures (private mode) still yield an id. */
export function readOrCreateDeviceId(storage: KeyValueStorage | null, generate: () => string): string {
  try {
    const stored = storage?.getItem(PAGE.deviceIdStorageKey);
    if (stored) return stored;
  } catch {
    // Storage may be unavailable; fall through to a fresh id.
  }
  const id = generate();
  try {
    storage?.setItem(PAGE.deviceIdStorageKey, id);
  } catch {
    // Without storage the id lives for this page only.
  }
  return id;
}
