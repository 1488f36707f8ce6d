import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { importSoftware } from './software.import';

// Decision 0012: the download pages' data and the counting download URL, over the repository's own
// content/software files.

const BASE_URL = 'https://cdn.example.cn/soft/';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ SOFTWARE_DOWNLOAD_BASE_URL: BASE_URL });
  await importSoftware(t.database.db, path.join(repositoryRoot, 'content'));
});

afterAll(async () => {
  await t.close();
});

interface FileView {
  platform: string;
  fileName: string | null;
  size: number;
  sha256: string | null;
  isStore: boolean;
  url: string;
}

interface ProductView {
  key: string;
  name: string;
  productId: number | null;
  version: string;
  releasedAt: string;
  files: FileView[];
  features: Array<{ title: string; text: string }>;
  requirements: Array<{ item: string; minimum: string; recommended: string | null }>;
  changelog: Array<{ version: string; releasedAt: string; added: string[]; improved: string[]; fixed: string[] }>;
  downloads: number;
  help: number[];
  buyPath: string | null;
}

async function product(key: string): Promise<ProductView> {
  const response = await t.app.inject({ method: 'GET', url: `/api/site/software/${key}` });
  expect(response.statusCode).toBe(200);
  return response.json<ProductView>();
}

function download(key: string, platform: string | null, ip = '203.0.113.7', method: 'GET' | 'HEAD' = 'GET') {
  const query = platform === null ? '' : `?platform=${encodeURIComponent(platform)}`;
  return t.app.inject({ method, url: `/api/site/software/${key}/download${query}`, remoteAddress: ip });
}

describe('GET /api/site/software/{key}', () => {
  it('answers the editor 5.0 with its files, requirements, change log and count', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site/software/download' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('max-age=30');
    const editor = response.json<ProductView>();
    expect(editor).toMatchObject({
      key: 'download',
      name: '迅捷CAD编辑器',
      productId: 211,
      version: '5.0',
      buyPath: '/buy/cadeditor.html',
      downloads: 0,
    });
    expect(editor.files.map((file) => file.platform)).toEqual(['windows', 'windows32']);
    expect(editor.files[0]).toEqual({
      platform: 'windows',
      fileName: 'xunjiecadeditor_5.0_x64.exe',
      size: 87342816,
      sha256: '2cf49acc593bfb8783845521eba90759f1b3a447f0d4851710d9baf931bfa404',
      isStore: false,
      url: '/api/site/software/download/download?platform=windows',
    });
    expect(editor.requirements.find((row) => row.item === '内存')).toEqual({
      item: '内存',
      minimum: '4 GB',
      recommended: expect.stringContaining('8 GB'),
    });
    expect(editor.changelog[0]).toMatchObject({ version: '5.0', releasedAt: editor.releasedAt });
    expect(editor.changelog.length).toBeGreaterThanOrEqual(4);
    const dates = editor.changelog.map((release) => release.releasedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(editor.help).toContain(1001);
  });

  it('answers every one of the nine download pages', async () => {
    const keys = [
      'download',
      'download-major',
      'download-converter',
      'download-lookchart',
      'download-holdall',
      'download-cadapp',
      'download-cadkantuapp',
      'download-converter-app',
      'download-mobile-lookchart',
    ];
    for (const key of keys) {
      const view = await product(key);
      expect(view.files.length, key).toBeGreaterThan(0);
      expect(view.features.length, key).toBeGreaterThanOrEqual(4);
      expect(view.changelog.length, key).toBeGreaterThanOrEqual(4);
    }
    const app = await product('download-cadapp');
    expect(app.files.map((file) => [file.platform, file.isStore])).toEqual([
      ['android', false],
      ['ios', true],
    ]);
  });

  it('answers 404 JSON for an unknown or malformed key', async () => {
    for (const url of ['/api/site/software/download-linux', '/api/site/software/DOWNLOAD', `/api/site/software/${'a'.repeat(80)}`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ code: 10404, message: '没有找到这个软件，请从软件下载页重新选择' });
    }
  });
});

describe('GET /api/site/software/{key}/download', () => {
  it('counts a download and redirects to the installer on the configured base URL', async () => {
    const response = await download('download', 'windows', '198.51.100.1');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${BASE_URL}xunjiecadeditor_5.0_x64.exe`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await product('download')).downloads).toBe(1);
  });

  it('counts one client once per product per minute, then again after the minute', async () => {
    const before = (await product('download-converter')).downloads;
    const ip = '198.51.100.2';
    expect((await download('download-converter', 'windows', ip)).statusCode).toBe(302);
    // A double click, a reload, the other platform: still redirected, not counted again.
    expect((await download('download-converter', 'windows', ip)).statusCode).toBe(302);
    expect((await download('download-converter', 'mac', ip)).headers.location).toBe(`${BASE_URL}xunjiecadconverter_4.2.dmg`);
    expect((await product('download-converter')).downloads).toBe(before + 1);
    // Another product of the same client counts on its own.
    await download('download-holdall', 'windows', ip);
    expect((await product('download-holdall')).downloads).toBe(1);
    t.clock.advance(61_000);
    await download('download-converter', 'windows32', ip);
    expect((await product('download-converter')).downloads).toBe(before + 2);
  });

  it('counts simultaneous downloads of different clients without losing any', async () => {
    const before = (await product('download-lookchart')).downloads;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => download('download-lookchart', 'windows', `192.0.2.${index + 10}`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 12 }, () => 302));
    expect((await product('download-lookchart')).downloads).toBe(before + 12);
  });

  it('counts simultaneous downloads of one client once', async () => {
    const before = (await product('download-mobile-lookchart')).downloads;
    const answers = await Promise.all(Array.from({ length: 8 }, () => download('download-mobile-lookchart', 'android', '198.51.100.9')));
    expect(answers.map((answer) => answer.headers.location)).toEqual(
      Array.from({ length: 8 }, () => `${BASE_URL}xunjiecadviewer_lite_1.9.0.apk`),
    );
    expect((await product('download-mobile-lookchart')).downloads).toBe(before + 1);
  });

  it('does not count a HEAD request but answers the same redirect', async () => {
    const before = (await product('download-major')).downloads;
    const response = await download('download-major', 'windows', '198.51.100.3', 'HEAD');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${BASE_URL}xunjiecadeditorpro_5.0_x64.exe`);
    expect((await product('download-major')).downloads).toBe(before);
  });

  it('sends iOS to the App Store and counts it', async () => {
    const before = (await product('download-cadkantuapp')).downloads;
    const response = await download('download-cadkantuapp', 'ios', '198.51.100.4');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toMatch(/^https:\/\/apps\.apple\.com\/cn\/app\/id\d+$/);
    expect((await product('download-cadkantuapp')).downloads).toBe(before + 1);
  });

  it('answers 404 JSON for a platform the product does not offer, and counts nothing', async () => {
    const before = (await product('download')).downloads;
    for (const platform of ['mac', 'ios', 'linux', 'WINDOWS']) {
      const response = await download('download', platform, '198.51.100.5');
      expect(response.statusCode, platform).toBe(404);
      expect(response.json(), platform).toEqual({ code: 10404, message: '这个软件没有该平台的安装包，可选：windows、windows32' });
    }
    const unknown = await download('download-autocad', 'windows', '198.51.100.5');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 10404, message: '没有找到这个软件，请从软件下载页重新选择' });
    expect((await product('download')).downloads).toBe(before);
  });

  it('answers 400 JSON when the platform is missing or given twice', async () => {
    for (const url of [
      '/api/site/software/download/download',
      '/api/site/software/download/download?platform=',
      '/api/site/software/download/download?platform=windows&platform=windows32',
    ]) {
      const response = await t.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.6' });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ code: 10001, message: '请选择下载平台：windows、windows32、mac、android、ios' });
    }
  });

  it('keeps the counts when the content is imported again', async () => {
    const before = (await product('download')).downloads;
    expect(before).toBeGreaterThan(0);
    await importSoftware(t.database.db, path.join(repositoryRoot, 'content'));
    expect((await product('download')).downloads).toBe(before);
  });
});

describe('SOFTWARE_DOWNLOAD_BASE_URL without a final slash', () => {
  it('still puts the file name after a slash', async () => {
    const other = await createTestApp({ SOFTWARE_DOWNLOAD_BASE_URL: 'https://mirror.example.cn/files' });
    try {
      await importSoftware(other.database.db, path.join(repositoryRoot, 'content'));
      const response = await other.app.inject({ method: 'GET', url: '/api/site/software/download-holdall/download?platform=windows32' });
      expect(response.headers.location).toBe('https://mirror.example.cn/files/xunjiecadholdall_2.6_x86.exe');
    } finally {
      await other.close();
    }
  });
});
