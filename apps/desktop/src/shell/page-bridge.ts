import type { DesktopShellCall, DesktopPlatform, desktopBridgeOver } from '@xcad/protocol/desktop';

// Runs inside every document of the app window before the page's own scripts (an init script):
// it turns the shell's page binding into `window.desktop`. Serialised as source text, so it
// refers to nothing outside itself but its arguments.

export interface PageBridgeConfig {
  /** The site's origin; documents of any other origin get no bridge. */
  readonly origin: string;
  /** The name of the page binding the shell exposed. */
  readonly binding: string;
  readonly platform: DesktopPlatform;
  readonly version: string;
}

/**
 * Turns the binding into `window.desktop`. `bridgeOver` is the protocol's `desktopBridgeOver`,
 * passed in by the script (pageBridgeScript) because this function cannot import.
 */
export function installPageBridge(config: PageBridgeConfig, bridgeOver: typeof desktopBridgeOver): void {
  const scope = window as unknown as Record<string, unknown>;
  const binding = scope[config.binding];
  if (window.location.origin !== config.origin || typeof binding !== 'function') return;
  // The page sees the contract only, not the raw binding.
  delete scope[config.binding];

  const { bridge, emit } = bridgeOver(binding as DesktopShellCall, config.platform, config.version);
  // The window manager can maximise or restore the window too (its own buttons, keys): the
  // viewport's size changes either way.
  window.addEventListener('resize', () => {
    bridge.isMaximized().then(emit, () => undefined);
  });
  Object.defineProperty(window, 'desktop', { value: bridge, enumerable: true, configurable: false, writable: false });
}
