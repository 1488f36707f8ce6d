import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, type AuthTestApp, type Caller } from '../auth/auth.testing';
import { fixture, TEST_MIN_CHUNK_BYTES } from './conversion.testing';

// Decision 0019 end to end inside the API, with the real local queue and worker threads: a visitor
// uploads a corpus DXF and a DWG in chunks, the task converts, taskdown's signed URL downloads the
// result, and a drawing that is not one fails with its reason.

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
});
