import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidStorageKeyError, LocalDiskStorage, StorageLimitError } from './storage';

// The streaming side of local storage (issue 7): objects written from streams, bounded, joined
// from parts, and folders listed and deleted, without ever leaving a half-written object behind.

let storage: LocalDiskStorage;

beforeEach(async () => {
  storage = new LocalDiskStorage(await mkdtemp(path.join(tmpdir(), 'xcad-storage-unit-')));
});

afterEach(async () => {
  await rm(storage.root, { recursive: true, force: true });
});

/** A stream of `total` bytes in pieces of `piece`, each byte its offset modulo 251. */
function bytes(total: number, piece = 1000): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(piece, total - sent);
      this.push(Buffer.from(Array.from({ length: size }, (_, index) => (sent + index) % 251)));
      sent += size;
    },
  });
}

const expected = (total: number) => Buffer.from(Array.from({ length: total }, (_, index) => index % 251));

/** Files on disk besides the objects: temporaries must never be left behind. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(storage.root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('putStream', () => {
  it('stores a streamed object whole and replaces an earlier one', async () => {
    await storage.put('up/a.bin', Buffer.from('old'));
    const stored = await storage.putStream('up/a.bin', bytes(10_500));
    expect(stored.size).toBe(10_500);
    expect((await storage.read('up/a.bin'))?.equals(expected(10_500))).toBe(true);
    expect(await filesUnder('up')).toEqual(['a.bin']);
  });

  it('refuses a stream over maxBytes and keeps what was there', async () => {
    await storage.put('up/a.bin', Buffer.from('old'));
    await expect(storage.putStream('up/a.bin', bytes(5_001), { maxBytes: 5_000 })).rejects.toBeInstanceOf(StorageLimitError);
    expect((await storage.read('up/a.bin'))?.toString()).toBe('old');
    expect(await filesUnder('up')).toEqual(['a.bin']);
    expect((await storage.putStream('up/b.bin', bytes(5_000), { maxBytes: 5_000 })).size).toBe(5_000);
  });

  it('stores nothing when the source fails midway', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('first part');
      throw new Error('connection reset');
    }
    await expect(storage.putStream('up/c.bin', broken())).rejects.toThrow('connection reset');
    expect(await storage.stat('up/c.bin')).toBeUndefined();
    expect(await filesUnder('up')).toEqual([]);
  });
});

describe('compose', () => {
  it('joins parts in the order given', async () => {
    const whole = expected(7_000);
    await storage.put('parts/2', whole.subarray(5_000));
    await storage.put('parts/0', whole.subarray(0, 2_000));
    await storage.put('parts/1', whole.subarray(2_000, 5_000));
    const stored = await storage.compose('joined/file', ['parts/0', 'parts/1', 'parts/2']);
    expect(stored.size).toBe(7_000);
    expect((await storage.read('joined/file'))?.equals(whole)).toBe(true);
  });

  it('rejects when a part is missing and writes nothing', async () => {
    await storage.put('parts/0', Buffer.from('a'));
    await expect(storage.compose('joined/file', ['parts/0', 'parts/1'])).rejects.toThrow();
    expect(await storage.stat('joined/file')).toBeUndefined();
  });

  it('consumes the parts when asked, and keeps them all when it fails', async () => {
    const whole = expected(3_000_000);
    await storage.put('parts/0', whole.subarray(0, 1_000_000));
    await storage.put('parts/1', whole.subarray(1_000_000, 2_500_000));
    await storage.put('parts/2', whole.subarray(2_500_000));
    expect((await storage.compose('joined/file', ['parts/0', 'parts/1', 'parts/2'], { consume: true })).size).toBe(3_000_000);
    expect((await storage.read('joined/file'))?.equals(whole)).toBe(true);
    expect(await storage.list('parts/')).toEqual([]);

    await storage.put('parts/0', Buffer.from('first'));
    await storage.put('parts/1', Buffer.from('second'));
    await expect(storage.compose('joined/other', ['parts/0', 'parts/1', 'parts/9'], { consume: true })).rejects.toThrow();
    expect((await storage.read('parts/0'))?.toString()).toBe('first');
    expect((await storage.read('parts/1'))?.toString()).toBe('second');
    expect(await storage.stat('joined/other')).toBeUndefined();
    expect(await filesUnder('joined')).toEqual(['file']);
  });
});

describe('folders', () => {
  it('lists every object under a folder and deletes the folder', async () => {
    await storage.put('task/x/chunks/0/0', Buffer.from('a'));
    await storage.put('task/x/chunks/0/1', Buffer.from('b'));
    await storage.put('task/x/in/0', Buffer.from('c'));
    await storage.put('task/y/in/0', Buffer.from('d'));
    expect((await storage.list('task/x/')).sort()).toEqual(['task/x/chunks/0/0', 'task/x/chunks/0/1', 'task/x/in/0']);
    expect(await storage.list('task/none/')).toEqual([]);
    await storage.deletePrefix('task/x/');
    expect(await storage.list('task/')).toEqual(['task/y/in/0']);
    await storage.deletePrefix('task/x/');
  });

  it('refuses prefixes that are not folders inside the root', async () => {
    await expect(storage.deletePrefix('../')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.deletePrefix('task')).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.list('/')).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });
});
