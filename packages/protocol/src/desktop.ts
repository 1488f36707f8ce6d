import type { AnalyticsPlatform } from './constants';

// spec §2 "Other UI": desktop-app mode exposes window moving and maximising helpers. This is the
// one contract of `window.desktop` that both shells implement (the Electron release shell through
// its preload, the Chromium app-mode shell through a page binding) and that the site reads.
// zod-free: every page of the site loads this (decision 0015); the shells' checks of what a page
// asks are in desktop-calls.ts.

/** The desktop platforms of spec §3's software-info list. */
export const DESKTOP_PLATFORMS = ['WIN', 'MAC', 'LINUX'] as const satisfies readonly AnalyticsPlatform[];
export type DesktopPlatform = (typeof DESKTOP_PLATFORMS)[number];

/** The software-info platform of a Node or Electron `process.platform`; null where no shell is built. */
export function desktopPlatformOf(nodePlatform: string): DesktopPlatform | null {
  switch (nodePlatform) {
    case 'win32':
      return 'WIN';
    case 'darwin':
      return 'MAC';
    case 'linux':
      return 'LINUX';
    default:
      return null;
  }
}

/** The window's size: the site's desktop width plus room, and the least it stays usable at. */
export const DESKTOP_WINDOW = {
  width: 1280,
  height: 800,
  minWidth: 1024,
  minHeight: 640,
  /** Height of the site's own title bar, in CSS pixels. */
  titleBarHeight: 32,
  /** The title bar's colour (the footer colour of the site's palette), also checked by tests. */
  titleBarColor: '#1b2030',
} as const;

/** `window.desktop`. Every call goes to the shell, so every method answers with a promise. */
export interface DesktopBridge {
  readonly isDesktop: true;
  readonly platform: DesktopPlatform;
  /** The desktop app's version (e.g. `0.1.0`). */
  readonly version: string;
  minimize(): Promise<void>;
  /** Maximises a normal window or restores a maximised one; resolves with the new state. */
  toggleMaximize(): Promise<boolean>;
  isMaximized(): Promise<boolean>;
  /** Closes the window, which quits the app and stops the servers it started. */
  close(): Promise<void>;
  /**
   * A window drag: `startDrag()` when the pointer goes down on the title bar, `moveBy(dx, dy)` with
   * each pointer movement in screen pixels, `endDrag()` when it is released. The shell adds the
   * movements to where the window was when the drag began (it never reads back a position the
   * window manager may not have applied yet). Outside a drag `moveBy` moves the window from where
   * it is. A maximised window does not move.
   */
  startDrag(): Promise<void>;
  moveBy(dx: number, dy: number): Promise<void>;
  endDrag(): Promise<void>;
  /** Opens an http(s) address in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Calls `listener` whenever the window is maximised or restored; returns the unsubscribe. */
  onMaximizedChange(listener: (isMaximized: boolean) => void): () => void;
}

/** The bridge methods that reach the shell, each one IPC channel or binding call. */
export const DESKTOP_METHODS = [
  'minimize',
  'toggleMaximize',
  'isMaximized',
  'close',
  'startDrag',
  'moveBy',
  'endDrag',
  'openExternal',
] as const;
export type DesktopMethod = (typeof DESKTOP_METHODS)[number];

/** The Electron IPC channel of a method (`ipcMain.handle` / `ipcRenderer.invoke`). */
export function desktopChannel(method: DesktopMethod): string {
  return `desktop:${method}`;
}

/** The channel on which the main process tells the page the window's state. */
export const DESKTOP_WINDOW_STATE_CHANNEL = 'desktop:window-state';

/** One call from the page to the shell: a method of the contract with its arguments. */
export type DesktopShellCall = (method: DesktopMethod, ...args: unknown[]) => Promise<unknown>;

/** A bridge and the way its shell reports the window's state to the page's listeners. */
export interface DesktopBridgeParts {
  readonly bridge: DesktopBridge;
  /** Tells the listeners the window's state; a state they already have is not repeated. */
  readonly emit: (isMaximized: boolean) => void;
}

/**
 * `window.desktop` over a shell's call, for both shells (the Electron preload and the Chromium page
 * bridge). It refers to nothing outside itself: the Chromium shell hands it to the page as source.
 */
export function desktopBridgeOver(call: DesktopShellCall, platform: DesktopPlatform, version: string): DesktopBridgeParts {
  const listeners = new Set<(isMaximized: boolean) => void>();
  let lastMaximized: boolean | null = null;
  const emit = (isMaximized: boolean): void => {
    if (isMaximized === lastMaximized) return;
    lastMaximized = isMaximized;
    for (const listener of listeners) {
      try {
        listener(isMaximized);
      } catch (error) {
        console.error(error);
      }
    }
  };
  const bridge: DesktopBridge = Object.freeze({
    isDesktop: true as const,
    platform,
    version,
    minimize: async () => {
      await call('minimize');
    },
    toggleMaximize: async () => {
      const next = (await call('toggleMaximize')) === true;
      emit(next);
      return next;
    },
    isMaximized: async () => (await call('isMaximized')) === true,
    close: async () => {
      await call('close');
    },
    startDrag: async () => {
      await call('startDrag');
    },
    moveBy: async (dx: number, dy: number) => {
      await call('moveBy', dx, dy);
    },
    endDrag: async () => {
      await call('endDrag');
    },
    openExternal: async (url: string) => {
      await call('openExternal', String(url));
    },
    onMaximizedChange: (listener: (isMaximized: boolean) => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  });
  return { bridge, emit };
}

/** A hand check of an object found at `window.desktop`: the whole contract, or it is not a bridge. */
export function isDesktopBridge(value: unknown): value is DesktopBridge {
  if (typeof value !== 'object' || value === null) return false;
  const bridge = value as Record<string, unknown>;
  return (
    bridge.isDesktop === true &&
    (DESKTOP_PLATFORMS as readonly unknown[]).includes(bridge.platform) &&
    typeof bridge.version === 'string' &&
    [...DESKTOP_METHODS, 'onMaximizedChange'].every((name) => typeof bridge[name] === 'function')
  );
}

/** The bridge of a page (`desktopBridgeOf(window)`), or null in a browser. */
export function desktopBridgeOf(scope: unknown): DesktopBridge | null {
  if (typeof scope !== 'object' || scope === null) return null;
  const candidate = (scope as { desktop?: unknown }).desktop;
  return isDesktopBridge(candidate) ? candidate : null;
}

/** spec §3 software info: the shell's platform in the desktop app, WEB in a browser. */
export function softwarePlatformOf(bridge: DesktopBridge | null): AnalyticsPlatform {
  return bridge?.platform ?? 'WEB';
}
