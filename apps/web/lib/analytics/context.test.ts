import { describe, expect, it } from 'vitest';
import {
  CHANNEL_STORAGE_KEY,
  UID_STORAGE_KEY,
  channelOf,
  desktopChannelOf,
  maskLoginId,
  pagePathOf,
  platformOf,
  randomId,
  readOrCreateUid,
  referrerOf,
  softwareNameOf,
  softwareVersionOf,
  type SiteIdentity,
} from './context';

// spec §3 "Software info" and §9 "debug mode only on the test host": the common fields.

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { map, getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value) };
}

const PRODUCTION: SiteIdentity = { siteUrl: 'https://www.xunjiecad.com', isTestDeployment: false, isDevelopment: false };

describe('software version (online on the production host, test elsewhere)', () => {
  it('is online on SITE_URL’s host name, whatever the port', () => {
    expect(softwareVersionOf('www.xunjiecad.com', PRODUCTION)).toBe('online');
    expect(softwareVersionOf('WWW.XUNJIECAD.COM', PRODUCTION)).toBe('online');
    expect(softwareVersionOf('127.0.0.1', { ...PRODUCTION, siteUrl: 'http://127.0.0.1:41234' })).toBe('online');
  });

  it('is test on any other host, on a deployment marked as the test host, and in development', () => {
    expect(softwareVersionOf('test.xunjiecad.com', PRODUCTION)).toBe('test');
    expect(softwareVersionOf('localhost', PRODUCTION)).toBe('test');
    expect(softwareVersionOf('www.xunjiecad.com', { ...PRODUCTION, isTestDeployment: true })).toBe('test');
    expect(softwareVersionOf('www.xunjiecad.com', { ...PRODUCTION, isDevelopment: true })).toBe('test');
    expect(softwareVersionOf('www.xunjiecad.com', { ...PRODUCTION, siteUrl: 'not a url' })).toBe('test');
  });
});

describe('channel', () => {
  it('keeps the first ?channel= (or utm_source) this browser saw', () => {
    const storage = memoryStorage();
    expect(channelOf('?channel=baidu_sem&x=1', storage)).toBe('baidu_sem');
    expect(channelOf('?channel=360', storage)).toBe('baidu_sem');
    expect(channelOf('', storage)).toBe('baidu_sem');
    expect(channelOf('?utm_source=wechat', memoryStorage())).toBe('wechat');
  });

  it('is empty for a direct visitor and cut to 64 characters', () => {
    expect(channelOf('', memoryStorage())).toBe('');
    expect(channelOf(`?channel=${'x'.repeat(80)}`, memoryStorage())).toHaveLength(64);
    expect(channelOf('?channel=later', memoryStorage({ [CHANNEL_STORAGE_KEY]: 'kept' }))).toBe('kept');
  });

  it('works without storage', () => {
    expect(channelOf('?channel=a', null)).toBe('a');
  });
});

describe('platform and software name', () => {
  it('is WEB and web in a browser', () => {
    expect(platformOf(undefined)).toBe('WEB');
    expect(softwareNameOf(undefined)).toBe('web');
    expect(platformOf({ platform: 'WIN' })).toBe('WEB');
  });

  it('is the shell’s platform and desktop in the desktop app', () => {
    expect(platformOf({ isDesktop: true, platform: 'WIN' })).toBe('WIN');
    expect(platformOf({ isDesktop: true, platform: 'mac' })).toBe('MAC');
    expect(platformOf({ isDesktop: true, platform: 'BeOS' })).toBe('OTHER');
    expect(softwareNameOf({ isDesktop: true })).toBe('desktop');
    expect(desktopChannelOf({ isDesktop: true, channel: ' store ' })).toBe('store');
    expect(desktopChannelOf({ isDesktop: true })).toBeNull();
    expect(desktopChannelOf({ channel: 'x' })).toBeNull();
  });
});

describe('ids', () => {
  it('creates the unique id once and keeps it', () => {
    const storage = memoryStorage();
    expect(readOrCreateUid(storage, () => 'first')).toBe('first');
    expect(readOrCreateUid(storage, () => 'second')).toBe('first');
    expect(storage.map.get(UID_STORAGE_KEY)).toBe('first');
    expect(readOrCreateUid(null, () => 'fresh')).toBe('fresh');
  });

  it('makes v4-shaped ids even where randomUUID is missing (plain http on a LAN address)', () => {
    const withoutUuid: Pick<Crypto, 'getRandomValues'> = { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) };
    const id = randomId(withoutUuid);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(randomId(globalThis.crypto)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('page, referrer and login id', () => {
  it('names the page by its path only', () => {
    expect(pagePathOf('/tools/cad2pdf')).toBe('/tools/cad2pdf');
    expect(pagePathOf('x')).toBe('/x');
    expect(pagePathOf(`/${'a'.repeat(600)}`)).toHaveLength(512);
  });

  it('keeps another site’s origin and path as the referrer, never its query, and nothing for this site', () => {
    expect(referrerOf('https://www.baidu.com/s?wd=cad%E8%BD%AC%E6%8D%A2', 'https://www.xunjiecad.com')).toBe('https://www.baidu.com/s');
    expect(referrerOf('https://www.xunjiecad.com/buy.html', 'https://www.xunjiecad.com')).toBe('');
    expect(referrerOf('', 'https://www.xunjiecad.com')).toBe('');
    expect(referrerOf('garbage', 'https://www.xunjiecad.com')).toBe('');
  });

  it('masks what identifies a sign-in', () => {
    expect(maskLoginId('13812345678')).toBe('138****5678');
    expect(maskLoginId('86-13812345678')).toBe('138****5678');
    expect(maskLoginId('zhang.san@example.com')).toBe('z***@example.com');
    expect(maskLoginId('cadfan2026')).toBe('ca***');
    expect(maskLoginId('  ')).toBe('');
  });
});
