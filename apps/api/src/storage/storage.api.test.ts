import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncContentAssets } from '../modules/content/content-assets';
import { createTestApp, type TestApp } from '../test-app';

// Content files as the site serves them: what the importer copies from content/ into storage and
// what /content/ answers for it (decision 0012).

let t: TestApp;
let contentDir: string;
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>';
const drawing = Buffer.from(Array.from({ length: 4096 }, (_, index) => index % 251));

beforeAll(async () => {
  t = await createTestApp();
  contentDir = await mkdtemp(path.join(tmpdir(), 'xcad-content-'));
  await mkdir(path.join(contentDir, 'images', 'help'), { recursive: true });
  await mkdir(path.join(contentDir, 'files'), { recursive: true });
  await mkdir(path.join(contentDir, 'private', 'drawings'), { recursive: true });
  await writeFile(path.join(contentDir, 'images', 'help', '安装.svg'), svg);
  await writeFile(path.join(contentDir, 'files', 'plan.dwg'), drawing);
  await writeFile(path.join(contentDir, 'private', 'drawings', 'member.dwg'), drawing);
  await writeFile(path.join(contentDir, 'images', '.DS_Store'), 'x');
  await writeFile(path.join(contentDir, 'images', 'help', '比例100%.svg'), svg);
});

afterAll(async () => {
  await t.close();
  await rm(contentDir, { recursive: true, force: true });
});

describe('content files in storage', () => {
  it('copies content/ files once and skips unchanged ones on the next run', async () => {
    expect(await syncContentAssets(t.storage, contentDir)).toEqual({ written: 4, unchanged: 0 });
    expect(await syncContentAssets(t.storage, contentDir)).toEqual({ written: 0, unchanged: 4 });
    await writeFile(path.join(contentDir, 'files', 'plan.dwg'), Buffer.concat([drawing, Buffer.from('!')]));
    expect(await syncContentAssets(t.storage, contentDir)).toEqual({ written: 1, unchanged: 3 });
    await writeFile(path.join(contentDir, 'files', 'plan.dwg'), drawing);
    await syncContentAssets(t.storage, contentDir);
  });

  it('serves a public image inline with its type, validators and a sandbox for SVG', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/content/images/help/${encodeURIComponent('安装')}.svg` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['content-security-policy']).toContain('sandbox');
    expect(response.headers['content-disposition']).toMatch(/^inline;/);
    expect(response.body).toBe(svg);
    const again = await t.app.inject({
      method: 'GET',
      url: `/content/images/help/${encodeURIComponent('安装')}.svg`,
      headers: { 'if-none-match': String(response.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A '%' in a file name arrives as %25 and is decoded once.
    const percent = await t.app.inject({ method: 'GET', url: `/content/images/help/${encodeURIComponent('比例100%.svg')}` });
    expect(percent.statusCode).toBe(200);
    expect(percent.body).toBe(svg);
  });

  it('serves byte ranges of a drawing and refuses ranges past its end', async () => {
    const part = await t.app.inject({ method: 'GET', url: '/content/files/plan.dwg', headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${drawing.length}`);
    expect(part.rawPayload.equals(drawing.subarray(100, 200))).toBe(true);
    expect(part.headers['content-disposition']).toMatch(/^attachment;/);

    const tail = await t.app.inject({ method: 'GET', url: '/content/files/plan.dwg', headers: { range: `bytes=${drawing.length}-` } });
    expect(tail.statusCode).toBe(416);
    expect(tail.headers['content-range']).toBe(`bytes */${drawing.length}`);

    const head = await t.app.inject({ method: 'HEAD', url: '/content/files/plan.dwg' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(drawing.length));
    expect(head.body).toBe('');
  });

  it('never serves private files, dot files or paths outside storage', async () => {
    for (const url of [
      '/content/private/drawings/member.dwg',
      '/content/../private/drawings/member.dwg',
      '/content/%2e%2e/private/drawings/member.dwg',
      '/content/images/.DS_Store',
      '/content/images/help',
      '/content/%E0%A4%A',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      // A malformed escape is refused by the router itself (400); everything else is simply absent.
      expect([400, 404], url).toContain(response.statusCode);
      expect(response.body, url).not.toContain(drawing.subarray(0, 16).toString('latin1'));
    }
    expect(await t.storage.stat('private/drawings/member.dwg')).toMatchObject({ size: drawing.length });
  });
});
