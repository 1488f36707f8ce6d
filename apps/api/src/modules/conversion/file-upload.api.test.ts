import { CONVERSION_LIMITS, CONVERSION_MESSAGES, UPLOAD, type TUserInfo } from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshClient, signInBySms } from '../auth/auth.testing';
import { sweepConversions } from './conversion-sweep';
import { chunksOf, createConversionTestApp, fixture, makeConverterMember, type ConversionTestApp } from './conversion.testing';
import { fileKeyOf } from './file-upload.service';

// Decision 0019, spec §7 "second upload client": create-upload and upload with the session's
// file-service token (X-Auth-Token), 2 MB chunks, answers {code: 0, data}; chunks retried and out
// of order; the whole file stored for its user; retention. Decision 0027: chunks smaller than the
// spec's 2 MB are refused (but for a file of one chunk), and a chunk's bookkeeping costs the same
// whatever its number.

const DWG = fixture('acs_sample_AC1015.dwg');
const MB = 1024 * 1024;

let t: ConversionTestApp;

beforeAll(async () => {
  t = await createConversionTestApp();
});

afterAll(async () => {
  await t.close();
});

async function user(): Promise<TUserInfo> {
  return (await signInBySms(t, freshClient())).userinfo;
}

async function create(token: string | undefined, body: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/file/create-upload',
    payload: body,
    headers: token === undefined ? {} : { 'x-auth-token': token },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

async function upload(token: string, code: string, chunknum: number, bytes: Buffer) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/file/upload?code=${code}&chunknum=${chunknum}`,
    payload: bytes,
    headers: { 'x-auth-token': token, 'content-type': 'application/octet-stream' },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

describe('the second upload client', () => {
  it('uploads a drawing in 2 MB chunks out of order and retried, into one stored file', async () => {
    const owner = await user();
    const bytes = Buffer.concat([DWG, DWG, DWG, DWG]);
    const created = await create(owner.token, { name: 'C:\\图纸\\厂房.dwg', size: bytes.length, chunksize: UPLOAD.fileChunkBytes });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      code: 0,
      data: { name: '厂房.dwg', size: bytes.length, chunksize: 2 * MB, chunks: 3, received: 0, complete: false },
    });
    const code = String((created.body['data'] as { code: string }).code);
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const parts = chunksOf(bytes, 2 * MB);
    expect((await upload(owner.token, code, 2, parts[2]!)).body).toMatchObject({ code: 0, data: { received: 1, complete: false } });
    expect((await upload(owner.token, code, 0, parts[0]!)).body).toMatchObject({ code: 0, data: { received: 2, complete: false } });
    expect((await upload(owner.token, code, 0, parts[0]!)).body).toMatchObject({ code: 0, data: { received: 2, complete: false } });
    const last = await upload(owner.token, code, 1, parts[1]!);
    expect(last.body).toMatchObject({ code: 0, data: { code, received: 3, chunks: 3, complete: true } });
    expect((await t.storage.read(fileKeyOf(code)))?.equals(bytes)).toBe(true);
    expect(await t.storage.list(`file-uploads/${code}/`)).toEqual([`file-uploads/${code}/file`]);
    expect(t.logs.find((line) => line['msg'] === 'file upload finished' && line['upload'] === code)).toMatchObject({
      bytes: bytes.length,
      chunks: 3,
    });

    // A chunk sent again after the end changes nothing.
    expect((await upload(owner.token, code, 1, parts[1]!)).body).toMatchObject({ code: 0, data: { complete: true } });
    expect((await t.storage.read(fileKeyOf(code)))?.equals(bytes)).toBe(true);
  });

  it('refuses without a live session, for another user, and chunks of the wrong size', async () => {
    const owner = await user();
    expect(await create(undefined, { name: 'a.dwg', size: 10 })).toEqual({
      status: 401,
      body: { code: 401, message: '登录已失效，请重新登录' },
    });
    expect((await create('forged-token', { name: 'a.dwg', size: 10 })).status).toBe(401);
    expect(await create(owner.token, { name: 'a.dwg', size: 10, chunksize: 4 * MB })).toEqual({
      status: 400,
      body: { code: 400, message: '上传参数错误' },
    });
    expect(await create(owner.token, { name: 'a.dwg', size: CONVERSION_LIMITS.visitor.maxFileBytes + 1 })).toEqual({
      status: 413,
      body: { code: 413, message: CONVERSION_MESSAGES.tooLarge(50) },
    });

    const created = await create(owner.token, { name: 'a.dwg', size: 3 * MB });
    const code = String((created.body['data'] as { code: string }).code);
    expect((created.body['data'] as { chunksize: number }).chunksize).toBe(UPLOAD.fileChunkBytes);
    const stranger = await user();
    expect(await upload(stranger.token, code, 0, Buffer.alloc(2 * MB))).toEqual({
      status: 404,
      body: { code: 404, message: '上传任务不存在或已过期' },
    });
    expect((await upload(owner.token, code, 0, Buffer.alloc(2 * MB - 1))).body).toEqual({
      code: 400,
      message: CONVERSION_MESSAGES.chunkInvalid,
    });
    expect((await upload(owner.token, code, 1, Buffer.alloc(MB + 1))).body).toEqual({
      code: 400,
      message: CONVERSION_MESSAGES.chunkInvalid,
    });
    expect((await upload(owner.token, code, 2, Buffer.alloc(10))).body).toEqual({ code: 400, message: CONVERSION_MESSAGES.chunkInvalid });
    expect(await t.storage.list(`file-uploads/${code}/chunks/`)).toEqual([]);
    expect((await upload(owner.token, code, 1, Buffer.alloc(MB, 1))).body).toMatchObject({ code: 0, data: { received: 1 } });

    // Signing out ends the token.
    await t.database.db
      .updateTable('user_session')
      .set({ revoked_at: Math.floor(t.clock.now() / 1000) })
      .where('user_id', '=', Number(owner.uid))
      .execute();
    expect((await upload(owner.token, code, 0, Buffer.alloc(2 * MB))).status).toBe(401);
  });

  it('refuses chunks smaller than 2 MB unless the file is one chunk', async () => {
    const owner = await user();
    const refused = { status: 400, body: { code: 400, message: '分片大小须为2MB，只有最后一个分片可以更小' } };
    expect(await create(owner.token, { name: 'a.dwg', size: 40 * MB, chunksize: 1 })).toEqual(refused);
    expect(await create(owner.token, { name: 'a.dwg', size: 3 * MB, chunksize: 2 * MB - 1 })).toEqual(refused);
    // One chunk, which is also the last: any size that holds the file.
    const single = await create(owner.token, { name: 'a.dwg', size: 100, chunksize: 100 });
    expect(single.body).toMatchObject({ code: 0, data: { chunks: 1, chunksize: 100 } });
    const code = String((single.body['data'] as { code: string }).code);
    expect((await upload(owner.token, code, 0, DWG.subarray(0, 100))).body).toMatchObject({ code: 0, data: { complete: true } });
  });

  it('spends the same storage work on the 38th chunk of a 40-chunk upload as on the 2nd', async () => {
    const owner = await user();
    await makeConverterMember(t, owner.uid, Math.floor(t.clock.now() / 1000) + 86_400);
    const bytes = Buffer.alloc(39 * 2 * MB + 1234, 0x41);
    const created = await create(owner.token, { name: '大图.dwg', size: bytes.length, chunksize: 2 * MB });
    expect(created.body).toMatchObject({ code: 0, data: { chunks: 40 } });
    const code = String((created.body['data'] as { code: string }).code);

    // Every storage call of each chunk's request, and how many objects its listings went through.
    const methods = ['list', 'read', 'stat', 'put', 'putStream', 'delete', 'deletePrefix', 'compose'] as const;
    const spies = methods.map((method) => [method, vi.spyOn(t.storage, method)] as const);
    const profiles: Array<Record<string, number>> = [];
    try {
      for (const [chunknum, part] of chunksOf(bytes, 2 * MB).entries()) {
        for (const [, spy] of spies) spy.mockClear();
        const answer = await upload(owner.token, code, chunknum, part);
        expect(answer.body).toMatchObject({ code: 0, data: { received: chunknum + 1, complete: chunknum === 39 } });
        const profile: Record<string, number> = {};
        for (const [method, spy] of spies) {
          if (spy.mock.calls.length > 0) profile[method] = spy.mock.calls.length;
          if (method === 'list')
            for (const result of spy.mock.results) profile['listed'] = (profile['listed'] ?? 0) + ((await result.value) as string[]).length;
        }
        profiles.push(profile);
      }
    } finally {
      for (const [, spy] of spies) spy.mockRestore();
    }
    expect(profiles[37]).toEqual(profiles[1]);
    expect(profiles[1]).not.toHaveProperty('list');
    expect((await t.storage.read(fileKeyOf(code)))?.equals(bytes)).toBe(true);
  });

  it('deletes uploads when their retention ends', async () => {
    const owner = await user();
    const created = await create(owner.token, { name: 'short.dwg', size: 100 });
    const code = String((created.body['data'] as { code: string }).code);
    await upload(owner.token, code, 0, DWG.subarray(0, 100));
    expect(await t.storage.stat(fileKeyOf(code))).toBeDefined();
    expect((await sweepConversions(t.deps)).fileUploads).toBe(0);
    const retention = t.env.CONVERSION_RETENTION_HOURS * 3600 * 1000;
    t.clock.advance(retention);
    try {
      expect((await sweepConversions(t.deps)).fileUploads).toBeGreaterThanOrEqual(1);
      expect(await t.storage.list(`file-uploads/${code}/`)).toEqual([]);
    } finally {
      t.clock.advance(-retention);
    }
    expect((await upload(owner.token, code, 0, DWG.subarray(0, 100))).status).toBe(404);
  });
});
