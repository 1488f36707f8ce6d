import path from 'node:path';
import {
  app,
  BrowserWindow,
  ipcMain,
  session,
  shell,
  type BrowserWindowConstructorOptions,
  type IpcMainInvokeEvent,
  type WebContents,
} from 'electron';
import { DESKTOP_METHODS, DESKTOP_WINDOW, DESKTOP_WINDOW_STATE_CHANNEL, desktopChannel } from '@xcad/protocol/desktop';
import { DesktopCallError, parseDesktopCall, type DesktopWindowState } from '@xcad/protocol/desktop-calls';
import { lifecycleEventsOf, lifecycleScript } from '../lifecycle';
import { startEmbeddedServers, type EmbeddedServers } from '../servers';
import { VERSION_SWITCH } from './constants';

// The release shell's main process: one frameless window on the site the app serves itself
// (the API and web servers as child processes, Electron running them as Node, the SQLite
// database in the user's data folder), the `window.desktop` calls answered over IPC for the
// site's own pages only, one instance per user, external sites in the system browser, and the
// servers stopped before the app exits.

export function mainWindowOptions(preloadPath: string, version: string): BrowserWindowConstructorOptions {
  return {
    width: DESKTOP_WINDOW.width,
    height: DESKTOP_WINDOW.height,
    minWidth: DESKTOP_WINDOW.minWidth,
    minHeight: DESKTOP_WINDOW.minHeight,
    // The site draws its own title bar (the desktop layout) with the three window buttons.
    frame: false,
    // Shown once the first page has painted, not as an empty white frame.
    show: false,
    backgroundColor: DESKTOP_WINDOW.titleBarColor,
    title: 'xcad',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      additionalArguments: [`${VERSION_SWITCH}${version}`],
    },
  };
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Only the app window's top document, on the site's origin, may use the bridge. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, window: BrowserWindow, origin: string): boolean {
  const frame = event.senderFrame;
  return (
    !window.isDestroyed() &&
    event.sender === window.webContents &&
    frame !== null &&
    frame === window.webContents.mainFrame &&
    originOf(frame.url) === origin
  );
}

interface Drag {
  readonly x: number;
  readonly y: number;
  dx: number;
  dy: number;
}

/** Answers the bridge's calls for `window`; returns what removes the handlers. */
export function registerDesktopIpc(window: BrowserWindow, origin: string): () => void {
  let drag: Drag | null = null;
  const actions = {
    minimize: () => window.minimize(),
    toggleMaximize: () => {
      if (window.isMaximized()) window.unmaximize();
      else window.maximize();
      return window.isMaximized();
    },
    isMaximized: () => window.isMaximized(),
    close: () => window.close(),
    startDrag: () => {
      const [x = 0, y = 0] = window.getPosition();
      drag = window.isMaximized() || window.isFullScreen() ? null : { x, y, dx: 0, dy: 0 };
    },
    moveBy: (dx: number, dy: number) => {
      if (window.isMaximized() || window.isFullScreen()) return;
      if (drag) {
        drag.dx += dx;
        drag.dy += dy;
        window.setPosition(Math.round(drag.x + drag.dx), Math.round(drag.y + drag.dy));
      } else {
        const [x = 0, y = 0] = window.getPosition();
        window.setPosition(Math.round(x + dx), Math.round(y + dy));
      }
    },
    endDrag: () => {
      drag = null;
    },
    openExternal: (url: string) => shell.openExternal(url),
  };

  for (const method of DESKTOP_METHODS) {
    ipcMain.handle(desktopChannel(method), async (event, ...args: unknown[]) => {
      if (!isTrustedSender(event, window, origin))
        throw new DesktopCallError(`window.desktop.${method} refused: the caller is not the app's page`);
      const call = parseDesktopCall(method, args);
      switch (call.method) {
        case 'moveBy':
          return actions.moveBy(call.args[0], call.args[1]);
        case 'openExternal':
          return actions.openExternal(call.args[0]);
        default:
          return actions[call.method]();
      }
    });
  }
  const sendState = () => {
    if (window.isDestroyed()) return;
    const state: DesktopWindowState = { isMaximized: window.isMaximized() };
    window.webContents.send(DESKTOP_WINDOW_STATE_CHANNEL, state);
  };
  window.on('maximize', sendState);
  window.on('unmaximize', sendState);
  return () => {
    for (const method of DESKTOP_METHODS) ipcMain.removeHandler(desktopChannel(method));
    window.off('maximize', sendState);
    window.off('unmaximize', sendState);
  };
}

function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** Keeps a page's navigation on the site; everything else goes to the system browser. */
export function guardNavigation(contents: WebContents, origin: string): void {
  contents.setWindowOpenHandler(({ url, disposition }) => {
    // A popup the site opens with a size (the QQ sign-in) stays in the app, as does the site itself.
    if (originOf(url) === origin || (disposition === 'new-window' && (url === 'about:blank' || url === ''))) return { action: 'allow' };
    if (isWebUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    if (originOf(url) === origin) return;
    // A popup window (not the app window) may follow its own sign-in redirects.
    if (BrowserWindow.fromWebContents(contents)?.getParentWindow()) return;
    event.preventDefault();
    if (isWebUrl(url)) void shell.openExternal(url);
  });
}

/**
 * Where the site (scripts/lib.mjs, apps/, packages/, node_modules/) is: in the app's resources
 * when packaged, else the repository the bundled app (apps/desktop/dist/app) was built in.
 */
export function siteRoot(isPackaged: boolean, resourcesPath: string, appPath: string): string {
  return isPackaged ? path.join(resourcesPath, 'site') : path.resolve(appPath, '..', '..', '..', '..');
}

export interface RunningApp {
  readonly window: BrowserWindow;
  readonly servers: EmbeddedServers;
}

/** The main process from start to the first page; null when another instance already runs. */
export async function runDesktopApp(preloadPath: string): Promise<RunningApp | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  let window: BrowserWindow | null = null;
  let servers: EmbeddedServers | null = null;
  let hasStoppedServers = false;
  let isQuitRequested = false;

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    isQuitRequested = true;
    if (hasStoppedServers || servers === null) return;
    // Stop the servers first, then quit for real.
    event.preventDefault();
    hasStoppedServers = true;
    void servers.stop().finally(() => app.quit());
  });

  await app.whenReady();
  servers = await startEmbeddedServers({
    root: siteRoot(app.isPackaged, process.resourcesPath, app.getAppPath()),
    dataDir: app.getPath('userData'),
    // Electron's own binary runs the servers as plain Node.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    webBuild: app.isPackaged ? 'require' : 'ensure',
    stdio: 'ignore',
    onUnexpectedExit: () => app.quit(),
  });
  if (isQuitRequested) {
    // Asked to quit while the servers were starting.
    hasStoppedServers = true;
    await servers.stop();
    app.quit();
    return null;
  }
  const origin = servers.siteUrl;

  // Nothing the site does needs a device permission; the clipboard button does need writing.
  session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
    callback(permission === 'clipboard-sanitized-write' && originOf(contents.getURL()) === origin);
  });
  app.on('web-contents-created', (_event, contents) => guardNavigation(contents, origin));

  const created = new BrowserWindow(mainWindowOptions(preloadPath, app.getVersion()));
  window = created;
  registerDesktopIpc(created, origin);
  created.once('ready-to-show', () => created.show());
  await created.loadURL(`${origin}/`);
  await created.webContents.executeJavaScript(lifecycleScript(lifecycleEventsOf(app.getPath('userData')))).catch(() => undefined);
  return { window: created, servers };
}
