import { crc32 } from 'node:zlib';

// Decision 0019: several converted files are downloaded as one zip. PDFs, PNGs and JPGs are compressed
// already, so the entries are stored as they are (method 0): no compressor needed, and the zip is
// written in one pass. Names are UTF-8 (flag bit 11), which Windows Explorer, macOS and unzip read
// correctly for Chinese file names. No Zip64: a task's outputs stay far below 4 GiB.

export interface ZipEntry {
  /** The path inside the zip, '/'-separated. */
  name: string;
  data: Uint8Array;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const VERSION = 20;
/**
 * Made by Unix, version 2.0: Info-ZIP as Debian ships it re-encodes the names of entries made on
 * MS-DOS from a DOS code page even when they are flagged UTF-8, garbling Chinese names.
 */
const MADE_BY_UNIX = (3 << 8) | VERSION;
/** A regular file, rw-r--r--, in the Unix half of the external attributes. */
const UNIX_FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;
const UTF8_NAMES = 0x0800;
const MAX_32 = 0xffffffff;
const MAX_ENTRIES = 0xffff;

/** MS-DOS date and time (local time, two-second steps), as zip headers carry them. */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** A zip of `entries`, stored uncompressed, every entry dated `modified`. */
export function zipStore(entries: readonly ZipEntry[], modified: Date): Uint8Array {
  if (entries.length > MAX_ENTRIES) throw new RangeError(`a zip holds at most ${MAX_ENTRIES} entries without Zip64`);
  const encoder = new TextEncoder();
  const stamp = dosDateTime(modified);
  const prepared = entries.map((entry) => ({ name: encoder.encode(entry.name), data: entry.data, crc: crc32(entry.data) }));
  const localSize = prepared.reduce((sum, entry) => sum + 30 + entry.name.length + entry.data.length, 0);
  const centralSize = prepared.reduce((sum, entry) => sum + 46 + entry.name.length, 0);
  if (localSize + centralSize > MAX_32) throw new RangeError('a zip of 4 GiB or more needs Zip64');

  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (value: number): void => {
    view.setUint16(at, value, true);
    at += 2;
  };
  const u32 = (value: number): void => {
    view.setUint32(at, value, true);
    at += 4;
  };
  const bytes = (value: Uint8Array): void => {
    out.set(value, at);
    at += value.length;
  };

  const offsets: number[] = [];
  for (const entry of prepared) {
    offsets.push(at);
    u32(LOCAL_HEADER);
    u16(VERSION);
    u16(UTF8_NAMES);
    u16(0); // stored
    u16(stamp.time);
    u16(stamp.date);
    u32(entry.crc);
    u32(entry.data.length);
    u32(entry.data.length);
    u16(entry.name.length);
    u16(0); // no extra field
    bytes(entry.name);
    bytes(entry.data);
  }
  const centralStart = at;
  prepared.forEach((entry, index) => {
    u32(CENTRAL_HEADER);
    u16(MADE_BY_UNIX);
    u16(VERSION);
    u16(UTF8_NAMES);
    u16(0);
    u16(stamp.time);
    u16(stamp.date);
    u32(entry.crc);
    u32(entry.data.length);
    u32(entry.data.length);
    u16(entry.name.length);
    u16(0); // extra
    u16(0); // comment
    u16(0); // disk
    u16(0); // internal attributes
    u32(UNIX_FILE_ATTRIBUTES);
    u32(offsets[index] as number);
    bytes(entry.name);
  });
  u32(END_OF_CENTRAL_DIRECTORY);
  u16(0);
  u16(0);
  u16(prepared.length);
  u16(prepared.length);
  u32(centralSize);
  u32(centralStart);
  u16(0); // comment
  return out;
}

export class ZipReadError extends Error {
  override readonly name = 'ZipReadError';
}

/**
 * The entries of a zip this module wrote (stored entries, sizes in the local headers), read
 * through its central directory; anything else (compressed entries, Zip64) is refused.
 */
export function readStoredZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  if (end < 0 || view.getUint32(end, true) !== END_OF_CENTRAL_DIRECTORY)
    throw new ZipReadError('not a zip written by zipStore (no end record)');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_HEADER) throw new ZipReadError(`central header ${index} is missing`);
    if (view.getUint16(at + 10, true) !== 0) throw new ZipReadError(`entry ${index} is compressed`);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (local + 30 > end || view.getUint32(local, true) !== LOCAL_HEADER) throw new ZipReadError(`local header ${index} is missing`);
    const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = zip.subarray(dataStart, dataStart + size);
    if (data.length !== size || crc32(data) !== crc) throw new ZipReadError(`entry ${index} is damaged`);
    entries.push({ name: decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)), data });
    at += 46 + skip;
  }
  return entries;
}
