import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Stored files (decision 0012; later the conversion tasks' files): content
// images, daily-picture and library drawings, course videos, feedback screenshots. One interface;
// the embedded default keeps them on local disk under STORAGE_DIR. A deployment at scale points
// STORAGE_DIR at shared storage (NFS/JuiceFS mount) or adds an S3-compatible implementation of
// the same interface (decision 0012).

/** What is known about a stored object without reading it. */
export interface StoredObject {
  readonly key: string;
  readonly size: number;
  /** Epoch milliseconds of the last write. */
  readonly modified: number;
  /** A strong validator: changes whenever the content does. */
  readonly etag: string;
}

/** An inclusive byte range, as HTTP Range has them. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface PutStreamOptions {
  /** Refuse the object (nothing is stored) once more than this many bytes arrive: a StorageLimitError. */
  maxBytes?: number;
}

export interface ComposeOptions {
  consume?: boolean;
}

export interface Storage {
  /** Writes (or replaces) an object atomically: readers see the old or the new bytes, never a mix. */
  put(key: string, data: Uint8Array): Promise<StoredObject>;
  stat(key: string): Promise<StoredObject | undefined>;
  /** The whole object, or undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>;
  /** A stream of the object or of one range of it; the caller checked it exists. */
  stream(key: string, range?: ByteRange): Readable;
  delete(key: string): Promise<void>;
}

/**
 * A storage that also takes objects as streams and works on folders (decision 0019: conversion uploads
 * of up to 200 MB arrive in 50 MB chunks and must never be held in memory). Every real store
 * implements it; `Storage` alone is what the content importers and their tests' fakes need.
 */
export interface StreamingStorage extends Storage {
  /**
   * Writes (or replaces) an object from a stream, atomically like `put` and without holding it in
   * memory. If `source` fails or outgrows `maxBytes`, nothing is stored and the error is rethrown.
   */
  putStream(key: string, source: Readable | AsyncIterable<Uint8Array>, options?: PutStreamOptions): Promise<StoredObject>;
  /**
   * Writes `key` as the concatenation of `sources` in order, streaming; rejects when one is
   * missing. With `consume` the sources are deleted once it is written, and a store may move
   * them rather than copy them (local disk moves the first); if it fails they are all kept.
   */
  compose(key: string, sources: readonly string[], options?: ComposeOptions): Promise<StoredObject>;
  /** Deletes every object whose key starts with `prefix` (a folder: 'a/b/'). */
  deletePrefix(prefix: string): Promise<void>;
  /** The keys of every object under `prefix` (a folder: 'a/b/'), in no particular order. */
  list(prefix: string): Promise<string[]>;
  /**
   * Optional (a store that can write into the middle of an object: local disk, not S3). Writes
   * `source` into `key` from byte `offset` on, creating the object (with a hole before `offset`)
   * when there is none; resolves with the number of bytes written. Bytes outside
   * [offset, offset + written) are left as they were, and a source that would write past
   * `offset + maxBytes` is refused (StorageLimitError) before those bytes are written. Not atomic:
   * if `source` fails, what came before the failure is written. Used with `seal`.
   */
  writeAt?(key: string, offset: number, source: Readable | AsyncIterable<Uint8Array>, options?: PutStreamOptions): Promise<number>;
  /**
   * Optional, with `writeAt`: ends an object written in place by cutting it to `size` bytes and
   * moving it to `target` (replacing it) without copying it; rejects when `key` is missing.
   */
  seal?(key: string, target: string, size: number): Promise<StoredObject>;
}

/** The in-place writes of a store that has them. */
export type InPlaceWriter = Required<Pick<StreamingStorage, 'writeAt' | 'seal'>>;

/** `storage`'s in-place writes, or undefined when it has none (S3: objects are written whole). */
export function inPlaceWriterOf(storage: StreamingStorage): InPlaceWriter | undefined {
  if (storage.writeAt === undefined || storage.seal === undefined) return undefined;
  return { writeAt: storage.writeAt.bind(storage), seal: storage.seal.bind(storage) };
}

/** Keys are relative, '/'-separated, without '.', '..' or empty segments: never a way out of the root. */
const KEY_SEGMENT = /^[^/\\\0]+$/;

export class InvalidStorageKeyError extends Error {
  override readonly name = 'InvalidStorageKeyError';
}

/** A streamed object grew past `PutStreamOptions.maxBytes`; nothing was stored. */
export class StorageLimitError extends Error {
  override readonly name = 'StorageLimitError';
  constructor(readonly maxBytes: number) {
    super(`stored object larger than ${maxBytes} bytes`);
  }
}

const COPY_BUFFER_BYTES = 1024 * 1024;

/** Writes all of `bytes` at `position` (null: at the file's current position). */
async function writeAll(file: FileHandle, bytes: Uint8Array, position: number | null = null): Promise<void> {
  for (let offset = 0; offset < bytes.length;) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset, position === null ? null : position + offset);
    offset += bytesWritten;
  }
}

export function isValidStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => KEY_SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

function checkedKey(key: string): string {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

/** Appends `files` to `target` in order through one bounded buffer. */
async function appendFiles(target: string, files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  const output = await open(target, 'a');
  const buffer = Buffer.allocUnsafe(COPY_BUFFER_BYTES);
  try {
    for (const file of files) {
      const part = await open(file, 'r');
      try {
        for (
          let read = await part.read(buffer, 0, buffer.length, null);
          read.bytesRead > 0;
          read = await part.read(buffer, 0, buffer.length, null)
        ) {
          await writeAll(output, buffer.subarray(0, read.bytesRead));
        }
      } finally {
        await part.close();
      }
    }
  } finally {
    await output.close();
  }
}

/** A folder prefix ('a/b/'): a valid key followed by one '/'. */
function checkedPrefix(prefix: string): string {
  if (!prefix.endsWith('/') || !isValidStorageKey(prefix.slice(0, -1)))
    throw new InvalidStorageKeyError(`invalid storage prefix: ${JSON.stringify(prefix)}`);
  return prefix;
}

const TEMPORARY_SUFFIX = '.part';

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

/** Files on local disk under `root`; the etag is derived from size and modification time. */
export class LocalDiskStorage implements StreamingStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }

  /** Writes through a temporary file next to the target, renamed into place once complete. */
  private async writeAtomically(key: string, write: (temporary: string) => Promise<void>): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}${TEMPORARY_SUFFIX}`;
    try {
      await write(temporary);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const stored = await this.stat(key);
    if (stored === undefined) throw new Error(`stored object ${key} vanished after writing`);
    return stored;
  }

  put(key: string, data: Uint8Array): Promise<StoredObject> {
    return this.writeAtomically(key, (temporary) => writeFile(temporary, data));
  }

  putStream(key: string, source: Readable | AsyncIterable<Uint8Array>, options: PutStreamOptions = {}): Promise<StoredObject> {
    return this.writeAtomically(key, async (temporary) => {
      // The file is opened before anything reads the source: a stream refused at once must not
      // leave a temporary file that an asynchronous open creates after the clean-up removed it.
      const handle = await open(temporary, 'w');
      const input = source instanceof Readable ? source : Readable.from(source);
      const { maxBytes } = options;
      if (maxBytes !== undefined) {
        // Counted beside the pipe rather than through a Transform: one stream hop less per chunk.
        let seen = 0;
        input.on('data', (chunk: Uint8Array) => {
          seen += chunk.length;
          if (seen > maxBytes) input.destroy(new StorageLimitError(maxBytes));
        });
      }
      await pipeline(input, handle.createWriteStream());
    });
  }

  async compose(key: string, sources: readonly string[], options: ComposeOptions = {}): Promise<StoredObject> {
    const paths = sources.map((source) => this.pathOf(source));
    const stored = await this.writeAtomically(key, async (temporary) => {
      const [first, ...rest] = paths;
      if (first === undefined) return writeFile(temporary, new Uint8Array(0));
      if (options.consume !== true) {
        // The kernel copies the first part (copy_file_range, or a reflink where the file system has them).
        await copyFile(first, temporary);
        return appendFiles(temporary, rest);
      }
      // Moved, not copied: on a failure the first part is cut back to its own bytes and returned.
      const firstSize = (await stat(first)).size;
      await Promise.all(rest.map((file) => stat(file)));
      await rename(first, temporary);
      try {
        await appendFiles(temporary, rest);
      } catch (error) {
        await truncate(temporary, firstSize);
        await rename(temporary, first);
        throw error;
      }
    });
    if (options.consume === true) await Promise.all(paths.slice(1).map((file) => rm(file, { force: true })));
    return stored;
  }

  async writeAt(
    key: string,
    offset: number,
    source: Readable | AsyncIterable<Uint8Array>,
    options: PutStreamOptions = {},
  ): Promise<number> {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`invalid offset ${offset}`);
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    // Opened without O_TRUNC: other writers' regions of the same object stay as they are.
    const file = await open(target, constants.O_WRONLY | constants.O_CREAT);
    const input: AsyncIterable<Uint8Array> = source;
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let written = 0;
    try {
      for await (const piece of input) {
        // Checked before writing: the bytes past the limit belong to someone else's region.
        if (written + piece.length > maxBytes) throw new StorageLimitError(maxBytes);
        await writeAll(file, piece, offset + written);
        written += piece.length;
      }
    } finally {
      await file.close();
    }
    return written;
  }

  async seal(key: string, target: string, size: number): Promise<StoredObject> {
    const from = this.pathOf(key);
    const to = this.pathOf(target);
    await truncate(from, size);
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
    const stored = await this.stat(target);
    if (stored === undefined) throw new Error(`stored object ${target} vanished after sealing`);
    return stored;
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      if (!info.isFile()) return undefined;
      const etag = createHash('sha1').update(`${info.size}:${info.mtimeMs}:${info.ino}`).digest('base64url').slice(0, 20);
      return { key, size: info.size, modified: Math.floor(info.mtimeMs), etag: `"${etag}"` };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (isMissing(error) || (error instanceof Error && 'code' in error && error.code === 'EISDIR')) return undefined;
      throw error;
    }
  }

  stream(key: string, range?: ByteRange): Readable {
    return createReadStream(this.pathOf(key), range === undefined ? {} : { start: range.start, end: range.end });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(checkedPrefix(prefix).slice(0, -1)), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const folder = checkedPrefix(prefix);
    let entries;
    try {
      entries = await readdir(this.pathOf(folder.slice(0, -1)), { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.isFile() && !entry.name.endsWith(TEMPORARY_SUFFIX))
      .map(
        (entry) =>
          folder +
          path
            .relative(this.pathOf(folder.slice(0, -1)), path.join(entry.parentPath, entry.name))
            .split(path.sep)
            .join('/'),
      );
  }
}

/** What `storageFromEnv` (storage.factory.ts) reads: the API's whole Env fits; the content importer passes only STORAGE_DIR. */
export interface StorageEnv {
  STORAGE_DIR: string;
  STORAGE_PROVIDER?: 'local' | 's3';
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
  S3_PREFIX?: string | undefined;
}
