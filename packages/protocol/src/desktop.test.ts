import { describe, expect, it } from 'vitest';
import {
  DESKTOP_METHODS,
  desktopBridgeOf,
  desktopChannel,
  desktopPlatformOf,
  isDesktopBridge,
  softwarePlatformOf,
  type DesktopBridge,
} from './desktop';
import { DesktopCallError, parseDesktopCall, parseDesktopWindowState } from './desktop-calls';

function fakeBridge(overrides: Partial<Record<keyof DesktopBridge, unknown>> = {}): Record<string, unknown> {
  const bridge: Record<string, unknown> = {
    isDesktop: true,
    platform: 'LINUX',
    version: '0.1.0',
    onMaximizedChange: () => () => undefined,
  };
  for (const method of DESKTOP_METHODS) bridge[method] = async () => undefined;
  return { ...bridge, ...overrides };
}

describe('desktop platform (spec §3)', () => {
  it('maps Node platforms to the software-info values', () => {
    expect(desktopPlatformOf('win32')).toBe('WIN');
    expect(desktopPlatformOf('darwin')).toBe('MAC');
    expect(desktopPlatformOf('linux')).toBe('LINUX');
    expect(desktopPlatformOf('aix')).toBeNull();
  });

  it('software info reports the shell platform in the app and WEB in a browser', () => {
    expect(softwarePlatformOf(desktopBridgeOf({ desktop: fakeBridge({ platform: 'MAC' }) }))).toBe('MAC');
    expect(softwarePlatformOf(desktopBridgeOf({}))).toBe('WEB');
  });
});

describe('window.desktop detection', () => {
  it('accepts the whole contract only', () => {
    expect(isDesktopBridge(fakeBridge())).toBe(true);
    expect(desktopBridgeOf({ desktop: fakeBridge() })).not.toBeNull();
    expect(isDesktopBridge(fakeBridge({ isDesktop: 'yes' }))).toBe(false);
    expect(isDesktopBridge(fakeBridge({ platform: 'WEB' }))).toBe(false);
    expect(isDesktopBridge(fakeBridge({ moveBy: undefined }))).toBe(false);
    expect(isDesktopBridge(fakeBridge({ onMaximizedChange: true }))).toBe(false);
    expect(desktopBridgeOf(null)).toBeNull();
    expect(desktopBridgeOf({ desktop: { isDesktop: true } })).toBeNull();
  });
});

describe('parseDesktopCall', () => {
  it('passes the calls of the contract', () => {
    expect(parseDesktopCall('minimize', [])).toEqual({ method: 'minimize', args: [] });
    expect(parseDesktopCall('moveBy', [12, -7.5])).toEqual({ method: 'moveBy', args: [12, -7.5] });
    expect(parseDesktopCall('openExternal', ['https://www.xunjiecad.com/a?b=1'])).toEqual({
      method: 'openExternal',
      args: ['https://www.xunjiecad.com/a?b=1'],
    });
  });

  it('refuses unknown methods and wrong arguments with a readable reason', () => {
    expect(() => parseDesktopCall('eval', [])).toThrow(new DesktopCallError('unknown desktop method "eval"'));
    expect(() => parseDesktopCall('minimize', ['now'])).toThrow(DesktopCallError);
    expect(() => parseDesktopCall('moveBy', [1])).toThrow(/desktop\.moveBy/);
    expect(() => parseDesktopCall('moveBy', [Number.NaN, 0])).toThrow(/argument 0/);
    expect(() => parseDesktopCall('moveBy', [1e9, 0])).toThrow(DesktopCallError);
    expect(() => parseDesktopCall('moveBy', 'oops')).toThrow(DesktopCallError);
  });

  it('opens only web addresses outside the app', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ms-settings:display',
      'not a url',
      'http://',
      `https://a.cn/${'x'.repeat(2100)}`,
    ]) {
      expect(() => parseDesktopCall('openExternal', [url]), url).toThrow(/http or https|too big|2048/);
    }
  });

  it('names one IPC channel per method', () => {
    expect(new Set(DESKTOP_METHODS.map(desktopChannel)).size).toBe(DESKTOP_METHODS.length);
    expect(desktopChannel('toggleMaximize')).toBe('desktop:toggleMaximize');
  });
});

describe('window-state event', () => {
  it('reads a well-formed state and drops anything else', () => {
    expect(parseDesktopWindowState({ isMaximized: true })).toEqual({ isMaximized: true });
    expect(parseDesktopWindowState({ isMaximized: 'true' })).toBeNull();
    expect(parseDesktopWindowState({ isMaximized: false, extra: 1 })).toBeNull();
    expect(parseDesktopWindowState(undefined)).toBeNull();
  });
});
