import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  InvalidStorageKeyError,
  isValidStorageKey,
  StorageLimitError,
  type ByteRange,
  type ComposeOptions,
  type PutStreamOptions,
  type StorageEnv,
  type StoredObject,
  type StreamingStorage,
} from './storage';

// The `s3` storage provider (decisions 0012 and 0019): the same objects in a bucket of any
// S3-compatible store (AWS S3, MinIO, Aliyun OSS, Tencent COS), for deployments with more than one
// API host. Behaves like LocalDiskStorage as far as callers can tell: the same keys, the same
// errors, nothing half-written ever visible.

// S3's multipart rules: every part but the last at least 5 MiB, none over 5 GiB, 10,000 at most.
const MIN_PART_BYTES = 5 * 1024 * 1024;
const MAX_PART_BYTES = 5 * 1024 ** 3;
const MAX_PARTS = 10_000;
// A streamed upload holds about (queue + 1) parts in memory: 24 MiB, never the whole object.
const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;
const COPY_CONCURRENCY = 4;
/** ListObjectsV2 pages and DeleteObjects requests both top out at 1,000 keys. */
const S3_BATCH = 1000;

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Any store but AWS itself: MinIO, OSS, COS, s3rver (http://host:port). */
  endpoint?: string;
  /** Without them the SDK's own chain applies (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path rather than the host name; default: whenever `endpoint` is set. */
  forcePathStyle?: boolean;
  /** Put every object under this folder of the bucket ('xcad' or 'xcad/'). */
  prefix?: string;
  /** Keys per list page and per batch delete: S3's maximum unless a test wants many pages. */
  batchSize?: number;
}

/** A missing object, coded like the file system's ENOENT so callers treat both stores alike. */
export class StoredObjectMissingError extends Error {
  override readonly name = 'StoredObjectMissingError';
  readonly code = 'ENOENT';
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
  }
}

interface SourcePart {
  readonly objectKey: string;
  readonly size: number;
}

function checkedKey(key: string): string {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

function checkedPrefix(prefix: string): string {
  if (!prefix.endsWith('/') || !isValidStorageKey(prefix.slice(0, -1)))
    throw new InvalidStorageKeyError(`invalid storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

/** '', or a folder of the bucket ending in '/'. */
function normalizedPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  if (!isValidStorageKey(trimmed)) throw new InvalidStorageKeyError(`invalid S3 key prefix: ${JSON.stringify(prefix)}`);
  return `${trimmed}/`;
}

function isMissingObject(error: unknown): boolean {
  // HeadObject has no body to name the error: a bare 404 arrives as NotFound.
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

function isNotImplemented(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NotImplemented' || error.$metadata.httpStatusCode === 501);
}

/** x-amz-copy-source: the bucket and the URL-encoded key. */
function copySource(bucket: string, objectKey: string): string {
  return `${bucket}/${objectKey.split('/').map(encodeURIComponent).join('/')}`;
}

function storedObject(key: string, head: { ContentLength?: number; LastModified?: Date; ETag?: string }): StoredObject {
  const size = head.ContentLength ?? 0;
  const modified = head.LastModified?.getTime() ?? 0;
  // S3 sends ETags quoted; some stores do not, and HTTP needs the quotes.
  const etag =
    head.ETag === undefined ? `"${size.toString(36)}-${modified.toString(36)}"` : head.ETag.startsWith('"') ? head.ETag : `"${head.ETag}"`;
  return { key, size, modified, etag };
}

/** Multipart copy works only when every part but the last meets S3's minimum and none its maximum. */
export function canCopyAsParts(sizes: readonly number[]): boolean {
  if (sizes.length < 2 || sizes.length > MAX_PARTS) return false;
  return sizes.every((size, index) => size <= MAX_PART_BYTES && (index === sizes.length - 1 || size >= MIN_PART_BYTES));
}

function batches<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/** `work` on every item, at most `limit` at once, results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) {
      const item = items[index] as T;
      results[index] = await work(item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

async function* limited(source: Readable | AsyncIterable<Uint8Array>, maxBytes: number | undefined): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of source as AsyncIterable<Uint8Array>) {
    seen += chunk.length;
    if (maxBytes !== undefined && seen > maxBytes) throw new StorageLimitError(maxBytes);
    yield chunk;
  }
}

export class S3Storage implements StreamingStorage {
  /** Public so tests can watch or shape the requests (client.middlewareStack). */
  readonly client: S3Client;
  readonly bucket: string;
  readonly prefix: string;
  private readonly batchSize: number;
  /** Set once the store answered UploadPartCopy with NotImplemented (s3rver does): compose streams from then on. */
  private partCopyUnsupported = false;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = normalizedPrefix(options.prefix);
    this.batchSize = Math.min(S3_BATCH, Math.max(1, options.batchSize ?? S3_BATCH));
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
      credentials: options.credentials,
      // The SDK's default checksums (CRC32 headers and aws-chunked trailers on every upload) are
      // refused by several S3-compatible stores; checksums go only where S3 demands them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    return this.prefix + checkedKey(key);
  }

  /** The written object's metadata; a store answering HEAD with nothing right after a write is broken. */
  private async written(key: string): Promise<StoredObject> {
    const stored = await this.stat(key);
    if (stored === undefined) throw new Error(`stored object ${key} vanished after writing`);
    return stored;
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: data, ContentLength: data.length }));
    return this.written(key);
  }

  async putStream(key: string, source: Readable | AsyncIterable<Uint8Array>, options: PutStreamOptions = {}): Promise<StoredObject> {
    await this.upload(this.objectKey(key), limited(source, options.maxBytes));
    return this.written(key);
  }

  /**
   * Streams `chunks` into one object: a single PUT when small, else a multipart upload that S3
   * shows only once completed (and lib-storage aborts when anything fails).
   */
  private async upload(objectKey: string, chunks: AsyncIterable<Uint8Array>): Promise<void> {
    let sourceFailure: { error: unknown } | undefined;
    async function* watched(): AsyncGenerator<Uint8Array> {
      try {
        yield* chunks;
      } catch (error) {
        sourceFailure = { error };
        throw error;
      }
    }
    const body = Readable.from(watched());
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: body },
      partSize: UPLOAD_PART_BYTES,
      queueSize: UPLOAD_QUEUE,
    });
    try {
      await upload.done();
    } catch (error) {
      // When the abort that follows a failed source fails too (a store without
      // AbortMultipartUpload), lib-storage reports that instead; callers need the real reason.
      throw sourceFailure === undefined ? error : sourceFailure.error;
    } finally {
      body.destroy();
    }
  }

  async compose(key: string, sources: readonly string[], options: ComposeOptions = {}): Promise<StoredObject> {
    const objectKey = this.objectKey(key);
    const parts = await Promise.all(
      sources.map(async (source): Promise<SourcePart> => {
        const found = await this.stat(source);
        if (found === undefined) throw new StoredObjectMissingError(source);
        return { objectKey: this.objectKey(source), size: found.size };
      }),
    );
    await this.join(
      objectKey,
      parts.filter((part) => part.size > 0),
    );
    const stored = await this.written(key);
    if (options.consume === true)
      await this.deleteObjects([...new Set(parts.map((part) => part.objectKey))].filter((source) => source !== objectKey));
    return stored;
  }

  private async join(objectKey: string, parts: readonly SourcePart[]): Promise<void> {
    const [first] = parts;
    if (first === undefined) {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: objectKey, Body: new Uint8Array(0), ContentLength: 0 }));
      return;
    }
    if (parts.length === 1 && first.objectKey === objectKey) return;
    // Copied inside the store, never through this process, whenever S3's rules allow.
    if (parts.length === 1 && first.size <= MAX_PART_BYTES) {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: objectKey, CopySource: copySource(this.bucket, first.objectKey) }),
      );
      return;
    }
    if (!this.partCopyUnsupported && canCopyAsParts(parts.map((part) => part.size)) && (await this.copyAsParts(objectKey, parts))) return;
    await this.upload(objectKey, this.concatenated(parts));
  }

  /** One multipart upload whose parts are UploadPartCopy of the sources; false when the store has no UploadPartCopy. */
  private async copyAsParts(objectKey: string, parts: readonly SourcePart[]): Promise<boolean> {
    const target = { Bucket: this.bucket, Key: objectKey };
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand(target));
    if (UploadId === undefined) throw new Error(`no upload id for ${objectKey}`);
    try {
      const completed = await mapLimited(parts, COPY_CONCURRENCY, async (part, index): Promise<CompletedPart> => {
        const PartNumber = index + 1;
        const { CopyPartResult } = await this.client.send(
          new UploadPartCopyCommand({ ...target, UploadId, PartNumber, CopySource: copySource(this.bucket, part.objectKey) }),
        );
        if (CopyPartResult?.ETag === undefined) throw new Error(`no ETag for part ${PartNumber} of ${objectKey}`);
        return { PartNumber, ETag: CopyPartResult.ETag };
      });
      await this.client.send(new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: completed } }));
      return true;
    } catch (error) {
      // Best effort: a store that cannot abort (s3rver) keeps invisible parts, and the reason that
      // matters is the copy's.
      await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId })).catch(() => undefined);
      if (!isNotImplemented(error)) throw error;
      this.partCopyUnsupported = true;
      return false;
    }
  }

  /** The sources' bytes in order, one GET at a time. */
  private async *concatenated(parts: readonly SourcePart[]): AsyncGenerator<Uint8Array> {
    for (const part of parts) yield* await this.objectStream(part.objectKey, part.objectKey.slice(this.prefix.length));
  }

  private async objectStream(objectKey: string, key: string, range?: ByteRange): Promise<Readable> {
    try {
      const { Body } = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Range: range === undefined ? undefined : `bytes=${range.start}-${range.end}`,
        }),
      );
      if (!(Body instanceof Readable)) throw new Error(`no body for stored object ${key}`);
      return Body;
    } catch (error) {
      throw isMissingObject(error) ? new StoredObjectMissingError(key) : error;
    }
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      return storedObject(key, await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })));
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      if (Body === undefined) return Buffer.alloc(0);
      const bytes = await Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  stream(key: string, range?: ByteRange): Readable {
    // Checked now, like the local store's path: a bad key throws here, a missing object errors the stream.
    const objectKey = this.objectKey(key);
    const open = () => this.objectStream(objectKey, key, range);
    async function* body(): AsyncGenerator<Uint8Array> {
      yield* await open();
    }
    return Readable.from(body(), { objectMode: false });
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      if (!isMissingObject(error)) throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await this.deleteObjects(await this.objectKeysUnder(this.prefix + checkedPrefix(prefix)));
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.objectKeysUnder(this.prefix + checkedPrefix(prefix))).map((objectKey) => objectKey.slice(this.prefix.length));
  }

  private async objectKeysUnder(folder: string): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, MaxKeys: this.batchSize, ContinuationToken }),
      );
      for (const entry of page.Contents ?? []) if (entry.Key !== undefined) keys.push(entry.Key);
      ContinuationToken = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
    return keys;
  }

  private async deleteObjects(objectKeys: readonly string[]): Promise<void> {
    for (const batch of batches(objectKeys, this.batchSize)) {
      const { Errors } = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const [failed] = Errors ?? [];
      if (failed !== undefined)
        throw new Error(`could not delete stored object ${failed.Key ?? '?'}: ${failed.Code ?? ''} ${failed.Message ?? ''}`.trim());
    }
  }
}

/** STORAGE_PROVIDER=s3: the bucket the S3_* variables name (loadEnv has checked they are all there). */
export function s3StorageFromEnv(env: StorageEnv): S3Storage {
  const { S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env;
  if (S3_BUCKET === undefined || S3_ACCESS_KEY_ID === undefined || S3_SECRET_ACCESS_KEY === undefined) {
    throw new Error('STORAGE_PROVIDER=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  return new S3Storage({
    bucket: S3_BUCKET,
    region: env.S3_REGION ?? 'us-east-1',
    endpoint: env.S3_ENDPOINT,
    credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    prefix: env.S3_PREFIX,
  });
}
