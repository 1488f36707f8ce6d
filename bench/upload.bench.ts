// Upload benchmark (`npm run bench:upload`, decision 0019):
// 1. A 200 MB file through `uploadfile` in 50 MB chunks over loopback, against a plain HTTP PUT
//    of the same bytes to a bare Node server (a child process that streams the body to disk)
//    measured in the same run: throughput at least 70% of the baseline, and the API process's
//    memory growth during the upload under 100 MB (its RSS sampled from /proc every 20 ms).
// 2. Ten concurrent conversions of corpus files (DXF and DWG to PDF): tasks per minute with one
//    and with two conversion workers (CONVERSION_CONCURRENCY).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '@xcad/db';
import {
  ApiClientError,
  CONVERTER_PRODUCT_ID,
  DEV_SIGN_SECRET,
  UPLOAD,
  createApiClient,
  endpoints,
  productDevice,
  type ApiClient,
} from '@xcad/protocol';
import { freePort, migrateAndSeed, spawnApi, stopChild, waitForHttp, withEmbeddedDefaults } from '../scripts/lib.mjs';

const FILE_MB = Number(process.env.BENCH_UPLOAD_MB ?? 200);
const ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
const TASKS = 10;
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/cad/test-fixtures');
const CONVERSION_FILES = [
  'ezdxf_hatches_1.dxf',
  'acs_sample_AC1015.dwg',
  'ezdxf_VP4.dxf',
  'skydxf_splines.dxf',
  'ezdxf_mtext_complex_inline_codes.dxf',
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * A file of `mb` MiB that reads as a DXF by its first bytes. It is sent to cad2ver with a DWG
 * output, which the job refuses before reading the input: the API's memory is the upload's alone.
 */
function makeUploadFile(dir: string, mb: number): string {
  const file = path.join(dir, 'upload.dxf');
  const block = randomBytes(1024 * 1024);
  Buffer.from('  0\r\nSECTION\r\n  2\r\nHEADER\r\n', 'latin1').copy(block);
  const fd = openSync(file, 'w');
  for (let index = 0; index < mb; index += 1) writeSync(fd, block);
  closeSync(fd);
  return file;
}

/** RSS of a process in bytes, from /proc. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

/** Samples a process's RSS every 20 ms until stopped; resolves the peak. */
function sampleRss(pid: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}

function bodyOf(file: string, start: number, end: number): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(file, { start, end: end - 1, highWaterMark: 1024 * 1024 })) as ReadableStream<Uint8Array>;
}

/** The baseline: a bare Node server streaming a PUT body to disk, in its own process. */
async function startBareServer(dir: string): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort();
  const script = `
    const http = require('node:http'); const fs = require('node:fs');
    http.createServer((req, res) => {
      const out = fs.createWriteStream(${JSON.stringify(path.join(dir, 'bare.bin'))});
      req.pipe(out); out.on('finish', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); });
    }).listen(${port}, '127.0.0.1', () => console.log('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return { origin: `http://127.0.0.1:${port}`, child };
}

async function putBaseline(origin: string, file: string, size: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/upload`, { method: 'PUT', body: bodyOf(file, 0, size), duplex: 'half' } as RequestInit);
  await response.text();
  if (!response.ok) throw new Error(`bare PUT answered ${response.status}`);
  return (performance.now() - started) / 1000;
}

function clientOf(api: string, deviceid: string): ApiClient {
  return createApiClient({
    baseUrl: api,
    secret: DEV_SIGN_SECRET,
    domain: '127.0.0.1',
    device: () => productDevice(deviceid, { deviceos: 'Linux' }),
  });
}

async function sendChunks(
  api: string,
  task: { tasktag: string; tasktoken: string; timestamp: number },
  fileindex: number,
  file: string,
  size: number,
): Promise<void> {
  const chunkBytes = UPLOAD.conversionChunkBytes;
  const chunks = Math.ceil(size / chunkBytes);
  for (let chunk = 0; chunk < chunks; chunk += 1) {
    const start = chunk * chunkBytes;
    const end = Math.min(size, start + chunkBytes);
    const chunkStarted = performance.now();
    const query = new URLSearchParams({
      tasktag: task.tasktag,
      timestamp: String(task.timestamp),
      tasktoken: task.tasktoken,
      fileindex: String(fileindex),
      chunks: String(chunks),
      chunk: String(chunk),
    });
    const response = await fetch(`${api}/api/v4/uploadfile?${query.toString()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(end - start) },
      body: bodyOf(file, start, end),
      duplex: 'half',
    } as RequestInit);
    const answer = (await response.json()) as { code: number; message?: string };
    if (process.env.BENCH_DEBUG) console.log(`chunk ${chunk}: ${(performance.now() - chunkStarted).toFixed(0)} ms`);
    const expected = chunk === chunks - 1 ? 10000 : 11000;
    if (answer.code !== expected) throw new Error(`chunk ${chunk}: ${JSON.stringify(answer)}`);
  }
}

interface ApiUnderTest {
  origin: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startApi(dir: string, concurrency: number, fresh: boolean): Promise<ApiUnderTest> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = withEmbeddedDefaults({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SQLITE_PATH: path.join(dir, 'bench.sqlite'),
    STORAGE_DIR: path.join(dir, 'storage'),
    API_PORT: String(port),
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    CONVERSION_CONCURRENCY: String(concurrency),
  });
  delete env.DATABASE_URL;
  if (fresh) migrateAndSeed(env);
  const child = spawnApi(env, 'ignore');
  await waitForHttp(`http://127.0.0.1:${port}/health`, 60_000, child);
  return { origin: `http://127.0.0.1:${port}`, child, stop: () => stopChild(child) };
}

/**
 * A converter member (a 200 MB upload is over the visitor's 50 MB): registered through the API
 * with the dev outboxes' codes, the membership written into the database as a purchase would.
 */
async function memberSession(api: string, dir: string): Promise<{ account: string; usertoken: string }> {
  const phone = '13912340001';
  const deviceid = 'bench-upload';
  const client = clientOf(api, deviceid);
  await client.call(endpoints.imgverify, {});
  const captchas = (await (await fetch(`${api}/api/dev/captcha-outbox?deviceid=${deviceid}`)).json()) as {
    captchas: Array<{ text: string }>;
  };
  await client.call(endpoints.smsverify, { account: phone, verifytype: 'register', imgcode: captchas.captchas[0]?.text ?? '' });
  const outbox = (await (await fetch(`${api}/api/dev/sms-outbox?account=${phone}`)).json()) as { messages: Array<{ code: string }> };
  await client.call(endpoints.safregister, { account: phone, smscode: outbox.messages[0]?.code ?? '', password: 'bench1234' });
  const { userinfo } = await client.call(endpoints.login, { account: phone, password: 'bench1234' });
  const { db, destroy } = createDatabase({ sqlitePath: path.join(dir, 'bench.sqlite') });
  try {
    const now = Math.floor(Date.now() / 1000);
    await db
      .insertInto('membership')
      .values({ user_id: Number(userinfo.uid), product_id: CONVERTER_PRODUCT_ID, auth_value: now + 86_400, updated_at: now })
      .execute();
  } finally {
    await destroy();
  }
  return { account: phone, usertoken: userinfo.usertoken };
}

async function uploadRounds(dir: string): Promise<{ apiSeconds: number[]; bareSeconds: number[]; growthBytes: number[] }> {
  const file = makeUploadFile(dir, FILE_MB);
  const size = FILE_MB * 1024 * 1024;
  const bare = await startBareServer(dir);
  const api = await startApi(dir, 1, true);
  const result = { apiSeconds: [] as number[], bareSeconds: [] as number[], growthBytes: [] as number[] };
  try {
    const client = clientOf(api.origin, 'bench-upload');
    const member = await memberSession(api.origin, dir);
    for (let round = 0; round < ROUNDS; round += 1) {
      result.bareSeconds.push(await putBaseline(bare.origin, file, size));
      const task = await client.call(endpoints.uploadpar, {
        ...member,
        filename: 'upload.dxf',
        filecount: 1,
        tasktype: 'cad2ver',
        outputfileextension: 'dwg',
        fileversion: '2004',
        limitsize: 1_000_000,
      });
      const pid = api.child.pid ?? 0;
      const before = rssOf(pid);
      const sampler = sampleRss(pid);
      const started = performance.now();
      await sendChunks(api.origin, task, 0, file, size);
      result.apiSeconds.push((performance.now() - started) / 1000);
      result.growthBytes.push(sampler.stop() - before);
    }
  } finally {
    await api.stop();
    await stopChild(bare.child);
  }
  return result;
}

async function conversionRound(dir: string, concurrency: number): Promise<{ seconds: number; done: number; failed: number }> {
  const api = await startApi(dir, concurrency, false);
  try {
    const started = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: TASKS }, async (_, index) => {
        const name = CONVERSION_FILES[index % CONVERSION_FILES.length] ?? '';
        const bytes = readFileSync(path.join(FIXTURES, name));
        const copy = path.join(dir, `task-${index}-${name}`);
        writeFileSync(copy, bytes);
        const client = clientOf(api.origin, `bench-convert-${concurrency}-${index}`);
        const task = await client.call(endpoints.uploadpar, {
          filename: name,
          filecount: 1,
          tasktype: 'cad2pdf',
          outputfileextension: 'pdf',
        });
        await sendChunks(api.origin, task, 0, copy, bytes.length);
        for (;;) {
          // taskstate answers 20000 while the task runs, which the client reports as a refusal.
          const code = await client.call(endpoints.taskstate, { tasktag: task.tasktag, tasktoken: task.tasktoken, ifshowtxt: 0 }).then(
            (state) => state.code,
            (error: unknown) => (error instanceof ApiClientError ? error.code : 0),
          );
          if (code !== 20000) return code === 10000 ? 'done' : 'failed';
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      seconds,
      done: outcomes.filter((outcome) => outcome === 'done').length,
      failed: outcomes.filter((outcome) => outcome === 'failed').length,
    };
  } finally {
    await api.stop();
  }
}

export async function runUploadBench(): Promise<boolean> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'xcad-bench-upload-'));
  try {
    const rounds = await uploadRounds(dir);
    const mb = FILE_MB * 1024 * 1024;
    const apiMBps = mb / median(rounds.apiSeconds) / 1024 / 1024;
    const bareMBps = mb / median(rounds.bareSeconds) / 1024 / 1024;
    const ratio = apiMBps / bareMBps;
    const growthMB = Math.max(...rounds.growthBytes) / 1024 / 1024;
    console.log(`\nUpload of ${FILE_MB} MB in ${UPLOAD.conversionChunkBytes / 1024 / 1024} MB chunks over loopback (median of ${ROUNDS})`);
    console.log('| target | seconds | MB/s |');
    console.log('|---|---:|---:|');
    console.log(`| bare Node PUT to disk (baseline) | ${median(rounds.bareSeconds).toFixed(2)} | ${bareMBps.toFixed(0)} |`);
    console.log(`| uploadfile, 50 MB chunks | ${median(rounds.apiSeconds).toFixed(2)} | ${apiMBps.toFixed(0)} |`);
    const isThroughputMet = ratio >= 0.7;
    const isMemoryMet = growthMB < 100;
    console.log(`throughput: ${(ratio * 100).toFixed(1)}% of baseline (target >= 70%) ${isThroughputMet ? 'MET' : 'NOT MET'}`);
    console.log(`API memory growth during upload: ${growthMB.toFixed(1)} MB peak (target < 100 MB) ${isMemoryMet ? 'MET' : 'NOT MET'}`);

    console.log(`\n${TASKS} concurrent conversions of corpus files to PDF (${CONVERSION_FILES.join(', ')})`);
    console.log('| workers | seconds | tasks/min | done | failed |');
    console.log('|---:|---:|---:|---:|---:|');
    for (const workers of [1, 2]) {
      const round = await conversionRound(dir, workers);
      console.log(
        `| ${workers} | ${round.seconds.toFixed(1)} | ${((TASKS / round.seconds) * 60).toFixed(0)} | ${round.done} | ${round.failed} |`,
      );
    }
    return isThroughputMet && isMemoryMet;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const isMet = await runUploadBench();
  console.log(`\nTargets ${isMet ? 'met' : 'NOT met'}.`);
}
