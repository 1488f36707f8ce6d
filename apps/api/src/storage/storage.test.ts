import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidStorageKeyError, LocalDiskStorage, StorageLimitError, inPlaceWriterOf } from './storage';

// The streaming side of local storage (decision 0019): objects written from streams, bounded, joined
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

describe('writeAt and seal', () => {
  it('writes parts at their offsets in any order and seals them into the object without a copy', async () => {
    const whole = expected(25_000);
    // Parts in the order 2, 0, 1; a part written again with the same bytes changes nothing.
    expect(await storage.writeAt('asm/f', 20_000, Readable.from([whole.subarray(20_000)]))).toBe(5_000);
    expect(await storage.writeAt('asm/f', 0, Readable.from([whole.subarray(0, 6_000), whole.subarray(6_000, 10_000)]))).toBe(10_000);
    expect(await storage.writeAt('asm/f', 10_000, Readable.from([whole.subarray(10_000, 20_000)]))).toBe(10_000);
    expect(await storage.writeAt('asm/f', 10_000, Readable.from([whole.subarray(10_000, 20_000)]))).toBe(10_000);
    const { ino } = await stat(path.join(storage.root, 'asm/f'));
    const sealed = await storage.seal('asm/f', 'in/f', 25_000);
    expect(sealed).toMatchObject({ key: 'in/f', size: 25_000 });
    expect((await storage.read('in/f'))?.equals(whole)).toBe(true);
    expect((await stat(path.join(storage.root, 'in/f'))).ino).toBe(ino);
    expect(await storage.stat('asm/f')).toBeUndefined();
    await expect(storage.seal('asm/f', 'in/f', 25_000)).rejects.toThrow();
  });

  it('leaves a hole before a part written first, and cuts a longer object to its size', async () => {
    expect(await storage.writeAt('asm/g', 3, Readable.from([Buffer.from('def')]))).toBe(3);
    expect(await storage.read('asm/g')).toEqual(Buffer.from([0, 0, 0, ...Buffer.from('def')]));
    await storage.writeAt('asm/g', 0, Readable.from([Buffer.from('abc')]));
    expect((await storage.seal('asm/g', 'in/g', 4)).size).toBe(4);
    expect((await storage.read('in/g'))?.toString()).toBe('abcd');
  });

  it('refuses a part over maxBytes without touching the bytes after its region', async () => {
    await storage.writeAt('asm/h', 0, Readable.from([Buffer.alloc(3_000, 1)]));
    await storage.writeAt('asm/h', 2_000, Readable.from([Buffer.alloc(1_000, 2)]));
    await expect(storage.writeAt('asm/h', 0, bytes(2_500), { maxBytes: 2_000 })).rejects.toBeInstanceOf(StorageLimitError);
    const after = await storage.read('asm/h');
    expect(after?.length).toBe(3_000);
    expect(after?.subarray(2_000).equals(Buffer.alloc(1_000, 2))).toBe(true);
    expect(await storage.writeAt('asm/h', 0, bytes(2_000), { maxBytes: 2_000 })).toBe(2_000);
  });

  it('keeps what came before a source failed, and rethrows', async () => {
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('first part');
      throw new Error('connection reset');
    }
    await expect(storage.writeAt('asm/i', 5, broken())).rejects.toThrow('connection reset');
    expect((await storage.read('asm/i'))?.subarray(5).toString()).toBe('first part');
    expect(await filesUnder('asm')).toEqual(['i']);
  });

  it('is offered by local disk through inPlaceWriterOf, and refuses bad offsets and keys', async () => {
    expect(inPlaceWriterOf(storage)).toBeDefined();
    await expect(storage.writeAt('asm/j', -1, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(RangeError);
    await expect(storage.writeAt('../j', 0, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(InvalidStorageKeyError);
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
