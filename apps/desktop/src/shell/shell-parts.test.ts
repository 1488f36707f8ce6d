import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { handleBridgeCall, originOf, pageBridgeScript } from './bridge';
import { desktopDataDir } from './data-dir';
import { acquireInstanceLock, instanceSocketPath } from './single-instance';
import { WindowControl } from './window-control';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'xcad-shell-parts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('desktopDataDir', () => {
  it('follows XCAD_DESKTOP_DATA_DIR, then an absolute XDG_DATA_HOME, then ~/.local/share', () => {
    expect(desktopDataDir({ XCAD_DESKTOP_DATA_DIR: '/srv/x', XDG_DATA_HOME: '/d' }, '/home/u')).toBe('/srv/x');
    expect(desktopDataDir({ XDG_DATA_HOME: '/d' }, '/home/u')).toBe('/d/xcad-desktop');
    // The XDG rules ignore a relative path.
    expect(desktopDataDir({ XDG_DATA_HOME: 'rel' }, '/home/u')).toBe('/home/u/.local/share/xcad-desktop');
    expect(desktopDataDir({}, '/home/u')).toBe('/home/u/.local/share/xcad-desktop');
  });
});

describe('single instance', () => {
  it('lets one app hold a data folder; a second launch gets the first to focus', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'lock-'));
    let focusRequests = 0;
    const first = await acquireInstanceLock(dataDir, async () => {
      focusRequests += 1;
    });
    expect(first.isPrimary).toBe(true);
    const second = await acquireInstanceLock(dataDir, async () => undefined);
    expect(second.isPrimary).toBe(false);
    expect(focusRequests).toBe(1);
    if (first.isPrimary) await first.release();
    const third = await acquireInstanceLock(dataDir, async () => undefined);
    expect(third.isPrimary).toBe(true);
    if (third.isPrimary) await third.release();
  });

  it('takes over the socket file of an app that did not exit cleanly', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'stale-'));
    // A socket file nobody listens on: its process was killed while listening.
    const socketPath = instanceSocketPath(dataDir);
    spawnSync(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socketPath)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(existsSync(socketPath)).toBe(true);
    const lock = await acquireInstanceLock(dataDir, async () => undefined, 2_000);
    expect(lock.isPrimary).toBe(true);
    if (lock.isPrimary) await lock.release();
  });

  it('keeps the socket path within the Unix limit for deep folders', () => {
    const deep = path.join('/home', 'x'.repeat(120));
    expect(Buffer.byteLength(instanceSocketPath(deep))).toBeLessThanOrEqual(100);
    expect(instanceSocketPath(deep)).toBe(instanceSocketPath(deep));
    expect(instanceSocketPath('/home/u/.local/share/xcad-desktop')).toBe('/home/u/.local/share/xcad-desktop/instance.sock');
  });
});

/** A DevTools session stand-in: a window the "window manager" moves only when told to apply. */
function fakeCdp() {
  const window = { left: 100, top: 50, width: 1280, height: 800, windowState: 'normal' };
  const sent: Array<{ method: string; params: unknown }> = [];
  const cdp = {
    send: async (method: string, params: { bounds?: Partial<typeof window> } = {}) => {
      sent.push({ method, params });
      if (method === 'Browser.getWindowForTarget') return { windowId: 7, bounds: { ...window } };
      if (method === 'Browser.getWindowBounds') return { bounds: { ...window } };
      if (method === 'Browser.setWindowBounds') Object.assign(window, params.bounds);
      return {};
    },
  };
  return { cdp: cdp as unknown as CDPSession, window, sent };
}

describe('WindowControl', () => {
  it('adds drag movements to where the window was when the drag began', async () => {
    const { cdp, window } = fakeCdp();
    const control = await WindowControl.of(cdp);
    expect(control.windowId).toBe(7);
    await control.startDrag();
    await Promise.all([control.moveBy(10, 5), control.moveBy(20.4, -15)]);
    expect([window.left, window.top]).toEqual([130, 40]);
    await control.endDrag();
    await control.moveBy(-30, 0);
    expect([window.left, window.top]).toEqual([100, 40]);
  });

  it('toggles maximised and normal, and leaves a maximised window where it is', async () => {
    const { cdp, window } = fakeCdp();
    const control = await WindowControl.of(cdp);
    expect(await control.toggleMaximize()).toBe(true);
    expect(window.windowState).toBe('maximized');
    await control.moveBy(50, 50);
    await control.startDrag();
    await control.moveBy(50, 50);
    expect([window.left, window.top]).toEqual([100, 50]);
    expect(await control.toggleMaximize()).toBe(false);
    await control.minimize();
    expect(window.windowState).toBe('minimized');
    await control.unminimize();
    expect(window.windowState).toBe('normal');
  });
});

describe('the page binding', () => {
  const site = 'http://127.0.0.1:4000';
  const calls: string[] = [];
  const handlers = {
    window: () =>
      ({
        minimize: async () => calls.push('minimize'),
        moveBy: async (dx: number, dy: number) => calls.push(`moveBy ${dx} ${dy}`),
      }) as unknown as WindowControl,
    close: async () => {
      calls.push('close');
    },
    openExternal: async (url: string) => {
      calls.push(`open ${url}`);
    },
  };

  it('carries out checked calls of the site', async () => {
    await handleBridgeCall(`${site}/buy.html`, site, 'minimize', [], handlers);
    await handleBridgeCall(`${site}/`, site, 'moveBy', [3, -4], handlers);
    await handleBridgeCall(`${site}/`, site, 'openExternal', ['https://www.xunjiepdf.com/'], handlers);
    expect(calls).toEqual(['minimize', 'moveBy 3 -4', 'open https://www.xunjiepdf.com/']);
  });

  it('refuses other origins, blank documents and calls outside the contract', async () => {
    calls.length = 0;
    await expect(handleBridgeCall('https://evil.example/', site, 'minimize', [], handlers)).rejects.toThrow(
      /refused a call from https:\/\/evil\.example/,
    );
    await expect(handleBridgeCall('http://127.0.0.1:4001/', site, 'minimize', [], handlers)).rejects.toThrow(/refused/);
    await expect(handleBridgeCall('data:text/html,x', site, 'close', [], handlers)).rejects.toThrow(/without an origin/);
    await expect(handleBridgeCall(`${site}/`, site, 'exec', ['rm'], handlers)).rejects.toThrow(/unknown desktop method/);
    await expect(handleBridgeCall(`${site}/`, site, 'openExternal', ['file:///etc/passwd'], handlers)).rejects.toThrow(/http or https/);
    expect(calls).toEqual([]);
    expect(originOf('about:blank')).toBeNull();
  });

  it('builds an init script that runs on its own and gives site documents the contract only', async () => {
    const script = pageBridgeScript({ origin: site, binding: '__b', platform: 'LINUX', version: '1.0.0' });
    const run = new Function('window', script);
    // A document of another origin: nothing happens.
    const elsewhere: Record<string, unknown> = { location: { origin: 'https://elsewhere.example' }, __b: () => Promise.resolve() };
    run(elsewhere);
    expect('desktop' in elsewhere).toBe(false);

    const received: unknown[][] = [];
    const page: Record<string, unknown> = {
      location: { origin: site },
      addEventListener: () => undefined,
      __b: async (...args: unknown[]) => {
        received.push(args);
        return args[0] === 'toggleMaximize' ? true : undefined;
      },
    };
    run(page);
    expect('__b' in page).toBe(false);
    const desktop = page.desktop as {
      platform: string;
      moveBy(dx: number, dy: number): Promise<void>;
      toggleMaximize(): Promise<boolean>;
      onMaximizedChange(listener: (value: boolean) => void): () => void;
    };
    expect(desktop.platform).toBe('LINUX');
    const states: boolean[] = [];
    desktop.onMaximizedChange((value) => states.push(value));
    await desktop.moveBy(4, 2);
    expect(await desktop.toggleMaximize()).toBe(true);
    expect(received).toEqual([['moveBy', 4, 2], ['toggleMaximize']]);
    expect(states).toEqual([true]);
    expect(Object.isFrozen(desktop)).toBe(true);
  });
});
