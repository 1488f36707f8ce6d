import { createHash, randomBytes } from 'node:crypto';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, UPLOAD, fileNamesOf } from '@xcad/protocol';
import type { FileUploadRow } from '@xcad/db';
import { z } from 'zod';
import { StorageLimitError } from '../../storage';
import { megabytesOf } from './conversion-rules';
import { nowSeconds, type ConversionDeps } from './conversion.deps';
import { fileTokenSession, isConverterMember } from './conversion.repository';
import {
  completeFileUpload,
  deleteFileChunkRows,
  deleteFileUpload,
  expiredFileUploads,
  findFileUpload,
  insertFileUpload,
  recordFileChunk,
} from './file-upload.repository';
import { chunkSource, discardBody, type ChunkBody } from './chunk-body';

// Decision 0019, spec §7 "second upload client": POST /api/file/create-upload {name, size, chunksize}
// and POST /api/file/upload?code&chunknum with the session's file-service token in X-Auth-Token,
// 2 MB chunks (spec §9; only the last may be smaller), answers {code: 0, data} or {code, message}.
// An upload is a row (file_upload) counting its chunks; each chunk is an object in storage (so a
// retry replaces one and any order works) recorded once in file_upload_chunk, and once all are in
// the whole file is stored, owned by the signed-in user. A chunk costs the same whatever its
// number (decision 0027: listing the chunk folder per chunk made an upload quadratic). The conversion
// retention applies: the sweep deletes an upload's folder and row when its time is up.

const PREFIX = 'file-uploads/';
const folderOf = (code: string) => `${PREFIX}${code}/`;
const chunksFolderOf = (code: string) => `${folderOf(code)}chunks/`;
const chunkKeyOf = (code: string, chunknum: number) => `${chunksFolderOf(code)}${chunknum}`;
/** Where a complete upload's file is stored. */
export const fileKeyOf = (code: string): string => `${folderOf(code)}file`;
const SWEEP_BATCH = 100;

export const FILE_UPLOAD_MESSAGES = {
  invalid: '上传参数错误',
  notSignedIn: '登录已失效，请重新登录',
  unknown: '上传任务不存在或已过期',
  chunkSize: `分片大小须为${UPLOAD.fileChunkBytes / 1024 / 1024}MB，只有最后一个分片可以更小`,
} as const;

/** A refusal of this client: its HTTP status doubles as its non-zero `code`. */
export class FileUploadError extends Error {
  override readonly name = 'FileUploadError';
  constructor(
    readonly status: 400 | 401 | 404 | 413,
    readonly userMessage: string,
    logMessage: string,
  ) {
    super(logMessage);
  }
}

export const ZCreateUploadRequest = z.object({
  name: z.string().min(1).max(1000),
  size: z.coerce.number().int().min(1),
  chunksize: z.coerce.number().int().min(1).max(UPLOAD.fileChunkBytes).default(UPLOAD.fileChunkBytes),
});

export const ZFileUploadQuery = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  chunknum: z.coerce.number().int().min(0).max(100_000),
});

export interface FileUploadData {
  code: string;
  name: string;
  size: number;
  chunksize: number;
  chunks: number;
  /** Chunks stored so far, and whether the file is whole. */
  received: number;
  complete: boolean;
  expiretime: number;
}

/** The user behind an X-Auth-Token (a live session of an active account), else a 401. */
export async function fileTokenUser(deps: ConversionDeps, token: string | undefined): Promise<number> {
  if (token === undefined || token === '' || token.length > 128)
    throw new FileUploadError(401, FILE_UPLOAD_MESSAGES.notSignedIn, 'no X-Auth-Token');
  const session = await fileTokenSession(deps.db, createHash('sha256').update(token, 'utf8').digest('hex'));
  if (session === undefined || session.revoked_at !== null || session.expires_at <= nowSeconds(deps) || session.status !== 'active') {
    throw new FileUploadError(401, FILE_UPLOAD_MESSAGES.notSignedIn, 'X-Auth-Token of no live session');
  }
  return session.user_id;
}

/** An upload as this client's answers give it. */
interface Upload {
  code: string;
  userId: number;
  name: string;
  size: number;
  chunksize: number;
  chunks: number;
  received: number;
  createdAt: number;
  expiresAt: number;
  completedAt: number | null;
}

/** The row with its numbers as numbers (PostgreSQL gives bigint columns as strings). */
function uploadOf(row: FileUploadRow): Upload {
  return {
    code: row.code,
    userId: Number(row.user_id),
    name: row.name,
    size: Number(row.size),
    chunksize: row.chunksize,
    chunks: row.chunks,
    received: row.received,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
  };
}

function dataOf(upload: Upload, received: number): FileUploadData {
  return {
    code: upload.code,
    name: upload.name,
    size: upload.size,
    chunksize: upload.chunksize,
    chunks: upload.chunks,
    received,
    complete: upload.completedAt !== null,
    expiretime: upload.expiresAt,
  };
}

/**
 * Spec §9: chunks of 2 MB; only the last may be smaller, so a smaller chunk size is taken only
 * for a file of one chunk (a million 1-byte chunks would each cost a request and a row).
 */
function isChunkSizeAllowed(size: number, chunksize: number): boolean {
  return chunksize >= UPLOAD.fileChunkBytes || size <= chunksize;
}

/** create-upload: a new upload of `size` bytes in chunks of `chunksize`, within the user's tier. */
export async function createFileUpload(
  deps: ConversionDeps,
  userId: number,
  fields: z.output<typeof ZCreateUploadRequest>,
): Promise<FileUploadData> {
  const [name] = fileNamesOf(fields.name, 1) ?? [];
  if (name === undefined) throw new FileUploadError(400, CONVERSION_MESSAGES.fileName, 'unusable file name');
  if (!isChunkSizeAllowed(fields.size, fields.chunksize))
    throw new FileUploadError(400, FILE_UPLOAD_MESSAGES.chunkSize, `chunks of ${fields.chunksize} bytes for ${fields.size}`);
  const now = nowSeconds(deps);
  const tier = (await isConverterMember(deps.db, userId, now)) ? 'member' : 'visitor';
  const maxBytes = CONVERSION_LIMITS[tier].maxFileBytes;
  if (fields.size > maxBytes)
    throw new FileUploadError(413, CONVERSION_MESSAGES.tooLarge(megabytesOf(maxBytes)), `${fields.size} bytes for a ${tier}`);
  const upload: Upload = {
    code: randomBytes(16).toString('base64url'),
    userId,
    name,
    size: fields.size,
    chunksize: fields.chunksize,
    chunks: Math.ceil(fields.size / fields.chunksize),
    received: 0,
    createdAt: now,
    expiresAt: now + Math.round(deps.env.CONVERSION_RETENTION_HOURS * 3600),
    completedAt: null,
  };
  await insertFileUpload(deps.db, {
    code: upload.code,
    user_id: userId,
    name,
    size: upload.size,
    chunksize: upload.chunksize,
    chunks: upload.chunks,
    created_at: upload.createdAt,
    expires_at: upload.expiresAt,
  });
  return dataOf(upload, 0);
}

/** The bytes chunk `chunknum` must have: `chunksize`, the last one the rest. */
function expectedBytesOf(upload: Upload, chunknum: number): number {
  return chunknum < upload.chunks - 1 ? upload.chunksize : upload.size - upload.chunksize * (upload.chunks - 1);
}

/** Joins the chunks into the file once all are in; a second request racing here finds it done. */
async function complete(deps: ConversionDeps, upload: Upload): Promise<Upload> {
  const keys = Array.from({ length: upload.chunks }, (_, chunknum) => chunkKeyOf(upload.code, chunknum));
  try {
    await deps.storage.compose(fileKeyOf(upload.code), keys);
  } catch (error) {
    const current = await findFileUpload(deps.db, upload.code);
    if (current !== undefined && current.completed_at !== null) return uploadOf(current);
    throw error;
  }
  const completedAt = nowSeconds(deps);
  if (!(await completeFileUpload(deps.db, upload.code, completedAt))) {
    const current = await findFileUpload(deps.db, upload.code);
    return current === undefined ? upload : uploadOf(current);
  }
  await deps.storage.deletePrefix(chunksFolderOf(upload.code));
  await deleteFileChunkRows(deps.db, upload.code);
  deps.log.info(
    {
      upload: upload.code,
      userId: upload.userId,
      bytes: upload.size,
      chunks: upload.chunks,
      durationMs: (completedAt - upload.createdAt) * 1000,
    },
    'file upload finished',
  );
  return { ...upload, received: upload.chunks, completedAt };
}

/** upload: stores one chunk (exactly its expected length), and the whole file once all are in. */
export async function receiveFileChunk(
  deps: ConversionDeps,
  userId: number,
  query: z.output<typeof ZFileUploadQuery>,
  body: ChunkBody,
): Promise<FileUploadData> {
  const row = await findFileUpload(deps.db, query.code);
  const upload = row === undefined ? undefined : uploadOf(row);
  if (upload === undefined || upload.userId !== userId || upload.expiresAt <= nowSeconds(deps)) {
    throw new FileUploadError(
      404,
      FILE_UPLOAD_MESSAGES.unknown,
      upload === undefined ? 'unknown upload code' : 'upload of another user or expired',
    );
  }
  if (upload.completedAt !== null) {
    discardBody(body);
    return dataOf(upload, upload.chunks);
  }
  if (query.chunknum >= upload.chunks)
    throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk ${query.chunknum} of ${upload.chunks}`);
  const expected = expectedBytesOf(upload, query.chunknum);
  if (body.declaredBytes !== undefined && body.declaredBytes !== expected) {
    discardBody(body);
    throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk of ${body.declaredBytes} bytes, expected ${expected}`);
  }
  const key = chunkKeyOf(upload.code, query.chunknum);
  try {
    // A chunk is whole or absent: a short one is refused below, a long one here.
    const stored = await deps.storage.putStream(key, chunkSource(body).stream, { maxBytes: expected });
    if (stored.size !== expected) {
      await deps.storage.delete(key);
      throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk of ${stored.size} bytes, expected ${expected}`);
    }
  } catch (error) {
    discardBody(body);
    if (error instanceof StorageLimitError)
      throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk longer than ${expected} bytes`);
    throw error;
  }
  const received = await recordFileChunk(deps.db, upload.code, query.chunknum);
  if (received < upload.chunks) return dataOf(upload, received);
  const current = await complete(deps, upload);
  return dataOf(current, current.completedAt === null ? received : current.chunks);
}

/** Deletes uploads of this client whose retention ended; resolves with how many. */
export async function sweepFileUploads(deps: ConversionDeps): Promise<number> {
  const now = nowSeconds(deps);
  let deleted = 0;
  for (;;) {
    const codes = await expiredFileUploads(deps.db, now, SWEEP_BATCH);
    for (const code of codes) {
      await deps.storage.deletePrefix(folderOf(code));
      await deleteFileUpload(deps.db, code);
      deleted += 1;
    }
    if (codes.length < SWEEP_BATCH) return deleted;
  }
}
