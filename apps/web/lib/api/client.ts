'use client';

import { createApiClient, productDevice, type ApiClient, type DeviceInfo } from '@xcad/protocol';
import { readOrCreateDeviceId } from '@/lib/device-id';

// The browser's one signed client of the product API (spec §7). Same origin: the front server
// proxies /api/* to the API (decision 0003).

function deviceInfo(): DeviceInfo {
  const storage = (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })();
  return productDevice(
    readOrCreateDeviceId(storage, () => crypto.randomUUID()),
    {
      language: document.documentElement.lang || 'zh-CN',
      deviceos: navigator.platform || 'unknown',
    },
  );
}

let client: ApiClient | null = null;
let timeSynced: Promise<unknown> | null = null;

/** The shared client; its first use synchronises the clock with getutctime (spec §7). */
export async function apiClient(): Promise<ApiClient> {
  client ??= createApiClient({
    baseUrl: window.location.origin,
    secret: process.env.XCAD_SIGN_SECRET ?? '',
    device: deviceInfo,
    domain: window.location.host,
  });
  // A failed sync leaves the offset at 0; the client resyncs by itself on a stale-timestamp answer.
  timeSynced ??= client.syncTime().catch(() => undefined);
  await timeSynced;
  return client;
}
