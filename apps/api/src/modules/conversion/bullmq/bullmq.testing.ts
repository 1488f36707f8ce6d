// Shared set-up of the BullMQ provider's tests: the real Redis of this machine (REDIS_URL, else
// 127.0.0.1:6379) under a queue name of this test run's own, tasks as the upload side leaves them,
// and the log lines of one conversion attempt.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import type { ConversionTaskRow, Database } from '@xcad/db';
import type { Storage } from '../../../storage';
import { TEST_REDIS_URL } from '../../../test-app';
import { redisConnection, type ConversionJobData } from './bullmq-config';

export { TEST_REDIS_URL };

/** A queue name no other test run uses. */
export function testQueueName(purpose: string): string {
  return `xcad-test-${randomBytes(6).toString('hex')}-${purpose}`;
}

/** A queue handle for looking at jobs; `remove()` deletes every key of the queue and closes it. */
export function inspectQueue(name: string): { queue: Queue<ConversionJobData>; remove(): Promise<void> } {
  const queue = new Queue<ConversionJobData>(name, { connection: redisConnection(TEST_REDIS_URL) });
  return {
    queue,
    remove: async () => {
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

export interface FileSeed {
  name: string;
  bytes: Buffer;
}

/** A task as the upload side leaves it once every chunk is in: files stored and 'waiting', the task 'queued'. */
export async function createQueuedTask(
  db: Kysely<Database>,
  storage: Storage,
  files: FileSeed[],
  task: { tasktype?: string; output_ext?: string } = {},
): Promise<string> {
  const tasktag = randomBytes(16).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  await db
    .insertInto('conversion_task')
    .values({
      tasktag,
      token_hash: 'test',
      device_id: 'test-device',
      user_id: null,
      tier: 'visitor',
      tasktype: task.tasktype ?? 'cad2pdf',
      output_ext: task.output_ext ?? 'pdf',
      file_version: null,
      options: '{}',
      filecount: files.length,
      max_file_bytes: 50 * 1024 * 1024,
      status: 'queued',
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
    await db
      .insertInto('conversion_file')
      .values({
        tasktag,
        fileindex,
        name: file.name,
        chunks: 1,
        size: file.bytes.length,
        kind: path.extname(file.name).slice(1).toLowerCase(),
        input_key,
        state: 'waiting',
      })
      .execute();
  }
  return tasktag;
}

export function taskRow(db: Kysely<Database>, tasktag: string): Promise<ConversionTaskRow> {
  return db.selectFrom('conversion_task').selectAll().where('tasktag', '=', tasktag).executeTakeFirstOrThrow();
}

/** Reads until `done` holds, every 40 ms; throws with the last value after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

export type LogLine = Record<string, unknown>;

/** The 'conversion attempt' lines (one per file and attempt) of a task. */
export function attemptLines(logs: readonly LogLine[], tasktag: string): LogLine[] {
  return logs.filter((line) => line['msg'] === 'conversion attempt' && line['tasktag'] === tasktag);
}
