import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ConversionFileRow, ConversionJobRow, ConversionTaskRow, Database } from '@xcad/db';
import type { Storage } from '../../../storage';
import {
  acceptsInput,
  layoutImageName,
  outputKeyOf,
  outputNameOf,
  planConversion,
  resultZipKeyOf,
  stemOf,
  uniqueNames,
  type ConversionPlan,
} from './conversion-plan';
import { failedTaskReason, failureList, JOB_MESSAGES } from './job-messages';
import {
  extendLock,
  failUnfinishedFiles,
  findTask,
  finishTask,
  listFiles,
  markFileConverting,
  markFileAttached,
  markFileDone,
  markFileFailed,
  setProgress,
  startTask,
  taskStatus,
  type FileOutput,
  type TaskEnding,
} from './jobs.repository';
import type { Converter } from './worker-pool';
import type { ConversionFailure, ConversionOutcome, ConvertedOutput } from './worker-protocol';
import { readStoredZip, zipStore, type ZipEntry } from './zip';
import { TASK_TOOLS } from '@xcad/protocol';
import { expectedTypesOf } from '../conversion-rules';
import type { CompanionFile } from '@xcad/cad/companions';

// Decision 0019: one attempt at a claimed job: the task's files converted one after the other, each in
// a conversion process (decision 0027), each output stored and recorded as it is done (a retried job
// resumes after the files already converted or refused), then the task's result (one file, or a
// zip of several) and its end. What the drawing is to blame for is recorded on its file and never
// retried; a conversion process that died, or storage or the database failing, makes the attempt
// end as `retry`.

/** Attempts before a job is given up ('转换服务繁忙，请稍后重试'). */
export const MAX_ATTEMPTS = 3;

export interface RunContext {
  db: Kysely<Database>;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Epoch milliseconds. */
  clock: () => number;
  converter: Converter;
  /** This runner's id (conversion_job.locked_by). */
  runner: string;
  /** Time limit of one file's conversion. */
  timeoutMs: number;
  /** How long a runner holds a job without renewing: a file's time limit plus a margin. */
  lockSeconds: number;
  /** How often a conversion under way checks that its task is still wanted (a cancel from another process). */
  watchMs: number;
}

/** Why an attempt ended, for the queue to settle the job. */
export type RunOutcome =
  /** The task ended (done or failed), or there was nothing to run. */
  | { readonly kind: 'finished' }
  | { readonly kind: 'gave-up' }
  | { readonly kind: 'cancelled' }
  /** A crashed thread, storage or the database: the job is worth another attempt later. */
  | { readonly kind: 'retry'; readonly detail: string }
  /** The runner is stopping: the job goes back to the queue as it was. */
  | { readonly kind: 'interrupted' }
  /** The lock expired and another runner took the job. */
  | { readonly kind: 'lost' };

/** Abort reasons of a running job's signal. */
export type StopReason = 'cancel' | 'stop';

type FileResult =
  { readonly kind: 'converted' } | { readonly kind: 'refused' } | Exclude<RunOutcome, { kind: 'finished' | 'gave-up' | 'lost' }>;

const seconds = (ctx: Pick<RunContext, 'clock'>): number => Math.floor(ctx.clock() / 1000);

function abortOutcome(signal: AbortSignal): Extract<RunOutcome, { kind: 'cancelled' | 'interrupted' }> {
  return signal.reason === 'cancel' ? { kind: 'cancelled' } : { kind: 'interrupted' };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Failures that converting again may cure (decision 0036): the time or memory limit of a busy
 * moment, an engine error. Not a drawing that cannot be read, is empty or over a budget, or an option.
 */
const RETRYABLE_FAILURES: ReadonlySet<ConversionFailure> = new Set(['internal', 'timeout', 'memory']);

/** The user's reason for a conversion the drawing is to blame for. */
function reasonOf(outcome: Extract<ConversionOutcome, { ok: false }>, plan: Extract<ConversionPlan, { ok: true }>): string {
  const isPdf = plan.cad?.fromPdf === true;
  switch (outcome.failure) {
    case 'empty':
      return isPdf ? JOB_MESSAGES.rasterPdf : JOB_MESSAGES.empty;
    case 'unknown-layout':
      return JOB_MESSAGES.unknownLayout(plan.options.layout ?? '');
    case 'bad-option':
      return JOB_MESSAGES.badOptions;
    case 'internal':
      return JOB_MESSAGES.internal;
    case 'timeout':
      return JOB_MESSAGES.timeout;
    case 'memory':
      return JOB_MESSAGES.memory;
    case 'limit':
      return outcome.limit === undefined ? JOB_MESSAGES.internal : JOB_MESSAGES.limit(outcome.limit);
    default:
      return isPdf ? JOB_MESSAGES.unreadablePdf : JOB_MESSAGES.unreadable;
  }
}

/** A file's stored output: the one file the engine gave, or a zip of its layouts' images ('原名_布局1.png'). */
function packOutputs(
  file: ConversionFileRow,
  plan: Extract<ConversionPlan, { ok: true }>,
  outputs: readonly ConvertedOutput[],
  modified: Date,
): { data: Uint8Array; name: string; ext: string } {
  const [only] = outputs;
  if (outputs.length === 1 && only !== undefined) return { data: only.data, name: outputNameOf(file.name, plan), ext: plan.ext };
  const names = uniqueNames(outputs.map((output, index) => layoutImageName(file.name, output.layout, index, plan.ext)));
  const entries = outputs.map((output, index) => ({ name: names[index] as string, data: output.data }));
  return { data: zipStore(entries, modified), name: `${stemOf(file.name)}.zip`, ext: 'zip' };
}

/** Aborts with 'cancel' when the task stops being 'processing' (cancelled through another process, swept). */
function watchTask(ctx: RunContext, tasktag: string, signal: AbortSignal): { signal: AbortSignal; stop(): void } {
  const cancelled = new AbortController();
  const timer = setInterval(() => {
    taskStatus(ctx.db, tasktag).then(
      (status) => {
        if (status !== 'processing') cancelled.abort('cancel' satisfies StopReason);
      },
      // A database hiccup here is not a reason to stop converting; the next check may succeed.
      () => undefined,
    );
  }, ctx.watchMs);
  return { signal: AbortSignal.any([signal, cancelled.signal]), stop: () => clearInterval(timer) };
}

/** The most bytes of a task's other files sent with a drawing as what it may refer to. */
export const MAX_COMPANION_BYTES = 64 * 1024 * 1024;

/**
 * What a drawing of the task may refer to (decision 0046): the task's pictures, then its other
 * drawings, smallest first, up to MAX_COMPANION_BYTES in all. Drawn tools only: a save-as keeps
 * references as they are.
 */
async function companionsOf(
  ctx: RunContext,
  plan: Extract<ConversionPlan, { ok: true }>,
  files: readonly ConversionFileRow[],
  file: ConversionFileRow,
  stored: Map<string, Promise<Uint8Array | undefined>>,
): Promise<CompanionFile[]> {
  if (plan.cad !== undefined) return [];
  const tool = TASK_TOOLS[plan.tool];
  const isPicture = (f: ConversionFileRow) => (tool.companions as readonly (string | null)[]).includes(f.kind);
  const candidates = files
    .filter((f) => f !== file && f.input_key !== null && f.state !== 'failed' && (isPicture(f) || acceptsInput(plan.tool, f.kind)))
    .sort((a, b) => Number(isPicture(b)) - Number(isPicture(a)) || Number(a.size) - Number(b.size));
  const out: CompanionFile[] = [];
  let total = 0;
  for (const f of candidates) {
    if (total + Number(f.size) > MAX_COMPANION_BYTES) continue;
    // Each input read once per attempt, however many of the task's drawings it goes with.
    const key = f.input_key as string;
    let read = stored.get(key);
    if (!read) stored.set(key, (read = ctx.storage.read(key)));
    const bytes = await read;
    if (bytes === undefined) continue;
    total += bytes.length;
    out.push({ name: f.name, bytes });
  }
  return out;
}

async function convertFile(
  ctx: RunContext,
  task: ConversionTaskRow,
  plan: ConversionPlan,
  file: ConversionFileRow,
  signal: AbortSignal,
  files: readonly ConversionFileRow[],
  stored: Map<string, Promise<Uint8Array | undefined>>,
): Promise<FileResult> {
  const started = performance.now();
  let inputBytes = 0;
  const logAttempt = (result: string, reason: string | null, outputBytes = 0): void => {
    ctx.log.info(
      {
        tasktag: task.tasktag,
        file: file.fileindex,
        name: file.name,
        tool: task.tasktype,
        runner: ctx.runner,
        inputBytes,
        outputBytes,
        ms: Math.round(performance.now() - started),
        result,
        reason,
      },
      'conversion attempt',
    );
  };
  const refuse = async (reason: string, detail: string = reason, retryable = false): Promise<FileResult> => {
    await markFileFailed(ctx.db, task.tasktag, file.fileindex, reason, retryable);
    logAttempt('failed', detail);
    return { kind: 'refused' };
  };

  try {
    if (!plan.ok) return await refuse(plan.reason);
    // A picture goes with the drawings it came with; without a drawing it is the wrong kind of file.
    const isPicture = (TASK_TOOLS[plan.tool].companions as readonly (string | null)[]).includes(file.kind);
    if (isPicture && files.some((f) => acceptsInput(plan.tool, f.kind))) {
      await markFileAttached(ctx.db, task.tasktag, file.fileindex);
      logAttempt('attached', null);
      return { kind: 'refused' };
    }
    if (!acceptsInput(plan.tool, file.kind))
      return await refuse(JOB_MESSAGES.wrongInput(expectedTypesOf(plan.tool)), `input kind ${String(file.kind)}`);
    await markFileConverting(ctx.db, task.tasktag, file.fileindex);
    const input = file.input_key === null ? undefined : await ctx.storage.read(file.input_key);
    // Sending the file again cures a lost upload.
    if (input === undefined) return await refuse(JOB_MESSAGES.inputMissing, `no stored input at ${String(file.input_key)}`, true);
    inputBytes = input.length;
    const companions = await companionsOf(ctx, plan, files, file, stored);

    const watch = watchTask(ctx, task.tasktag, signal);
    const options = { ...plan.options, name: file.name, dwgTimeoutMs: ctx.timeoutMs, ...(companions.length ? { companions } : {}) };
    const outcome = await ctx.converter
      .convert({ input, options, ...(plan.cad ? { cad: plan.cad } : {}) }, watch.signal)
      .finally(() => watch.stop());

    if (outcome.ok) {
      if (outcome.outputs.length === 0) return await refuse(JOB_MESSAGES.internal, 'the engine returned no output', true);
      const packed = packOutputs(file, plan, outcome.outputs, new Date(ctx.clock()));
      const key = outputKeyOf(task.tasktag, file.fileindex, packed.ext);
      const stored = await ctx.storage.put(key, packed.data);
      await markFileDone(
        ctx.db,
        task.tasktag,
        file.fileindex,
        { key, name: packed.name, size: stored.size },
        JSON.stringify(outcome.report),
      );
      logAttempt('done', null, stored.size);
      return { kind: 'converted' };
    }
    if (outcome.failure === 'crashed') {
      logAttempt('retry', outcome.detail);
      return { kind: 'retry', detail: outcome.detail };
    }
    if (outcome.failure === 'aborted') {
      const stopped = abortOutcome(watch.signal);
      logAttempt(stopped.kind, outcome.detail);
      return stopped;
    }
    return await refuse(reasonOf(outcome, plan), `${outcome.failure}: ${outcome.detail}`, RETRYABLE_FAILURES.has(outcome.failure));
  } catch (error) {
    // Storage or the database failed: nothing is wrong with the drawing.
    logAttempt('retry', describe(error));
    return { kind: 'retry', detail: describe(error) };
  }
}

/**
 * A zip of every converted file under the name its own download has; a file that became a zip of
 * layout images adds its images (named '原名_布局.png' already). Named for the files inside:
 * 转换结果_N个文件.zip (decision 0036).
 */
async function writeResultZip(ctx: RunContext, tasktag: string, files: readonly ConversionFileRow[]): Promise<FileOutput> {
  const entries: ZipEntry[] = [];
  for (const file of files) {
    const data = file.output_key === null ? undefined : await ctx.storage.read(file.output_key);
    if (data === undefined) throw new Error(`the output of file ${file.fileindex} is missing from storage`);
    const name = file.output_name ?? `${stemOf(file.name)}.bin`;
    if (name.toLowerCase().endsWith('.zip')) entries.push(...readStoredZip(data));
    else entries.push({ name, data });
  }
  const names = uniqueNames(entries.map((entry) => entry.name));
  const zip = zipStore(
    entries.map((entry, index) => ({ name: names[index] as string, data: entry.data })),
    new Date(ctx.clock()),
  );
  const key = resultZipKeyOf(tasktag);
  const stored = await ctx.storage.put(key, zip);
  return { key, name: JOB_MESSAGES.resultZipName(entries.length), size: stored.size };
}

/** Ends the task from its files: done with the result when at least one converted, else failed. */
async function finishFromFiles(ctx: RunContext, tasktag: string): Promise<boolean> {
  const files = (await listFiles(ctx.db, tasktag)).filter((file) => file.state !== 'attached');
  const converted = files.filter((file) => file.state === 'done' && file.output_key !== null);
  const failed = files.filter((file) => file.state !== 'done' || file.output_key === null);
  let ending: TaskEnding;
  const [single] = converted;
  if (single === undefined) {
    ending = { status: 'failed', reason: failed.length > 0 ? failedTaskReason(failed) : JOB_MESSAGES.internal };
  } else {
    // One converted file is the result as itself; several, or one that became several images, a zip.
    const isOneFile = converted.length === 1 && !(single.output_name ?? '').toLowerCase().endsWith('.zip');
    const result = isOneFile
      ? {
          key: single.output_key as string,
          name: single.output_name ?? `${stemOf(single.name)}.bin`,
          size: Number(single.output_size ?? 0),
        }
      : await writeResultZip(ctx, tasktag, converted);
    ending = { status: 'done', reason: failed.length > 0 ? JOB_MESSAGES.partial(failed.length, failureList(failed)) : null, result };
  }
  return finishTask(ctx.db, tasktag, ending, seconds(ctx));
}

/** Ends a task that ran out of attempts: its unfinished files fail as 'busy', the rest stands. */
export async function giveUp(ctx: RunContext, tasktag: string): Promise<RunOutcome> {
  ctx.log.warn({ tasktag, runner: ctx.runner }, 'conversion given up after repeated failures');
  if (!(await startTask(ctx.db, tasktag, seconds(ctx)))) return { kind: 'finished' };
  await failUnfinishedFiles(ctx.db, tasktag, JOB_MESSAGES.busy);
  return (await finishFromFiles(ctx, tasktag)) ? { kind: 'gave-up' } : { kind: 'cancelled' };
}

/** Runs one attempt at `job` (already claimed by this runner). Throws on storage and database errors. */
export async function runTask(ctx: RunContext, job: ConversionJobRow, signal: AbortSignal): Promise<RunOutcome> {
  const task = await findTask(ctx.db, job.tasktag);
  if (task === undefined || !(await startTask(ctx.db, task.tasktag, seconds(ctx)))) return { kind: 'finished' };
  // A job whose runners kept dying (its lock expired again and again) is not tried forever.
  if (job.attempts > MAX_ATTEMPTS) return giveUp(ctx, task.tasktag);

  const plan = planConversion(task);
  const files = await listFiles(ctx.db, task.tasktag);
  const ended = (file: ConversionFileRow) => file.state === 'done' || file.state === 'failed' || file.state === 'attached';
  let finished = files.filter(ended).length;
  /** The inputs read as companions in this attempt, by storage key. */
  const stored = new Map<string, Promise<Uint8Array | undefined>>();

  /** Between files: still wanted, still ours. */
  const checkpoint = async (): Promise<RunOutcome | undefined> => {
    if (signal.aborted) return abortOutcome(signal);
    const now = seconds(ctx);
    if (!(await extendLock(ctx.db, job.id, ctx.runner, now + ctx.lockSeconds, now))) return { kind: 'lost' };
    if ((await taskStatus(ctx.db, task.tasktag)) !== 'processing') return { kind: 'cancelled' };
    return undefined;
  };

  for (const file of files) {
    if (ended(file)) continue;
    const stop = await checkpoint();
    if (stop !== undefined) return stop;
    const result = await convertFile(ctx, task, plan, file, signal, files, stored);
    if (result.kind !== 'converted' && result.kind !== 'refused') return result;
    finished += 1;
    await setProgress(ctx.db, task.tasktag, Math.floor((100 * finished) / Math.max(files.length, 1)), seconds(ctx));
  }
  const stop = await checkpoint();
  if (stop !== undefined) return stop;
  return (await finishFromFiles(ctx, task.tasktag)) ? { kind: 'finished' } : { kind: 'cancelled' };
}
