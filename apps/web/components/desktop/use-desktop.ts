'use client';

import { useSyncExternalStore } from 'react';
import { desktopBridgeOf, type DesktopBridge } from '@xcad/protocol/desktop';

// The desktop shell puts `window.desktop` in place before the page's scripts run and never
// changes it, so there is nothing to subscribe to; the server (and a browser) have no bridge.
const subscribe = () => () => undefined;
const bridgeOfWindow = () => desktopBridgeOf(window);
const noBridge = () => null;

/** The desktop app's bridge, or null in a browser (and while rendering on the server). */
export function useDesktopBridge(): DesktopBridge | null {
  return useSyncExternalStore(subscribe, bridgeOfWindow, noBridge);
}
