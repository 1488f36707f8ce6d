import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Queue } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createAuthTestApp, freshClient, type AuthTestApp, type Caller } from '../../auth/auth.testing';
import { fixture } from '../conversion.testing';
import type { ConversionJobs } from '../conversion.jobs';
import { readStoredZip } from '../jobs/zip';
import type { ConversionJobData } from './bullmq-config';
import { createBullmqJobs } from './bullmq-jobs';
import {
  attemptLines,
  createQueuedTask,
  inspectQueue,
  taskRow,
  TEST_REDIS_URL,
  testQueueName,
  waitFor,
  type LogLine,
} from './bullmq.testing';

// Decision 0019, CONVERSION_QUEUE=bullmq as deployed: the API (buildApp with the bullmq provider) takes
// uploads and enqueues, and two `npm run worker` processes on the same database, storage and
// Redis queue convert: a corpus DXF to a PDF that downloads, several tasks shared out and each
// converted once, a drawing that cannot be read failed once, and a worker killed (SIGKILL) in the
// middle of a task whose work the other worker takes over.

const WORKER = fileURLToPath(new URL('../../../worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../../../', import.meta.url));
const QUEUE = testQueueName('processes');
/** Also the BullMQ lock of a job: a killed worker's job is handed on within about twice this. */
const TIMEOUT_SECONDS = 8;

interface WorkerProcess {
  child: ChildProcess;
  logs: LogLine[];
  exited: Promise<number | null>;
}

let t: AuthTestApp;
let jobs: ConversionJobs;
let inspected: ReturnType<typeof inspectQueue>;
let queue: Queue<ConversionJobData>;
const workers: WorkerProcess[] = [];

/** `npm run worker` with the test's database, storage and queue; its JSON log lines are collected. */
function startWorker(): WorkerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    CONVERSION_QUEUE: 'bullmq',
    REDIS_URL: TEST_REDIS_URL,
    CONVERSION_QUEUE_NAME: QUEUE,
    CONVERSION_CONCURRENCY: '1',
    CONVERSION_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
    CONVERSION_MEMORY_MB: '512',
    STORAGE_DIR: t.storage.root,
    // Empty counts as unset, and stops a .env from filling either in.
    DATABASE_URL: t.database.engine === 'postgres' ? t.database.location : '',
    SQLITE_PATH: t.database.engine === 'postgres' ? '' : t.database.location,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: LogLine[] = [];
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (data: string) => {
    const lines = (pending + data).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{')) logs.push(JSON.parse(line) as LogLine);
  });
  child.stderr?.setEncoding('utf8').on('data', (data: string) => process.stderr.write(`[worker ${child.pid}] ${data}`));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started: WorkerProcess = { child, logs, exited };
  workers.push(started);
  return started;
}

beforeAll(async () => {
  jobs = createBullmqJobs({ env: { REDIS_URL: TEST_REDIS_URL, CONVERSION_QUEUE_NAME: QUEUE }, log: pino({ level: 'silent' }) });
  t = await createAuthTestApp({ conversionJobs: jobs });
  await t.app.ready();
  inspected = inspectQueue(QUEUE);
  queue = inspected.queue;
  const started = [startWorker(), startWorker()];
  await Promise.all(
    started.map((worker) =>
      waitFor(
        async () => worker.logs,
        (logs) => logs.some((line) => line['msg'] === 'conversion worker started'),
        30_000,
      ),
    ),
  );
}, 40_000);

afterAll(async () => {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await t.close();
  await inspected.remove();
});

const allLogs = (): LogLine[] => workers.flatMap((worker) => worker.logs);

async function upload(caller: Caller, names: string[], files: Buffer[]): Promise<string> {
  const par = await call(
    t,
    '/api/v4/uploadpar',
    { filename: JSON.stringify(names), filecount: names.length, tasktype: 'cad2pdf', outputfileextension: 'pdf' },
    caller,
  );
  expect(par.body).toMatchObject({ code: 10000 });
  const tasktag = String(par.body['tasktag']);
  for (const [fileindex, bytes] of files.entries()) {
    const query = new URLSearchParams({
      tasktag,
      timestamp: String(Math.floor(t.clock.now() / 1000)),
      tasktoken: String(par.body['tasktoken']),
      fileindex: String(fileindex),
      chunks: '1',
      chunk: '0',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v4/uploadfile?${query.toString()}`,
      payload: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(response.json()).toMatchObject({ code: fileindex === files.length - 1 ? 10000 : 11000 });
  }
  return tasktag;
}

function taskstate(caller: Caller, tasktag: string) {
  return waitFor(
    async () => (await call(t, '/api/v4/taskstate', { tasktag, ifshowtxt: 1 }, caller)).body,
    (state) => state['code'] !== 20000,
    30_000,
  );
}

/** The job's state once BullMQ has completed or failed it (a moment after its task ended). */
const finished = (tasktag: string) =>
  waitFor(
    () => queue.getJobState(tasktag),
    (state) => state === 'completed' || state === 'failed',
    10_000,
  );

const runnerPid = (line: LogLine): number => Number(String(line['runner']).split(':')[1]);

describe('CONVERSION_QUEUE=bullmq with two `npm run worker` processes', () => {
  it('converts an uploaded DXF to a PDF that downloads', async () => {
    const caller = freshClient();
    const tasktag = await upload(caller, ['门.dxf'], [fixture('ezdxf_wipeout_door.dxf')]);
    expect(await taskstate(caller, tasktag)).toMatchObject({ code: 10000, status: 'done', progress: 100 });
    const down = await call(t, '/api/v4/taskdown', { tasktag, downtype: 2 }, caller);
    expect(down.body).toMatchObject({ code: 10000, filename: '门.pdf' });
    const file = await t.app.inject({ method: 'GET', url: String(down.body['downurl']) });
    expect(file.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Through Redis, by one of the worker processes.
    expect(await finished(tasktag)).toBe('completed');
    const attempts = attemptLines(allLogs(), tasktag);
    expect(attempts.map((line) => line['result'])).toEqual(['done']);
    expect(workers.map((worker) => worker.child.pid)).toContain(runnerPid(attempts[0] as LogLine));
  });

  it('shares several tasks between the two workers and converts each exactly once', async () => {
    const names = [
      'ezdxf_POLI-ALL210_12.dxf',
      'skydxf_hatches.dxf',
      'ezdxf_small_r13.dxf',
      'ezdxf_text.dxf',
      'gen_zh_r2018_utf8.dxf',
      'ezdxf_hatches_1.dxf',
    ];
    const callers = names.map(() => freshClient());
    const tasktags = await Promise.all(names.map((name, index) => upload(callers[index] as Caller, [name], [fixture(name)])));
    for (const [index, tasktag] of tasktags.entries())
      expect(await taskstate(callers[index] as Caller, tasktag)).toMatchObject({ code: 10000, status: 'done' });

    for (const tasktag of tasktags) expect(await finished(tasktag)).toBe('completed');
    const logs = allLogs();
    for (const tasktag of tasktags) expect(attemptLines(logs, tasktag).map((line) => line['result'])).toEqual(['done']);
    const pids = new Set(tasktags.map((tasktag) => runnerPid(attemptLines(logs, tasktag)[0] as LogLine)));
    expect(pids).toEqual(new Set(workers.map((worker) => worker.child.pid)));

    // An enqueue repeated (a retried last chunk) finds the job and runs nothing again.
    await jobs.enqueue(tasktags[0] as string, 0);
    expect((await queue.getJob(tasktags[0] as string))?.attemptsStarted).toBe(1);
    expect(await queue.getJobCounts('wait', 'prioritized', 'active')).toEqual({ wait: 0, prioritized: 0, active: 0 });
  });

  it('fails a drawing that cannot be read once, without retrying it', async () => {
    const caller = freshClient();
    const tasktag = await upload(caller, ['broken.dwg'], [fixture('acs_sample_AC1015.dwg').subarray(0, 3000)]);
    const state = await taskstate(caller, tasktag);
    expect(state).toMatchObject({ code: 18000, status: 'failed' });
    expect(String(state['reason'])).toContain('文件已损坏');
    expect(await finished(tasktag)).toBe('failed');
    expect((await queue.getJob(tasktag))?.attemptsStarted).toBe(1);
    expect(attemptLines(allLogs(), tasktag)).toHaveLength(1);
  });

  it('a worker killed mid-task: the other one takes the task over and finishes it', async () => {
    const drawing = fixture('mlcad_block-color.dxf');
    const files = Array.from({ length: 8 }, (_, index) => ({ name: `图${index + 1}.dxf`, bytes: drawing }));
    const tasktag = await createQueuedTask(t.database.db, t.storage, files);
    await jobs.enqueue(tasktag, 0);

    // Some files converted, not all: kill the worker holding the task.
    await waitFor(
      () => taskRow(t.database.db, tasktag),
      (row) => row.status === 'processing' && row.progress > 0,
      20_000,
    );
    const held = await t.database.db
      .selectFrom('conversion_job')
      .select('locked_by')
      .where('tasktag', '=', tasktag)
      .executeTakeFirstOrThrow();
    const victim = workers.find((worker) => String(held.locked_by).split(':')[1] === String(worker.child.pid));
    const survivor = workers.find((worker) => worker !== victim && worker.child.exitCode === null);
    if (victim === undefined || survivor === undefined) throw new Error(`no worker process holds ${tasktag}: ${String(held.locked_by)}`);
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;

    const row = await waitFor(
      () => taskRow(t.database.db, tasktag),
      (task) => task.status !== 'processing' && task.status !== 'queued',
      40_000,
    );
    expect(row).toMatchObject({ status: 'done', reason: null, progress: 100 });
    // The lock lapses after TIMEOUT_SECONDS, the stalled-job check runs every half of it; then the rest converts.
    expect(Date.now() - killedAt).toBeLessThan(4 * TIMEOUT_SECONDS * 1000);
    const zip = readStoredZip((await t.storage.read(String(row.result_key))) ?? new Uint8Array());
    expect(zip.map((entry) => entry.name)).toEqual(files.map((file) => file.name.replace('.dxf', '.pdf')));
    for (const entry of zip) expect(Buffer.from(entry.data).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The survivor resumed after the files the killed worker had finished: none converted twice.
    const doneBy = (worker: WorkerProcess) =>
      attemptLines(worker.logs, tasktag)
        .filter((line) => line['result'] === 'done')
        .map((line) => Number(line['file']));
    const before = doneBy(victim);
    const after = doneBy(survivor);
    expect(before.length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThan(0);
    expect([...before, ...after].sort((a, b) => a - b)).toEqual(files.map((_, index) => index));
    expect(await finished(tasktag)).toBe('completed');
    expect((await queue.getJob(tasktag))?.stalledCounter).toBe(1);
  }, 60_000);

  it('SIGTERM stops a worker cleanly', async () => {
    const running = workers.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null);
    expect(running).toHaveLength(1);
    for (const worker of running) worker.child.kill('SIGTERM');
    expect(await Promise.all(running.map((worker) => worker.exited))).toEqual([0]);
  });
});
