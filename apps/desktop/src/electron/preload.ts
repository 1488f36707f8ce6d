import { contextBridge, ipcRenderer } from 'electron';
import {
  DESKTOP_WINDOW_STATE_CHANNEL,
  desktopChannel,
  desktopBridgeOver,
  desktopPlatformOf,
  type DesktopShellCall,
} from '@xcad/protocol/desktop';
import { parseDesktopWindowState } from '@xcad/protocol/desktop-calls';
import { VERSION_SWITCH } from './constants';

// The release shell's preload: exposes exactly the `window.desktop` contract of
// packages/protocol/src/desktop.ts to the page (context isolation; the page never sees ipcRenderer).
// Runs sandboxed: bundled into one file that requires nothing but `electron`.

const platform = desktopPlatformOf(process.platform);
const version = process.argv.find((arg) => arg.startsWith(VERSION_SWITCH))?.slice(VERSION_SWITCH.length) ?? '0.0.0';

const call: DesktopShellCall = (method, ...args) => ipcRenderer.invoke(desktopChannel(method), ...args);

if (platform !== null) {
  const { bridge, emit } = desktopBridgeOver(call, platform, version);
  ipcRenderer.on(DESKTOP_WINDOW_STATE_CHANNEL, (_event, payload: unknown) => {
    // The page acts on the checked event only.
    const state = parseDesktopWindowState(payload);
    if (state) emit(state.isMaximized);
  });
  contextBridge.exposeInMainWorld('desktop', bridge);
}
