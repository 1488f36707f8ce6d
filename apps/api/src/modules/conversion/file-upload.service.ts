import { createHash, randomBytes } from 'node:crypto';
import { CONVERSION_LIMITS, CONVERSION_MESSAGES, UPLOAD, fileNamesOf } from '@xcad/protocol';
import { z } from 'zod';
import { StorageLimitError } from '../../storage';
import { megabytesOf } from './conversion-rules';
import { nowSeconds, type ConversionDeps } from './conversion.deps';
import { fileTokenSession, isConverterMember } from './conversion.repository';
import { chunkSource, discardBody, type ChunkBody } from './chunk-body';

// Issue 7, spec §7 "second upload client": POST /api/file/create-upload {name, size, chunksize}
// and POST /api/file/upload?code&chunknum with the session's file-service token in X-Auth-Token,
// 2 MB chunks, answers {code: 0, data} or {code, message}. Its state needs no table: each upload
// is a folder in storage with a JSON manifest, its chunks (each an object, so a retry replaces one
// and any order works) and, once whole, the file itself, owned by the signed-in user. The
// conversion retention applies: the sweep deletes an upload's folder when its time is up.

const PREFIX = 'file-uploads/';
const folderOf = (code: string) => `${PREFIX}${code}/`;
const manifestKeyOf = (code: string) => `${folderOf(code)}manifest.json`;
const chunksFolderOf = (code: string) => `${folderOf(code)}chunks/`;
const chunkKeyOf = (code: string, chunknum: number) => `${chunksFolderOf(code)}${chunknum}`;
/** Where a complete upload's file is stored. */
export const fileKeyOf = (code: string): string => `${folderOf(code)}file`;

export const FILE_UPLOAD_MESSAGES = {
  invalid: '上传参数错误',
  notSignedIn: '登录已失效，请重新登录',
  unknown: '上传任务不存在或已过期',
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

const ZManifest = z.object({
  code: z.string(),
  userId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  chunksize: z.number().int(),
  chunks: z.number().int(),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
  completedAt: z.number().int().nullable(),
});
type Manifest = z.infer<typeof ZManifest>;

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
  if (token === undefined || token === '' || token.length > 128) throw new FileUploadError(401, FILE_UPLOAD_MESSAGES.notSignedIn, 'no X-Auth-Token');
  const session = await fileTokenSession(deps.db, createHash('sha256').update(token, 'utf8').digest('hex'));
  if (session === undefined || session.revoked_at !== null || session.expires_at <= nowSeconds(deps) || session.status !== 'active') {
    throw new FileUploadError(401, FILE_UPLOAD_MESSAGES.notSignedIn, 'X-Auth-Token of no live session');
  }
  return session.user_id;
}

function dataOf(manifest: Manifest, received: number): FileUploadData {
  return {
    code: manifest.code,
    name: manifest.name,
    size: manifest.size,
    chunksize: manifest.chunksize,
    chunks: manifest.chunks,
    received,
    complete: manifest.completedAt !== null,
    expiretime: manifest.expiresAt,
  };
}

async function writeManifest(deps: ConversionDeps, manifest: Manifest): Promise<void> {
  await deps.storage.put(manifestKeyOf(manifest.code), Buffer.from(JSON.stringify(manifest)));
}

async function readManifest(deps: ConversionDeps, code: string): Promise<Manifest | undefined> {
  const bytes = await deps.storage.read(manifestKeyOf(code));
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = ZManifest.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** create-upload: a new upload of `size` bytes in chunks of `chunksize`, within the user's tier. */
export async function createFileUpload(deps: ConversionDeps, userId: number, fields: z.output<typeof ZCreateUploadRequest>): Promise<FileUploadData> {
  const [name] = fileNamesOf(fields.name, 1) ?? [];
  if (name === undefined) throw new FileUploadError(400, CONVERSION_MESSAGES.fileName, 'unusable file name');
  const now = nowSeconds(deps);
  const tier = (await isConverterMember(deps.db, userId, now)) ? 'member' : 'visitor';
  const maxBytes = CONVERSION_LIMITS[tier].maxFileBytes;
  if (fields.size > maxBytes) throw new FileUploadError(413, CONVERSION_MESSAGES.tooLarge(megabytesOf(maxBytes)), `${fields.size} bytes for a ${tier}`);
  const manifest: Manifest = {
    code: randomBytes(16).toString('base64url'),
    userId,
    name,
    size: fields.size,
    chunksize: fields.chunksize,
    chunks: Math.ceil(fields.size / fields.chunksize),
    createdAt: now,
    expiresAt: now + Math.round(deps.env.CONVERSION_RETENTION_HOURS * 3600),
    completedAt: null,
  };
  await writeManifest(deps, manifest);
  return dataOf(manifest, 0);
}

/** The bytes chunk `chunknum` must have: `chunksize`, the last one the rest. */
function expectedBytesOf(manifest: Manifest, chunknum: number): number {
  return chunknum < manifest.chunks - 1 ? manifest.chunksize : manifest.size - manifest.chunksize * (manifest.chunks - 1);
}

async function storedChunks(deps: ConversionDeps, code: string): Promise<number> {
  return (await deps.storage.list(chunksFolderOf(code))).length;
}

/** Joins the chunks into the file once all are in; a second request racing here finds it done. */
async function completeIfWhole(deps: ConversionDeps, manifest: Manifest): Promise<Manifest> {
  if ((await storedChunks(deps, manifest.code)) < manifest.chunks) return manifest;
  const keys = Array.from({ length: manifest.chunks }, (_, chunknum) => chunkKeyOf(manifest.code, chunknum));
  try {
    await deps.storage.compose(fileKeyOf(manifest.code), keys);
  } catch (error) {
    const current = await readManifest(deps, manifest.code);
    if (current?.completedAt !== null && current !== undefined) return current;
    throw error;
  }
  const complete = { ...manifest, completedAt: nowSeconds(deps) };
  await writeManifest(deps, complete);
  await deps.storage.deletePrefix(chunksFolderOf(manifest.code));
  deps.log.info({ upload: manifest.code, userId: manifest.userId, bytes: manifest.size, chunks: manifest.chunks, durationMs: (complete.completedAt - manifest.createdAt) * 1000 }, 'file upload finished');
  return complete;
}

/** upload: stores one chunk (exactly its expected length), and the whole file once all are in. */
export async function receiveFileChunk(deps: ConversionDeps, userId: number, query: z.output<typeof ZFileUploadQuery>, body: ChunkBody): Promise<FileUploadData> {
  const manifest = await readManifest(deps, query.code);
  if (manifest === undefined || manifest.userId !== userId || manifest.expiresAt <= nowSeconds(deps)) {
    throw new FileUploadError(404, FILE_UPLOAD_MESSAGES.unknown, manifest === undefined ? 'unknown upload code' : 'upload of another user or expired');
  }
  if (manifest.completedAt !== null) {
    discardBody(body);
    return dataOf(manifest, manifest.chunks);
  }
  if (query.chunknum >= manifest.chunks) throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk ${query.chunknum} of ${manifest.chunks}`);
  const expected = expectedBytesOf(manifest, query.chunknum);
  if (body.declaredBytes !== undefined && body.declaredBytes !== expected) {
    discardBody(body);
    throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk of ${body.declaredBytes} bytes, expected ${expected}`);
  }
  const key = chunkKeyOf(manifest.code, query.chunknum);
  try {
    // A chunk is whole or absent: a short one is refused below, a long one here.
    const stored = await deps.storage.putStream(key, chunkSource(body).stream, { maxBytes: expected });
    if (stored.size !== expected) {
      await deps.storage.delete(key);
      throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk of ${stored.size} bytes, expected ${expected}`);
    }
  } catch (error) {
    discardBody(body);
    if (error instanceof StorageLimitError) throw new FileUploadError(400, CONVERSION_MESSAGES.chunkInvalid, `chunk longer than ${expected} bytes`);
    throw error;
  }
  const current = await completeIfWhole(deps, manifest);
  return dataOf(current, current.completedAt === null ? await storedChunks(deps, manifest.code) : current.chunks);
}

/** Deletes uploads of this client whose retention ended; resolves with how many. */
export async function sweepFileUploads(deps: ConversionDeps): Promise<number> {
  const now = nowSeconds(deps);
  const manifests = (await deps.storage.list(PREFIX)).filter((key) => key.endsWith('/manifest.json'));
  let deleted = 0;
  for (const key of manifests) {
    const code = key.slice(PREFIX.length, -'/manifest.json'.length);
    if (code.includes('/')) continue;
    const manifest = await readManifest(deps, code);
    if (manifest !== undefined && manifest.expiresAt > now) continue;
    await deps.storage.deletePrefix(folderOf(code));
    deleted += 1;
  }
  return deleted;
}
