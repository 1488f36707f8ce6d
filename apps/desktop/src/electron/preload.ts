import { contextBridge, ipcRenderer } from 'electron';
import {
  DESKTOP_WINDOW_STATE_CHANNEL,
  desktopChannel,
  desktopPlatformOf,
  type DesktopBridge,
  type DesktopMethod,
} from '@xcad/protocol/desktop';
import { parseDesktopWindowState } from '@xcad/protocol/desktop-calls';
import { VERSION_SWITCH } from './constants';

// The release shell's preload: exposes exactly the `window.desktop` contract of
// packages/protocol/src/desktop.ts to the page (context isolation; the page never sees ipcRenderer).
// Runs sandboxed: bundled into one file that requires nothing but `electron`.

const platform = desktopPlatformOf(process.platform);
const version = process.argv.find((arg) => arg.startsWith(VERSION_SWITCH))?.slice(VERSION_SWITCH.length) ?? '0.0.0';

function invoke(method: DesktopMethod, ...args: unknown[]): Promise<unknown> {
  return ipcRenderer.invoke(desktopChannel(method), ...args);
}

const listeners = new Set<(isMaximized: boolean) => void>();
ipcRenderer.on(DESKTOP_WINDOW_STATE_CHANNEL, (_event, payload: unknown) => {
  // The page acts on the checked event only.
  const state = parseDesktopWindowState(payload);
  if (!state) return;
  for (const listener of listeners) listener(state.isMaximized);
});

if (platform !== null) {
  const desktop: DesktopBridge = {
    isDesktop: true,
    platform,
    version,
    minimize: async () => {
      await invoke('minimize');
    },
    toggleMaximize: async () => (await invoke('toggleMaximize')) === true,
    isMaximized: async () => (await invoke('isMaximized')) === true,
    close: async () => {
      await invoke('close');
    },
    startDrag: async () => {
      await invoke('startDrag');
    },
    moveBy: async (dx: number, dy: number) => {
      await invoke('moveBy', dx, dy);
    },
    endDrag: async () => {
      await invoke('endDrag');
    },
    openExternal: async (url: string) => {
      await invoke('openExternal', String(url));
    },
    onMaximizedChange: (listener: (isMaximized: boolean) => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  contextBridge.exposeInMainWorld('desktop', desktop);
}
