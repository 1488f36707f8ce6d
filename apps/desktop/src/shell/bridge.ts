import type { BrowserContext } from 'playwright-core';
import { desktopBridgeOver, type DesktopPlatform } from '@xcad/protocol/desktop';
import { DesktopCallError, parseDesktopCall } from '@xcad/protocol/desktop-calls';
import { installPageBridge, type PageBridgeConfig } from './page-bridge';
import type { WindowControl } from './window-control';

// `window.desktop` in the Chromium app-mode shell: one page binding (Playwright exposeBinding,
// carried over the browser's pipe) that answers only documents of the site's origin, and an init
// script that wraps it in the contract of packages/protocol/src/desktop.ts.

const BINDING = '__xcadDesktopCall';

export interface ShellBridgeHandlers {
  readonly window: () => WindowControl;
  readonly close: () => Promise<void>;
  readonly openExternal: (url: string) => Promise<void>;
}

export interface ShellBridgeOptions extends ShellBridgeHandlers {
  /** The site's origin, e.g. http://127.0.0.1:40123. */
  readonly origin: string;
  readonly platform: DesktopPlatform;
  readonly version: string;
}

/** The origin of a document's URL, or null for about:, data: and malformed addresses. */
export function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Carries out one call of the page; refuses callers of other origins and calls outside the contract. */
export async function handleBridgeCall(
  callerUrl: string,
  origin: string,
  method: unknown,
  args: unknown[],
  handlers: ShellBridgeHandlers,
): Promise<unknown> {
  if (originOf(callerUrl) !== origin)
    throw new DesktopCallError(`window.desktop refused a call from ${originOf(callerUrl) ?? 'a document without an origin'}`);
  const call = parseDesktopCall(method, args);
  const window = handlers.window();
  switch (call.method) {
    case 'minimize':
      return window.minimize();
    case 'toggleMaximize':
      return window.toggleMaximize();
    case 'isMaximized':
      return window.isMaximized();
    case 'close':
      // Answer the page first: closing takes the page (and this call's reply channel) away.
      setTimeout(() => void handlers.close(), 0);
      return undefined;
    case 'startDrag':
      return window.startDrag();
    case 'moveBy':
      return window.moveBy(call.args[0], call.args[1]);
    case 'endDrag':
      return window.endDrag();
    case 'openExternal':
      return handlers.openExternal(call.args[0]);
  }
}

/** Exposes the bridge to every page of `context`; call before the site's first document loads. */
export async function installShellBridge(context: BrowserContext, options: ShellBridgeOptions): Promise<void> {
  await context.exposeBinding(BINDING, (source, method: unknown, ...args: unknown[]) =>
    handleBridgeCall(source.frame.url(), options.origin, method, args, options),
  );
  await context.addInitScript({
    content: pageBridgeScript({ origin: options.origin, binding: BINDING, platform: options.platform, version: options.version }),
  });
}

/**
 * The init script's source. Run from TypeScript through tsx, functions are compiled with
 * esbuild's keepNames, which calls a `__name` helper the page does not have: the script brings
 * its own, scoped to itself.
 */
export function pageBridgeScript(config: PageBridgeConfig): string {
  return `(() => { const __name = (target) => target; (${installPageBridge.toString()})(${JSON.stringify(config)}, ${desktopBridgeOver.toString()}); })();`;
}
