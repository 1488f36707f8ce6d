import { describe, expect, it } from 'vitest';
import { downloadsOf, formatSize, isMobileApp, isPhoneUserAgent, preferredPlatform, softwareOf, type SoftwarePlatform } from './software';

// Decision 0012: how the download pages read the API's answer, show sizes and pick the visitor's platform.

const ANSWER = {
  key: 'download',
  name: '迅捷CAD编辑器',
  productId: 211,
  tagline: '打开、绘制和修改 DWG/DXF 图纸的电脑软件',
  version: '5.0',
  releasedAt: '2025-08-26',
  files: [
    {
      platform: 'windows',
      fileName: 'xunjiecadeditor_5.0_x64.exe',
      size: 87342816,
      sha256: '2cf49acc593bfb8783845521eba90759f1b3a447f0d4851710d9baf931bfa404',
      isStore: false,
      url: '/api/site/software/download/download?platform=windows',
    },
    { platform: 'linux', fileName: 'x.deb', size: 1, isStore: false, url: '/api/site/software/download/download?platform=linux' },
    { platform: 'windows32', fileName: 'x86.exe', size: 80961248, isStore: false, url: 'https://evil.example/x86.exe' },
  ],
  features: [{ title: '兼容R14至2018格式', text: '直接打开' }, { text: 'no title' }],
  requirements: [
    { item: '内存', minimum: '4 GB', recommended: '8 GB' },
    { item: '网络', minimum: '不需要联网', recommended: null },
  ],
  changelog: [
    { version: '5.0', releasedAt: '2025-08-26', added: ['支持 2018 格式', 7], improved: [], fixed: 'none' },
    { releasedAt: '2025-03-18' },
  ],
  downloads: 1234,
  help: [1001, '1002', -3],
  buyPath: '//evil.example/buy',
};

describe('softwareOf', () => {
  it('keeps what is well formed and drops the rest', () => {
    const software = softwareOf(ANSWER);
    expect(software).not.toBeNull();
    // An unknown platform and a link off the site are not offered.
    expect(software?.files.map((file) => file.platform)).toEqual(['windows']);
    expect(software?.files[0]?.sha256).toBe('2cf49acc593bfb8783845521eba90759f1b3a447f0d4851710d9baf931bfa404');
    // A checksum that is not 64 hex digits is not shown (a visitor would compare against it).
    const bad = softwareOf({ ...ANSWER, files: [{ ...ANSWER.files[0], sha256: 'abc' }] });
    expect(bad?.files[0]?.sha256).toBeNull();
    expect(software?.features).toEqual([{ title: '兼容R14至2018格式', text: '直接打开' }]);
    expect(software?.requirements[1]).toEqual({ item: '网络', minimum: '不需要联网', recommended: null });
    expect(software?.changelog).toEqual([{ version: '5.0', releasedAt: '2025-08-26', added: ['支持 2018 格式'], improved: [], fixed: [] }]);
    expect(software?.help).toEqual([1001]);
    expect(software?.buyPath).toBeNull();
    expect(software?.downloads).toBe(1234);
  });

  it('is null for an answer that is not a product or offers nothing to download', () => {
    expect(softwareOf({ code: 10404, message: '没有找到这个软件' })).toBeNull();
    expect(softwareOf({ ...ANSWER, files: [] })).toBeNull();
    expect(softwareOf('<html>')).toBeNull();
  });
});

describe('downloadsOf', () => {
  it('reads the count of a fresh answer, or null', () => {
    expect(downloadsOf({ downloads: 9 })).toBe(9);
    expect(downloadsOf({ downloads: -1 })).toBe(0);
    expect(downloadsOf({ code: 10500 })).toBeNull();
  });
});

describe('formatSize', () => {
  it('writes sizes the way Windows shows them', () => {
    expect(formatSize(87342816)).toBe('83.3 MB');
    expect(formatSize(25165824)).toBe('24.0 MB');
    expect(formatSize(512000)).toBe('500.0 KB');
    expect(formatSize(2 * 1024 ** 3)).toBe('2.0 GB');
  });
});

describe('isMobileApp', () => {
  it('is true only when every platform is a phone', () => {
    const files = (platforms: SoftwarePlatform[]) => ({
      files: platforms.map((platform) => ({ platform, fileName: null, size: 1, sha256: null, isStore: false, url: '/x' })),
    });
    expect(isMobileApp(files(['android', 'ios']))).toBe(true);
    expect(isMobileApp(files(['windows', 'android']))).toBe(false);
  });
});

describe('preferredPlatform', () => {
  const DESKTOP: SoftwarePlatform[] = ['windows', 'windows32', 'mac'];
  const PHONE: SoftwarePlatform[] = ['android', 'ios'];
  const UA = {
    win64: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    win32: 'Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0 Safari/537.36',
    mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
    iphone:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0',
    android: 'Mozilla/5.0 (Linux; Android 14; V2309A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
    linux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  };

  it('picks the build of the visitor’s system', () => {
    expect(preferredPlatform(UA.win64, DESKTOP)).toBe('windows');
    expect(preferredPlatform(UA.win32, DESKTOP)).toBe('windows32');
    expect(preferredPlatform(UA.mac, DESKTOP)).toBe('mac');
    expect(preferredPlatform(UA.iphone, PHONE)).toBe('ios');
    expect(preferredPlatform(UA.android, PHONE)).toBe('android');
  });

  it('takes an iPad that calls itself a Mac for what it is', () => {
    expect(preferredPlatform(UA.mac, PHONE, 5)).toBe('ios');
    expect(preferredPlatform(UA.mac, PHONE, 0)).toBeNull();
  });

  it('falls back to the 64-bit build, and to nothing for a system the product lacks', () => {
    expect(preferredPlatform(UA.win32, ['windows'])).toBe('windows');
    expect(preferredPlatform(UA.mac, ['windows', 'windows32'])).toBeNull();
    expect(preferredPlatform(UA.linux, DESKTOP)).toBeNull();
    expect(preferredPlatform(UA.android, DESKTOP)).toBeNull();
  });

  it('tells phones and tablets from computers', () => {
    expect(isPhoneUserAgent(UA.android)).toBe(true);
    expect(isPhoneUserAgent(UA.iphone)).toBe(true);
    expect(isPhoneUserAgent(UA.mac, 5)).toBe(true);
    expect(isPhoneUserAgent(UA.mac)).toBe(false);
    expect(isPhoneUserAgent(UA.win64)).toBe(false);
  });
});
