import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { syncContentAssets } from './content-assets';
import { importContent } from './content.import';

// Decision 0011: the 每日一图 content of the repository (content/dailypics, its drawings and previews)
// imported for real and read back through the content API as the site's pages read it.

const CONTENT_DIR = fileURLToPath(new URL('../../../../../content/', import.meta.url));
const PREVIEW_MAX_BYTES = 80 * 1024;

interface Picture {
  ID: number;
  post_title: string;
  excerpt: string;
  imgUrl: string;
  views: number;
  downloads: number;
  post_date: string;
  meta: { size?: string; filetype?: string; rating?: string; file?: string };
  tags: Array<{ id: number; name: string }>;
}

let t: TestApp;
let pictures: Picture[];

function sitePath(url: string): string {
  return new URL(url, 'http://site.invalid').pathname;
}

/** The size as a post shows it: KB (1024 bytes, rounded) below 1 MB, else MB with two decimals. */
function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${Math.round(bytes / 1024)} KB`;
}

beforeAll(async () => {
  t = await createTestApp();
  await importContent(t.database.db, CONTENT_DIR);
  await syncContentAssets(t.storage, CONTENT_DIR);
  const response = await t.app.inject({ method: 'GET', url: '/wp-json/wp/v2/get_dailypics?per_page=100' });
  expect(response.statusCode).toBe(200);
  pictures = response.json<{ total: number; data: Picture[] }>().data;
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('the daily pictures of content/', () => {
  it('publishes at least 30 pictures, one a day, each with title, excerpt, tags, size, type, rating and counters', () => {
    expect(pictures.length).toBeGreaterThanOrEqual(30);
    const days = pictures.map((picture) => picture.post_date.slice(0, 10));
    expect(new Set(days).size).toBe(days.length);
    for (const picture of pictures) {
      expect(picture.post_title.length, `${picture.ID}`).toBeGreaterThan(4);
      expect([...picture.excerpt].length, `${picture.ID} excerpt`).toBeGreaterThanOrEqual(40);
      expect(picture.tags.length, `${picture.ID} tags`).toBeGreaterThan(0);
      expect(picture.meta.filetype, `${picture.ID}`).toMatch(/^(DXF|DWG)\b.*R\d/);
      expect(Number(picture.meta.rating), `${picture.ID}`).toBeGreaterThanOrEqual(1);
      expect(Number(picture.meta.rating), `${picture.ID}`).toBeLessThanOrEqual(5);
      expect(picture).toMatchObject({ views: 0, downloads: 0 });
    }
  });

  it('serves every drawing with the bytes of the repository file and the size its post states', async () => {
    for (const picture of pictures) {
      const file = picture.meta.file ?? '';
      expect(file, `${picture.ID}`).toMatch(/^\/content\/files\/dailypics\/[\w.-]+\.(dxf|dwg)$/);
      const bytes = await readFile(path.join(CONTENT_DIR, file.replace(/^\/content\//, '')));
      const response = await t.app.inject({ method: 'GET', url: file });
      expect(response.statusCode, file).toBe(200);
      expect(response.rawPayload.equals(bytes), file).toBe(true);
      expect(picture.meta.size, file).toBe(humanSize(bytes.length));
    }
  });

  it('serves a small WebP preview for every picture', async () => {
    for (const picture of pictures) {
      const image = sitePath(picture.imgUrl);
      expect(image, `${picture.ID}`).toMatch(/^\/content\/images\/dailypics\/\d+-[\w-]+\.webp$/);
      const response = await t.app.inject({ method: 'GET', url: image });
      expect(response.statusCode, image).toBe(200);
      expect(response.rawPayload.subarray(8, 12).toString('latin1'), image).toBe('WEBP');
      expect(response.rawPayload.length, image).toBeLessThanOrEqual(PREVIEW_MAX_BYTES);
    }
  });

  it('credits every drawing file with its source and an MIT or CC0 licence', async () => {
    const credits = await readFile(path.join(CONTENT_DIR, 'credits', 'dailypics.md'), 'utf8');
    const files = await readdir(path.join(CONTENT_DIR, 'files', 'dailypics'));
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const file of files) {
      const row = credits.split('\n').find((line) => line.includes(`\`${file}\``));
      expect(row, file).toBeDefined();
      expect(row, file).toMatch(/\| (MIT|MIT \(derived\)|CC0 \(synthetic\)) \|/);
      expect(row, file).toContain(String((await stat(path.join(CONTENT_DIR, 'files', 'dailypics', file))).size));
    }
    expect(credits).not.toMatch(/GPL/);
    for (const picture of pictures) {
      const post = (await t.app.inject({ method: 'GET', url: `/wp-json/wp/v2/get_dailypicsId?id=${picture.ID}` })).json<{ post_content: string }>();
      expect(post.post_content, `${picture.ID} credit line`).toMatch(/来源与授权[\s\S]*(MIT|CC0)/);
    }
  });

  it('lists a tag with exactly the pictures that carry it, and the hot list follows the views', async () => {
    const tagCounts = new Map<number, number>();
    for (const picture of pictures) for (const tag of picture.tags) tagCounts.set(tag.id, (tagCounts.get(tag.id) ?? 0) + 1);
    const [tagId, count] = [...tagCounts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
    expect(count).toBeGreaterThan(2);
    const tagged = (await t.app.inject({ method: 'GET', url: `/wp-json/wp/v2/getDailypicTags?tag_id=${tagId}&per_page=100` })).json<{ total: number; data: Picture[] }>();
    expect(tagged.total).toBe(count);
    expect(tagged.data.every((picture) => picture.tags.some((tag) => tag.id === tagId))).toBe(true);

    const oldest = pictures[pictures.length - 1];
    if (oldest === undefined) throw new Error('no pictures');
    for (let visit = 0; visit < 3; visit += 1) await t.app.inject({ method: 'POST', url: `/wp-json/wp/v2/update_post_views?id=${oldest.ID}` });
    const hot = (await t.app.inject({ method: 'GET', url: '/wp-json/wp/v2/get_dailypics_hot?per_page=3' })).json<{ data: Picture[] }>();
    expect(hot.data[0]).toMatchObject({ ID: oldest.ID, views: 3 });
  });
});
