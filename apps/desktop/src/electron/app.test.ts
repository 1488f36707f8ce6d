import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DESKTOP_METHODS, DESKTOP_WINDOW_STATE_CHANNEL, desktopChannel } from '@xcad/protocol/desktop';
import type * as Lifecycle from '../lifecycle';

// The main process with the `electron` module replaced: a fake app, BrowserWindow, ipcMain,
// shell and session that record what the code asked of them.

const fake = await vi.hoisted(async () => {
  type Handler = (event: unknown, ...args: unknown[]) => unknown;
  const { EventEmitter: Emitter } = await import('node:events');

  class FakeFrame {
    constructor(public url: string) {}
  }

  class FakeWebContents extends Emitter {
    mainFrame = new FakeFrame('about:blank');
    sent: Array<[string, unknown]> = [];
    windowOpenHandler: ((details: { url: string; disposition: string }) => { action: string }) | null = null;
    scripts: string[] = [];
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
    async executeJavaScript(script: string) {
      this.scripts.push(script);
    }
    setWindowOpenHandler(handler: FakeWebContents['windowOpenHandler']) {
      this.windowOpenHandler = handler;
    }
    getURL() {
      return this.mainFrame.url;
    }
  }

  class FakeBrowserWindow extends Emitter {
    static created: FakeBrowserWindow[] = [];
    static fromWebContents = (contents: unknown) => FakeBrowserWindow.created.find((window) => window.webContents === contents) ?? null;
    webContents = new FakeWebContents();
    position: [number, number] = [100, 50];
    maximized = false;
    minimized = false;
    destroyed = false;
    shown = false;
    focused = false;
    parent: FakeBrowserWindow | null = null;
    loaded: string[] = [];
    constructor(public options: Record<string, unknown>) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    isDestroyed() {
      return this.destroyed;
    }
    minimize() {
      this.minimized = true;
    }
    isMinimized() {
      return this.minimized;
    }
    restore() {
      this.minimized = false;
    }
    maximize() {
      this.maximized = true;
      this.emit('maximize');
    }
    unmaximize() {
      this.maximized = false;
      this.emit('unmaximize');
    }
    isMaximized() {
      return this.maximized;
    }
    isFullScreen() {
      return false;
    }
    close() {
      this.destroyed = true;
      this.emit('closed');
    }
    getPosition() {
      return [...this.position];
    }
    setPosition(x: number, y: number) {
      this.position = [x, y];
    }
    show() {
      this.shown = true;
    }
    focus() {
      this.focused = true;
    }
    getParentWindow() {
      return this.parent;
    }
    async loadURL(url: string) {
      this.webContents.mainFrame.url = url;
      this.loaded.push(url);
    }
  }

  class FakeApp extends Emitter {
    hasLock = true;
    isPackaged = false;
    quitCalls = 0;
    requestSingleInstanceLock() {
      return this.hasLock;
    }
    whenReady() {
      return Promise.resolve();
    }
    getPath(name: string) {
      return `/home/user/.config/xcad/${name}`;
    }
    getAppPath() {
      return '/repo/apps/desktop/dist/app';
    }
    getVersion() {
      return '0.1.0';
    }
    quit() {
      this.quitCalls += 1;
      const event = {
        defaultPrevented: false,
        preventDefault() {
          this.defaultPrevented = true;
        },
      };
      this.emit('before-quit', event);
    }
    exit() {}
  }

  const handlers = new Map<string, Handler>();
  const state = {
    app: new FakeApp(),
    handlers,
    ipcMain: {
      handle: (channel: string, handler: Handler) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, handler);
      },
      removeHandler: (channel: string) => handlers.delete(channel),
    },
    opened: [] as string[],
    permissionHandler: null as null | ((contents: unknown, permission: string, callback: (allowed: boolean) => void) => void),
    FakeBrowserWindow,
    FakeFrame,
    servers: {
      starts: [] as Array<Record<string, unknown>>,
      stops: 0,
    },
    /** Data folders asked for their lifecycle events. */
    lifecycleDirs: [] as string[],
  };
  return state;
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.FakeBrowserWindow,
  ipcMain: fake.ipcMain,
  shell: {
    openExternal: async (url: string) => {
      fake.opened.push(url);
    },
  },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (handler: typeof fake.permissionHandler) => {
        fake.permissionHandler = handler;
      },
    },
  },
}));

vi.mock('../servers', () => ({
  startEmbeddedServers: async (options: Record<string, unknown>) => {
    fake.servers.starts.push(options);
    return {
      siteUrl: 'http://127.0.0.1:45678',
      apiUrl: 'http://127.0.0.1:45679',
      apiPid: 11,
      webPid: 12,
      stop: async () => {
        fake.servers.stops += 1;
      },
    };
  },
}));

vi.mock('../lifecycle', async (importOriginal) => ({
  ...(await importOriginal<typeof Lifecycle>()),
  lifecycleEventsOf: (dataDir: string) => {
    fake.lifecycleDirs.push(dataDir);
    return fake.lifecycleDirs.length === 1 ? ['activation', 'startup'] : ['startup'];
  },
}));

const { guardNavigation, isTrustedSender, mainWindowOptions, registerDesktopIpc, runDesktopApp, siteRoot } = await import('./app');

const SITE = 'http://127.0.0.1:45678';
type FakeWindow = InstanceType<typeof fake.FakeBrowserWindow>;

function newWindow(url = `${SITE}/buy.html`): FakeWindow {
  const window = new fake.FakeBrowserWindow({});
  window.webContents.mainFrame.url = url;
  return window;
}

function eventFrom(window: FakeWindow, frame: unknown = window.webContents.mainFrame) {
  return { sender: window.webContents, senderFrame: frame };
}

function invoke(method: string, event: unknown, ...args: unknown[]) {
  const handler = fake.handlers.get(desktopChannel(method as (typeof DESKTOP_METHODS)[number]));
  if (!handler) throw new Error(`no handler for ${method}`);
  return handler(event, ...args);
}

beforeEach(() => {
  fake.handlers.clear();
  fake.opened.length = 0;
  fake.FakeBrowserWindow.created.length = 0;
  fake.servers.starts.length = 0;
  fake.servers.stops = 0;
  fake.lifecycleDirs.length = 0;
  fake.app.removeAllListeners();
  fake.app.hasLock = true;
  fake.app.quitCalls = 0;
  fake.app.isPackaged = false;
});

describe('the main window', () => {
  it('is frameless, isolated and sandboxed, with the preload and the version for it', () => {
    const options = mainWindowOptions('/app/preload.cjs', '1.2.3');
    expect(options).toMatchObject({ frame: false, show: false, width: 1280, height: 800, minWidth: 1024, minHeight: 640 });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      additionalArguments: ['--xcad-desktop-version=1.2.3'],
    });
  });

  it('finds the site beside the packaged app, or at the repository root in a checkout', () => {
    expect(siteRoot(true, '/opt/xcad/resources', '/opt/xcad/resources/app.asar')).toBe(path.join('/opt/xcad/resources', 'site'));
    expect(siteRoot(false, '/x', '/repo/apps/desktop/dist/app')).toBe('/repo');
  });
});

describe('IPC handlers', () => {
  it('registers one handler per bridge method and removes them all', () => {
    const window = newWindow();
    const dispose = registerDesktopIpc(window as never, SITE);
    expect([...fake.handlers.keys()].sort()).toEqual(DESKTOP_METHODS.map(desktopChannel).sort());
    dispose();
    expect(fake.handlers.size).toBe(0);
  });

  it('refuses other windows, subframes and other origins', async () => {
    const window = newWindow();
    registerDesktopIpc(window as never, SITE);
    const other = newWindow();
    const refused = [
      eventFrom(other),
      eventFrom(window, new fake.FakeFrame(`${SITE}/frame.html`)),
      { sender: window.webContents, senderFrame: null },
    ];
    for (const event of refused) {
      await expect(Promise.resolve().then(() => invoke('minimize', event))).rejects.toThrow(/refused/);
    }
    window.webContents.mainFrame.url = 'https://evil.example/';
    await expect(Promise.resolve().then(() => invoke('close', eventFrom(window)))).rejects.toThrow(/refused/);
    expect(window.minimized).toBe(false);
    expect(window.destroyed).toBe(false);
    expect(isTrustedSender(eventFrom(window) as never, window as never, SITE)).toBe(false);
  });

  it('checks the arguments of the page', async () => {
    const window = newWindow();
    registerDesktopIpc(window as never, SITE);
    await expect(Promise.resolve().then(() => invoke('moveBy', eventFrom(window), 'a', 1))).rejects.toThrow(/desktop\.moveBy/);
    await expect(Promise.resolve().then(() => invoke('openExternal', eventFrom(window), 'file:///etc/passwd'))).rejects.toThrow(
      /http or https/,
    );
    expect(fake.opened).toEqual([]);
  });

  it('minimises, maximises and restores, telling the page the new state', async () => {
    const window = newWindow();
    registerDesktopIpc(window as never, SITE);
    await invoke('minimize', eventFrom(window));
    expect(window.minimized).toBe(true);
    expect(await invoke('toggleMaximize', eventFrom(window))).toBe(true);
    expect(await invoke('isMaximized', eventFrom(window))).toBe(true);
    expect(await invoke('toggleMaximize', eventFrom(window))).toBe(false);
    expect(window.webContents.sent).toEqual([
      [DESKTOP_WINDOW_STATE_CHANNEL, { isMaximized: true }],
      [DESKTOP_WINDOW_STATE_CHANNEL, { isMaximized: false }],
    ]);
  });

  it('drags from where the window was when the drag began, and moves by an offset outside a drag', async () => {
    const window = newWindow();
    registerDesktopIpc(window as never, SITE);
    await invoke('startDrag', eventFrom(window));
    await invoke('moveBy', eventFrom(window), 10, 5);
    // The window manager has not applied the first move yet: the second still adds up.
    window.position = [100, 50];
    await invoke('moveBy', eventFrom(window), 20.4, -15);
    expect(window.position).toEqual([130, 40]);
    await invoke('endDrag', eventFrom(window));
    await invoke('moveBy', eventFrom(window), -30, 0);
    expect(window.position).toEqual([100, 40]);
    window.maximized = true;
    await invoke('moveBy', eventFrom(window), 50, 50);
    expect(window.position).toEqual([100, 40]);
  });

  it('opens web addresses in the system browser and closes the window', async () => {
    const window = newWindow();
    registerDesktopIpc(window as never, SITE);
    await invoke('openExternal', eventFrom(window), 'https://www.xunjiepdf.com/');
    expect(fake.opened).toEqual(['https://www.xunjiepdf.com/']);
    await invoke('close', eventFrom(window));
    expect(window.destroyed).toBe(true);
  });
});

describe('navigation', () => {
  it('keeps the site and blank popups in the app and sends other sites to the system browser', () => {
    const window = newWindow();
    guardNavigation(window.webContents as never, SITE);
    const open = window.webContents.windowOpenHandler!;
    expect(open({ url: `${SITE}/help.html`, disposition: 'foreground-tab' })).toEqual({ action: 'allow' });
    expect(open({ url: 'about:blank', disposition: 'new-window' })).toEqual({ action: 'allow' });
    expect(open({ url: 'https://kefu.example.com/chat', disposition: 'new-window' })).toEqual({ action: 'deny' });
    expect(open({ url: 'javascript:alert(1)', disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(['https://kefu.example.com/chat']);

    const navigate = (url: string) => {
      const event = {
        defaultPrevented: false,
        preventDefault() {
          this.defaultPrevented = true;
        },
      };
      window.webContents.emit('will-navigate', event, url);
      return event.defaultPrevented;
    };
    expect(navigate(`${SITE}/tools.html`)).toBe(false);
    expect(navigate('https://www.xunjiepdf.com/')).toBe(true);
    expect(fake.opened).toContain('https://www.xunjiepdf.com/');
  });
});

describe('runDesktopApp', () => {
  const preload = '/repo/apps/desktop/dist/app/preload.cjs';

  it('quits at once when another instance holds the lock', async () => {
    fake.app.hasLock = false;
    expect(await runDesktopApp(preload)).toBeNull();
    expect(fake.app.quitCalls).toBe(1);
    expect(fake.servers.starts).toHaveLength(0);
    expect(fake.FakeBrowserWindow.created).toHaveLength(0);
  });

  it('starts the servers on SQLite in the user data folder and opens the site in the window', async () => {
    const running = await runDesktopApp(preload);
    expect(running).not.toBeNull();
    expect(fake.servers.starts).toEqual([
      expect.objectContaining({
        root: '/repo',
        dataDir: '/home/user/.config/xcad/userData',
        webBuild: 'ensure',
        env: expect.objectContaining({ ELECTRON_RUN_AS_NODE: '1' }),
      }),
    ]);
    const [window] = fake.FakeBrowserWindow.created;
    expect(window?.options).toMatchObject({ frame: false, webPreferences: { preload } });
    expect(window?.loaded).toEqual([`${SITE}/`]);
    // The page's tracker is told of the launch (activation the first time), in the user's data folder.
    expect(fake.lifecycleDirs).toEqual(['/home/user/.config/xcad/userData']);
    expect(window?.webContents.scripts.join('')).toMatch(/"event":"activation".*"event":"startup"/);
    window?.emit('ready-to-show');
    expect(window?.shown).toBe(true);
  });

  it('a second launch brings the window back and forward', async () => {
    await runDesktopApp(preload);
    const [window] = fake.FakeBrowserWindow.created;
    window!.minimized = true;
    fake.app.emit('second-instance');
    expect(window).toMatchObject({ minimized: false, shown: true, focused: true });
  });

  it('quitting stops the servers before the app exits', async () => {
    await runDesktopApp(preload);
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    fake.app.emit('before-quit', event);
    expect(event.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(fake.servers.stops).toBe(1));
    // The app quits again once they are stopped, and this time is let go.
    await vi.waitFor(() => expect(fake.app.quitCalls).toBe(1));
    fake.app.emit('window-all-closed');
    expect(fake.servers.stops).toBe(1);
  });

  it('closing the last window quits the app', async () => {
    await runDesktopApp(preload);
    fake.app.emit('window-all-closed');
    expect(fake.app.quitCalls).toBe(1);
    await vi.waitFor(() => expect(fake.servers.stops).toBe(1));
  });

  it('grants the clipboard to the site only, and nothing else', async () => {
    await runDesktopApp(preload);
    const ask = (url: string, permission: string) => {
      let answer: boolean | undefined;
      fake.permissionHandler!({ getURL: () => url }, permission, (allowed) => {
        answer = allowed;
      });
      return answer;
    };
    expect(ask(`${SITE}/`, 'clipboard-sanitized-write')).toBe(true);
    expect(ask('https://evil.example/', 'clipboard-sanitized-write')).toBe(false);
    expect(ask(`${SITE}/`, 'media')).toBe(false);
  });
});
