import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabaseHandle } from '@xcad/db/testing';
import type { ConversionJobRow, ConversionTaskRow } from '@xcad/db';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { convertDrawing } from '@xcad/cad/convert';
import { readDxf } from '@xcad/cad/dxf';
import { readDwg } from '@xcad/cad/dwg-client';
import { flateBombPdf, minsertBombDxf } from '@xcad/cad/testing';
import { LocalDiskStorage } from '../../../storage';
import type { ConversionJobs } from '../conversion.jobs';
import { JOB_MESSAGES } from './job-messages';
import { claimJob } from './jobs.repository';
import { createLocalJobs, type LocalJobsDeps } from './local-queue';
import { readStoredZip } from './zip';

// Decision 0019: the local conversion queue on the real database (SQLite and PostgreSQL) and real
// storage: corpus drawings converted in conversion processes, and every way a job can go wrong: a
// bad drawing, a hostile one (decision 0027), a process that crashes, hangs or runs out of memory, a
// runner that died holding a lock, two runners on one database, cancels and shutdowns.

const FIXTURES = new URL('../../../../../../packages/cad/test-fixtures/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));
const MISBEHAVING = new URL('./worker.testing.ts', import.meta.url);
const text = (value: string): Buffer => Buffer.from(value);

let database: TestDatabaseHandle;
let storage: LocalDiskStorage;
let scratch: string;
let offsetMs = 0;
const clock = (): number => Date.now() + offsetMs;
const nowSeconds = (): number => Math.floor(clock() / 1000);

beforeAll(async () => {
  database = await createTestDatabase();
  storage = new LocalDiskStorage(await mkdtemp(path.join(tmpdir(), 'xcad-jobs-')));
  scratch = await mkdtemp(path.join(tmpdir(), 'xcad-jobs-scratch-'));
});

afterAll(async () => {
  await database.destroy();
  await rm(storage.root, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
});

interface Runner {
  jobs: ConversionJobs;
  logs: Array<Record<string, unknown>>;
}

const runners: Runner[] = [];

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.jobs.stop()));
});

type RunnerOptions = Partial<Omit<LocalJobsDeps, 'env'>> & { env?: Partial<LocalJobsDeps['env']> };

/** A runner over the test database with fast polling; started unless `start` is false. */
function runner(options: RunnerOptions = {}, start = true): Runner {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      callback();
    },
  });
  const { env, ...rest } = options;
  const jobs = createLocalJobs({
    db: database.db,
    storage,
    log: pino({ level: 'info' }, sink),
    clock,
    env: { CONVERSION_CONCURRENCY: 1, CONVERSION_TIMEOUT_SECONDS: 60, CONVERSION_MEMORY_MB: 512, ...env },
    pollMs: 50,
    watchMs: 100,
    graceMs: 3_000,
    ...rest,
  });
  const created = { jobs, logs };
  runners.push(created);
  if (start) jobs.start();
  return created;
}

interface FileSeed {
  name: string;
  bytes: Buffer;
  kind?: string;
}

/** A task as the upload side leaves it: files stored, 'waiting', the task 'queued'. */
async function createTask(
  files: FileSeed[],
  task: { tasktype?: string; output_ext?: string; file_version?: string; options?: object; status?: 'queued' | 'processing' } = {},
): Promise<string> {
  const tasktag = randomBytes(16).toString('base64url');
  const now = nowSeconds();
  await database.db
    .insertInto('conversion_task')
    .values({
      tasktag,
      token_hash: 'test',
      device_id: 'test-device',
      user_id: null,
      tier: 'visitor',
      tasktype: task.tasktype ?? 'cad2pdf',
      output_ext: task.output_ext ?? 'pdf',
      file_version: task.file_version ?? null,
      options: JSON.stringify(task.options ?? {}),
      filecount: files.length,
      max_file_bytes: 50 * 1024 * 1024,
      status: task.status ?? 'queued',
      progress: 0,
      created_at: now,
      updated_at: now,
      upload_deadline: now + 7200,
      expires_at: now + 86_400,
    })
    .execute();
  for (const [fileindex, file] of files.entries()) {
    const input_key = `conversion/${tasktag}/in/${fileindex}`;
    await storage.put(input_key, file.bytes);
    await database.db
      .insertInto('conversion_file')
      .values({
        tasktag,
        fileindex,
        name: file.name,
        chunks: 1,
        size: file.bytes.length,
        kind: file.kind ?? path.extname(file.name).slice(1).toLowerCase(),
        input_key,
        state: 'waiting',
      })
      .execute();
  }
  return tasktag;
}

const taskOf = (tasktag: string): Promise<ConversionTaskRow> =>
  database.db.selectFrom('conversion_task').selectAll().where('tasktag', '=', tasktag).executeTakeFirstOrThrow();
const jobOf = (tasktag: string): Promise<ConversionJobRow> =>
  database.db.selectFrom('conversion_job').selectAll().where('tasktag', '=', tasktag).executeTakeFirstOrThrow();
const filesOf = (tasktag: string) =>
  database.db.selectFrom('conversion_file').selectAll().where('tasktag', '=', tasktag).orderBy('fileindex').execute();

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

const ended = (tasktag: string, timeoutMs?: number) =>
  waitFor(
    () => taskOf(tasktag),
    (task) => task.status === 'done' || task.status === 'failed',
    timeoutMs,
  );
/** The job once its runner has settled it (the task ends a moment before). */
const jobEnded = (tasktag: string) =>
  waitFor(
    () => jobOf(tasktag),
    (job) => job.status === 'done' || job.status === 'failed',
  );

async function stored(key: string | null): Promise<Buffer> {
  const data = key === null ? undefined : await storage.read(key);
  if (data === undefined) throw new Error(`nothing stored at ${String(key)}`);
  return data;
}

const attemptLines = (runnerLogs: Array<Record<string, unknown>>, tasktag: string) =>
  runnerLogs.filter((line) => line['msg'] === 'conversion attempt' && line['tasktag'] === tasktag);

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const pdfPageCount = (pdf: Buffer): number => pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;

describe('converting corpus drawings', { timeout: 90_000 }, () => {
  it('converts a DXF to PDF: output stored under the input name, task done, one log line', async () => {
    const { jobs, logs } = runner();
    const dxf = fixture('ezdxf_hatches_1.dxf');
    const tasktag = await createTask([{ name: '剖面图.dxf', bytes: dxf }], { options: { paper: 'A4' } });
    await jobs.enqueue(tasktag, 0);
    const task = await ended(tasktag);
    expect(task).toMatchObject({
      status: 'done',
      progress: 100,
      reason: null,
      result_name: '剖面图.pdf',
      result_key: `conversion/${tasktag}/out/0.pdf`,
    });
    const pdf = await stored(task.result_key);
    expect(pdf.toString('latin1', 0, 5)).toBe('%PDF-');
    expect(pdfPageCount(pdf)).toBe(1);
    expect(Number(task.result_size)).toBe(pdf.length);
    const [file] = await filesOf(tasktag);
    expect(file).toMatchObject({ state: 'done', reason: null, output_name: '剖面图.pdf' });
    expect(Number(file?.output_size)).toBe(pdf.length);
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 1, last_error: null });
    const lines = attemptLines(logs, tasktag);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      file: 0,
      name: '剖面图.dxf',
      tool: 'cad2pdf',
      inputBytes: dxf.length,
      outputBytes: pdf.length,
      result: 'done',
      reason: null,
    });
    expect(lines[0]?.['ms']).toEqual(expect.any(Number));
  });

  it('converts a DWG to a PNG of the width asked for', async () => {
    const { jobs } = runner();
    const tasktag = await createTask([{ name: 'sample.dwg', bytes: fixture('acs_sample_AC1015.dwg') }], {
      tasktype: 'cad2jpg',
      output_ext: 'png',
      options: { width: 800 },
    });
    await jobs.enqueue(tasktag, 0);
    const task = await ended(tasktag);
    expect(task).toMatchObject({ status: 'done', result_name: 'sample.png' });
    const { width, height } = pngSize(await stored(task.result_key));
    expect(width).toBe(800);
    expect(height).toBeGreaterThan(100);
  });

  it('several files give one zip; a file that cannot be read is named in the reason', async () => {
    const { jobs } = runner({ env: { CONVERSION_CONCURRENCY: 2 } });
    const tasktag = await createTask([
      { name: '一层平面图.dxf', bytes: fixture('gen_zh_r2018_utf8.dxf') },
      { name: '样图.dwg', bytes: fixture('acs_sample_AC1015.dwg') },
      { name: '损坏.dxf', bytes: text('这不是一张图纸') },
    ]);
    await jobs.enqueue(tasktag, 0);
    const task = await ended(tasktag);
    expect(task).toMatchObject({
      status: 'done',
      progress: 100,
      result_name: '转换结果_2个文件.zip',
      reason: `1个文件转换失败：损坏.dxf（${JOB_MESSAGES.unreadable}）`,
    });
    const entries = readStoredZip(await stored(task.result_key));
    expect(entries.map((entry) => entry.name)).toEqual(['一层平面图.pdf', '样图.pdf']);
    for (const entry of entries) expect(Buffer.from(entry.data).toString('latin1', 0, 5)).toBe('%PDF-');
    expect((await filesOf(tasktag)).map((file) => [file.state, file.reason])).toEqual([
      ['done', null],
      ['done', null],
      ['failed', '文件已损坏或不是有效的DWG/DXF文件'],
    ]);
  });

  it('every layout as images: one zip of the layouts for the file', async () => {
    const { jobs } = runner();
    const tasktag = await createTask([{ name: '视口.dxf', bytes: fixture('ezdxf_VP4.dxf') }], {
      tasktype: 'cad2jpg',
      output_ext: 'png',
      options: { allLayouts: true, width: 300 },
    });
    await jobs.enqueue(tasktag, 0);
    const task = await ended(tasktag);
    // Several images: the task's zip is named for them, each named for its drawing and layout (decision 0036).
    expect(task).toMatchObject({ status: 'done', result_name: '转换结果_2个文件.zip' });
    expect((await filesOf(tasktag)).map((file) => file.output_name)).toEqual(['视口.zip']);
    const entries = readStoredZip(await stored(task.result_key));
    expect(entries.map((entry) => entry.name)).toEqual(['视口_Model.png', '视口_Layout1.png']);
    for (const entry of entries) expect(pngSize(Buffer.from(entry.data)).width).toBe(300);
  });
});

describe('refusals (not retried)', { timeout: 60_000 }, () => {
  it('a task whose only file is not a drawing fails with its reason, after one attempt', async () => {
    const { jobs, logs } = runner();
    const tasktag = await createTask([{ name: 'a.dwg', bytes: text('AC1015 but nothing else') }]);
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: JOB_MESSAGES.unreadable, result_key: null });
    expect((await filesOf(tasktag))[0]).toMatchObject({ state: 'failed', retryable: 0 });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 1 });
    expect(attemptLines(logs, tasktag)).toEqual([expect.objectContaining({ result: 'failed' })]);
  });

  it('cad2ver writes a DXF or a DWG of the version asked, readable again', async () => {
    const { jobs } = runner();
    const r12 = await createTask([{ name: '样条.dxf', bytes: fixture('skydxf_splines.dxf') }], {
      tasktype: 'cad2ver',
      output_ext: 'dxf',
      file_version: 'R12',
    });
    const dwg = await createTask([{ name: '样条.dxf', bytes: fixture('skydxf_splines.dxf') }], {
      tasktype: 'cad2ver',
      output_ext: 'dwg',
      file_version: '2000',
    });
    await jobs.enqueue(r12, 0);
    await jobs.enqueue(dwg, 0);
    expect(await ended(r12)).toMatchObject({ status: 'done', result_name: '样条_R12.dxf' });
    const written = (await storage.read(String((await ended(r12)).result_key))) ?? Buffer.alloc(0);
    expect(written.toString('latin1')).toMatch(/\$ACADVER\s+1\s+AC1009/);
    const source = await readDxf(fixture('skydxf_splines.dxf'));
    const reread = await readDxf(written);
    expect(reread.drawing.modelSpace.length).toBeGreaterThan(0);
    // R12 has no splines: the file's report says they were written as polylines, and how many (decision 0036).
    const [r12Report] = (await filesOf(r12)).map((file) => JSON.parse(file.report ?? 'null') as { changes: unknown[] } | null);
    const splineCount = source.drawing.modelSpace.filter((e) => e.type === 'SPLINE').length;
    expect(r12Report?.changes).toContainEqual({ type: 'SPLINE', count: splineCount, outcome: 'lowered', how: 'polyline' });

    const doneDwg = await ended(dwg);
    expect(doneDwg).toMatchObject({ status: 'done', result_name: '样条_2000.dwg' });
    // The file's report: what it holds (decision 0036).
    const [report] = (await filesOf(dwg)).map((file) => JSON.parse(file.report ?? 'null') as { summary: { objects: number } } | null);
    expect(report?.summary.objects).toBe(source.drawing.modelSpace.length);
    const dwgBytes = (await storage.read(String(doneDwg.result_key))) ?? Buffer.alloc(0);
    expect(dwgBytes.subarray(0, 6).toString('latin1')).toBe('AC1015');
    // Read back by LibreDWG: the splines are all there.
    const fromDwg = await readDwg(dwgBytes);
    const splines = (d: { modelSpace: { type: string }[] }) => d.modelSpace.filter((e) => e.type === 'SPLINE').length;
    expect(splines(fromDwg.drawing)).toBe(splines(source.drawing));
    expect(splines(source.drawing)).toBeGreaterThan(0);
  });

  it('pdf2cad writes a DWG of the version asked', async () => {
    const { jobs } = runner();
    const pdf = (await convertDrawing(fixture('ezdxf_hatches_1.dxf'), { format: 'pdf' })).outputs[0]?.data ?? new Uint8Array();
    const tasktag = await createTask([{ name: '图纸.pdf', bytes: Buffer.from(pdf), kind: 'pdf' }], {
      tasktype: 'pdf2cad',
      output_ext: 'dwg',
      file_version: '2013',
    });
    await jobs.enqueue(tasktag, 0);
    const done = await ended(tasktag);
    expect(done).toMatchObject({ status: 'done', result_name: '图纸_2013.dwg' });
    const bytes = (await storage.read(String(done.result_key))) ?? Buffer.alloc(0);
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('AC1027');
    expect((await readDwg(bytes)).drawing.modelSpace.length).toBeGreaterThan(10);
  });

  it('pdf2cad turns a vector PDF into a DXF, and says so when a PDF has no vectors', async () => {
    const { jobs } = runner();
    const pdf = (await convertDrawing(fixture('ezdxf_hatches_1.dxf'), { format: 'pdf' })).outputs[0]?.data ?? new Uint8Array();
    const vector = await createTask([{ name: '图纸.pdf', bytes: Buffer.from(pdf), kind: 'pdf' }], {
      tasktype: 'pdf2cad',
      output_ext: 'dxf',
    });
    const broken = await createTask([{ name: 'b.pdf', bytes: text('%PDF-1.4 nothing more'), kind: 'pdf' }], {
      tasktype: 'pdf2cad',
      output_ext: 'dxf',
    });
    await jobs.enqueue(vector, 0);
    await jobs.enqueue(broken, 0);
    const done = await ended(vector);
    expect(done).toMatchObject({ status: 'done', result_name: '图纸_2018.dxf' });
    const dxf = (await storage.read(String(done.result_key))) ?? Buffer.alloc(0);
    expect((await readDxf(dxf)).drawing.modelSpace.length).toBeGreaterThan(10);
    expect(await ended(broken)).toMatchObject({ status: 'failed', reason: JOB_MESSAGES.unreadablePdf });
  });

  it('a drawing that takes longer than CONVERSION_TIMEOUT_SECONDS fails as too complex', async () => {
    const { jobs } = runner({ env: { CONVERSION_TIMEOUT_SECONDS: 0.15 } });
    const tasktag = await createTask([{ name: '大图.dwg', bytes: fixture('acs_sample_AC1015.dwg') }]);
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: '图纸过于复杂，转换超时' });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 1 });
    // A quieter moment may convert it: the page offers to convert it again (decision 0036).
    expect((await filesOf(tasktag))[0]).toMatchObject({ state: 'failed', retryable: 1 });
  });

  it('a conversion whose resident memory passes CONVERSION_MEMORY_MB fails as too large', async () => {
    const { jobs } = runner({ workerEntry: MISBEHAVING, env: { CONVERSION_MEMORY_MB: 256 } });
    // Memory outside the JavaScript heap, as pdf.js's inflated streams take it.
    const tasktag = await createTask([{ name: '巨型.dxf', bytes: text('BALLOON:2000') }]);
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: '图纸过大，超出转换内存限制' });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 1 });
    expect((await filesOf(tasktag))[0]).toMatchObject({ state: 'failed', retryable: 1 });
  });
});

describe('hostile drawings (decision 0027)', { timeout: 60_000 }, () => {
  it('a 200-byte DXF with a MINSERT of 10^7 copies fails on the engine budget, with the reason in Chinese', async () => {
    const { jobs } = runner({ env: { CONVERSION_MEMORY_MB: 1536 } });
    const tasktag = await createTask([{ name: '阵列.dxf', bytes: Buffer.from(minsertBombDxf(10_000, 1_000)) }]);
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: '图纸过于复杂：块参照展开后超过300万个图形，无法转换' });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 1 });
    // Over a budget of the drawing: converting again cannot help.
    expect((await filesOf(tasktag))[0]).toMatchObject({ state: 'failed', retryable: 0 });
  });

  it('a PDF whose content inflates to 1 GiB fails before pdf.js reads it, with the reason in Chinese', async () => {
    const { jobs } = runner({ env: { CONVERSION_MEMORY_MB: 1536 } });
    const tasktag = await createTask([{ name: '炸弹.pdf', bytes: Buffer.from(flateBombPdf(2 ** 30)) }], {
      tasktype: 'pdf2cad',
      output_ext: 'dxf',
    });
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: 'PDF内容解压后超过256MB，无法转换' });
  });
});

describe('crashes and retries', { timeout: 60_000 }, () => {
  /** Moves the clock past the job's back-off once it is waiting for it. */
  async function skipBackoff(tasktag: string, attempts: number): Promise<void> {
    const job = await waitFor(
      () => jobOf(tasktag),
      (row) => row.status === 'queued' && row.attempts === attempts,
    );
    expect(job.run_after - nowSeconds()).toBeGreaterThanOrEqual(5 * 2 ** attempts - 2);
    offsetMs += (5 * 2 ** attempts + 1) * 1000;
  }

  it('a conversion process that crashes is retried after a back-off, and the retry converts', async () => {
    const { jobs, logs } = runner({ workerEntry: MISBEHAVING });
    const marker = path.join(scratch, `crash-once-${randomBytes(4).toString('hex')}`);
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text(`CRASH-ONCE:${marker}`) }]);
    await jobs.enqueue(tasktag, 0);
    await skipBackoff(tasktag, 1);
    expect((await taskOf(tasktag)).status).toBe('processing');
    expect(await ended(tasktag)).toMatchObject({ status: 'done', result_name: 'a.pdf' });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'done', attempts: 2 });
    expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['retry', 'done']);
  });

  it('a conversion process that keeps crashing is given up after three attempts', async () => {
    const { jobs, logs } = runner({ workerEntry: MISBEHAVING });
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('CRASH') }]);
    await jobs.enqueue(tasktag, 0);
    await skipBackoff(tasktag, 1);
    await skipBackoff(tasktag, 2);
    expect(await ended(tasktag)).toMatchObject({ status: 'failed', reason: '转换服务繁忙，请稍后重试' });
    expect(await jobEnded(tasktag)).toMatchObject({ status: 'failed', attempts: 3 });
    expect((await filesOf(tasktag))[0]).toMatchObject({ state: 'failed', reason: JOB_MESSAGES.busy, retryable: 1 });
    expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['retry', 'retry', 'retry']);
  });

  it('a job whose runner died (lock expired) is taken again; a live lock is respected', async () => {
    const now = nowSeconds();
    const orphan = await createTask([{ name: 'a.dxf', bytes: fixture('skydxf_splines.dxf') }], { status: 'processing' });
    await database.db.updateTable('conversion_file').set({ state: 'converting' }).where('tasktag', '=', orphan).execute();
    const held = await createTask([{ name: 'b.dxf', bytes: fixture('skydxf_splines.dxf') }], { status: 'processing' });
    const exhausted = await createTask([{ name: 'c.dxf', bytes: fixture('skydxf_splines.dxf') }], { status: 'processing' });
    const lock = (tasktag: string, lockedUntil: number, attempts: number) => ({
      tasktag,
      status: 'running' as const,
      attempts,
      run_after: now - 100,
      locked_by: 'dead-runner',
      locked_until: lockedUntil,
      created_at: now - 100,
      updated_at: now - 100,
    });
    await database.db
      .insertInto('conversion_job')
      .values([lock(orphan, now - 1, 1), lock(held, now + 600, 1), lock(exhausted, now - 1, 3)])
      .execute();

    const { jobs } = runner({ runnerId: 'rescuer' });
    expect(await ended(orphan)).toMatchObject({ status: 'done', result_name: 'a.pdf' });
    expect(await jobEnded(orphan)).toMatchObject({ status: 'done', attempts: 2, locked_by: 'rescuer' });
    expect(await ended(exhausted)).toMatchObject({ status: 'failed', reason: JOB_MESSAGES.busy });
    expect(await jobEnded(exhausted)).toMatchObject({ status: 'failed', attempts: 4 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await jobOf(held)).toMatchObject({ status: 'running', locked_by: 'dead-runner', attempts: 1 });
    expect((await taskOf(held)).status).toBe('processing');
    await jobs.stop();
  });
});

describe('several runners on one database', { timeout: 90_000 }, () => {
  it('concurrent claims never hand one job to two runners', async () => {
    const now = nowSeconds();
    const tags = await Promise.all(Array.from({ length: 8 }, () => createTask([{ name: 'a.dxf', bytes: text('ECHO') }])));
    await database.db
      .insertInto('conversion_job')
      .values(tags.map((tasktag) => ({ tasktag, priority: 500, run_after: now, created_at: now, updated_at: now })))
      .execute();
    const claims = await Promise.all(Array.from({ length: 20 }, (_, index) => claimJob(database.db, `runner-${index % 2}`, now, now + 60)));
    const taken = claims.filter((job) => job !== undefined).map((job) => job.tasktag);
    expect(taken.sort()).toEqual([...tags].sort());
    // Leave nothing claimable behind for the next tests.
    await database.db.updateTable('conversion_job').set({ status: 'done' }).where('tasktag', 'in', tags).execute();
  });

  it('two runners share the queue; every job runs exactly once', async () => {
    const tags: string[] = [];
    for (let index = 0; index < 10; index++) tags.push(await createTask([{ name: `${index}.dxf`, bytes: text('ECHO:150') }]));
    const first = runner({ workerEntry: MISBEHAVING, runnerId: 'first', env: { CONVERSION_CONCURRENCY: 2 } }, false);
    const second = runner({ workerEntry: MISBEHAVING, runnerId: 'second', env: { CONVERSION_CONCURRENCY: 2 } }, false);
    for (const tasktag of tags) await first.jobs.enqueue(tasktag, 0);
    first.jobs.start();
    second.jobs.start();
    for (const tasktag of tags) expect(await ended(tasktag)).toMatchObject({ status: 'done' });
    const done = [...first.logs, ...second.logs].filter(
      (line) => line['msg'] === 'conversion attempt' && tags.includes(line['tasktag'] as string),
    );
    expect(done.map((line) => line['result'])).toEqual(tags.map(() => 'done'));
    expect(new Set(done.map((line) => line['tasktag'])).size).toBe(tags.length);
    expect(new Set(done.map((line) => line['runner']))).toEqual(new Set(['first', 'second']));
  });
});

describe('the queue', { timeout: 60_000 }, () => {
  it('enqueue is idempotent and wakes an idle runner at once', async () => {
    const { jobs } = runner({ workerEntry: MISBEHAVING, pollMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO') }]);
    await jobs.enqueue(tasktag, 0);
    await jobs.enqueue(tasktag, 0);
    expect(await ended(tasktag, 15_000)).toMatchObject({ status: 'done' });
    const rows = await database.db.selectFrom('conversion_job').select('id').where('tasktag', '=', tasktag).execute();
    expect(rows).toHaveLength(1);
  });

  it('runs members first (higher priority), then oldest first', async () => {
    const { jobs, logs } = runner({ workerEntry: MISBEHAVING }, false);
    const visitorA = await createTask([{ name: 'a.dxf', bytes: text('ECHO') }]);
    const visitorB = await createTask([{ name: 'b.dxf', bytes: text('ECHO') }]);
    const member = await createTask([{ name: 'm.dxf', bytes: text('ECHO') }]);
    await jobs.enqueue(visitorA, 0);
    await jobs.enqueue(visitorB, 0);
    await jobs.enqueue(member, 10);
    jobs.start();
    await ended(visitorB);
    await ended(visitorA);
    const order = logs.filter((line) => line['msg'] === 'conversion attempt').map((line) => line['tasktag']);
    expect(order).toEqual([member, visitorA, visitorB]);
  });
});

describe('cancel and stop', { timeout: 60_000 }, () => {
  const converting = (tasktag: string) =>
    waitFor(
      () => filesOf(tasktag),
      (files) => files[0]?.state === 'converting',
    );

  it('cancel mid-job terminates the conversion and leaves the task cancelled', async () => {
    const { jobs, logs } = runner({ workerEntry: MISBEHAVING });
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO:20000') }]);
    await jobs.enqueue(tasktag, 0);
    await converting(tasktag);
    const started = Date.now();
    // What the upload side does on taskcancel.
    await database.db.updateTable('conversion_task').set({ status: 'cancelled' }).where('tasktag', '=', tasktag).execute();
    await jobs.cancel(tasktag);
    expect(
      await waitFor(
        () => jobOf(tasktag),
        (job) => job.status !== 'running',
      ),
    ).toMatchObject({ status: 'done', last_error: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await taskOf(tasktag)).toMatchObject({ status: 'cancelled', result_key: null });
    expect(attemptLines(logs, tasktag)).toEqual([expect.objectContaining({ result: 'cancelled' })]);
  });

  it('a task cancelled by another API process is noticed while it converts', async () => {
    const { jobs } = runner({ workerEntry: MISBEHAVING });
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO:20000') }]);
    await jobs.enqueue(tasktag, 0);
    await converting(tasktag);
    await database.db.updateTable('conversion_task').set({ status: 'cancelled' }).where('tasktag', '=', tasktag).execute();
    expect(
      await waitFor(
        () => jobOf(tasktag),
        (job) => job.status !== 'running',
        5_000,
      ),
    ).toMatchObject({ status: 'done', last_error: 'cancelled' });
    expect((await taskOf(tasktag)).status).toBe('cancelled');
  });

  it('a queued job that is cancelled never runs', async () => {
    const { jobs, logs } = runner({ workerEntry: MISBEHAVING }, false);
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO') }]);
    await jobs.enqueue(tasktag, 0);
    await database.db.updateTable('conversion_task').set({ status: 'cancelled' }).where('tasktag', '=', tasktag).execute();
    await jobs.cancel(tasktag);
    jobs.start();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await jobOf(tasktag)).toMatchObject({ status: 'done', attempts: 0, last_error: 'cancelled' });
    expect(attemptLines(logs, tasktag)).toEqual([]);
  });

  it('stop() lets a short conversion finish; the runner can be started again', async () => {
    const { jobs } = runner({ workerEntry: MISBEHAVING });
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO:300') }]);
    await jobs.enqueue(tasktag, 0);
    await converting(tasktag);
    await jobs.stop();
    expect((await taskOf(tasktag)).status).toBe('done');
    jobs.start();
    const next = await createTask([{ name: 'b.dxf', bytes: text('ECHO') }]);
    await jobs.enqueue(next, 0);
    expect(await ended(next)).toMatchObject({ status: 'done' });
  });

  it('stop() hands a long conversion back to the queue after the grace period, attempt refunded', async () => {
    const { jobs } = runner({ workerEntry: MISBEHAVING, graceMs: 200 });
    const tasktag = await createTask([{ name: 'a.dxf', bytes: text('ECHO:20000') }]);
    await jobs.enqueue(tasktag, 0);
    await converting(tasktag);
    const started = Date.now();
    await jobs.stop();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await jobOf(tasktag)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null });
    expect((await taskOf(tasktag)).status).toBe('queued');
    expect((await filesOf(tasktag))[0]?.state).toBe('waiting');
    // Leave nothing claimable behind for the next tests.
    await database.db.updateTable('conversion_job').set({ status: 'done' }).where('tasktag', '=', tasktag).execute();
  });
});
