import { stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, freshClient } from '../auth/auth.testing';
import { assemblyKeyOf } from './conversion-upload';
import {
  chunksOf,
  createConversionTestApp,
  fixture,
  sendChunk,
  startTask,
  type ConversionTestApp,
  type StartedTask,
} from './conversion.testing';

// Decision 0019 benchmark fix on the real app and database: on local disk the chunks of a file are
// written straight into one assembly object at chunk * chunk size, so a finished file is moved to
// its input rather than copied. What a client sees must not change: any order, retries, a restart
// mid-file, cancel; a chunk that breaks the fixed chunk size is refused.

const CHUNK_INVALID = 15003;
const TASK_UNKNOWN = 15001;
const KB = 1024;
const DXF = fixture('ezdxf_text.dxf');
const SIZE = 100 * KB;
const PARTS = chunksOf(DXF, SIZE);

let t: ConversionTestApp;

beforeAll(async () => {
  t = await createConversionTestApp();
});

afterAll(async () => {
  await t.close();
});

function cad2pdf(name: string) {
  return { tasktype: 'cad2pdf', outputfileextension: 'pdf', filename: name, filecount: 1 };
}

async function send(task: StartedTask, chunk: number, bytes: Buffer, options: { streamed?: boolean } = {}) {
  return (await sendChunk(t, task, { fileindex: 0, chunks: PARTS.length, chunk }, bytes, options)).body;
}

async function stored(task: StartedTask): Promise<string[]> {
  return (await t.storage.list(`conversion/${task.tasktag}/`)).sort();
}

async function receivedChunks(task: StartedTask): Promise<number[]> {
  const rows = await t.database.db
    .selectFrom('conversion_chunk')
    .select('chunk')
    .where('tasktag', '=', task.tasktag)
    .orderBy('chunk')
    .execute();
  return rows.map((row) => row.chunk);
}

/** The file's stored input once its upload is complete, and every object the task keeps. */
async function input(task: StartedTask): Promise<{ bytes: Buffer | undefined; objects: string[]; key: string }> {
  const file = await t.database.db.selectFrom('conversion_file').selectAll().where('tasktag', '=', task.tasktag).executeTakeFirstOrThrow();
  expect(file).toMatchObject({ state: 'waiting', kind: 'dxf', size: DXF.length });
  const key = file.input_key ?? '';
  return { bytes: await t.storage.read(key), objects: await stored(task), key };
}

describe('chunks written in place', () => {
  it('assembles a file sent in order without separate chunk objects, and moves it to the input', async () => {
    expect(PARTS.map((part) => part.length)).toEqual([SIZE, SIZE, DXF.length - 2 * SIZE]);
    const task = await startTask(t, freshClient(), cad2pdf('in-order.dxf'));
    expect(await send(task, 0, PARTS[0]!)).toMatchObject({ code: 11000, received: 1 });
    expect(await send(task, 1, PARTS[1]!)).toMatchObject({ code: 11000, received: 2 });
    const assembly = assemblyKeyOf(task.tasktag, 0);
    expect(await stored(task)).toEqual([assembly]);
    const { ino } = await stat(path.join(t.storage.root, assembly));

    expect(await send(task, 2, PARTS[2]!)).toMatchObject({ code: 10000, received: 3, filesdone: 1 });
    const { bytes, objects, key } = await input(task);
    expect(bytes?.equals(DXF)).toBe(true);
    expect(objects).toEqual([key]);
    // The same file on disk: moved, not copied.
    expect((await stat(path.join(t.storage.root, key))).ino).toBe(ino);
    expect(await receivedChunks(task)).toEqual([]);
  });

  it('gives the original bytes for chunks out of order: the last one first, stored apart and copied in', async () => {
    const task = await startTask(t, freshClient(), cad2pdf('shuffled.dxf'));
    expect(await send(task, 2, PARTS[2]!)).toMatchObject({ code: 11000, received: 1 });
    expect(await send(task, 0, PARTS[0]!)).toMatchObject({ code: 11000, received: 2 });
    expect(await stored(task)).toEqual([assemblyKeyOf(task.tasktag, 0), `conversion/${task.tasktag}/chunks/0/2`]);
    expect(await send(task, 1, PARTS[1]!)).toMatchObject({ code: 10000, received: 3 });
    const { bytes, objects, key } = await input(task);
    expect(bytes?.equals(DXF)).toBe(true);
    expect(objects).toEqual([key]);
  });

  it('rewrites a retried middle chunk in place, whether it was first stored apart or in place', async () => {
    const inPlace = await startTask(t, freshClient(), cad2pdf('retried.dxf'));
    await send(inPlace, 0, PARTS[0]!);
    expect(await send(inPlace, 1, Buffer.alloc(SIZE, 0x55))).toMatchObject({ code: 11000, received: 2 });
    expect(await send(inPlace, 1, PARTS[1]!)).toMatchObject({ code: 11000, received: 2 });
    expect(await send(inPlace, 2, PARTS[2]!)).toMatchObject({ code: 10000, received: 3 });
    expect((await input(inPlace)).bytes?.equals(DXF)).toBe(true);

    // Chunk 1 before chunk 0 sets the chunk size and is stored apart; its retry goes in place.
    const apart = await startTask(t, freshClient(), cad2pdf('retried-apart.dxf'));
    expect(await send(apart, 1, Buffer.alloc(SIZE, 0x55))).toMatchObject({ code: 11000, received: 1 });
    expect(await stored(apart)).toEqual([`conversion/${apart.tasktag}/chunks/0/1`]);
    await send(apart, 0, PARTS[0]!);
    expect(await send(apart, 1, PARTS[1]!)).toMatchObject({ code: 11000, received: 2 });
    expect(await stored(apart)).toEqual([assemblyKeyOf(apart.tasktag, 0)]);
    expect(await send(apart, 2, PARTS[2]!)).toMatchObject({ code: 10000 });
    const result = await input(apart);
    expect(result.bytes?.equals(DXF)).toBe(true);
    expect(result.objects).toEqual([result.key]);
  });

  it('refuses a chunk other than the last whose size differs from the others, and records nothing of it', async () => {
    const task = await startTask(t, freshClient(), cad2pdf('sizes.dxf'));
    await send(task, 0, PARTS[0]!);
    // Announced too short or too long, or streamed without a length (too short, then too long).
    expect(await send(task, 1, PARTS[1]!.subarray(0, SIZE - 1))).toMatchObject({ code: CHUNK_INVALID });
    expect(await send(task, 1, DXF.subarray(SIZE, 2 * SIZE + 1))).toMatchObject({ code: CHUNK_INVALID });
    expect(await send(task, 1, PARTS[1]!.subarray(0, SIZE - 1), { streamed: true })).toMatchObject({ code: CHUNK_INVALID });
    expect(await send(task, 1, DXF.subarray(SIZE, 2 * SIZE + 1), { streamed: true })).toMatchObject({ code: CHUNK_INVALID });
    expect(await receivedChunks(task)).toEqual([0]);
    // The same chunk of the right size, and a last chunk of its own size, complete the file.
    expect(await send(task, 2, PARTS[2]!, { streamed: true })).toMatchObject({ code: 11000, received: 2 });
    expect(await send(task, 1, PARTS[1]!, { streamed: true })).toMatchObject({ code: 10000, received: 3 });
    expect((await input(task)).bytes?.equals(DXF)).toBe(true);

    // A chunk stored apart before chunk 0 sets the size too: chunk 0 must have it.
    const early = await startTask(t, freshClient(), cad2pdf('early.dxf'));
    await send(early, 1, PARTS[1]!);
    expect(await send(early, 0, DXF.subarray(0, SIZE + 10))).toMatchObject({ code: CHUNK_INVALID });
    expect(await receivedChunks(early)).toEqual([1]);
  });

  it('continues a file written in place after a server restart', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf('restart.dxf'));
    await send(task, 0, PARTS[0]!);
    await send(task, 1, PARTS[1]!);

    await t.restart();

    const state = (await call(t, '/api/v4/taskstate', { tasktag: task.tasktag, ifshowtxt: 1 }, caller)).body;
    expect((state['files'] as Array<{ received: number[] }>)[0]!.received).toEqual([0, 1]);
    // A retry of a chunk already in, after the restart, changes nothing.
    expect(await send(task, 1, PARTS[1]!)).toMatchObject({ code: 11000, received: 2 });
    expect(await send(task, 2, PARTS[2]!)).toMatchObject({ code: 10000 });
    expect((await input(task)).bytes?.equals(DXF)).toBe(true);
  });

  it('records nothing of a chunk whose client went away mid-chunk, and takes it again', async () => {
    const task = await startTask(t, freshClient(), cad2pdf('flaky.dxf'));
    await send(task, 0, PARTS[0]!);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const query = `tasktag=${task.tasktag}&tasktoken=${task.tasktoken}&timestamp=${Math.floor(t.clock.now() / 1000)}&fileindex=0&chunks=3&chunk=1`;
    const sent = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v4/uploadfile?${query}`,
      headers: { 'content-type': 'application/octet-stream', 'content-length': SIZE },
    });
    sent.on('error', () => undefined);
    const aborted = t.logs.filter((line) => line['msg'] === 'chunk upload aborted').length;
    await new Promise<void>((resolve) => sent.write(Buffer.alloc(40 * KB, 0x55), () => resolve()));
    sent.destroy();
    await expect.poll(() => t.logs.filter((line) => line['msg'] === 'chunk upload aborted').length, { timeout: 3000 }).toBe(aborted + 1);

    expect(await receivedChunks(task)).toEqual([0]);
    expect(await send(task, 2, PARTS[2]!)).toMatchObject({ code: 11000, received: 2 });
    expect(await send(task, 1, PARTS[1]!)).toMatchObject({ code: 10000, received: 3 });
    expect((await input(task)).bytes?.equals(DXF)).toBe(true);
  });

  it('deletes the assembly when an upload is cancelled midway', async () => {
    const caller = freshClient();
    const task = await startTask(t, caller, cad2pdf('cancelled.dxf'));
    await send(task, 0, PARTS[0]!);
    await send(task, 1, PARTS[1]!);
    expect(await stored(task)).toEqual([assemblyKeyOf(task.tasktag, 0)]);
    expect((await call(t, '/api/v4/taskcancel', { tasktag: task.tasktag }, caller)).body).toMatchObject({
      code: 10000,
      status: 'cancelled',
    });
    expect(await stored(task)).toEqual([]);
    expect(await receivedChunks(task)).toEqual([]);
    expect(await send(task, 2, PARTS[2]!)).toMatchObject({ code: TASK_UNKNOWN });
    expect(await stored(task)).toEqual([]);
  });
});
