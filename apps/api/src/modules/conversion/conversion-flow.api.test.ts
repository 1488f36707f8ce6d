import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, type AuthTestApp, type Caller } from '../auth/auth.testing';
import { fixture, TEST_MIN_CHUNK_BYTES } from './conversion.testing';
import { readStoredZip } from './jobs/zip';
import { companionFixture } from '@xcad/cad/testing';

// Decision 0019 end to end inside the API, with the real local queue and worker threads: a visitor
// uploads a corpus DXF and a DWG in chunks, the task converts, taskdown's signed URL downloads the
// result, and a drawing that is not one fails with its reason. Decision 0036: in a batch each file
// converts or fails on its own, says whether converting it again can help, and downloads under a
// name that says what it became, alone or in the task's zip.

let t: AuthTestApp;

beforeAll(async () => {
  t = await createAuthTestApp({ conversionMinChunkBytes: TEST_MIN_CHUNK_BYTES });
  await t.app.ready();
});

afterAll(async () => {
  await t.close();
});

async function upload(caller: Caller, task: { tasktag: string; tasktoken: string }, fileindex: number, bytes: Buffer, chunkSize: number) {
  const chunks = Math.ceil(bytes.length / chunkSize);
  let last: Record<string, unknown> = {};
  // Last chunk first: the order chunks arrive in does not matter.
  for (const chunk of [...Array.from({ length: chunks }, (_, index) => index)].reverse()) {
    const query = new URLSearchParams({
      tasktag: task.tasktag,
      timestamp: String(Math.floor(t.clock.now() / 1000)),
      tasktoken: task.tasktoken,
      fileindex: String(fileindex),
      chunks: String(chunks),
      chunk: String(chunk),
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v4/uploadfile?${query.toString()}`,
      payload: bytes.subarray(chunk * chunkSize, (chunk + 1) * chunkSize),
      headers: { 'content-type': 'application/octet-stream' },
    });
    last = response.json<Record<string, unknown>>();
  }
  return last;
}

async function waitForEnd(caller: Caller, tasktag: string): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    const state = (await call(t, '/api/v4/taskstate', { tasktag, ifshowtxt: 1 }, caller)).body;
    if (state['code'] !== 20000) return state;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`task ${tasktag} did not end within 60 s`);
}

describe('a conversion, uploaded, converted and downloaded', () => {
  it('turns a DXF and a DWG into one zip of two PDFs', async () => {
    const caller = freshClient();
    const par = await call(
      t,
      '/api/v4/uploadpar',
      {
        filename: JSON.stringify(['门.dxf', 'sample.dwg']),
        filecount: 2,
        tasktype: 'cad2pdf',
        outputfileextension: 'pdf',
        parainfo: '{"paper":"A4"}',
      },
      caller,
    );
    expect(par.body).toMatchObject({ code: 10000 });
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };

    expect(await upload(caller, task, 0, fixture('ezdxf_wipeout_door.dxf'), TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 11000 });
    expect(await upload(caller, task, 1, fixture('acs_sample_AC1015.dwg'), 64 * 1024)).toMatchObject({ code: 10000 });

    const done = await waitForEnd(caller, task.tasktag);
    expect(done).toMatchObject({ code: 10000, status: 'done', progress: 100 });
    const files = done['files'] as Array<{ state: string; outputname: string }>;
    expect(files.map((file) => [file.state, file.outputname])).toEqual([
      ['done', '门.pdf'],
      ['done', 'sample.pdf'],
    ]);

    const down = await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, downtype: 2 }, caller);
    expect(down.body).toMatchObject({ code: 10000, filename: expect.stringMatching(/\.zip$/) });
    const file = await t.app.inject({ method: 'GET', url: String(down.body['downurl']) });
    expect(file.statusCode).toBe(200);
    const zip = file.rawPayload;
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    // Both PDFs are inside, stored whole (a store-only zip keeps their bytes as they are).
    expect(zip.toString('latin1').split('%PDF-').length - 1).toBe(2);
  });

  it('converts the good files of a batch and fails the others alone, each with its reason', async () => {
    const caller = freshClient();
    const names = ['门.dxf', '说明.txt', '平面.dxf'];
    const par = await call(
      t,
      '/api/v4/uploadpar',
      { filename: JSON.stringify(names), filecount: names.length, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
      caller,
    );
    expect(par.body).toMatchObject({ code: 10000 });
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };

    expect(await upload(caller, task, 0, fixture('ezdxf_wipeout_door.dxf'), TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 11000 });
    // Not a drawing: refused by its first bytes, alone; the task goes on.
    const notes = Buffer.from('施工说明：本图尺寸以毫米计。\n'.repeat(50), 'utf8');
    expect(await upload(caller, task, 1, notes, TEST_MIN_CHUNK_BYTES)).toEqual({
      code: 15005,
      message: '文件类型不正确，请上传DWG或DXF文件',
    });
    expect(await upload(caller, task, 2, fixture('ezdxf_text.dxf'), TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 10000 });

    const done = await waitForEnd(caller, task.tasktag);
    expect(done).toMatchObject({ code: 10000, status: 'done', statusdetail: '转换完成：3个文件中2个转换成功' });
    const files = done['files'] as Array<Record<string, unknown>>;
    expect(files.map((file) => [file['name'], file['state'], file['outputname'], file['retryable']])).toEqual([
      ['门.dxf', 'done', '门.pdf', false],
      ['说明.txt', 'failed', null, false],
      ['平面.dxf', 'done', '平面.pdf', false],
    ]);
    expect(files[1]?.['reason']).toBe('文件类型不正确，请上传DWG或DXF文件');
    // Each converted file says what it holds.
    expect(files[0]?.['summary']).toMatchObject({ layouts: ['Model'], objects: expect.any(Number) });
    expect((files[0]?.['summary'] as { objects: number }).objects).toBeGreaterThan(0);
    // The task names the file that failed and why.
    expect(String(done['reason'])).toBe('1个文件转换失败：说明.txt（文件类型不正确，请上传DWG或DXF文件）');

    // The whole result: a zip named for the files inside, under their one-by-one names.
    const down = await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, downtype: 2 }, caller);
    expect(down.body).toMatchObject({ code: 10000, filename: '转换结果_2个文件.zip' });
    const zip = await t.app.inject({ method: 'GET', url: String(down.body['downurl']) });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]+"; /);
    expect(zip.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('转换结果_2个文件.zip')}`);
    const entries = readStoredZip(zip.rawPayload);
    expect(entries.map((entry) => entry.name)).toEqual(['门.pdf', '平面.pdf']);

    // One file alone: its own link, its name carried by RFC 5987's filename*.
    const one = await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, fileindex: 2 }, caller);
    expect(one.body).toMatchObject({ code: 10000, filename: '平面.pdf' });
    const pdf = await t.app.inject({ method: 'GET', url: String(one.body['downurl']) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('平面.pdf')}`);
    expect(Buffer.compare(pdf.rawPayload, Buffer.from(entries[1]!.data))).toBe(0);
    // A file that failed has nothing to download, and one file's link opens no other.
    expect((await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, fileindex: 1 }, caller)).body).toMatchObject({ code: 15007 });
    const other = String(one.body['downurl']).replace(`/${task.tasktag}/2?`, `/${task.tasktag}/0?`);
    expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(403);
  });

  it('converts the good drawing beside a broken one, which fails alone and is not offered again', async () => {
    const caller = freshClient();
    const par = await call(
      t,
      '/api/v4/uploadpar',
      { filename: JSON.stringify(['门.dxf', 'broken.dwg']), filecount: 2, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
      caller,
    );
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };
    expect(await upload(caller, task, 0, fixture('ezdxf_wipeout_door.dxf'), TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 11000 });
    // A DWG cut short passes the type check and fails in the engine.
    const broken = fixture('acs_sample_AC1015.dwg').subarray(0, 3 * TEST_MIN_CHUNK_BYTES - 100);
    expect(await upload(caller, task, 1, broken, TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 10000 });
    const done = await waitForEnd(caller, task.tasktag);
    expect(done).toMatchObject({ code: 10000, status: 'done', statusdetail: '转换完成：2个文件中1个转换成功' });
    const files = done['files'] as Array<Record<string, unknown>>;
    expect(files[1]).toMatchObject({ state: 'failed', retryable: false, outputname: null, summary: null });
    expect(String(files[1]?.['reason'])).toContain('文件已损坏');
    // One converted file downloads as itself.
    const down = await call(t, '/api/v4/taskdown', { tasktag: task.tasktag }, caller);
    expect(down.body).toMatchObject({ code: 10000, filename: '门.pdf' });
  });

  it('fails a task whose every file is of the wrong type at once, without converting anything', async () => {
    const caller = freshClient();
    const par = await call(
      t,
      '/api/v4/uploadpar',
      { filename: JSON.stringify(['a.txt', 'b.txt']), filecount: 2, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
      caller,
    );
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };
    const text = Buffer.from('not a drawing\n'.repeat(20));
    expect(await upload(caller, task, 0, text, TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 15005 });
    expect(await upload(caller, task, 1, text, TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 15005 });
    const state = (await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, ifshowtxt: 1 }, caller)).body;
    expect(state).toMatchObject({ code: 18000, status: 'failed', reason: '文件类型不正确，请上传DWG或DXF文件' });
  });

  it('fails a file that only looks like a drawing (a DWG cut short), with its reason', async () => {
    const caller = freshClient();
    const par = await call(
      t,
      '/api/v4/uploadpar',
      { filename: 'broken.dwg', filecount: 1, tasktype: 'cad2jpg', outputfileextension: 'png' },
      caller,
    );
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };
    const broken = fixture('acs_sample_AC1015.dwg').subarray(0, 3 * TEST_MIN_CHUNK_BYTES - 100);
    expect(await upload(caller, task, 0, broken, TEST_MIN_CHUNK_BYTES)).toMatchObject({ code: 10000 });
    const end = await waitForEnd(caller, task.tasktag);
    expect(end).toMatchObject({ code: 18000, status: 'failed' });
    expect(String(end['reason'])).toContain('文件已损坏');
  });

  // Decision 0046: a drawing's pictures and external references uploaded with it are drawn in its result.
  it('draws the xref and the picture uploaded with a drawing, and names what did not come', async () => {
    const refs = companionFixture();
    const run = async (names: string[], bodies: Uint8Array[]) => {
      const caller = freshClient();
      const par = await call(
        t,
        '/api/v4/uploadpar',
        { filename: JSON.stringify(names), filecount: names.length, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
        caller,
      );
      expect(par.body).toMatchObject({ code: 10000 });
      const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };
      for (const [index, body] of bodies.entries()) await upload(caller, task, index, Buffer.from(body), TEST_MIN_CHUNK_BYTES);
      const done = await waitForEnd(caller, task.tasktag);
      return { caller, task, done, files: done['files'] as Array<Record<string, unknown>> };
    };

    const together = await run(['总图.dxf', 'site.dxf', 'logo.png'], [refs.host, refs.site, refs.logo]);
    expect(together.done).toMatchObject({ code: 10000, status: 'done', statusdetail: '转换完成' });
    // The picture is no conversion of its own; the referenced drawing is also converted alone.
    expect(together.files.map((file) => [file['state'], file['outputname']])).toEqual([
      ['done', '总图.pdf'],
      ['done', 'site.pdf'],
      ['attached', null],
    ]);
    expect(together.files[0]?.['changes']).toEqual([]);
    const one = await call(t, '/api/v4/taskdown', { tasktag: together.task.tasktag, fileindex: 0 }, together.caller);
    const pdf = await t.app.inject({ method: 'GET', url: String(one.body['downurl']) });
    expect(pdf.rawPayload.toString('latin1')).toContain('/Subtype /Image');

    const alone = await run(['总图.dxf'], [refs.host]);
    expect(alone.files[0]).toMatchObject({ state: 'done', outputname: '总图.pdf' });
    expect(alone.files[0]?.['changes']).toEqual([
      { type: 'XREF', count: 1, outcome: 'dropped', how: 'ref-not-supplied', names: ['site.dwg'] },
      { type: 'IMAGE', count: 1, outcome: 'dropped', how: 'ref-not-supplied', names: ['logo.png'] },
    ]);
    const lonely = await call(t, '/api/v4/taskdown', { tasktag: alone.task.tasktag }, alone.caller);
    const lonelyPdf = await t.app.inject({ method: 'GET', url: String(lonely.body['downurl']) });
    expect(lonelyPdf.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
  });

  it('fails a picture sent without a drawing as the wrong type', async () => {
    const caller = freshClient();
    const par = await call(
      t,
      '/api/v4/uploadpar',
      { filename: 'logo.png', filecount: 1, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
      caller,
    );
    const task = { tasktag: String(par.body['tasktag']), tasktoken: String(par.body['tasktoken']) };
    await upload(caller, task, 0, Buffer.from(companionFixture().logo), TEST_MIN_CHUNK_BYTES);
    const end = await waitForEnd(caller, task.tasktag);
    expect(end).toMatchObject({ code: 18000, status: 'failed', reason: '文件类型不正确，请上传DWG或DXF文件' });
  });
});
