import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { repositoryRoot } from '@xcad/db';

// Stored files (issue 5 "Images live in storage"; later the conversion tasks' files): content
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

/** Keys are relative, '/'-separated, without '.', '..' or empty segments: never a way out of the root. */
const KEY_SEGMENT = /^[^/\\\0]+$/;

export class InvalidStorageKeyError extends Error {
  override readonly name = 'InvalidStorageKeyError';
}

export function isValidStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => KEY_SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

function checkedKey(key: string): string {
  if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}

/** Files on local disk under `root`; the etag is derived from size and modification time. */
export class LocalDiskStorage implements Storage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...checkedKey(key).split('/'));
  }

  async put(key: string, data: Uint8Array): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.part`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const stored = await this.stat(key);
    if (stored === undefined) throw new Error(`stored object ${key} vanished after writing`);
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
}

/** The storage STORAGE_DIR names (relative to the repository root). */
export function storageFromEnv(env: { STORAGE_DIR: string }): Storage {
  return new LocalDiskStorage(path.resolve(repositoryRoot, env.STORAGE_DIR));
}
