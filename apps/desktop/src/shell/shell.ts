import type { StdioOptions } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { DESKTOP_WINDOW, desktopPlatformOf } from '@xcad/protocol/desktop';
import { startEmbeddedServers, type EmbeddedServers } from '../servers';
import { lifecycleEventsOf, lifecycleScript } from '../lifecycle';
import { installShellBridge, originOf } from './bridge';
import { openInSystemBrowser, openerCommand } from './open-external';
import { WindowControl } from './window-control';

// The desktop app as it runs here: the embedded servers, and the site in Debian Chromium's app
// mode (a window without tabs or address bar) driven by playwright-core over the browser's pipe:
// no debugging port is opened. Closing the window quits the app; quitting stops the servers.

export interface DesktopShellOptions {
  /** The site's folder (repository or installed copy). */
  readonly root: string;
  readonly dataDir: string;
  /** The app version `window.desktop.version` reports. */
  readonly version: string;
  /** `ensure` builds the web app when needed (source checkout); `require` only uses a build. */
  readonly webBuild: 'ensure' | 'require';
  readonly chromiumPath?: string;
  /** The servers' and the browser's environment (DISPLAY, ports, secrets). */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the servers' output goes. */
  readonly stdio?: StdioOptions;
  readonly log?: (message: string) => void;
}

export interface DesktopShell {
  readonly siteUrl: string;
  readonly servers: EmbeddedServers;
  readonly browserPid: number | undefined;
  readonly page: Page;
  /** The DevTools session of the app page (the window operations go through it). */
  readonly cdp: CDPSession;
  readonly window: WindowControl;
  /** Brings the window forward (a second launch asks for this). */
  focus(): Promise<void>;
  /** Closes the window and stops the servers; safe to call more than once. */
  quit(): Promise<void>;
  /** Resolves once the app has quit, however it was asked to. */
  readonly closed: Promise<void>;
}

export class ShellStartError extends Error {
  override readonly name = 'ShellStartError';
}

/** The pid of our child process whose command line has `arg` (Playwright keeps the browser's to itself for a persistent context). */
function childPidWithArgument(arg: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parentPid !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(arg)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}

function isExternal(url: URL, origin: string): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin;
}

function profileDir(dataDir: string): string {
  return path.join(dataDir, 'browser-profile');
}

/**
 * Browser preferences of the app's profile: no offer to translate the site (Chromium's interface
 * language follows the desktop's, the site's is Chinese) and no password manager prompts.
 */
export function prepareProfile(profile: string): void {
  const file = path.join(profile, 'Default', 'Preferences');
  let preferences: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) preferences = parsed as Record<string, unknown>;
    } catch {
      // A damaged file: Chromium would reset it too.
    }
  }
  const section = (name: string) => {
    const value = preferences[name];
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  };
  preferences.translate = { ...section('translate'), enabled: false };
  preferences.credentials_enable_service = false;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(preferences));
}

async function launchWindow(options: DesktopShellOptions): Promise<BrowserContext> {
  prepareProfile(profileDir(options.dataDir));
  // Chromium refuses to start its sandbox as root (containers, CI): there it runs without one,
  // and --test-type drops the warning bar that would otherwise sit above the page.
  const isRoot = process.getuid?.() === 0;
  return chromium.launchPersistentContext(profileDir(options.dataDir), {
    executablePath: options.chromiumPath ?? options.env?.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: false,
    viewport: null,
    // A Chinese product: its pages in Chinese unless the user picks another language on the site.
    locale: 'zh-CN',
    chromiumSandbox: !isRoot,
    env: options.env ?? process.env,
    // The shell decides when to quit (it stops the servers first).
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // Playwright opens about:blank in a normal window; the app window replaces it, and gets the
    // site only once the bridge is installed.
    ignoreDefaultArgs: ['about:blank'],
    args: [
      '--app=data:text/html,',
      `--window-size=${DESKTOP_WINDOW.width},${DESKTOP_WINDOW.height}`,
      '--class=xcad-desktop',
      '--lang=zh-CN',
      '--no-first-run',
      '--disable-background-networking',
      ...(isRoot ? ['--test-type'] : []),
    ],
  });
}

/** Starts the servers and opens the app window on the site. */
export async function launchDesktopShell(options: DesktopShellOptions): Promise<DesktopShell> {
  const log = options.log ?? (() => undefined);
  const platform = desktopPlatformOf(process.platform);
  if (platform === null) throw new ShellStartError(`the desktop app does not run on ${process.platform}`);

  let quitting: Promise<void> | null = null;
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let context: BrowserContext | undefined;

  const servers = await startEmbeddedServers({
    root: options.root,
    dataDir: options.dataDir,
    env: options.env,
    webBuild: options.webBuild,
    stdio: options.stdio,
    onUnexpectedExit: (name, code) => {
      log(`the ${name} server stopped unexpectedly (exit code ${code ?? 'none'}); quitting`);
      void quit();
    },
  });
  const origin = servers.siteUrl;

  function quit(): Promise<void> {
    quitting ??= (async () => {
      await context?.close().catch(() => undefined);
      await servers.stop();
      resolveClosed();
    })();
    return quitting;
  }

  try {
    context = await launchWindow(options);
  } catch (error) {
    await servers.stop();
    throw new ShellStartError(`Chromium did not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const page = context.pages()[0] ?? (await context.waitForEvent('page'));
    const cdp = await context.newCDPSession(page);
    const window = await WindowControl.of(cdp);
    const opener = openerCommand(options.env);
    const openExternal = (url: string) => openInSystemBrowser(url, opener);

    await installShellBridge(context, { origin, platform, version: options.version, window: () => window, close: quit, openExternal });
    // Other sites open in the system browser: the app window's own navigations...
    await page.route(
      (url) => isExternal(url, origin),
      async (route) => {
        const request = route.request();
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
          await openExternal(request.url()).catch((error: Error) => log(error.message));
          await route.abort('aborted');
        } else {
          await route.continue();
        }
      },
    );
    // ...and new windows that start on another site (a popup that starts blank, like the QQ
    // sign-in, stays: the site drives it).
    context.on('page', (popup) => {
      // A new page is announced once it has its first address (about:blank for a blank popup).
      const popupOrigin = originOf(popup.url());
      if (popupOrigin === null || popupOrigin === origin) return;
      void openExternal(popup.url())
        .catch((error: Error) => log(error.message))
        .finally(() => void popup.close().catch(() => undefined));
    });
    // The last window closed (its own close button, the window manager's, or desktop.close()).
    context.on('close', () => void quit());

    await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded', timeout: 90_000 });
    log(`window open on ${origin}/`);
    await page
      .evaluate(lifecycleScript(lifecycleEventsOf(options.dataDir)))
      .catch((error: Error) => log(`start-up not reported: ${error.message}`));
    const browserPid = childPidWithArgument(`--user-data-dir=${profileDir(options.dataDir)}`);
    return {
      siteUrl: origin,
      servers,
      browserPid,
      page,
      cdp,
      window,
      focus: async () => {
        await window.unminimize();
        await page.bringToFront();
      },
      quit,
      closed,
    };
  } catch (error) {
    await quit();
    throw new ShellStartError(`the app window did not open: ${error instanceof Error ? error.message : String(error)}`);
  }
}
