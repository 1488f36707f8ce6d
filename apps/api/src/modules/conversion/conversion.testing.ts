// Shared set-up of the conversion API tests: the real app with the conversion routes, a recording
// stand-in for the jobs (another unit: they are tested in jobs/), and the moves of a client
// (uploadpar, chunks) and of the job runner (a task done with its outputs stored).
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CONVERSION_LIMITS, CONVERTER_PRODUCT_ID, type SignableFields } from '@xcad/protocol';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../app';
import { DatabaseLimitStore } from '../../limits';
import { loggerOptions } from '../../logger';
import { call, createAuthTestApp, type AuthTestApp, type Caller, type CallResult } from '../auth/auth.testing';
import type { ConversionDeps } from './conversion.deps';
import type { ConversionJobs } from './conversion.jobs';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../packages/cad/test-fixtures');

/** A corpus drawing of packages/cad/test-fixtures (MIT/CC0, see its CREDITS.md). */
export function fixture(name: string): Buffer {
  return readFileSync(path.join(FIXTURES, name));
}

/** A small but well-formed PDF of one empty page. */
export function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets = objects.map((object, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** Jobs that only remember what they were asked. */
export class RecordingJobs implements ConversionJobs {
  readonly enqueued: Array<{ tasktag: string; priority: number }> = [];
  readonly cancelled: string[] = [];
  enqueue(tasktag: string, priority: number): Promise<void> {
    this.enqueued.push({ tasktag, priority });
    return Promise.resolve();
  }
  cancel(tasktag: string): Promise<void> {
    this.cancelled.push(tasktag);
    return Promise.resolve();
  }
  start(): void {}
  stop(): Promise<void> {
    return Promise.resolve();
  }
}

export interface ConversionTestApp extends AuthTestApp {
  jobs: RecordingJobs;
  deps: ConversionDeps;
  /** Closes the app and builds a new one on the same database and storage (a server restart). */
  restart(): Promise<void>;
}

/** The smallest chunk the upload tests send but a file's last: files of a few hundred KB in several chunks. */
export const TEST_MIN_CHUNK_BYTES = 8 * 1024;

/**
 * The app with recording jobs. Its uploadfile takes chunks down to TEST_MIN_CHUNK_BYTES, for
 * the tests of the upload's mechanics; `specChunks` keeps the production rule of spec §9 (50 MB).
 */
export async function createConversionTestApp(options: { specChunks?: boolean } = {}): Promise<ConversionTestApp> {
  const jobs = new RecordingJobs();
  const minChunkBytes = options.specChunks === true ? undefined : TEST_MIN_CHUNK_BYTES;
  const base = await createAuthTestApp({ conversionJobs: jobs, conversionMinChunkBytes: minChunkBytes });
  const depsOf = (app: FastifyInstance): ConversionDeps => ({
    db: base.database.db,
    env: base.env,
    storage: base.storage,
    log: app.log,
    clock: base.clock.now,
    jobs,
    limits: new DatabaseLimitStore(base.database.db),
    minChunkBytes: minChunkBytes ?? CONVERSION_LIMITS.chunkBytes,
  });
  const t: ConversionTestApp = {
    ...base,
    jobs,
    deps: depsOf(base.app),
    restart: async () => {
      await t.app.close();
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          t.logs.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
          callback();
        },
      });
      t.app = await buildApp({
        env: t.env,
        db: t.database.db,
        logger: pino(loggerOptions(t.env), sink),
        clock: t.clock.now,
        smsProvider: t.outbox,
        storage: t.storage,
        conversionJobs: jobs,
        conversionMinChunkBytes: minChunkBytes,
      });
      t.deps = depsOf(t.app);
    },
    close: async () => {
      await t.app.close();
      await t.database.destroy();
      await rm(t.storage.root, { recursive: true, force: true });
    },
  };
  return t;
}

/** Makes a user a member of the converter (product 202) until `expiry`. */
export async function makeConverterMember(t: ConversionTestApp, uid: string, expiry: number): Promise<void> {
  await t.database.db
    .insertInto('membership')
    .values({ user_id: Number(uid), product_id: CONVERTER_PRODUCT_ID, auth_value: expiry, updated_at: expiry })
    .execute();
}

export interface StartedTask {
  tasktag: string;
  tasktoken: string;
}

export function uploadpar(t: ConversionTestApp, caller: Caller, fields: SignableFields): Promise<CallResult> {
  return call(t, '/api/v4/uploadpar', { limitsize: 51_200, isshare: 0, ...fields }, caller);
}

/** uploadpar that must succeed. */
export async function startTask(t: ConversionTestApp, caller: Caller, fields: SignableFields): Promise<StartedTask> {
  const result = await uploadpar(t, caller, fields);
  if (result.body['code'] !== 10000) throw new Error(`uploadpar refused: ${JSON.stringify(result.body)}`);
  return { tasktag: String(result.body['tasktag']), tasktoken: String(result.body['tasktoken']) };
}

export interface ChunkAddress {
  fileindex: number;
  chunks: number;
  chunk: number;
}

/**
 * POSTs one chunk's raw bytes as the tool pages do; resolves with the status and JSON answer.
 * `streamed` sends them as a stream without Content-Length (chunked), as a proxy may.
 */
export async function sendChunk(
  t: ConversionTestApp,
  task: StartedTask,
  address: ChunkAddress,
  bytes: Buffer,
  options: { streamed?: boolean } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams({
    tasktag: task.tasktag,
    timestamp: String(Math.floor(t.clock.now() / 1000)),
    tasktoken: task.tasktoken,
    fileindex: String(address.fileindex),
    chunks: String(address.chunks),
    chunk: String(address.chunk),
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v4/uploadfile?${query.toString()}`,
    payload: options.streamed === true ? Readable.from([bytes]) : bytes,
    headers: { 'content-type': 'application/octet-stream', ...(options.streamed === true ? { 'transfer-encoding': 'chunked' } : {}) },
  });
  return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
}

/** Splits `bytes` into chunks of `size` (the last one shorter). */
export function chunksOf(bytes: Buffer, size: number): Buffer[] {
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) => bytes.subarray(index * size, (index + 1) * size));
}

/** Uploads a whole file in order; resolves with the last answer. */
export async function uploadFile(
  t: ConversionTestApp,
  task: StartedTask,
  fileindex: number,
  bytes: Buffer,
  size: number,
): Promise<Record<string, unknown>> {
  const parts = chunksOf(bytes, size);
  let last: Record<string, unknown> = {};
  for (const [chunk, part] of parts.entries()) {
    last = (await sendChunk(t, task, { fileindex, chunks: parts.length, chunk }, part)).body;
  }
  return last;
}

/** What the job runner leaves when a task is done: each file's output and the result, stored. */
export async function finishAsRunner(t: ConversionTestApp, tasktag: string, result: { name: string; bytes: Buffer }): Promise<void> {
  const db = t.database.db;
  const files = await db.selectFrom('conversion_file').selectAll().where('tasktag', '=', tasktag).execute();
  for (const file of files) {
    const key = `conversion/${tasktag}/out/${file.fileindex}`;
    await t.storage.put(key, result.bytes);
    await db
      .updateTable('conversion_file')
      .set({ state: 'done', output_key: key, output_name: result.name, output_size: result.bytes.length })
      .where('tasktag', '=', tasktag)
      .where('fileindex', '=', file.fileindex)
      .execute();
  }
  const resultKey = `conversion/${tasktag}/out/result`;
  await t.storage.put(resultKey, result.bytes);
  await db
    .updateTable('conversion_task')
    .set({ status: 'done', progress: 100, result_key: resultKey, result_name: result.name, result_size: result.bytes.length })
    .where('tasktag', '=', tasktag)
    .execute();
}
