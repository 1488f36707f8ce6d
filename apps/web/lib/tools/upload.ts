import {
  ApiClientError,
  CLIENT_ERRORS,
  CONVERSION_ERRORS,
  CONVERSION_MESSAGES,
  TIMINGS,
  UPLOAD,
  ZTaskDetails,
  ZUploadFileResponse,
  endpoints,
  taskStateOf,
  type ApiClient,
  type FetchLike,
  type TFileChange,
  type TFileSummary,
  type TTaskDetails,
  type TTaskType,
} from '@xcad/protocol';
import type { TaskParams } from './options';

// The upload helper of the online tools (spec §1, §4 "Upload task", decision 0019), free of any UI
// framework: uploadpar creates the task, each file goes up in 50 MB slices (Blob.slice, so a
// file is never read into memory as a whole), a failed slice is sent again after a pause (the
// server takes a slice twice without harm), then taskstate is asked every 2 s until the task is
// done, failed or cancelled. Cancelling stops at once and tells the server (taskcancel).

/** What a picked file offers: its name, size and slices. A browser File is one. */
export interface UploadSource {
  readonly name: string;
  readonly size: number;
  slice(start: number, end: number): Blob;
}

interface ChunkRequest {
  readonly url: string;
  readonly body: Blob;
  readonly signal: AbortSignal;
  /** Bytes of this slice sent so far, when the transport can tell. */
  readonly onProgress: (sentBytes: number) => void;
}

/** An answer: its HTTP status and JSON body (undefined when the body is not JSON). */
interface ChunkAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Sends one slice; rejects when no answer arrived (network, abort). */
export type ChunkTransport = (request: ChunkRequest) => Promise<ChunkAnswer>;

/** The fetch transport: progress only per slice (fetch cannot report upload progress). */
export function fetchTransport(fetchFn: FetchLike, headers: Readonly<Record<string, string>>): ChunkTransport {
  return async ({ url, body, signal, onProgress }) => {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/octet-stream' },
      body,
      signal,
    });
    let answer: unknown;
    try {
      answer = await response.json();
    } catch {
      answer = undefined;
    }
    onProgress(body.size);
    return { status: response.status, body: answer };
  };
}

export interface SignedFields {
  readonly account?: string;
  readonly usertoken?: string;
}

export interface ConversionJob {
  readonly tasktype: TTaskType;
  readonly params: TaskParams;
  readonly files: readonly UploadSource[];
  /** uploadpar's `limitsize` (KB). */
  readonly limitsize: number;
  /** The signed-in user's fields (their tier and history); empty for a visitor. */
  readonly signed: SignedFields;
}

export interface ConversionDeps {
  readonly client: Pick<ApiClient, 'call'>;
  readonly transport: ChunkTransport;
  /** Address of uploadfile, e.g. `https://host/api/v4/uploadfile`. */
  readonly uploadUrl: string;
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly chunkBytes?: number;
  readonly pollIntervalMs?: number;
  /** Pauses before each new attempt at a slice; their count is the number of retries. */
  readonly retryDelaysMs?: readonly number[];
}

/** Pauses before sending a failed slice again: four retries over about 15 s. */
export const CHUNK_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];

/** Failed state requests in a row (network, timeouts) before the page gives up and says so. */
export const POLL_FAILURE_LIMIT = 5;

/** `attached`: a picture the task's drawings were drawn with (not converted itself). */
type FileStage = 'pending' | 'uploading' | 'waiting' | 'converting' | 'done' | 'failed' | 'cancelled' | 'attached';

export interface FileProgress {
  readonly index: number;
  readonly name: string;
  readonly size: number;
  /** Bytes of this file the server has (plus the slice on its way). */
  readonly sentBytes: number;
  readonly stage: FileStage;
  /** Why this file failed, as the server says it. */
  readonly reason: string | null;
  /** A failure that converting again may cure (decision 0036): the page offers 重新转换 only for these. */
  readonly retryable: boolean;
  readonly outputname: string | null;
  /** Once converted: what it holds, and what the target lowered or dropped. */
  readonly summary: TFileSummary | null;
  readonly changes: readonly TFileChange[];
}

type RunPhase = 'starting' | 'uploading' | 'converting' | 'done' | 'failed' | 'cancelled';

export interface RunSnapshot {
  readonly phase: RunPhase;
  readonly tasktag: string | null;
  readonly files: readonly FileProgress[];
  /** The task's progress 0-100 as the server reports it (upload, queue and conversion). */
  readonly progress: number;
  readonly statusdetail: string;
  /** What went wrong, for the page to show; null unless the phase is 'failed'. */
  readonly error: string | null;
  /** When the results are deleted (epoch seconds), once the server said. */
  readonly expiretime: number | null;
}

export function initialSnapshot(files: readonly Pick<UploadSource, 'name' | 'size'>[]): RunSnapshot {
  return {
    phase: 'starting',
    tasktag: null,
    files: files.map((file, index) => ({
      index,
      name: file.name,
      size: file.size,
      sentBytes: 0,
      stage: 'pending',
      reason: null,
      retryable: false,
      outputname: null,
      summary: null,
      changes: [],
    })),
    progress: 0,
    statusdetail: '',
    error: null,
    expiretime: null,
  };
}

const FILE_STAGE_OF: Readonly<Record<TTaskDetails['files'][number]['state'], FileStage>> = {
  uploading: 'uploading',
  waiting: 'waiting',
  converting: 'converting',
  done: 'done',
  failed: 'failed',
  attached: 'attached',
};

const PHASE_OF: Readonly<Record<TTaskDetails['status'], RunPhase>> = {
  uploading: 'uploading',
  queued: 'converting',
  processing: 'converting',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** The snapshot after a taskstate answer: the task's phase and progress, each file's state. */
export function withTaskDetails(snapshot: RunSnapshot, details: TTaskDetails): RunSnapshot {
  const phase = PHASE_OF[details.status];
  const files = snapshot.files.map((file) => {
    const reported = details.files.find((candidate) => candidate.fileindex === file.index);
    if (reported === undefined) return file;
    const stage =
      phase === 'cancelled' && reported.state !== 'done' && reported.state !== 'attached' ? 'cancelled' : FILE_STAGE_OF[reported.state];
    return {
      ...file,
      sentBytes: reported.state === 'uploading' ? file.sentBytes : file.size,
      stage,
      reason: reported.reason,
      retryable: reported.state === 'failed' && reported.retryable,
      outputname: reported.outputname,
      summary: reported.summary,
      changes: reported.changes,
    };
  });
  return {
    ...snapshot,
    phase,
    tasktag: details.tasktag,
    files,
    progress: details.progress,
    statusdetail: details.statusdetail,
    // A failed task without a reason shows the page's own words ('').
    error: phase === 'failed' ? (details.reason ?? details.statusdetail) : null,
    expiretime: details.expiretime,
  };
}

/** The slices the server is still missing, per file (a resumed or incomplete upload). */
export function missingChunksOf(details: TTaskDetails): { fileindex: number; chunk: number }[] {
  return details.files.flatMap((file) =>
    Array.from({ length: file.chunks }, (_, chunk) => chunk)
      .filter((chunk) => !file.received.includes(chunk))
      .map((chunk) => ({ fileindex: file.fileindex, chunk })),
  );
}

/** Slices of a file: at least one, so an upload of an empty file still reaches the server. */
export function chunkCountOf(size: number, chunkBytes: number): number {
  return Math.max(1, Math.ceil(size / chunkBytes));
}

/**
 * taskstate: the client rejects every answer but 10000, yet 20000 (still working) and 18000/19026
 * (failed) carry the task's details as well: those are read like a success. The tasktoken proves
 * the task is this page's even where the browser keeps no cookie (decision 0029).
 */
async function askTaskState(
  client: Pick<ApiClient, 'call'>,
  task: { tasktag: string; tasktoken: string },
  signed: SignedFields,
  signal?: AbortSignal,
): Promise<TTaskDetails> {
  try {
    return await client.call(endpoints.taskstate, { ...signed, ...task, ifshowtxt: 1 }, signal === undefined ? {} : { signal });
  } catch (error) {
    if (error instanceof ApiClientError) {
      const state = taskStateOf(error.code);
      if (state === 'processing' || state === 'failed') {
        const details = ZTaskDetails.safeParse(error.details);
        if (details.success) return details.data;
      }
    }
    throw error;
  }
}

/** A refusal that asking again will not change (an unknown task, a bad request); not network trouble. */
function isFinalRefusal(error: unknown): boolean {
  return error instanceof ApiClientError && error.code > 0;
}

/** A slice or the upload as a whole went wrong; `isFinal`: sending it again will not help. `code`: the server's refusal. */
class UploadError extends Error {
  constructor(
    message: string,
    readonly isFinal: boolean,
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * Refusals of one file (decision 0036): the server refused it alone (its type by content, its size),
 * the task goes on with the others.
 */
const FILE_REFUSAL_CODES: ReadonlySet<number> = new Set([...CONVERSION_ERRORS.wrongType.codes, ...CONVERSION_ERRORS.tooLarge.codes]);

/** Refusals that a new task with the same files cannot escape today (the day's quota, a field the page sent). */
const FINAL_CODES: ReadonlySet<number> = new Set([...CONVERSION_ERRORS.tooManyTasks.codes, ...CONVERSION_ERRORS.invalidField.codes]);

/** Whether converting again may cure a run that broke off with `error` (network trouble, an expired task). */
function isRetryable(error: unknown): boolean {
  const code = error instanceof ApiClientError || error instanceof UploadError ? error.code : null;
  return code === null || !FINAL_CODES.has(code);
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiClientError || error instanceof UploadError) return error.message;
  return CLIENT_ERRORS.network.message;
}

const RETRIED_STATUSES = new Set([408, 425, 429]);

/** A slice's answer: done (with the task complete or not), or an error to retry or to show. */
function readChunkAnswer(answer: ChunkAnswer): { isComplete: boolean } {
  const parsed = ZUploadFileResponse.safeParse(answer.body);
  if (parsed.success) return { isComplete: parsed.data.code === 10000 };
  const isTransient = answer.status >= 500 || RETRIED_STATUSES.has(answer.status);
  const body = answer.body;
  if (!isTransient && typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number') {
    const message =
      'message' in body && typeof body.message === 'string' && body.message !== '' ? body.message : CONVERSION_MESSAGES.chunkInvalid;
    throw new UploadError(message, true, body.code);
  }
  throw new UploadError(CLIENT_ERRORS.badResponse.message, false);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}

export interface ConversionRun {
  /** The last snapshot: done, failed or cancelled. Never rejects. */
  readonly finished: Promise<RunSnapshot>;
  /** Stops the upload or the wait and cancels the task on the server. */
  cancel(): void;
}

/** Starts a conversion; `onUpdate` receives every new snapshot. */
export function startConversion(job: ConversionJob, deps: ConversionDeps, onUpdate: (snapshot: RunSnapshot) => void): ConversionRun {
  const controller = new AbortController();
  const { signal } = controller;
  const sleep = deps.sleep ?? abortableSleep;
  const chunkBytes = deps.chunkBytes ?? UPLOAD.conversionChunkBytes;
  const pollIntervalMs = deps.pollIntervalMs ?? TIMINGS.taskPollIntervalMs;
  const retryDelays = deps.retryDelaysMs ?? CHUNK_RETRY_DELAYS_MS;
  let snapshot = initialSnapshot(job.files);
  /** The task once uploadpar created it: its tag and the token that proves it is this page's. */
  let started: { tasktag: string; tasktoken: string } | null = null;

  const publish = (next: RunSnapshot) => {
    snapshot = next;
    onUpdate(next);
  };
  const updateFile = (index: number, change: Partial<FileProgress>) =>
    publish({ ...snapshot, files: snapshot.files.map((file) => (file.index === index ? { ...file, ...change } : file)) });

  async function createTask() {
    const { params } = job;
    return deps.client.call(
      endpoints.uploadpar,
      {
        ...job.signed,
        filename: job.files.length === 1 ? (job.files[0]?.name ?? '') : JSON.stringify(job.files.map((file) => file.name)),
        filecount: job.files.length,
        tasktype: job.tasktype,
        outputfileextension: params.outputfileextension,
        ...(params.fileversion === undefined ? {} : { fileversion: params.fileversion }),
        limitsize: job.limitsize,
        isshare: UPLOAD.isshare,
        parainfo: params.parainfo,
      },
      { signal },
    );
  }

  /** Sends one slice, again after each pause while it fails for a passing reason. */
  async function sendChunk(
    query: URLSearchParams,
    file: UploadSource,
    fileindex: number,
    chunk: number,
    chunks: number,
    sentBefore: number,
  ) {
    const start = chunk * chunkBytes;
    const body = file.slice(start, Math.min(file.size, start + chunkBytes));
    const url = `${deps.uploadUrl}?${new URLSearchParams({ ...Object.fromEntries(query), fileindex: String(fileindex), chunks: String(chunks), chunk: String(chunk) }).toString()}`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const answer = await deps.transport({
          url,
          body,
          signal,
          onProgress: (sent) => updateFile(fileindex, { sentBytes: Math.min(file.size, sentBefore + sent) }),
        });
        return readChunkAnswer(answer);
      } catch (error) {
        if (signal.aborted || (error instanceof UploadError && error.isFinal)) throw error;
        const pause = retryDelays[attempt];
        if (pause === undefined) throw error;
        updateFile(fileindex, { sentBytes: sentBefore });
        await sleep(pause, signal);
      }
    }
  }

  async function uploadAll(query: URLSearchParams): Promise<boolean> {
    let isComplete = false;
    for (const [fileindex, file] of job.files.entries()) {
      const chunks = chunkCountOf(file.size, chunkBytes);
      updateFile(fileindex, { stage: 'uploading' });
      try {
        for (let chunk = 0; chunk < chunks; chunk += 1) {
          const sentBefore = chunk * chunkBytes;
          ({ isComplete } = await sendChunk(query, file, fileindex, chunk, chunks, sentBefore));
          updateFile(fileindex, { sentBytes: Math.min(file.size, sentBefore + chunkBytes) });
        }
      } catch (error) {
        // This file alone was refused (decision 0036): it says why, the next one goes up.
        if (signal.aborted || !(error instanceof UploadError) || error.code === null || !FILE_REFUSAL_CODES.has(error.code)) throw error;
        updateFile(fileindex, { stage: 'failed', reason: error.message, retryable: false });
        continue;
      }
      updateFile(fileindex, { stage: 'waiting' });
    }
    return isComplete;
  }

  /** Asks taskstate until the task ends; sends the missing slices once if the server lacks some. */
  async function waitForResult(query: URLSearchParams, task: { tasktag: string; tasktoken: string }, isComplete: boolean) {
    let failures = 0;
    let hasResent = isComplete;
    for (;;) {
      let details: TTaskDetails;
      try {
        details = await askTaskState(deps.client, task, job.signed, signal);
        failures = 0;
      } catch (error) {
        if (signal.aborted || isFinalRefusal(error) || failures + 1 >= POLL_FAILURE_LIMIT) throw error;
        failures += 1;
        await sleep(pollIntervalMs, signal);
        continue;
      }
      if (details.status === 'uploading') {
        if (hasResent) throw new UploadError(CONVERSION_MESSAGES.chunkInvalid, true);
        hasResent = true;
        for (const { fileindex, chunk } of missingChunksOf(details)) {
          const file = job.files[fileindex];
          const reported = details.files.find((candidate) => candidate.fileindex === fileindex);
          if (file === undefined || reported === undefined) continue;
          await sendChunk(query, file, fileindex, chunk, reported.chunks, chunk * chunkBytes);
        }
        continue;
      }
      publish(withTaskDetails(snapshot, details));
      if (details.status === 'done' || details.status === 'failed' || details.status === 'cancelled') return;
      await sleep(pollIntervalMs, signal);
    }
  }

  async function cancelled(): Promise<RunSnapshot> {
    publish({
      ...snapshot,
      phase: 'cancelled',
      error: null,
      files: snapshot.files.map((file) => (file.stage === 'done' ? file : { ...file, stage: 'cancelled' })),
    });
    if (started !== null) {
      // Best effort: a task left behind is deleted with the others after the retention period.
      await deps.client.call(endpoints.taskcancel, { ...job.signed, ...started }).catch(() => undefined);
    }
    return snapshot;
  }

  async function run(): Promise<RunSnapshot> {
    try {
      publish({ ...snapshot, phase: 'starting' });
      const task = await createTask();
      started = { tasktag: task.tasktag, tasktoken: task.tasktoken };
      const query = new URLSearchParams({ tasktag: task.tasktag, timestamp: String(task.timestamp), tasktoken: task.tasktoken });
      publish({ ...snapshot, phase: 'uploading', tasktag: task.tasktag });
      const isComplete = await uploadAll(query);
      publish({ ...snapshot, phase: 'converting' });
      await waitForResult(query, started, isComplete);
      return snapshot;
    } catch (error) {
      if (signal.aborted) return cancelled();
      const message = messageOf(error);
      const retryable = isRetryable(error);
      publish({
        ...snapshot,
        phase: 'failed',
        error: message,
        // The file on its way carries the reason; the ones after it never started.
        files: snapshot.files.map((file) => {
          if (file.stage === 'done' || file.stage === 'failed') return file;
          return { ...file, stage: 'failed', reason: file.stage === 'uploading' ? message : file.reason, retryable };
        }),
      });
      return snapshot;
    }
  }

  return {
    finished: run(),
    cancel: () => controller.abort(),
  };
}
