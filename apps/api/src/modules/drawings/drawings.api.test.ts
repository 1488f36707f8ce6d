import { rmSync } from 'node:fs';
import { DRAWING_MESSAGES, INPUT_MESSAGES, PROTOCOL_ERRORS, type TDrawingDetail, type TDrawingList } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';
import { importDrawings } from './drawings.import';
import { drawingBytes, entry, temporaryContentDir, visitorCookie, writeLibrary } from './drawings.testing';

// Decision 0012: /api/site/drawings — the list with filters and search, the detail, and the download
// rules (free to anyone; member drawings only to members of product 203).

let t: TestApp;
let contentDir: string;
const DAY = 86_400;

const nowSeconds = (): number => Math.floor(t.clock.now() / 1000);

async function getJson<T>(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T; headers: Record<string, unknown> }> {
  const response = await t.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.json<T>(), headers: response.headers };
}

async function downloads(id: number): Promise<number> {
  return (await getJson<TDrawingDetail>(`/api/site/drawings/${id}`)).body.downloads;
}

beforeAll(async () => {
  t = await createTestApp();
  contentDir = temporaryContentDir();
  writeLibrary(contentDir, [
    entry(7001, { title: '带车库的住宅平面图', tags: ['住宅', '车库'], date: '2026-01-05' }),
    entry(7002, {
      title: '钣金套料排版',
      category: 'mechanical',
      format: 'DWG',
      version: 'R2018',
      member_only: true,
      date: '2026-01-06',
      description: '激光切割 100% 利用率_测试',
    }),
    entry(7003, { title: 'Hatch Patterns 图案', tags: ['填充'], date: '2026-01-07' }),
    entry(7004, { title: '会员专享建筑详图', member_only: true, date: '2026-01-08' }),
    entry(7005, { title: '门窗图块', format: 'DWG', date: '2026-01-09' }),
  ]);
  await importDrawings(t.database.db, contentDir, t.storage);
});

afterAll(async () => {
  await t.close();
  rmSync(contentDir, { recursive: true, force: true });
});

describe('GET /api/site/drawings', () => {
  it('lists every drawing newest first with the categories and their counts', async () => {
    const { status, body, headers } = await getJson<TDrawingList>('/api/site/drawings');
    expect(status).toBe(200);
    expect(headers['cache-control']).toContain('public');
    expect(body).toMatchObject({ total: 5, totalPages: 1, page: 1, perPage: 12 });
    expect(body.items.map((item) => item.id)).toEqual([7005, 7004, 7003, 7002, 7001]);
    expect(body.categories).toEqual([
      { slug: 'architecture', name: '建筑', description: '平面图', count: 4 },
      { slug: 'mechanical', name: '机械', description: '', count: 1 },
    ]);
    expect(body.items.at(-1)).toEqual({
      id: 7001,
      slug: 'drawing-7001',
      title: '带车库的住宅平面图',
      category: { slug: 'architecture', name: '建筑' },
      tags: ['住宅', '车库'],
      format: 'DXF',
      version: 'R2000',
      sizeBytes: drawingBytes(7001, 'DXF').length,
      preview: '/content/images/drawings/7001-drawing-7001.webp',
      isMemberOnly: false,
      views: 0,
      downloads: 0,
      date: '2026-01-05',
    });
  });

  it('filters by category, format and access, and pages', async () => {
    const ids = async (query: string) => (await getJson<TDrawingList>(`/api/site/drawings?${query}`)).body.items.map((item) => item.id);
    expect(await ids('category=mechanical')).toEqual([7002]);
    expect(await ids('format=dwg')).toEqual([7005, 7002]);
    expect(await ids('access=member')).toEqual([7004, 7002]);
    expect(await ids('access=free&format=DXF')).toEqual([7003, 7001]);
    expect(await ids('category=architecture&access=member')).toEqual([7004]);
    const second = await getJson<TDrawingList>('/api/site/drawings?per_page=2&page=2');
    expect(second.body).toMatchObject({ total: 5, totalPages: 3, page: 2 });
    expect(second.body.items.map((item) => item.id)).toEqual([7003, 7002]);
    expect((await getJson<TDrawingList>('/api/site/drawings?page=9')).body).toMatchObject({ total: 5, items: [] });
    expect(await ids('category=&format=&access=&q=')).toHaveLength(5);
  });

  it('searches titles, tags and descriptions, every word, case-insensitively and literally', async () => {
    const ids = async (q: string) =>
      (await getJson<TDrawingList>(`/api/site/drawings?q=${encodeURIComponent(q)}`)).body.items.map((item) => item.id);
    expect(await ids('车库')).toEqual([7001]);
    expect(await ids('填充')).toEqual([7003]);
    expect(await ids('hatch patterns')).toEqual([7003]);
    expect(await ids('激光切割')).toEqual([7002]);
    expect(await ids('  住宅   车库 ')).toEqual([7001]);
    expect(await ids('车库 钣金')).toEqual([]);
    expect(await ids('100%')).toEqual([7002]);
    expect(await ids('%')).toEqual([7002]);
    expect(await ids('_测试')).toEqual([7002]);
  });

  it('refuses bad parameters with 400 and a Chinese message', async () => {
    const cases: Array<[string, string]> = [
      ['format=pdf', DRAWING_MESSAGES.invalidFormat],
      ['access=vip', DRAWING_MESSAGES.invalidAccess],
      ['page=0', DRAWING_MESSAGES.invalidPage],
      ['page=abc', DRAWING_MESSAGES.invalidPage],
      ['per_page=49', DRAWING_MESSAGES.invalidPerPage],
      ['category=../etc', DRAWING_MESSAGES.invalidCategory],
      ['category=landscape', DRAWING_MESSAGES.unknownCategory('landscape')],
      [`q=${'图'.repeat(51)}`, DRAWING_MESSAGES.queryTooLong],
      ['format=DWG&format=DXF', DRAWING_MESSAGES.repeated('format')],
      ['q=a\u0001b', INPUT_MESSAGES.characters],
      // NUL is refused before the route (plugins/input-guard.ts), with the same code.
      ['q=a\u0000', PROTOCOL_ERRORS.malformed.message],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await getJson<{ code: number; message: string }>(`/api/site/drawings?${encodeURI(query)}`);
      expect([query, status, body]).toEqual([query, 400, { code: 10001, message }]);
    }
  });
});

describe('GET /api/site/drawings/{id}', () => {
  it('answers the detail with the description, the file URL and related drawings of the category', async () => {
    const { status, body } = await getJson<TDrawingDetail>('/api/site/drawings/7001');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 7001,
      description: '第 7001 张测试图纸的说明。',
      credit: 'test · fixture · CC0',
      fileUrl: '/api/site/drawings/7001/file',
      fileName: '带车库的住宅平面图.dxf',
    });
    expect(body.related.map((item) => item.id)).toEqual([7005, 7004, 7003]);
  });

  it('answers 404 JSON for unknown and malformed ids', async () => {
    for (const id of ['9999', 'abc', '0', '99999999999999999999', '7001.html']) {
      const { status, body } = await getJson<{ code: number; message: string }>(`/api/site/drawings/${id}`);
      expect([id, status, body]).toEqual([id, 404, { code: 10404, message: DRAWING_MESSAGES.notFound }]);
    }
  });

  it('counts views', async () => {
    const first = await t.app.inject({ method: 'POST', url: '/api/site/drawings/7003/view' });
    const second = await t.app.inject({ method: 'POST', url: '/api/site/drawings/7003/view' });
    expect([first.json(), second.json()]).toEqual([{ views: 1 }, { views: 2 }]);
    expect((await t.app.inject({ method: 'POST', url: '/api/site/drawings/9999/view' })).statusCode).toBe(404);
  });
});

describe('GET|HEAD /api/site/drawings/{id}/file', () => {
  it('sends a free drawing to anyone under its Chinese name and counts it once', async () => {
    const before = await downloads(7001);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/site/drawings/7001/file' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(drawingBytes(7001, 'DXF').length));
    expect(await downloads(7001)).toBe(before);

    const response = await t.app.inject({ method: 'GET', url: '/api/site/drawings/7001/file' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(drawingBytes(7001, 'DXF'))).toBe(true);
    expect(response.headers['content-type']).toBe('image/vnd.dxf');
    expect(response.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('带车库的住宅平面图.dxf')}`);
    expect(await downloads(7001)).toBe(before + 1);

    // Resuming a download (a later range) and a revalidation (304) are not new downloads.
    const rest = await t.app.inject({ method: 'GET', url: '/api/site/drawings/7001/file', headers: { range: 'bytes=10-' } });
    expect(rest.statusCode).toBe(206);
    const etag = String(response.headers['etag']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/site/drawings/7001/file', headers: { 'if-none-match': etag } })).statusCode,
    ).toBe(304);
    expect(await downloads(7001)).toBe(before + 1);
  });

  it('asks a visitor without a session to sign in for a member drawing (401)', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const response = await t.app.inject({ method, url: '/api/site/drawings/7002/file' });
      expect(response.statusCode).toBe(401);
      if (method === 'GET') expect(response.json()).toEqual({ code: 10060, message: DRAWING_MESSAGES.signInRequired });
    }
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/site/drawings/7002/file',
      headers: { cookie: 'xcad_session=not-a-token' },
    });
    expect(stale.statusCode).toBe(401);
  });

  it('refuses a signed-in user without a current 203 membership (403)', async () => {
    const never = await visitorCookie(t.database.db, nowSeconds());
    const lapsed = await visitorCookie(t.database.db, nowSeconds(), nowSeconds() - DAY);
    for (const cookie of [never, lapsed]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/site/drawings/7002/file', headers: { cookie } });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ code: 10403, message: DRAWING_MESSAGES.membershipRequired });
    }
    expect(await downloads(7002)).toBe(0);
  });

  it('sends a member drawing to a member, privately, and stops when the membership ends', async () => {
    const cookie = await visitorCookie(t.database.db, nowSeconds(), nowSeconds() + 10 * DAY);
    const response = await t.app.inject({ method: 'GET', url: '/api/site/drawings/7002/file', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(drawingBytes(7002, 'DWG'))).toBe(true);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-disposition']).toContain(encodeURIComponent('钣金套料排版.dwg'));
    expect(await downloads(7002)).toBe(1);

    t.clock.advance(11 * DAY * 1000);
    expect((await t.app.inject({ method: 'GET', url: '/api/site/drawings/7002/file', headers: { cookie } })).statusCode).toBe(403);
  });

  it('never serves a member file through the public /content/ route', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/content/drawings/7002-drawing-7002.dwg' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/content/../private/drawings/7002-drawing-7002.dwg' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/content/files/drawings/7001-drawing-7001.dxf' })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown drawing', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/site/drawings/9999/file' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 10404, message: DRAWING_MESSAGES.notFound });
  });
});
