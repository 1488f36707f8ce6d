import { createHash, randomBytes } from 'node:crypto';
import {
  ApiError,
  CONVERSION_ERRORS,
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  DWG_OUTPUT_VERSIONS,
  OUTPUT_EXTENSIONS,
  TASK_STATES,
  TASK_TOOLS,
  TASK_TYPES,
  ZFileChange,
  ZFileSummary,
  fileNamesOf,
  sharePath,
  type TTaskDetails,
  type TTaskFile,
  type ZUploadParRequest,
} from '@xcad/protocol';
import type { ConversionFileRow, ConversionTaskRow, ConversionTier } from '@xcad/db';
import { z } from 'zod';
import { limitKey, type Charge } from '../../limits';
import type { StoredObject } from '../../storage';
import {
  beijingDayStart,
  downloadKeyOf,
  downloadSignatureOf,
  isSameText,
  maxFileBytesOf,
  RESULT_PATH_PREFIX,
  shareCodeOf,
  stateCodeOf,
  statusDetailOf,
  taskPrefixOf,
  uploadProgressOf,
  type FileProgress,
} from './conversion-rules';
import { nowSeconds, type ConversionDeps } from './conversion.deps';
import {
  chunksOf,
  deleteChunkRows,
  fileOf,
  filesOf,
  insertTask,
  isConverterMember,
  moveTask,
  ownedTasks,
  taskByTag,
  type ChunkRecord,
  type Viewer,
} from './conversion.repository';

// Decision 0019, the upload side of online conversion: starting a task (uploadpar), what a task looks
// like to its owner (taskstate, tasklist), its download (taskdown, the signed result
// URL, the phone QR's share page) and cancel. Chunks arrive in conversion-upload.ts; the jobs
// (conversion.jobs.ts) convert.

export type UploadParFields = z.output<typeof ZUploadParRequest>;

/** conversion_file.report as run-task stores it. */
const ZFileReport = z.object({ summary: ZFileSummary, changes: z.array(ZFileChange) });

const ACTIVE_STATES = ['uploading', 'queued', 'processing'] as const;

function invalidField(field: string, message: string, logMessage: string): ApiError {
  return new ApiError({ code: CONVERSION_ERRORS.invalidField.codes[0], userMessage: message, logMessage, extra: { field } });
}

function oneOf<T extends string>(values: readonly T[], value: string): T {
  const found = values.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`unexpected value ${JSON.stringify(value)} in a conversion row`);
  return found;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function tokenHashOf(tasktoken: string): string {
  return sha256Hex(tasktoken);
}

/** The stored form of a visitor cookie's secret. */
export function visitorHashOf(secret: string): string {
  return sha256Hex(secret);
}

/** A new visitor cookie's secret: 256 random bits. */
export function newVisitorSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a cookie's value has the form of the secrets newVisitorSecret gives (anything else is ignored). */
export function isVisitorSecret(value: string): boolean {
  return /^[\w-]{43}$/.test(value);
}

/** Who starts a task. */
export interface Creator {
  deviceId: string;
  /** The client address (behind trusted proxies, the one they saw). */
  ip: string;
  userId: number | null;
  /** A visitor's task is theirs by this (the visitor cookie's hash); null for a signed-in user. */
  visitorHash: string | null;
}

/**
 * The day's quota a new task takes (decision 0029): a member's from their user; a visitor's or an
 * ordinary user's from the device, the client address and the user, so neither a new device id
 * per request nor a new address per device slips past it. Every counter ends with the Beijing day.
 */
function quotaCharges(tier: ConversionTier, creator: Creator, nowMs: number, dayStart: number): Charge[] {
  const windowMs = (dayStart + 86_400) * 1000 - nowMs;
  const charge = (limit: number, ...subject: Array<string | number>): Charge => ({
    key: limitKey('conversion', tier, ...subject, dayStart),
    cost: 1,
    limit,
    windowMs,
  });
  const perDay = CONVERSION_LIMITS[tier].tasksPerDay;
  const byUser = creator.userId === null ? [] : [charge(perDay, 'user', creator.userId)];
  if (tier === 'member') return byUser;
  return [
    charge(perDay, 'device', creator.deviceId),
    charge(CONVERSION_LIMITS.freeTasksPerAddressPerDay, 'address', creator.ip),
    ...byUser,
  ];
}

/** uploadpar: checks the request against the tool and the caller's tier, then creates the task. */
export async function createTask(
  deps: ConversionDeps,
  fields: UploadParFields,
  creator: Creator,
): Promise<{ tasktag: string; tasktoken: string; timestamp: number }> {
  const tool = TASK_TOOLS[fields.tasktype];
  if (!tool.outputs.includes(fields.outputfileextension)) {
    throw invalidField(
      'outputfileextension',
      CONVERSION_MESSAGES.outputExtension,
      `${fields.tasktype} cannot make ${fields.outputfileextension}`,
    );
  }
  if (fields.tasktype === 'cad2ver' && fields.fileversion === undefined)
    throw invalidField('fileversion', CONVERSION_MESSAGES.fileVersion, 'cad2ver without fileversion');
  // pdf2cad takes the same versions as cad2ver (decision 0036); without one it writes the default.
  const takesVersion = fields.tasktype === 'cad2ver' || fields.tasktype === 'pdf2cad';
  if (
    takesVersion &&
    fields.outputfileextension === 'dwg' &&
    fields.fileversion !== undefined &&
    !DWG_OUTPUT_VERSIONS.includes(fields.fileversion)
  ) {
    throw invalidField('fileversion', CONVERSION_MESSAGES.dwgVersion(DWG_OUTPUT_VERSIONS), `DWG ${fields.fileversion} is not written`);
  }
  const names = fileNamesOf(fields.filename, fields.filecount);
  if (names === null) throw invalidField('filename', CONVERSION_MESSAGES.fileName, `filename does not name ${fields.filecount} files`);

  const now = nowSeconds(deps);
  const tier: ConversionTier = creator.userId !== null && (await isConverterMember(deps.db, creator.userId, now)) ? 'member' : 'visitor';
  const limits = CONVERSION_LIMITS[tier];
  if (names.length > limits.maxFiles)
    throw invalidField('filecount', CONVERSION_MESSAGES.tooManyFiles(limits.maxFiles), `${names.length} files for a ${tier}`);
  const nowMs = deps.clock();
  const quota = quotaCharges(tier, creator, nowMs, beijingDayStart(now));
  const taken = await deps.limits.consume(quota, nowMs);
  if (!taken.ok) throw ApiError.business(CONVERSION_ERRORS.tooManyTasks, `${tier} quota of the day reached: ${taken.key}`);

  const tasktag = randomBytes(16).toString('base64url');
  const tasktoken = randomBytes(32).toString('base64url');
  const expiresAt = now + Math.round(deps.env.CONVERSION_RETENTION_HOURS * 3600);
  try {
    await deps.db.transaction().execute((trx) =>
      insertTask(
        trx,
        {
          tasktag,
          token_hash: tokenHashOf(tasktoken),
          device_id: creator.deviceId,
          user_id: creator.userId,
          visitor_hash: creator.userId === null ? creator.visitorHash : null,
          tier,
          tasktype: fields.tasktype,
          output_ext: fields.outputfileextension,
          file_version: takesVersion ? (fields.fileversion ?? null) : null,
          options: JSON.stringify(fields.parainfo),
          filecount: names.length,
          max_file_bytes: maxFileBytesOf(tier, fields.limitsize),
          created_at: now,
          upload_deadline: Math.min(expiresAt, now + CONVERSION_LIMITS.uploadTimeoutSeconds),
          expires_at: expiresAt,
        },
        names,
      ),
    );
  } catch (error) {
    // A task that was not created takes nothing from the day's quota.
    await deps.limits.refund(quota, nowMs);
    throw error;
  }
  return { tasktag, tasktoken, timestamp: now };
}

// --- What a task looks like ------------------------------------------------------------------

/** A task is its user's, its visitor cookie's and its tasktoken holder's; the device id proves nothing (decision 0029). */
function isVisibleTo(task: ConversionTaskRow, viewer: Viewer): boolean {
  if (viewer.userId !== null && task.user_id === viewer.userId) return true;
  if (viewer.visitorHash !== null && task.visitor_hash !== null && isSameText(viewer.visitorHash, task.visitor_hash)) return true;
  return viewer.tokenHash !== null && isSameText(viewer.tokenHash, task.token_hash);
}

/** The task if `viewer` may see it; anyone else learns nothing, not even that it exists. */
export async function visibleTask(deps: ConversionDeps, tasktag: string, viewer: Viewer): Promise<ConversionTaskRow> {
  const task = await taskByTag(deps.db, tasktag);
  if (task === undefined || !isVisibleTo(task, viewer))
    throw ApiError.business(CONVERSION_ERRORS.taskUnknown, task === undefined ? 'unknown tasktag' : 'task of someone else');
  return task;
}

/** A converted file's stored report (decision 0036); an unreadable one shows as none rather than failing the call. */
function reportOf(file: ConversionFileRow): Pick<TTaskFile, 'summary' | 'changes'> {
  if (file.report === null) return { summary: null, changes: [] };
  let value: unknown;
  try {
    value = JSON.parse(file.report);
  } catch {
    value = undefined;
  }
  const report = ZFileReport.safeParse(value);
  return report.success ? report.data : { summary: null, changes: [] };
}

function fileDetailsOf(file: ConversionFileRow, chunks: readonly ChunkRecord[]): TTaskFile {
  const count = file.chunks ?? 0;
  const received = file.state === 'uploading' ? chunks.map((chunk) => chunk.chunk) : Array.from({ length: count }, (_, index) => index);
  return {
    fileindex: file.fileindex,
    name: file.name,
    size: Number(file.size),
    received,
    chunks: count,
    state: file.state,
    reason: file.reason,
    retryable: file.state === 'failed' && Number(file.retryable) === 1,
    ...reportOf(file),
    outputname: file.output_name,
    outputsize: file.output_size === null ? null : Number(file.output_size),
  };
}

function progressOf(task: ConversionTaskRow, files: readonly TTaskFile[]): number {
  if (task.status === 'done') return 100;
  if (task.status !== 'uploading') return Math.max(0, Math.min(100, task.progress));
  return uploadProgressOf(
    files.map((file) => ({
      chunks: file.chunks === 0 ? null : file.chunks,
      received: file.received.length,
      finished: false,
      converted: false,
    })),
  );
}

/** The details of several tasks, with two queries for all of their files and chunks. */
async function detailsOf(deps: ConversionDeps, tasks: readonly ConversionTaskRow[], showText: boolean): Promise<TTaskDetails[]> {
  const tags = tasks.map((task) => task.tasktag);
  const uploading = tasks.filter((task) => task.status === 'uploading').map((task) => task.tasktag);
  const [files, chunks] = await Promise.all([filesOf(deps.db, tags), chunksOf(deps.db, uploading)]);
  return tasks.map((task) => {
    const own = files
      .filter((file) => file.tasktag === task.tasktag)
      .map((file) =>
        fileDetailsOf(
          file,
          chunks.filter((chunk) => chunk.tasktag === task.tasktag && chunk.fileindex === file.fileindex),
        ),
      );
    // A picture the drawings were drawn with is no conversion of its own: the lines count the drawings.
    const progress: FileProgress[] = own
      .filter((file) => file.state !== 'attached')
      .map((file) => ({
        chunks: file.chunks,
        received: file.received.length,
        finished: file.state === 'done' || file.state === 'failed',
        converted: file.state === 'done',
      }));
    const status = oneOf(TASK_STATES, task.status);
    return {
      tasktag: task.tasktag,
      tasktype: oneOf(TASK_TYPES, task.tasktype),
      outputfileextension: oneOf(OUTPUT_EXTENSIONS, task.output_ext),
      status,
      progress: progressOf(task, own),
      statusdetail: showText ? statusDetailOf(status, progress, task.reason) : '',
      reason: task.reason,
      files: own,
      createtime: Number(task.created_at),
      expiretime: Number(task.expires_at),
    };
  });
}

/** taskstate: the details and the spec §8 code of the task's state. */
export async function taskState(
  deps: ConversionDeps,
  tasktag: string,
  viewer: Viewer,
  showText: boolean,
): Promise<TTaskDetails & { code: number; message: string }> {
  const task = await visibleTask(deps, tasktag, viewer);
  if (task.purged_at !== null) throw ApiError.business(CONVERSION_ERRORS.expired, 'taskstate of a purged task');
  const [details] = await detailsOf(deps, [task], showText);
  if (details === undefined) throw new Error(`details of ${tasktag} went missing`);
  return { code: stateCodeOf(details.status), message: task.reason ?? '', ...details };
}

export async function listTasks(
  deps: ConversionDeps,
  viewer: Viewer,
  page: number,
  pagesize: number,
): Promise<{ tasks: TTaskDetails[]; total: number }> {
  const { tasks, total } = await ownedTasks(deps.db, viewer, pagesize, (page - 1) * pagesize);
  return { tasks: await detailsOf(deps, tasks, true), total };
}

// --- Downloads -------------------------------------------------------------------------------

/** A done task's result, or the refusal that explains why there is none to download. */
async function storedResultOf(deps: ConversionDeps, task: ConversionTaskRow): Promise<{ object: StoredObject; name: string }> {
  if (task.purged_at !== null) throw ApiError.business(CONVERSION_ERRORS.expired, 'result of a purged task');
  if (task.status !== 'done' || task.result_key === null) throw ApiError.business(CONVERSION_ERRORS.notDone, `task is ${task.status}`);
  const object = await deps.storage.stat(task.result_key);
  if (object === undefined) throw ApiError.business(CONVERSION_ERRORS.expired, 'result object missing');
  return { object, name: task.result_name ?? object.key.slice(object.key.lastIndexOf('/') + 1) };
}

/** One converted file of a done task (decision 0036), under the name it has inside the task's zip. */
async function storedFileOf(
  deps: ConversionDeps,
  task: ConversionTaskRow,
  fileindex: number,
): Promise<{ object: StoredObject; name: string }> {
  if (task.purged_at !== null) throw ApiError.business(CONVERSION_ERRORS.expired, 'file of a purged task');
  if (task.status !== 'done') throw ApiError.business(CONVERSION_ERRORS.notDone, `task is ${task.status}`);
  const file = await fileOf(deps.db, task.tasktag, fileindex);
  if (file?.state !== 'done' || file.output_key === null)
    throw ApiError.business(CONVERSION_ERRORS.notDone, `file ${fileindex} did not convert`);
  const object = await deps.storage.stat(file.output_key);
  if (object === undefined) throw ApiError.business(CONVERSION_ERRORS.expired, 'file output missing');
  return { object, name: file.output_name ?? object.key.slice(object.key.lastIndexOf('/') + 1) };
}

/** A signed, expiring link of a done task's result or of one of its files (no later than the task's retention). */
function downloadLinkOf(deps: ConversionDeps, task: ConversionTaskRow, fileindex?: number): { downurl: string; expiretime: number } {
  const expires = Math.min(nowSeconds(deps) + CONVERSION_LIMITS.downloadUrlTtlSeconds, Number(task.expires_at));
  const sig = downloadSignatureOf(downloadKeyOf(deps.env.PRODUCT_SIGN_SECRET), task.tasktag, expires, fileindex);
  const path = `${RESULT_PATH_PREFIX}${encodeURIComponent(task.tasktag)}${fileindex === undefined ? '' : `/${fileindex}`}`;
  return { downurl: `${path}?expires=${expires}&sig=${sig}`, expiretime: expires };
}

/** taskdown: the link, the file name it downloads as, and until when the link works; of one file with `fileindex`. */
export async function taskDownload(
  deps: ConversionDeps,
  tasktag: string,
  viewer: Viewer,
  fileindex?: number,
): Promise<{ downurl: string; filename: string; expiretime: number }> {
  const task = await visibleTask(deps, tasktag, viewer);
  const { name } = fileindex === undefined ? await storedResultOf(deps, task) : await storedFileOf(deps, task, fileindex);
  return { ...downloadLinkOf(deps, task, fileindex), filename: name };
}

/** Why a result link serves nothing: a wrong signature, a link past its time, a result no longer kept. */
export type ResultRefusal = 'forbidden' | 'linkExpired' | 'gone';

/** GET /api/file/result/{tasktag}[/{fileindex}]: the result (or file) when the link's signature holds and it has not expired. */
export async function signedResult(
  deps: ConversionDeps,
  tasktag: string,
  link: { expires: number; sig: string; fileindex?: number },
): Promise<{ object: StoredObject; name: string } | ResultRefusal> {
  const expected = downloadSignatureOf(downloadKeyOf(deps.env.PRODUCT_SIGN_SECRET), tasktag, link.expires, link.fileindex);
  if (!isSameText(link.sig, expected)) return 'forbidden';
  if (link.expires <= nowSeconds(deps)) return 'linkExpired';
  const task = await taskByTag(deps.db, tasktag);
  if (task === undefined) return 'gone';
  try {
    return link.fileindex === undefined ? await storedResultOf(deps, task) : await storedFileOf(deps, task, link.fileindex);
  } catch (error) {
    if (error instanceof ApiError) return 'gone';
    throw error;
  }
}

// --- The phone page --------------------------------------------------------------------------

export function shareUrlOf(deps: ConversionDeps, tasktag: string): string {
  const code = shareCodeOf(downloadKeyOf(deps.env.PRODUCT_SIGN_SECRET), tasktag);
  return new URL(sharePath(tasktag, code), deps.env.PUBLIC_ORIGIN).toString();
}

export interface ShareView {
  status: TTaskDetails['status'];
  statusdetail: string;
  reason: string | null;
  files: Array<Pick<TTaskFile, 'name' | 'size' | 'state' | 'reason' | 'outputname' | 'outputsize'>>;
  expiretime: number;
  /** Once done: the result's name and a fresh signed link. */
  filename?: string;
  downurl?: string;
}

/** /share.html's call: whoever holds the share code sees the task's files and, once done, its link. */
export async function shareView(deps: ConversionDeps, tasktag: string, code: string): Promise<ShareView> {
  const expected = shareCodeOf(downloadKeyOf(deps.env.PRODUCT_SIGN_SECRET), tasktag);
  const task = isSameText(code, expected) ? await taskByTag(deps.db, tasktag) : undefined;
  if (task === undefined) throw ApiError.business(CONVERSION_ERRORS.taskUnknown, 'share code does not match');
  if (task.purged_at !== null) throw ApiError.business(CONVERSION_ERRORS.expired, 'share of a purged task');
  const [details] = await detailsOf(deps, [task], true);
  if (details === undefined) throw new Error(`details of ${tasktag} went missing`);
  const view: ShareView = {
    status: details.status,
    statusdetail: details.statusdetail,
    reason: details.reason,
    files: details.files.map(({ name, size, state, reason, outputname, outputsize }) => ({
      name,
      size,
      state,
      reason,
      outputname,
      outputsize,
    })),
    expiretime: details.expiretime,
  };
  if (details.status !== 'done') return view;
  const { name } = await storedResultOf(deps, task);
  return { ...view, filename: name, ...downloadLinkOf(deps, task), expiretime: details.expiretime };
}

// --- Ending a task ---------------------------------------------------------------------------

/** Deletes everything a task stored (chunks, uploads, outputs) and its chunk records. */
export async function deleteTaskFiles(deps: ConversionDeps, tasktag: string): Promise<void> {
  await deleteChunkRows(deps.db, tasktag);
  await deps.storage.deletePrefix(taskPrefixOf(tasktag));
}

/** taskcancel: a task still going is cancelled and its files deleted; an ended one stays as it is. */
export async function cancelTask(deps: ConversionDeps, tasktag: string, viewer: Viewer): Promise<TTaskDetails['status']> {
  const task = await visibleTask(deps, tasktag, viewer);
  const cancelled = await moveTask(
    deps.db,
    tasktag,
    ACTIVE_STATES,
    { status: 'cancelled', reason: CONVERSION_MESSAGES.cancelled },
    nowSeconds(deps),
  );
  if (!cancelled) return oneOf(TASK_STATES, (await taskByTag(deps.db, tasktag))?.status ?? task.status);
  await deps.jobs.cancel(tasktag);
  await deleteTaskFiles(deps, tasktag);
  deps.log.info({ tasktag, from: task.status }, 'conversion task cancelled');
  return 'cancelled';
}
