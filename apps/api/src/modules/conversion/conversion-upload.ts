import { timingSafeEqual } from 'node:crypto';
import {
  ApiError,
  CONVERSION_ERRORS,
  CONVERSION_LIMITS,
  CONVERSION_MESSAGES,
  TASK_TYPES,
  type TInputKind,
  type TTaskType,
  type TUploadFileQuery,
  type TUploadFileResponse,
} from '@xcad/protocol';
import type { ConversionTaskRow } from '@xcad/db';
import { inPlaceWriterOf, StorageLimitError, type InPlaceWriter } from '../../storage';
import { UploadAbortedError, chunkSource, discardBody, type ChunkBody } from './chunk-body';
import {
  acceptsKind,
  chunkKeyOf,
  expectedTypesOf,
  inputKeyOf,
  jobPriorityOf,
  megabytesOf,
  sniffInputKind,
  SNIFF_BYTES,
  TASK_LINES,
  taskPrefixOf,
} from './conversion-rules';
import { nowSeconds, type ConversionDeps } from './conversion.deps';
import {
  chunksOf,
  claimChunkCount,
  completeFile,
  deleteChunk,
  deleteChunkRows,
  failFile,
  failUploadingFile,
  fileOf,
  filesOf,
  filesStillUploading,
  moveTask,
  setFileKind,
  setFileSize,
  taskByTag,
  upsertChunk,
  type ChunkRecord,
} from './conversion.repository';
import { deleteTaskFiles, tokenHashOf } from './conversion.service';
import { failedTaskReason } from './jobs/job-messages';

// Decision 0019, spec §7 uploadfile: one chunk of one file per request, its raw bytes streamed to
// storage (never held in memory). Chunks may come in any order and again (a retry replaces the
// chunk); each is a row plus a stored object, so an upload continues after a server restart. The
// first chunk of a file is checked for the tool's file type, every chunk against the file's size
// limit; either failing refuses that file alone and deletes what it stored, the task's other files
// go on (decision 0036; the task fails when every file was refused). A file whose chunks are all in
// is assembled into one stored input; when every file is, the task is queued for conversion.
// Every chunk but a file's last has at least spec §9's 50 MB (decision 0027), so a file has a handful
// of chunks and looking at its chunk rows per request costs the same whatever the chunk.
//
// Assembly without a copy (a store with in-place writes: local disk): every chunk but the last
// has the file's fixed chunk size S, so chunk k is written straight into the file's assembly
// object at k*S once S is known (chunk 0 needs none: it starts at 0); completing the file then
// only cuts the assembly to size and moves it to the input. S is the size of any recorded chunk
// but the last, and every later one must have it (the last may have any size: nothing follows it). A chunk that comes before S is known is stored
// on its own, as on S3 (whose objects are written whole), and copied in at completion.

/** Where a file's chunks are written in place: one object per file, moved to its input when whole. */
export function assemblyKeyOf(tasktag: string, fileindex: number): string {
  return `${taskPrefixOf(tasktag)}assembly/${fileindex}`;
}

/** The file's chunk size: the size of any recorded chunk but the last (they all have it). */
function chunkSizeOf(chunks: readonly ChunkRecord[], count: number): number | undefined {
  return chunks.find((chunk) => chunk.chunk < count - 1)?.size;
}

/** Whether a chunk of `size` bytes fits a file whose chunks have `chunkSize`: exactly, unless it is the last. */
function fitsChunkSize(size: number, chunkSize: number, isLast: boolean): boolean {
  return isLast || size === chunkSize;
}

function isRightToken(task: ConversionTaskRow, tasktoken: string): boolean {
  const given = Buffer.from(tokenHashOf(tasktoken), 'hex');
  const stored = Buffer.from(task.token_hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

function chunkInvalid(logMessage: string): ApiError {
  return ApiError.business(CONVERSION_ERRORS.chunkInvalid, logMessage);
}

/** spec §9: a chunk other than a file's last smaller than the chunk size (50 MB). */
function chunkTooSmall(deps: ConversionDeps, logMessage: string): ApiError {
  return new ApiError({
    code: CONVERSION_ERRORS.chunkInvalid.codes[0],
    userMessage: CONVERSION_MESSAGES.chunkSize(megabytesOf(deps.minChunkBytes)),
    logMessage,
  });
}

/** Ends an upload that broke a rule: the task and file fail with `message`, its files are deleted. */
async function failUpload(deps: ConversionDeps, task: ConversionTaskRow, fileindex: number, message: string): Promise<void> {
  const failed = await moveTask(deps.db, task.tasktag, ['uploading'], { status: 'failed', reason: message }, nowSeconds(deps));
  if (!failed) return;
  // Sending the file again may succeed (decision 0036): it is marked worth retrying.
  await failFile(deps.db, task.tasktag, fileindex, message, true);
  await deleteTaskFiles(deps, task.tasktag);
  deps.log.info({ tasktag: task.tasktag, tool: task.tasktype, fileindex, result: 'refused', reason: message }, 'conversion upload refused');
}

/**
 * Refuses one file of a task (decision 0036): the file fails with `message` and what it stored is
 * deleted; the task's other files go on. Once no file is uploading, the task is queued when a file
 * is left to convert, and fails (its files deleted) when every file was refused.
 */
async function refuseFile(deps: ConversionDeps, task: ConversionTaskRow, fileindex: number, message: string): Promise<void> {
  if (!(await failUploadingFile(deps.db, task.tasktag, fileindex, message))) return;
  await deleteChunkRows(deps.db, task.tasktag, fileindex);
  await deps.storage.deletePrefix(`${taskPrefixOf(task.tasktag)}chunks/${fileindex}/`);
  await deps.storage.delete(assemblyKeyOf(task.tasktag, fileindex));
  deps.log.info({ tasktag: task.tasktag, tool: task.tasktype, fileindex, result: 'refused', reason: message }, 'conversion file refused');
  if ((await filesStillUploading(deps.db, task.tasktag)) > 0) return;
  const files = await filesOf(deps.db, [task.tasktag]);
  if (files.some((file) => file.state !== 'failed')) {
    await queueWhenComplete(deps, task);
    return;
  }
  const failed = await moveTask(
    deps.db,
    task.tasktag,
    ['uploading'],
    { status: 'failed', reason: failedTaskReason(files) },
    nowSeconds(deps),
  );
  if (failed) await deleteTaskFiles(deps, task.tasktag);
}

async function tooLarge(deps: ConversionDeps, task: ConversionTaskRow, fileindex: number, logMessage: string): Promise<ApiError> {
  const message = CONVERSION_MESSAGES.tooLarge(megabytesOf(Number(task.max_file_bytes)));
  await refuseFile(deps, task, fileindex, message);
  return new ApiError({ code: CONVERSION_ERRORS.tooLarge.codes[0], userMessage: message, logMessage });
}

async function wrongType(
  deps: ConversionDeps,
  task: ConversionTaskRow,
  tool: TTaskType,
  fileindex: number,
  kind: TInputKind | null,
): Promise<ApiError> {
  const message = CONVERSION_MESSAGES.wrongType(expectedTypesOf(tool));
  await refuseFile(deps, task, fileindex, message);
  return new ApiError({
    code: CONVERSION_ERRORS.wrongType.codes[0],
    userMessage: message,
    logMessage: `a ${kind ?? 'unknown'} file for ${tool}`,
  });
}

function toolOf(task: ConversionTaskRow): TTaskType {
  const tool = TASK_TYPES.find((candidate) => candidate === task.tasktype);
  if (tool === undefined) throw new Error(`task ${task.tasktag} has an unknown tool ${task.tasktype}`);
  return tool;
}

// Assemblies running in this process, by task and file: a second request finishing the same file
// waits for the first instead of racing it for the chunks (which the assembly moves away).
const assembling = new Map<string, Promise<void>>();

/**
 * Assembles a file whose chunks are all in into its stored input, in chunk order; the chunks are
 * consumed. Two requests finishing one file at once are serialised here (in one process) and by
 * the file's conditional state change (across processes): one assembles, the other finds it done.
 */
async function assemble(deps: ConversionDeps, task: ConversionTaskRow, fileindex: number): Promise<void> {
  const lock = `${task.tasktag}/${fileindex}`;
  const running = assembling.get(lock);
  if (running !== undefined) return running;
  const work = assembleOnce(deps, task, fileindex).finally(() => assembling.delete(lock));
  assembling.set(lock, work);
  return work;
}

async function assembleOnce(deps: ConversionDeps, task: ConversionTaskRow, fileindex: number): Promise<void> {
  if ((await fileOf(deps.db, task.tasktag, fileindex))?.state !== 'uploading') return;
  const chunks = await chunksOf(deps.db, [task.tasktag], fileindex);
  const key = inputKeyOf(task.tasktag, fileindex);
  const assembly = assemblyKeyOf(task.tasktag, fileindex);
  const writer = inPlaceWriterOf(deps.storage);
  const isInPlace = writer !== undefined && chunks.some((chunk) => chunk.storage_key === assembly);
  let size: number;
  try {
    if (writer !== undefined && isInPlace) {
      const misfits = misfitsOf(chunks);
      if (misfits.length > 0)
        return await forgetChunks(
          deps,
          task,
          fileindex,
          misfits,
          assembly,
          'conversion chunks of mixed sizes; the client will send them again',
        );
      size = (await sealAssembly(deps, writer, chunks, assembly, key)).size;
    } else {
      size = (
        await deps.storage.compose(
          key,
          chunks.map((chunk) => chunk.storage_key),
          { consume: true },
        )
      ).size;
    }
  } catch (error) {
    // Another process assembled the file first, or the task ended meanwhile.
    if ((await fileOf(deps.db, task.tasktag, fileindex))?.state !== 'uploading') return;
    if ((await taskByTag(deps.db, task.tasktag))?.status !== 'uploading') return;
    // A chunk whose object is gone (a crash mid-assembly) is forgotten: the client sends it again.
    const missing = await missingChunks(deps, chunks);
    if (missing.length === 0) throw error;
    return forgetChunks(deps, task, fileindex, missing, assembly, 'conversion chunks lost; the client will send them again');
  }
  if (!(await completeFile(deps.db, task.tasktag, fileindex, key, size))) return;
  await deleteChunkRows(deps.db, task.tasktag, fileindex);
}

/**
 * Chunks that do not fit the file's chunk size. Each one was checked when it came, but two chunks
 * defining the size at once (a client breaking the fixed size, in parallel) are only seen here.
 */
function misfitsOf(chunks: readonly ChunkRecord[]): ChunkRecord[] {
  const chunkSize = chunkSizeOf(chunks, chunks.length) ?? Number.POSITIVE_INFINITY;
  return chunks.filter((chunk) => !fitsChunkSize(chunk.size, chunkSize, chunk.chunk === chunks.length - 1));
}

/** Forgets chunks (their records and their own objects): the client sends them again (it asks which are missing). */
async function forgetChunks(
  deps: ConversionDeps,
  task: ConversionTaskRow,
  fileindex: number,
  chunks: readonly ChunkRecord[],
  assembly: string,
  message: string,
): Promise<void> {
  for (const chunk of chunks) {
    await deleteChunk(deps.db, chunk);
    if (chunk.storage_key !== assembly) await deps.storage.delete(chunk.storage_key);
  }
  deps.log.warn({ tasktag: task.tasktag, fileindex, chunks: chunks.map((chunk) => chunk.chunk) }, message);
}

/**
 * Completes an assembly written (at least partly) in place: the chunks stored on their own are
 * copied in at their offsets, then it is cut to the file's size and moved to the input.
 */
async function sealAssembly(deps: ConversionDeps, writer: InPlaceWriter, chunks: readonly ChunkRecord[], assembly: string, key: string) {
  const chunkSize = chunkSizeOf(chunks, chunks.length) ?? 0;
  const apart = chunks.filter((chunk) => chunk.storage_key !== assembly);
  for (const chunk of apart) {
    if ((await deps.storage.stat(chunk.storage_key)) === undefined) throw new Error(`chunk ${chunk.storage_key} is missing`);
    await writer.writeAt(assembly, chunk.chunk * chunkSize, deps.storage.stream(chunk.storage_key), { maxBytes: chunk.size });
  }
  const last = chunks[chunks.length - 1];
  const stored = await writer.seal(assembly, key, (chunks.length - 1) * chunkSize + (last?.size ?? 0));
  await Promise.all(apart.map((chunk) => deps.storage.delete(chunk.storage_key)));
  return stored;
}

async function missingChunks(deps: ConversionDeps, chunks: readonly ChunkRecord[]): Promise<ChunkRecord[]> {
  const found = await Promise.all(chunks.map(async (chunk) => ((await deps.storage.stat(chunk.storage_key)) === undefined ? chunk : null)));
  return found.filter((chunk) => chunk !== null);
}

/** Queues a task whose every file is in (once, whoever gets here first) and logs the finished upload. */
async function queueWhenComplete(deps: ConversionDeps, task: ConversionTaskRow): Promise<boolean> {
  if ((await filesStillUploading(deps.db, task.tasktag)) > 0) return false;
  const now = nowSeconds(deps);
  if (await moveTask(deps.db, task.tasktag, ['uploading'], { status: 'queued', progress: 0 }, now)) {
    await deps.jobs.enqueue(task.tasktag, jobPriorityOf(task.tier));
    const files = await filesOf(deps.db, [task.tasktag]);
    deps.log.info(
      {
        tasktag: task.tasktag,
        tool: task.tasktype,
        tier: task.tier,
        files: files.length,
        bytes: files.reduce((sum, file) => sum + Number(file.size), 0),
        durationMs: (now - Number(task.created_at)) * 1000,
        result: 'queued',
      },
      'conversion upload finished',
    );
  }
  return true;
}

function answer(task: ConversionTaskRow, complete: boolean, received: number, filesdone: number): TUploadFileResponse {
  return { code: complete ? 10000 : 11000, message: '', tasktag: task.tasktag, received, filesdone };
}

async function filesDone(deps: ConversionDeps, task: ConversionTaskRow): Promise<number> {
  return Number(task.filecount) - (await filesStillUploading(deps.db, task.tasktag));
}

/**
 * The file's recorded chunks, after forgetting those written in place that can no longer be
 * trusted: the assembly is gone (a crash between moving it to the input and recording that), or
 * no chunk is left to tell the chunk size they were placed with (a failed retry of the only one).
 */
async function keptChunks(
  deps: ConversionDeps,
  task: ConversionTaskRow,
  query: TUploadFileQuery,
  writer: InPlaceWriter | undefined,
  assembly: string,
): Promise<ChunkRecord[]> {
  const chunks = await chunksOf(deps.db, [task.tasktag], query.fileindex);
  if (writer === undefined) return chunks;
  const placed = chunks.filter((chunk) => chunk.storage_key === assembly && chunk.chunk !== query.chunk);
  if (placed.length === 0) return chunks;
  const isLost = chunkSizeOf(chunks, query.chunks) === undefined || (await deps.storage.stat(assembly)) === undefined;
  if (!isLost) return chunks;
  await forgetChunks(
    deps,
    task,
    query.fileindex,
    placed,
    assembly,
    'conversion chunks placed without a known layout; the client will send them again',
  );
  return chunks.filter((chunk) => !placed.includes(chunk));
}

/** uploadfile: stores one chunk and answers 11000 (continue) or 10000 (every file in, queued). */
export async function receiveChunk(deps: ConversionDeps, query: TUploadFileQuery, body: ChunkBody): Promise<TUploadFileResponse> {
  const task = await taskByTag(deps.db, query.tasktag);
  if (task === undefined) throw ApiError.business(CONVERSION_ERRORS.taskUnknown, 'unknown tasktag');
  if (!isRightToken(task, query.tasktoken)) throw ApiError.business(CONVERSION_ERRORS.tokenInvalid, 'wrong tasktoken');
  const tool = toolOf(task);
  if (task.status === 'queued' || task.status === 'processing' || task.status === 'done') {
    // Every chunk is in already: a retry whose first answer was lost. The job is enqueued again
    // (a no-op when it exists), in case the first attempt failed after queuing the task.
    discardBody(body);
    if (task.status === 'queued') await deps.jobs.enqueue(task.tasktag, jobPriorityOf(task.tier));
    return answer(task, true, query.chunks, Number(task.filecount));
  }
  if (task.status !== 'uploading') throw ApiError.business(CONVERSION_ERRORS.taskUnknown, `upload to a ${task.status} task`);
  if (Number(task.upload_deadline) <= nowSeconds(deps)) {
    await failUpload(deps, task, query.fileindex, TASK_LINES.uploadTimedOut);
    throw ApiError.business(CONVERSION_ERRORS.taskUnknown, 'upload after its deadline');
  }
  if (query.fileindex >= Number(task.filecount)) throw chunkInvalid(`fileindex ${query.fileindex} of ${task.filecount} files`);
  if (query.chunk >= query.chunks) throw chunkInvalid(`chunk ${query.chunk} of ${query.chunks}`);
  // Every chunk but the last has at least minChunkBytes: a file of the largest size has this many at most.
  const maxChunks = Math.ceil(Number(task.max_file_bytes) / deps.minChunkBytes);
  if (query.chunks > maxChunks) throw chunkTooSmall(deps, `${query.chunks} chunks, at most ${maxChunks}`);
  if (body.declaredBytes !== undefined && body.declaredBytes > CONVERSION_LIMITS.chunkBytes)
    throw chunkInvalid(`chunk of ${body.declaredBytes} bytes`);

  await claimChunkCount(deps.db, task.tasktag, query.fileindex, query.chunks);
  const file = await fileOf(deps.db, task.tasktag, query.fileindex);
  if (file === undefined) throw new Error(`file ${query.fileindex} of ${task.tasktag} is missing`);
  if (file.chunks !== query.chunks) throw chunkInvalid(`chunks ${query.chunks}, the file has ${file.chunks ?? '?'}`);
  if (file.state !== 'uploading') {
    discardBody(body);
    return answer(task, false, query.chunks, await filesDone(deps, task));
  }

  const assembly = assemblyKeyOf(task.tasktag, query.fileindex);
  const writer = inPlaceWriterOf(deps.storage);
  const isLast = query.chunk === query.chunks - 1;
  if (!isLast && body.declaredBytes !== undefined && body.declaredBytes < deps.minChunkBytes) {
    discardBody(body);
    throw chunkTooSmall(deps, `chunk of ${body.declaredBytes} bytes`);
  }
  const earlier = await keptChunks(deps, task, query, writer, assembly);
  const chunkSize = writer === undefined ? undefined : chunkSizeOf(earlier, query.chunks);
  if (chunkSize !== undefined && body.declaredBytes !== undefined && !fitsChunkSize(body.declaredBytes, chunkSize, isLast)) {
    discardBody(body);
    throw chunkInvalid(`chunk of ${body.declaredBytes} bytes, the file's chunks have ${chunkSize}`);
  }
  const otherBytes = earlier.filter((chunk) => chunk.chunk !== query.chunk).reduce((sum, chunk) => sum + chunk.size, 0);
  const allowance = Number(task.max_file_bytes) - otherBytes;
  if (body.declaredBytes !== undefined && body.declaredBytes > allowance) {
    discardBody(body);
    throw await tooLarge(deps, task, query.fileindex, `chunk of ${body.declaredBytes} bytes, ${allowance} left`);
  }

  // In place when the chunk's offset is known; a chunk rewritten there is not recorded until it is whole again.
  const offset = query.chunk === 0 ? 0 : chunkSize === undefined ? undefined : query.chunk * chunkSize;
  const inPlace = writer !== undefined && offset !== undefined ? { writer, offset } : undefined;
  const previous = earlier.find((chunk) => chunk.chunk === query.chunk);
  if (inPlace !== undefined && previous !== undefined) {
    await deleteChunk(deps.db, previous);
    if (previous.storage_key !== assembly) await deps.storage.delete(previous.storage_key);
  }

  const key = inPlace === undefined ? chunkKeyOf(task.tasktag, query.fileindex, query.chunk) : assembly;
  let kind: TInputKind | null = null;
  const limit = Math.min(isLast ? CONVERSION_LIMITS.chunkBytes : (chunkSize ?? CONVERSION_LIMITS.chunkBytes), allowance);
  // The first chunk tells what the file is; a wrong type ends the upload before it is all read.
  const judge = { headBytes: SNIFF_BYTES, accept: (head: Buffer) => acceptsKind(tool, (kind = sniffInputKind(head))) };
  const source = chunkSource(body, query.chunk === 0 ? judge : undefined);
  let size: number;
  try {
    size =
      inPlace === undefined
        ? (await deps.storage.putStream(key, source.stream, { maxBytes: limit })).size
        : await inPlace.writer.writeAt(key, inPlace.offset, source.stream, { maxBytes: limit });
  } catch (error) {
    discardBody(body);
    if (error instanceof StorageLimitError && limit === allowance)
      throw await tooLarge(deps, task, query.fileindex, `file over ${task.max_file_bytes} bytes`);
    if (error instanceof StorageLimitError) throw chunkInvalid(`chunk over ${limit} bytes`);
    // A cancel deleting the task's folder under a chunk being written: the task is over, not broken.
    if (!(error instanceof UploadAbortedError) && (await taskByTag(deps.db, task.tasktag))?.status !== 'uploading') {
      throw ApiError.business(CONVERSION_ERRORS.taskUnknown, 'task ended while the chunk was stored');
    }
    throw error;
  }
  if (source.refused()) {
    discardBody(body);
    throw await wrongType(deps, task, tool, query.fileindex, kind);
  }
  // Refused after storing: a separate object is deleted, an in-place region is simply not recorded.
  const refuse = async (logMessage: string): Promise<ApiError> => {
    if (inPlace === undefined) await deps.storage.delete(key);
    return chunkInvalid(logMessage);
  };
  if (size === 0) throw await refuse('empty chunk');
  if (!isLast && size < deps.minChunkBytes) {
    if (inPlace === undefined) await deps.storage.delete(key);
    throw chunkTooSmall(deps, `chunk of ${size} bytes`);
  }
  if (chunkSize !== undefined && !fitsChunkSize(size, chunkSize, isLast))
    throw await refuse(`chunk of ${size} bytes, the file's chunks have ${chunkSize}`);

  // A cancel (or every file refused) may have ended the task while this chunk streamed in.
  const current = await taskByTag(deps.db, task.tasktag);
  if (current?.status !== 'uploading') {
    await deps.storage.delete(key);
    throw ApiError.business(CONVERSION_ERRORS.taskUnknown, `task became ${current?.status ?? 'absent'} during the chunk`);
  }
  // This file may have been refused meanwhile (its first chunk, sent in parallel): nothing of it is kept.
  const refused = await fileOf(deps.db, task.tasktag, query.fileindex);
  if (refused?.state === 'failed') {
    // Its own object, or the assembly the refusal deleted and this write made again.
    await deps.storage.delete(key);
    return answer(task, false, query.chunks, await filesDone(deps, task));
  }
  await upsertChunk(deps.db, {
    tasktag: task.tasktag,
    fileindex: query.fileindex,
    chunk: query.chunk,
    size,
    storage_key: key,
    received_at: nowSeconds(deps),
  });
  if (kind !== null) await setFileKind(deps.db, task.tasktag, query.fileindex, kind);

  // Parallel chunks each passed their own allowance; together they may not.
  const chunks = await chunksOf(deps.db, [task.tasktag], query.fileindex);
  const received = chunks.reduce((sum, chunk) => sum + chunk.size, 0);
  if (received > Number(task.max_file_bytes)) throw await tooLarge(deps, task, query.fileindex, `file reached ${received} bytes`);
  await setFileSize(deps.db, task.tasktag, query.fileindex, received);

  if (chunks.length === query.chunks) await assemble(deps, task, query.fileindex);
  const complete = await queueWhenComplete(deps, task);
  return answer(task, complete, chunks.length, await filesDone(deps, task));
}
