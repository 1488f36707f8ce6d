import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  DWG_OUTPUT_VERSIONS,
  ZTaskDownResponse,
  ZTaskListResponse,
  ZTaskStateResponse,
  ZUploadFileResponse,
  ZUploadParResponse,
} from '@xcad/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solidPng } from '@xcad/cad/png';
import { call, freshClient, signInBySms, type Caller } from '../auth/auth.testing';
import { sweepConversions } from './conversion-sweep';
import {
  chunksOf,
  createConversionTestApp,
  finishAsRunner,
  fixture,
  makeConverterMember,
  sendChunk,
  startTask,
  tinyPdf,
  uploadFile,
  uploadpar,
  type ConversionTestApp,
  type StartedTask,
} from './conversion.testing';
import { qrPng } from './qr-png';
import { shareUrlOf } from './conversion.service';

// Decision 0019 on the real app and database (SQLite and PostgreSQL): the upload protocol of spec §7
// with corpus drawings, chunk by chunk (retried, out of order, across a restart), the checks that
// end an upload (size, type by content, deadline), who may see a task, cancel, the signed download
// link, the phone QR and its share page, and retention.

const INVALID_FIELD = 10020;
const TASK_UNKNOWN = 15001;
const TOKEN_INVALID = 15002;
const CHUNK_INVALID = 15003;
const TOO_LARGE = 15004;
const WRONG_TYPE = 15005;
const TOO_MANY_TASKS = 15006;
const NOT_DONE = 15007;
const EXPIRED = 15008;

const DWG = fixture('acs_sample_AC1015.dwg');
const DXF = fixture('ezdxf_text.dxf');
const KB = 1024;

let t: ConversionTestApp;

beforeAll(async () => {
  t = await createConversionTestApp();
});

afterAll(async () => {
  await t.close();
});

const now = () => Math.floor(t.clock.now() / 1000);

function cad2pdf(names: string[]) {
  return {
    tasktype: 'cad2pdf',
    outputfileextension: 'pdf',
    filename: names.length === 1 ? names[0]! : JSON.stringify(names),
    filecount: names.length,
  };
}

async function state(caller: Caller, task: StartedTask, extra: Record<string, string> = {}) {
  return (await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, ifshowtxt: 1, ...extra }, caller)).body;
}

async function storedUnder(prefix: string): Promise<string[]> {
  return (await t.storage.list(prefix)).sort();
}

async function chunkRows(tasktag: string): Promise<number> {
  const rows = await t.database.db.selectFrom('conversion_chunk').select('chunk').where('tasktag', '=', tasktag).execute();
  return rows.length;
}

describe('uploadpar', () => {
  it('starts a task with an unguessable tag and a token stored only as its hash', async () => {
    const caller = freshClient();
    const result = await uploadpar(t, caller, cad2pdf(['平面图.dwg']));
    expect(ZUploadParResponse.parse(result.body)).toMatchObject({ code: 10000, message: '' });
    expect(result.body['tasktag']).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(result.body['tasktoken']).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Math.abs(Number(result.body['timestamp']) - now())).toBeLessThanOrEqual(1);
    const row = await t.database.db
      .selectFrom('conversion_task')
      .selectAll()
      .where('tasktag', '=', String(result.body['tasktag']))
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      device_id: caller.deviceid,
      user_id: null,
      tier: 'visitor',
      status: 'uploading',
      filecount: 1,
      max_file_bytes: 50 * 1024 * 1024,
    });
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(String(result.body['tasktoken']));
    // The visitor gets the HttpOnly cookie that owns the task; only its hash is stored.
    const cookie = String((result.headers['set-cookie'] as string[] | string | undefined) ?? '');
    expect(cookie).toMatch(/^xcad_visitor=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=31536000$/);
    expect(row.visitor_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(caller.visitorCookie?.split('=')[1] ?? 'no cookie');
  });

  it('refuses what the tool cannot do, field by field', async () => {
    const caller = freshClient();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...cad2pdf(['a.dwg']), outputfileextension: 'dwg' }, 'outputfileextension', CONVERSION_MESSAGES.outputExtension],
      [
        { tasktype: 'cad2ver', outputfileextension: 'dwg', filename: 'a.dwg', filecount: 1 },
        'fileversion',
        CONVERSION_MESSAGES.fileVersion,
      ],
      [
        { tasktype: 'cad2ver', outputfileextension: 'dwg', fileversion: 'R12', filename: 'a.dwg', filecount: 1 },
        'fileversion',
        CONVERSION_MESSAGES.dwgVersion(DWG_OUTPUT_VERSIONS),
      ],
      // pdf2cad offers cad2ver's versions, with the same refusal (decision 0036).
      [
        { tasktype: 'pdf2cad', outputfileextension: 'dwg', fileversion: 'R12', filename: 'a.pdf', filecount: 1 },
        'fileversion',
        CONVERSION_MESSAGES.dwgVersion(DWG_OUTPUT_VERSIONS),
      ],
      [{ ...cad2pdf(['a.dwg', 'b.dwg']), filecount: 3 }, 'filename', CONVERSION_MESSAGES.fileName],
      [{ ...cad2pdf(['a.dwg']), tasktype: 'dwg2svg' }, 'tasktype', CONVERSION_MESSAGES.taskType],
      [{ ...cad2pdf(['a.dwg']), parainfo: '{"paper":"B5"}' }, 'parainfo', CONVERSION_MESSAGES.parainfo],
      [cad2pdf(['a.dwg', 'b.dwg', 'c.dwg', 'd.dwg']), 'filecount', CONVERSION_MESSAGES.tooManyFiles(3)],
    ];
    for (const [fields, field, message] of cases) {
      const result = await uploadpar(t, caller, fields as Record<string, string>);
      expect(result.body, field).toEqual({ code: INVALID_FIELD, message, field });
    }
  });

  it('keeps the version pdf2cad was asked for', async () => {
    const caller = freshClient();
    const fields = { tasktype: 'pdf2cad', outputfileextension: 'dxf', fileversion: 'R12', filename: '图纸.pdf', filecount: 1 };
    const task = await startTask(t, caller, fields);
    const row = await t.database.db.selectFrom('conversion_task').selectAll().where('tasktag', '=', task.tasktag).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tasktype: 'pdf2cad', output_ext: 'dxf', file_version: 'R12' });
  });

  it('gives a converter member the member tier: more files, larger ones, a higher priority', async () => {
    const caller = freshClient();
    const { userinfo } = await signInBySms(t, caller);
    await makeConverterMember(t, userinfo.uid, now() + 86_400);
    const fields = { ...cad2pdf(['1.dxf', '2.dxf', '3.dxf', '4.dxf']), usertoken: userinfo.usertoken, limitsize: 1_000_000 };
    const task = await startTask(t, caller, fields);
    const row = await t.database.db.selectFrom('conversion_task').selectAll().where('tasktag', '=', task.tasktag).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tier: 'member', user_id: Number(userinfo.uid), max_file_bytes: CONVERSION_LIMITS.member.maxFileBytes });
    for (let fileindex = 0; fileindex < 4; fileindex += 1) await uploadFile(t, task, fileindex, DXF, 64 * KB);
    expect(t.jobs.enqueued).toContainEqual({ tasktag: task.tasktag, priority: 10 });

    // A lapsed membership is the visitor tier again; a dead usertoken is refused, not ignored.
    await t.database.db
      .updateTable('membership')
      .set({ auth_value: now() - 1 })
      .where('user_id', '=', Number(userinfo.uid))
      .execute();
    expect((await uploadpar(t, caller, fields)).body).toMatchObject({ code: INVALID_FIELD, field: 'filecount' });
    expect((await uploadpar(t, caller, { ...cad2pdf(['a.dwg']), usertoken: 'not-a-session' })).body).toMatchObject({ code: 10060 });
  });

  it('allows a visitor device its tasks per day, then refuses', async () => {
    const caller = freshClient();
    for (let index = 0; index < CONVERSION_LIMITS.visitor.tasksPerDay; index += 1) await startTask(t, caller, cad2pdf([`${index}.dwg`]));
    const refused = await uploadpar(t, caller, cad2pdf(['one-more.dwg']));
    expect(refused.body).toEqual({ code: TOO_MANY_TASKS, message: CONVERSION_MESSAGES.tooManyTasks });
    expect((await uploadpar(t, freshClient(), cad2pdf(['other-device.dwg']))).body).toMatchObject({ code: 10000 });
  });
});

describe('uploadfile', () => {
  it('takes a DWG and a DXF in chunks out of order, retried, and queues the task once both are whole', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, { ...cad2pdf(['总平面图.dwg', 'text.dxf']), parainfo: '{"paper":"A3","color":"mono"}' });
    const dwgParts = chunksOf(DWG, 300 * KB);
    expect(dwgParts.length).toBe(5);

    // DWG chunks 3, 1, 4, then chunk 1 again with other bytes, then the right ones again.
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 3 }, dwgParts[3]!)).body).toEqual({
      code: 11000,
      message: '',
      tasktag: task.tasktag,
      received: 1,
      filesdone: 0,
    });
    await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 1 }, dwgParts[1]!);
    await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 4 }, dwgParts[4]!);
    await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 1 }, Buffer.alloc(dwgParts[1]!.length, 7));
    const retried = await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 1 }, dwgParts[1]!);
    expect(retried.body).toMatchObject({ code: 11000, received: 3, filesdone: 0 });

    const during = await state(caller, task);
    expect(during).toMatchObject({
      code: 20000,
      status: 'uploading',
      statusdetail: '上传中',
      reason: null,
      tasktype: 'cad2pdf',
      outputfileextension: 'pdf',
    });
    expect(during['files']).toEqual([
      {
        fileindex: 0,
        name: '总平面图.dwg',
        size: dwgParts[1]!.length + dwgParts[3]!.length + dwgParts[4]!.length,
        received: [1, 3, 4],
        chunks: 5,
        state: 'uploading',
        reason: null,
        retryable: false,
        summary: null,
        changes: [],
        outputname: null,
        outputsize: null,
      },
      {
        fileindex: 1,
        name: 'text.dxf',
        size: 0,
        received: [],
        chunks: 0,
        state: 'uploading',
        reason: null,
        retryable: false,
        summary: null,
        changes: [],
        outputname: null,
        outputsize: null,
      },
    ]);
    expect(during['progress']).toBe(30);
    expect(ZTaskStateResponse.safeParse(during).success).toBe(true);

    await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 0 }, dwgParts[0]!);
    const dwgDone = await sendChunk(t, task, { fileindex: 0, chunks: 5, chunk: 2 }, dwgParts[2]!);
    expect(dwgDone.body).toMatchObject({ code: 11000, received: 5, filesdone: 1 });
    expect(t.jobs.enqueued.map((job) => job.tasktag)).not.toContain(task.tasktag);

    // The DXF in one chunk completes the task.
    const last = await sendChunk(t, task, { fileindex: 1, chunks: 1, chunk: 0 }, DXF);
    expect(last.body).toEqual({ code: 10000, message: '', tasktag: task.tasktag, received: 1, filesdone: 2 });
    expect(ZUploadFileResponse.safeParse(last.body).success && ZUploadFileResponse.safeParse(dwgDone.body).success).toBe(true);
    expect(t.jobs.enqueued.filter((job) => job.tasktag === task.tasktag)).toEqual([{ tasktag: task.tasktag, priority: 0 }]);

    // The inputs are the uploaded bytes, the chunks are gone, and the task is queued for the jobs.
    const files = await t.database.db
      .selectFrom('conversion_file')
      .selectAll()
      .where('tasktag', '=', task.tasktag)
      .orderBy('fileindex')
      .execute();
    expect(files.map((file) => [file.state, file.kind, Number(file.size)])).toEqual([
      ['waiting', 'dwg', DWG.length],
      ['waiting', 'dxf', DXF.length],
    ]);
    expect((await t.storage.read(files[0]!.input_key!))?.equals(DWG)).toBe(true);
    expect((await t.storage.read(files[1]!.input_key!))?.equals(DXF)).toBe(true);
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([files[0]!.input_key, files[1]!.input_key].sort());
    expect(await chunkRows(task.tasktag)).toBe(0);
    const row = await t.database.db.selectFrom('conversion_task').selectAll().where('tasktag', '=', task.tasktag).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'queued', progress: 0 });
    expect(JSON.parse(row.options)).toEqual({ paper: 'A3', color: 'mono' });
    expect(await state(caller, task)).toMatchObject({ code: 20000, status: 'queued', statusdetail: '排队中' });
    const logged = t.logs.find((line) => line['msg'] === 'conversion upload finished' && line['tasktag'] === task.tasktag);
    expect(logged).toMatchObject({ tool: 'cad2pdf', tier: 'visitor', files: 2, bytes: DWG.length + DXF.length, result: 'queued' });

    // The last chunk sent again (its answer was lost): the same answer, nothing changes.
    expect((await sendChunk(t, task, { fileindex: 1, chunks: 1, chunk: 0 }, DXF)).body).toMatchObject({ code: 10000 });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toHaveLength(2);
  });

  it('continues an upload after a server restart', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, { tasktype: 'cad2jpg', outputfileextension: 'png', filename: 'plan.dwg', filecount: 1 });
    const parts = chunksOf(DWG, 400 * KB);
    await sendChunk(t, task, { fileindex: 0, chunks: parts.length, chunk: 0 }, parts[0]!);
    await sendChunk(t, task, { fileindex: 0, chunks: parts.length, chunk: 1 }, parts[1]!);

    await t.restart();

    const resumed = await state(caller, task);
    expect((resumed['files'] as Array<{ received: number[] }>)[0]!.received).toEqual([0, 1]);
    for (let chunk = 2; chunk < parts.length; chunk += 1)
      await sendChunk(t, task, { fileindex: 0, chunks: parts.length, chunk }, parts[chunk]!);
    expect(await state(caller, task)).toMatchObject({ status: 'queued' });
    const file = await t.database.db
      .selectFrom('conversion_file')
      .selectAll()
      .where('tasktag', '=', task.tasktag)
      .executeTakeFirstOrThrow();
    expect((await t.storage.read(file.input_key!))?.equals(DWG)).toBe(true);
  });

  it('ends an upload over the size limit at once and deletes what it stored', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, { ...cad2pdf(['big.dwg']), limitsize: 1024 });
    const parts = chunksOf(DWG, 512 * KB);
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 0 }, parts[0]!)).body).toMatchObject({ code: 11000 });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 1 }, parts[1]!)).body).toMatchObject({ code: 11000 });
    const refused = await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 2 }, parts[2]!);
    expect(refused.body).toEqual({ code: TOO_LARGE, message: CONVERSION_MESSAGES.tooLarge(1) });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect(await chunkRows(task.tasktag)).toBe(0);
    expect(await state(caller, task)).toMatchObject({
      code: 18000,
      status: 'failed',
      reason: CONVERSION_MESSAGES.tooLarge(1),
      statusdetail: CONVERSION_MESSAGES.tooLarge(1),
    });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 0 }, parts[0]!)).body).toMatchObject({ code: TASK_UNKNOWN });
  });

  it('refuses an over-large file of a batch alone: its chunks are deleted, the other file is queued', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, { ...cad2pdf(['big.dwg', 'small.dxf']), limitsize: 1024 });
    const parts = chunksOf(DWG, 512 * KB);
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 0 }, parts[0]!)).body).toMatchObject({ code: 11000 });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 1 }, parts[1]!)).body).toMatchObject({ code: 11000 });
    const refused = await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 2 }, parts[2]!);
    expect(refused.body).toEqual({ code: TOO_LARGE, message: CONVERSION_MESSAGES.tooLarge(1) });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect(await state(caller, task)).toMatchObject({ status: 'uploading' });

    expect((await sendChunk(t, task, { fileindex: 1, chunks: 1, chunk: 0 }, DXF)).body).toMatchObject({ code: 10000, filesdone: 2 });
    const queued = await state(caller, task);
    expect(queued).toMatchObject({ status: 'queued', reason: null });
    expect((queued['files'] as Array<Record<string, unknown>>).map((file) => [file['state'], file['reason'], file['retryable']])).toEqual([
      ['failed', CONVERSION_MESSAGES.tooLarge(1), false],
      ['waiting', null, false],
    ]);
    expect(t.jobs.enqueued.map((job) => job.tasktag)).toContain(task.tasktag);
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([`conversion/${task.tasktag}/in/1`]);
  });

  it('refuses a file of the wrong type alone, with what it stored before its first chunk came (decision 0036)', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['scan.dwg', 'plan.dxf']));
    // A GIF named like a drawing (a PNG or JPEG would be taken as a drawing's picture, decision 0046).
    const gif = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(12 * KB, 7)]);
    // Its last chunk first, then its first chunk shows it is not a drawing.
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, gif.subarray(4 * KB))).body).toMatchObject({ code: 11000 });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 0 }, gif)).body).toEqual({
      code: WRONG_TYPE,
      message: CONVERSION_MESSAGES.wrongType('DWG或DXF'),
    });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect(await chunkRows(task.tasktag)).toBe(0);
    // A chunk of it sent again is not kept; the other file completes the task.
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, gif.subarray(4 * KB))).body).toMatchObject({ code: 11000 });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect((await sendChunk(t, task, { fileindex: 1, chunks: 1, chunk: 0 }, DXF)).body).toMatchObject({ code: 10000 });
    const queued = await state(caller, task);
    expect(queued).toMatchObject({ status: 'queued' });
    expect((queued['files'] as Array<Record<string, unknown>>)[0]).toMatchObject({
      state: 'failed',
      reason: CONVERSION_MESSAGES.wrongType('DWG或DXF'),
      retryable: false,
    });
  });

  it('refuses an over-large chunk while it streams, without its length announced', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, { ...cad2pdf(['big.dxf']), limitsize: 100 });
    const bytes = Buffer.concat([DXF, DXF]).subarray(0, 150 * KB);
    const refused = await sendChunk(t, task, { fileindex: 0, chunks: 1, chunk: 0 }, bytes, { streamed: true });
    expect(refused.body).toMatchObject({ code: TOO_LARGE });
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
  });

  it('judges the type by content: a PDF or a renamed PNG is not a drawing, a PDF is right for pdf2cad, a PNG goes with drawings to PDF', async () => {
    const caller = freshClient();
    const pdfToCad2pdf = await startTask(t, caller, cad2pdf(['drawing.pdf']));
    const refused = await sendChunk(t, pdfToCad2pdf, { fileindex: 0, chunks: 1, chunk: 0 }, tinyPdf());
    expect(refused.body).toEqual({ code: WRONG_TYPE, message: CONVERSION_MESSAGES.wrongType('DWG或DXF') });
    expect(await state(caller, pdfToCad2pdf)).toMatchObject({ status: 'failed', reason: CONVERSION_MESSAGES.wrongType('DWG或DXF') });

    // A save-as takes no pictures: a PNG named plan.dwg is refused for cad2ver.
    const renamed = await startTask(t, caller, {
      tasktype: 'cad2ver',
      outputfileextension: 'dwg',
      fileversion: '2004',
      filename: 'plan.dwg',
      filecount: 1,
    });
    const png = Buffer.concat([solidPng(64, [200, 10, 10]), Buffer.alloc(8 * KB)]);
    expect((await sendChunk(t, renamed, { fileindex: 0, chunks: 2, chunk: 0 }, png)).body).toEqual({
      code: WRONG_TYPE,
      message: CONVERSION_MESSAGES.wrongType('DWG或DXF'),
    });
    expect(await storedUnder(`conversion/${renamed.tasktag}/`)).toEqual([]);
    // To PDF it is taken as a picture the task's drawings may show (decision 0046).
    const picture = await startTask(t, caller, cad2pdf(['logo.png', 'plan.dxf']));
    expect((await sendChunk(t, picture, { fileindex: 0, chunks: 2, chunk: 0 }, png)).body).toMatchObject({ code: 11000 });

    const dwgToPdf2cad = await startTask(t, caller, {
      tasktype: 'pdf2cad',
      outputfileextension: 'dxf',
      filename: 'scan.pdf',
      filecount: 1,
    });
    expect((await sendChunk(t, dwgToPdf2cad, { fileindex: 0, chunks: 1, chunk: 0 }, DWG.subarray(0, 64 * KB))).body).toEqual({
      code: WRONG_TYPE,
      message: CONVERSION_MESSAGES.wrongType('PDF'),
    });

    const pdf2cad = await startTask(t, caller, { tasktype: 'pdf2cad', outputfileextension: 'dwg', filename: 'scan.pdf', filecount: 1 });
    expect((await sendChunk(t, pdf2cad, { fileindex: 0, chunks: 1, chunk: 0 }, tinyPdf())).body).toMatchObject({ code: 10000 });
  });

  it('refuses a wrong token, an unknown tag and chunks that contradict the file', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['a.dxf', 'b.dxf']));
    const wrongToken = `${task.tasktoken.slice(0, -1)}${task.tasktoken.endsWith('A') ? 'B' : 'A'}`;
    expect((await sendChunk(t, { ...task, tasktoken: wrongToken }, { fileindex: 0, chunks: 2, chunk: 0 }, DXF)).body).toMatchObject({
      code: TOKEN_INVALID,
    });
    expect(
      (await sendChunk(t, { tasktag: 'AAAAAAAAAAAAAAAAAAAAAA', tasktoken: task.tasktoken }, { fileindex: 0, chunks: 2, chunk: 0 }, DXF))
        .body,
    ).toMatchObject({ code: TASK_UNKNOWN });
    expect((await sendChunk(t, task, { fileindex: 2, chunks: 1, chunk: 0 }, DXF)).body).toMatchObject({ code: CHUNK_INVALID });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 2 }, DXF)).body).toMatchObject({ code: CHUNK_INVALID });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 0 }, DXF.subarray(0, 60 * KB))).body).toMatchObject({ code: 11000 });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 1 }, DXF.subarray(60 * KB))).body).toMatchObject({
      code: CHUNK_INVALID,
    });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, Buffer.alloc(0))).body).toMatchObject({ code: CHUNK_INVALID });
    const query = `tasktag=${task.tasktag}&tasktoken=${task.tasktoken}&fileindex=0&chunks=two&chunk=1&timestamp=1`;
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/api/v4/uploadfile?${query}`,
      payload: DXF,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(malformed.json()).toMatchObject({ code: INVALID_FIELD, field: 'chunks' });
    // None of that harmed the upload.
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, DXF.subarray(60 * KB))).body).toMatchObject({
      code: 11000,
      received: 2,
      filesdone: 1,
    });
  });

  it('stores nothing of a chunk whose client went away, and takes it again later', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['flaky.dwg']));
    const parts = chunksOf(DWG, 700 * KB);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const query = `tasktag=${task.tasktag}&tasktoken=${task.tasktoken}&timestamp=${now()}&fileindex=0&chunks=2&chunk=1`;
    const sent = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v4/uploadfile?${query}`,
      headers: { 'content-type': 'application/octet-stream', 'content-length': parts[1]!.length },
    });
    sent.on('error', () => undefined);
    // Part of the chunk reaches storage before the connection breaks.
    await new Promise<void>((resolve) => sent.write(parts[1]!.subarray(0, 200 * KB), () => resolve()));
    await expect
      .poll(async () => (await readdir(t.storage.root, { recursive: true })).some((name) => String(name).endsWith('.part')), {
        timeout: 3000,
      })
      .toBe(true);
    sent.destroy();
    await expect.poll(() => t.logs.some((line) => line['msg'] === 'chunk upload aborted'), { timeout: 3000 }).toBe(true);

    const onDisk = await readdir(t.storage.root, { recursive: true }).catch(() => []);
    expect(onDisk.filter((name) => String(name).includes(task.tasktag) && String(name).endsWith('.part'))).toEqual([]);
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect(await chunkRows(task.tasktag)).toBe(0);
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, parts[1]!)).body).toMatchObject({ code: 11000, received: 1 });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 0 }, parts[0]!)).body).toMatchObject({ code: 10000 });
  });

  it('gives up an upload past its deadline', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['slow.dxf']));
    await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 0 }, DXF.subarray(0, 10 * KB));
    t.clock.advance((CONVERSION_LIMITS.uploadTimeoutSeconds + 1) * 1000);
    try {
      expect((await sendChunk(t, task, { fileindex: 0, chunks: 2, chunk: 1 }, DXF.subarray(10 * KB))).body).toMatchObject({
        code: TASK_UNKNOWN,
      });
      expect(await state(caller, task)).toMatchObject({ code: 18000, status: 'failed', reason: '上传超时，请重新上传文件' });
      expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    } finally {
      t.clock.advance(-(CONVERSION_LIMITS.uploadTimeoutSeconds + 1) * 1000);
    }
  });
});

describe('who sees a task', () => {
  const READERS = ['/api/v4/taskstate', '/api/v4/taskdown', '/api/v4/taskcancel'];

  it("shows a signed-in user's task to that user on any device, and nothing of it to one who sends their device id", async () => {
    const owner = freshClient();
    const { userinfo } = await signInBySms(t, owner);
    const task = await startTask(t, owner, { ...cad2pdf(['mine.dxf']), usertoken: userinfo.usertoken });
    const stranger = freshClient();
    const withOwnersDevice = { ...freshClient(), deviceid: owner.deviceid };
    for (const caller of [stranger, withOwnersDevice]) {
      for (const path of READERS) {
        expect((await call(t, path, { tasktag: task.tasktag }, caller)).body, path).toEqual({
          code: TASK_UNKNOWN,
          message: CONVERSION_MESSAGES.taskUnknown,
        });
      }
      expect((await call(t, '/api/v4/tasklist', {}, caller)).body).toEqual({ code: 10000, message: '', tasks: [], total: 0 });
    }
    // The same user on another device (a usertoken, or the web's session cookie).
    const laptop = freshClient();
    expect((await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, usertoken: userinfo.usertoken }, laptop)).body).toMatchObject({
      code: 20000,
    });
    expect(
      (await call(t, '/api/v4/taskstate', { tasktag: task.tasktag }, laptop, { cookie: `xcad_session=${userinfo.usertoken}` })).body,
    ).toMatchObject({ code: 20000 });
    expect((await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, usertoken: 'stale' }, laptop)).body).toMatchObject({
      code: TASK_UNKNOWN,
    });

    const list = (await call(t, '/api/v4/tasklist', { usertoken: userinfo.usertoken }, laptop)).body;
    expect(list).toMatchObject({ code: 10000, total: 1 });
    expect((list['tasks'] as Array<{ tasktag: string }>).map((entry) => entry.tasktag)).toEqual([task.tasktag]);
    expect((await call(t, '/api/v4/tasklist', {}, stranger)).body).toEqual({ code: 10000, message: '', tasks: [], total: 0 });
  });

  it("shows a visitor's task to the browser that started it and to its tasktoken, never to its device id", async () => {
    const visitor = freshClient();
    const task = await startTask(t, visitor, cad2pdf(['visitor.dxf']));
    expect(visitor.visitorCookie).toMatch(/^xcad_visitor=[\w-]{43}$/);

    // Another client sending the visitor's device id, or a visitor cookie of its own making, sees nothing.
    const thief = { ...freshClient(), deviceid: visitor.deviceid };
    const forger = { ...freshClient(), deviceid: visitor.deviceid, visitorCookie: `xcad_visitor=${'A'.repeat(43)}` };
    for (const caller of [thief, forger]) {
      for (const path of READERS)
        expect((await call(t, path, { tasktag: task.tasktag }, caller)).body, path).toMatchObject({ code: TASK_UNKNOWN });
      expect((await call(t, '/api/v4/tasklist', {}, caller)).body).toMatchObject({ tasks: [], total: 0 });
      expect((await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, tasktoken: 'x'.repeat(43) }, caller)).body).toMatchObject({
        code: TASK_UNKNOWN,
      });
    }
    const qr = (cookie?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v4/sitetaskdownqrcode?tasktag=${task.tasktag}&deviceid=${visitor.deviceid}`,
        headers: cookie === undefined ? {} : { cookie },
      });
    expect((await qr()).statusCode).toBe(404);
    expect((await qr(forger.visitorCookie)).statusCode).toBe(404);

    // The browser that started it (its visitor cookie) reads, lists and sees its QR.
    expect(await state(visitor, task)).toMatchObject({ code: 20000, tasktag: task.tasktag });
    const list = (await call(t, '/api/v4/tasklist', {}, visitor)).body;
    expect((list['tasks'] as Array<{ tasktag: string }>).map((entry) => entry.tasktag)).toEqual([task.tasktag]);
    expect((await qr(visitor.visitorCookie)).statusCode).toBe(200);

    // A client without cookies (the desktop software) reads it with the tasktoken uploadpar gave it.
    const desktop = freshClient();
    expect(
      (await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, ifshowtxt: 1, tasktoken: task.tasktoken }, desktop)).body,
    ).toMatchObject({ code: 20000 });
    expect((await call(t, '/api/v4/taskcancel', { tasktag: task.tasktag, tasktoken: task.tasktoken }, desktop)).body).toMatchObject({
      code: 10000,
      status: 'cancelled',
    });
    expect((await call(t, '/api/v4/tasklist', {}, desktop)).body).toMatchObject({ tasks: [], total: 0 });
  });

  it("lists a visitor's tasks newest first, a page at a time", async () => {
    const caller = freshClient();
    const first = await startTask(t, caller, cad2pdf(['1.dxf']));
    t.clock.advance(1000);
    const second = await startTask(t, caller, cad2pdf(['2.dxf']));
    t.clock.advance(1000);
    const third = await startTask(t, caller, cad2pdf(['3.dxf']));
    const page = (await call(t, '/api/v4/tasklist', { page: 1, pagesize: 2 }, caller)).body;
    expect(page['total']).toBe(3);
    expect((page['tasks'] as Array<{ tasktag: string }>).map((entry) => entry.tasktag)).toEqual([third.tasktag, second.tasktag]);
    const next = (await call(t, '/api/v4/tasklist', { page: 2, pagesize: 2 }, caller)).body;
    expect((next['tasks'] as Array<{ tasktag: string }>).map((entry) => entry.tasktag)).toEqual([first.tasktag]);
  });
});

describe('results', () => {
  async function doneTask(caller: Caller, name = '总平面图.pdf'): Promise<StartedTask> {
    const task = await startTask(t, caller, cad2pdf(['总平面图.dxf']));
    await uploadFile(t, task, 0, DXF, 64 * KB);
    await finishAsRunner(t, task.tasktag, { name, bytes: tinyPdf() });
    return task;
  }

  it('reports progress while converting and the result once done', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['a.dxf', 'b.dxf', 'c.dxf']));
    for (let fileindex = 0; fileindex < 3; fileindex += 1) await uploadFile(t, task, fileindex, DXF, 200 * KB);
    expect((await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, downtype: 2 }, caller)).body).toEqual({
      code: NOT_DONE,
      message: CONVERSION_MESSAGES.notDone,
    });
    await t.database.db
      .updateTable('conversion_task')
      .set({ status: 'processing', progress: 33 })
      .where('tasktag', '=', task.tasktag)
      .execute();
    await t.database.db
      .updateTable('conversion_file')
      .set({ state: 'done' })
      .where('tasktag', '=', task.tasktag)
      .where('fileindex', '=', 0)
      .execute();
    await t.database.db
      .updateTable('conversion_file')
      .set({ state: 'converting' })
      .where('tasktag', '=', task.tasktag)
      .where('fileindex', '=', 1)
      .execute();
    expect(await state(caller, task)).toMatchObject({ code: 20000, status: 'processing', progress: 33, statusdetail: '正在转换 2/3' });
    expect(await state(caller, task, { ifshowtxt: '0' })).toMatchObject({ statusdetail: '' });

    await finishAsRunner(t, task.tasktag, { name: '转换结果_3个文件.zip', bytes: Buffer.from('PK\x05\x06' + '\0'.repeat(18), 'latin1') });
    const done = await state(caller, task);
    expect(done).toMatchObject({ code: 10000, status: 'done', progress: 100, statusdetail: '转换完成' });
    expect(ZTaskStateResponse.safeParse(done).success).toBe(true);
    expect(ZTaskListResponse.safeParse((await call(t, '/api/v4/tasklist', {}, caller)).body).success).toBe(true);
    expect((done['files'] as Array<{ state: string; outputname: string }>)[2]).toMatchObject({
      state: 'done',
      outputname: '转换结果_3个文件.zip',
    });
    expect(done['expiretime']).toBe(Number(done['createtime']) + t.env.CONVERSION_RETENTION_HOURS * 3600);
  });

  it('downloads a done task through a signed link that expires', async () => {
    const caller = freshClient();
    const task = await doneTask(caller);
    const down = (await call(t, '/api/v4/taskdown', { tasktag: task.tasktag, downtype: 2 }, caller)).body;
    expect(ZTaskDownResponse.parse(down)).toMatchObject({ code: 10000, filename: '总平面图.pdf' });
    expect(Number(down['expiretime']) - now()).toBeGreaterThanOrEqual(CONVERSION_LIMITS.downloadUrlTtlSeconds - 2);
    expect(Number(down['expiretime']) - now()).toBeLessThanOrEqual(CONVERSION_LIMITS.downloadUrlTtlSeconds);
    const downurl = String(down['downurl']);
    expect(downurl).toMatch(new RegExp(`^/api/file/result/${task.tasktag}\\?expires=\\d+&sig=[\\w-]+$`));

    const file = await t.app.inject({ method: 'GET', url: downurl });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(tinyPdf())).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="____.pdf"; filename*=UTF-8''${encodeURIComponent('总平面图')}.pdf`,
    );
    expect(file.headers['cache-control']).toBe('private, no-store');
    const part = await t.app.inject({ method: 'GET', url: downurl, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('%PDF-1.4');

    const tampered = await t.app.inject({
      method: 'GET',
      url: downurl.replace(/expires=(\d+)/, (_, value: string) => `expires=${Number(value) + 3600}`),
    });
    expect(tampered.statusCode).toBe(403);
    expect(tampered.json()).toEqual({ code: 403, message: '下载链接无效，请回到转换页面重新下载' });
    const otherTask = await t.app.inject({ method: 'GET', url: downurl.replace(task.tasktag, (await doneTask(caller)).tasktag) });
    expect(otherTask.statusCode).toBe(403);

    t.clock.advance((CONVERSION_LIMITS.downloadUrlTtlSeconds + 1) * 1000);
    try {
      const late = await t.app.inject({ method: 'GET', url: downurl });
      expect(late.statusCode).toBe(403);
      expect(late.json()).toEqual({ code: 403, message: '下载链接已过期，请回到转换页面重新下载' });
      // A new link works again.
      const again = String((await call(t, '/api/v4/taskdown', { tasktag: task.tasktag }, caller)).body['downurl']);
      expect((await t.app.inject({ method: 'GET', url: again })).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(CONVERSION_LIMITS.downloadUrlTtlSeconds + 1) * 1000);
    }
  });

  it('shows a phone QR that leads to the share page, which downloads the result', async () => {
    const caller = freshClient();
    const task = await doneTask(caller, 'plan.pdf');
    const qr = await t.app.inject({
      method: 'GET',
      url: `/api/v4/sitetaskdownqrcode?tasktag=${task.tasktag}`,
      headers: { cookie: caller.visitorCookie ?? '' },
    });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(qr.rawPayload.readUInt32BE(16)).toBeGreaterThanOrEqual(200);

    const shareUrl = new URL(shareUrlOf(t.deps, task.tasktag));
    expect(qr.rawPayload.equals(qrPng(shareUrl.toString()))).toBe(true);
    expect(shareUrl.origin).toBe(new URL(t.env.PUBLIC_ORIGIN).origin);
    expect(shareUrl.pathname).toBe('/share.html');
    expect(shareUrl.searchParams.get('tasktag')).toBe(task.tasktag);
    const code = shareUrl.searchParams.get('code') ?? '';

    const shared = await t.app.inject({ method: 'GET', url: `/api/file/share/${task.tasktag}?code=${code}` });
    expect(shared.json()).toMatchObject({
      code: 10000,
      status: 'done',
      filename: 'plan.pdf',
      files: [{ name: '总平面图.dxf', state: 'done', outputname: 'plan.pdf' }],
    });
    const download = await t.app.inject({ method: 'GET', url: String(shared.json<Record<string, unknown>>()['downurl']) });
    expect(download.rawPayload.equals(tinyPdf())).toBe(true);

    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/file/share/${task.tasktag}?code=${code.slice(0, -1)}${code.endsWith('x') ? 'y' : 'x'}`,
        })
      ).json(),
    ).toMatchObject({ code: TASK_UNKNOWN });
    expect((await t.app.inject({ method: 'GET', url: `/api/v4/sitetaskdownqrcode?tasktag=${task.tasktag}` })).statusCode).toBe(404);

    // Before it is done the share page shows the state and no link.
    const pending = await startTask(t, caller, cad2pdf(['later.dxf']));
    const pendingCode = new URL(shareUrlOf(t.deps, pending.tasktag)).searchParams.get('code') ?? '';
    const pendingView = (await t.app.inject({ method: 'GET', url: `/api/file/share/${pending.tasktag}?code=${pendingCode}` })).json<
      Record<string, unknown>
    >();
    expect(pendingView).toMatchObject({ code: 10000, status: 'uploading', statusdetail: '上传中' });
    expect(pendingView['downurl']).toBeUndefined();
  });
});

describe('cancel', () => {
  it('cancels an upload, deletes its files and refuses further chunks', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf(['x.dwg']));
    await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 0 }, DWG.subarray(0, 500 * KB));
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toHaveLength(1);
    expect((await call(t, '/api/v4/taskcancel', { tasktag: task.tasktag }, caller)).body).toEqual({
      code: 10000,
      message: '',
      status: 'cancelled',
    });
    expect(t.jobs.cancelled).toContain(task.tasktag);
    expect(await storedUnder(`conversion/${task.tasktag}/`)).toEqual([]);
    expect(await chunkRows(task.tasktag)).toBe(0);
    expect(await state(caller, task)).toMatchObject({
      code: 18000,
      status: 'cancelled',
      reason: CONVERSION_MESSAGES.cancelled,
      statusdetail: CONVERSION_MESSAGES.cancelled,
    });
    expect((await sendChunk(t, task, { fileindex: 0, chunks: 3, chunk: 1 }, DWG.subarray(500 * KB, 1000 * KB))).body).toMatchObject({
      code: TASK_UNKNOWN,
    });
  });

  it('cancels a queued task through the jobs, and leaves a done one as it is', async () => {
    const caller = freshClient();
    const queued = await startTask(t, caller, cad2pdf(['q.dxf']));
    await uploadFile(t, queued, 0, DXF, 64 * KB);
    expect((await call(t, '/api/v4/taskcancel', { tasktag: queued.tasktag }, caller)).body).toMatchObject({ status: 'cancelled' });
    expect(t.jobs.cancelled).toContain(queued.tasktag);
    expect(await storedUnder(`conversion/${queued.tasktag}/`)).toEqual([]);

    const done = await startTask(t, caller, cad2pdf(['d.dxf']));
    await uploadFile(t, done, 0, DXF, 64 * KB);
    await finishAsRunner(t, done.tasktag, { name: 'd.pdf', bytes: tinyPdf() });
    expect((await call(t, '/api/v4/taskcancel', { tasktag: done.tasktag }, caller)).body).toMatchObject({ code: 10000, status: 'done' });
    expect(t.jobs.cancelled).not.toContain(done.tasktag);
    expect((await call(t, '/api/v4/taskdown', { tasktag: done.tasktag }, caller)).body).toMatchObject({ code: 10000 });
  });
});

describe('retention', () => {
  it('deletes the files of tasks past their retention and gives up stale uploads', async () => {
    const caller = freshClient();
    const done = await startTask(t, caller, cad2pdf(['kept.dxf']));
    await uploadFile(t, done, 0, DXF, 64 * KB);
    await finishAsRunner(t, done.tasktag, { name: 'kept.pdf', bytes: tinyPdf() });
    const link = String((await call(t, '/api/v4/taskdown', { tasktag: done.tasktag }, caller)).body['downurl']);
    const stale = await startTask(t, caller, cad2pdf(['stale.dxf']));
    await sendChunk(t, stale, { fileindex: 0, chunks: 2, chunk: 0 }, DXF.subarray(0, 10 * KB));

    expect(await sweepConversions(t.deps)).toMatchObject({ purged: 0, abandoned: 0 });
    const upload = CONVERSION_LIMITS.uploadTimeoutSeconds + 1;
    t.clock.advance(upload * 1000);
    const retention = t.env.CONVERSION_RETENTION_HOURS * 3600;
    try {
      // Other tests' uploads left unfinished are given up too.
      expect((await sweepConversions(t.deps)).abandoned).toBeGreaterThanOrEqual(1);
      expect(await state(caller, stale)).toMatchObject({ status: 'failed', reason: '上传超时，请重新上传文件' });
      expect(await storedUnder(`conversion/${stale.tasktag}/`)).toEqual([]);
      expect(await storedUnder(`conversion/${done.tasktag}/`)).not.toEqual([]);

      t.clock.advance((retention - upload) * 1000);
      const swept = await sweepConversions(t.deps);
      expect(swept.purged).toBeGreaterThanOrEqual(2);
      expect(await storedUnder(`conversion/${done.tasktag}/`)).toEqual([]);
      expect((await call(t, '/api/v4/taskdown', { tasktag: done.tasktag }, caller)).body).toEqual({
        code: EXPIRED,
        message: CONVERSION_MESSAGES.expired,
      });
      expect(await state(caller, done)).toEqual({ code: EXPIRED, message: CONVERSION_MESSAGES.expired });
      expect((await call(t, '/api/v4/tasklist', {}, caller)).body).toMatchObject({ tasks: [], total: 0 });
      expect(t.logs.some((line) => line['msg'] === 'conversion retention sweep')).toBe(true);
      expect(await sweepConversions(t.deps)).toMatchObject({ purged: 0, abandoned: 0 });
    } finally {
      t.clock.advance(-retention * 1000);
    }
    // The link was signed before the purge and is still within its time: the file is gone.
    const gone = await t.app.inject({ method: 'GET', url: link });
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toEqual({ code: EXPIRED, message: CONVERSION_MESSAGES.expired });
  });
});

// Decision 0027: spec §9's 50 MB chunks bound from below, on the app as production builds it.
describe('chunks of the spec size', () => {
  let spec: ConversionTestApp;

  beforeAll(async () => {
    spec = await createConversionTestApp({ specChunks: true });
  });

  afterAll(async () => {
    await spec.close();
  });

  it('refuses a chunk under 50 MB but the last, and more chunks than the largest file has', async () => {
    const caller = freshClient();
    const task = await startTask(spec, caller, cad2pdf(['small-chunks.dwg']));
    const refused = { code: CHUNK_INVALID, message: '除最后一个分片外，每个分片须为50MB，请重新上传' };
    // Chunk 0 of 3 with its length announced, and streamed without one.
    expect((await sendChunk(spec, task, { fileindex: 0, chunks: 3, chunk: 0 }, DWG.subarray(0, 500 * KB))).body).toEqual(refused);
    expect(
      (await sendChunk(spec, task, { fileindex: 0, chunks: 3, chunk: 0 }, DWG.subarray(0, 500 * KB), { streamed: true })).body,
    ).toEqual(refused);
    // A visitor's file (50 MB at most) has one chunk: 1,000 declared is refused before any byte is read.
    expect((await sendChunk(spec, task, { fileindex: 0, chunks: 1000, chunk: 999 }, DWG.subarray(0, KB))).body).toEqual(refused);
    expect(await spec.storage.list(`conversion/${task.tasktag}/`)).toEqual([]);
    // The last chunk may be smaller: a file of one chunk completes the task.
    expect((await sendChunk(spec, task, { fileindex: 0, chunks: 1, chunk: 0 }, DWG)).body).toMatchObject({
      code: 10000,
      received: 1,
      filesdone: 1,
    });
  });
});
