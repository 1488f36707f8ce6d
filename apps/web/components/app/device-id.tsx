'use client';

import { useSyncExternalStore } from 'react';
import { readOrCreateDeviceId } from '@/lib/device-id';

// spec §3: one device id per browser, kept in localStorage under `_g_uuid`.

let deviceId: string | null = null;

function getDeviceId(): string {
  deviceId ??= readOrCreateDeviceId(safeLocalStorage(), () => crypto.randomUUID());
  return deviceId;
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const subscribe = () => () => {};

/** The device id in the browser; null while rendering on the server. */
export function useDeviceId(): string | null {
  return useSyncExternalStore(subscribe, getDeviceId, () => null);
}
