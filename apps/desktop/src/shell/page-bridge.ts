import type { DesktopBridge, DesktopMethod, DesktopPlatform } from '@xcad/protocol/desktop';

// Runs inside every document of the app window before the page's own scripts (an init script):
// it turns the shell's page binding into `window.desktop`. Serialised as source text, so it
// refers to nothing outside itself.

export interface PageBridgeConfig {
  /** The site's origin; documents of any other origin get no bridge. */
  readonly origin: string;
  /** The name of the page binding the shell exposed. */
  readonly binding: string;
  readonly platform: DesktopPlatform;
  readonly version: string;
}

type BindingCall = (method: DesktopMethod, ...args: unknown[]) => Promise<unknown>;

export function installPageBridge(config: PageBridgeConfig): void {
  const scope = window as unknown as Record<string, unknown>;
  const binding = scope[config.binding];
  if (window.location.origin !== config.origin || typeof binding !== 'function') return;
  const call = binding as BindingCall;
  // The page sees the contract only, not the raw binding.
  delete scope[config.binding];

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
  const isMaximized = async (): Promise<boolean> => (await call('isMaximized')) === true;
  // The window manager can maximise or restore the window too (its own buttons, keys): the
  // viewport's size changes either way.
  window.addEventListener('resize', () => {
    isMaximized().then(emit, () => undefined);
  });

  const desktop: DesktopBridge = Object.freeze({
    isDesktop: true as const,
    platform: config.platform,
    version: config.version,
    minimize: async () => {
      await call('minimize');
    },
    toggleMaximize: async () => {
      const next = (await call('toggleMaximize')) === true;
      emit(next);
      return next;
    },
    isMaximized,
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
  Object.defineProperty(window, 'desktop', { value: desktop, enumerable: true, configurable: false, writable: false });
}
