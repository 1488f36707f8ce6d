/**
 * The bytes a PDF's compressed streams inflate to (docs/decisions/0027-bounded-conversions.md),
 * counted before pdf.js reads them. pdf.js inflates a content stream whole into one growing buffer,
 * outside the V8 heap: a 1 MB page whose content inflated to 1 GB took a conversion to 2.4 GB, a
 * 3 MB one to 6.4 GB. No hook of pdf.js can stop it, so the file is looked at first.
 *
 * A stream is always an indirect object (`N G obj << dict >> stream EOL data endstream`, PDF 32000
 * §7.3.8), never inside an object stream, so each one is found by its keyword, its dictionary
 * parsed from the object's header just before it. Streams whose filters begin with FlateDecode
 * are inflated here, a chain of them in turn, and only their size is kept. Images are left out:
 * pdf.js drops an image over its size limit (maxImageSize) without decoding it. What this cannot
 * read (encrypted streams, other filters) is not counted; the conversion process's memory cap
 * (decision 0027) still bounds it.
 */
import { constants, createInflate, inflateSync, type Inflate } from 'node:zlib';
import { CadLimitError } from '../errors';

const FLATE = new Set(['FlateDecode', 'Fl']);
/** Streams inflating to this size at most are inflated in one call (held for a moment); larger ones are counted as they stream. */
const SYNC_BYTES = 64 << 20;
/** Output chunk of a counted stream: zlib's default 16 KB costs a turn of the event loop per chunk. */
const CHUNK_BYTES = 1 << 20;
/** How far before a `stream` keyword its object's header may be. */
const HEADER_WINDOW = 64 * 1024;

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
const isDelimiter = (c: number | undefined): boolean =>
  c === 0x28 || c === 0x29 || c === 0x3c || c === 0x3e || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === 0x2f || c === 0x25;

/** A dictionary's filters and whether it is an image, and where it ends. */
interface StreamDict {
  filters: string[];
  isImage: boolean;
  end: number;
}

/** A minimal reader of PDF objects over bytes: enough to find a stream dictionary's keys. */
class ObjectReader {
  constructor(
    private readonly bytes: Buffer,
    public at: number,
    private readonly limit: number,
  ) {}

  private skipSpace(): void {
    for (;;) {
      while (this.at < this.limit && isSpace(this.bytes[this.at])) this.at++;
      if (this.bytes[this.at] !== 0x25) return;
      while (this.at < this.limit && this.bytes[this.at] !== 0x0a && this.bytes[this.at] !== 0x0d) this.at++;
    }
  }

  private word(): string {
    const start = this.at;
    while (this.at < this.limit && !isSpace(this.bytes[this.at]) && !isDelimiter(this.bytes[this.at])) this.at++;
    return this.bytes.toString('latin1', start, this.at);
  }

  /** A value: names and arrays of names come back as their names; anything else as null. Throws at the end of the window. */
  value(depth = 0): string | string[] | Map<string, string | string[] | null> | null {
    if (depth > 32) throw new Error('nested too deep');
    this.skipSpace();
    if (this.at >= this.limit) throw new Error('end of window');
    const c = this.bytes[this.at];
    if (c === 0x2f) {
      this.at++;
      return this.word();
    }
    if (c === 0x3c && this.bytes[this.at + 1] === 0x3c) return this.dict(depth);
    if (c === 0x5b) {
      this.at++;
      const items: string[] = [];
      for (;;) {
        this.skipSpace();
        if (this.at >= this.limit) throw new Error('end of window');
        if (this.bytes[this.at] === 0x5d) {
          this.at++;
          return items;
        }
        const item = this.value(depth + 1);
        if (typeof item === 'string') items.push(item);
      }
    }
    if (c === 0x28) {
      let nesting = 0;
      for (; this.at < this.limit; this.at++) {
        const b = this.bytes[this.at];
        if (b === 0x5c) this.at++;
        else if (b === 0x28) nesting++;
        else if (b === 0x29 && --nesting === 0) {
          this.at++;
          return null;
        }
      }
      throw new Error('end of window');
    }
    if (c === 0x3c) {
      const close = this.bytes.indexOf(0x3e, this.at);
      if (close < 0 || close >= this.limit) throw new Error('end of window');
      this.at = close + 1;
      return null;
    }
    if (isDelimiter(c)) throw new Error('unexpected delimiter');
    this.word();
    return null;
  }

  dict(depth: number): Map<string, string | string[] | null> {
    this.at += 2;
    const entries = new Map<string, string | string[] | null>();
    for (;;) {
      this.skipSpace();
      if (this.bytes[this.at] === 0x3e && this.bytes[this.at + 1] === 0x3e) {
        this.at += 2;
        return entries;
      }
      const key = this.value(depth + 1);
      // A reference (`12 0 R`) reads as three bare words: the key takes the first, the others are passed over here.
      if (typeof key !== 'string') continue;
      const value = this.value(depth + 1);
      entries.set(key, value instanceof Map ? null : value);
    }
  }

  /** `N G obj << ... >>` at `at`, followed only by space up to `keyword`: the stream's dictionary. */
  streamDict(keyword: number): StreamDict | null {
    try {
      const head = /^\d+\s+\d+\s+obj/.exec(this.bytes.toString('latin1', this.at, Math.min(this.at + 48, this.limit)));
      if (!head) return null;
      this.at += head[0].length;
      this.skipSpace();
      if (!(this.bytes[this.at] === 0x3c && this.bytes[this.at + 1] === 0x3c)) return null;
      const dict = this.dict(0);
      this.skipSpace();
      if (this.at !== keyword) return null;
      const filter = dict.get('Filter');
      return {
        filters: typeof filter === 'string' ? [filter] : Array.isArray(filter) ? filter : [],
        isImage: dict.get('Subtype') === 'Image',
        end: this.at,
      };
    } catch {
      return null;
    }
  }
}

/** The dictionary of the stream whose keyword is at `keyword`: the nearest object header before it that leads there. */
function dictBefore(buffer: Buffer, keyword: number): StreamDict | null {
  const from = Math.max(0, keyword - HEADER_WINDOW);
  for (let obj = buffer.lastIndexOf('obj', keyword); obj >= from; obj = buffer.lastIndexOf('obj', obj - 1)) {
    const head = /(?:^|[^\d])(\d+\s+\d+\s+)$/.exec(buffer.toString('latin1', Math.max(from, obj - 40), obj));
    if (!head) continue;
    const found = new ObjectReader(buffer, obj - (head[1] as string).length, keyword).streamDict(keyword);
    if (found) return found;
  }
  return null;
}

/** Bytes `data` inflates to through `stages` zlib streams (what comes out before any damage), counted no further than `cap` + 1. */
function inflatedBytes(data: Uint8Array, stages: number, cap: number): Promise<number> {
  if (stages === 1) {
    const syncCap = Math.min(cap + 1, SYNC_BYTES);
    try {
      return Promise.resolve(inflateSync(data, { maxOutputLength: syncCap, finishFlush: constants.Z_SYNC_FLUSH }).length);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' && syncCap > cap) return Promise.resolve(cap + 1);
      // Larger than one call takes, or damaged: counted as it streams, up to the damage.
    }
  }
  return new Promise((resolve) => {
    const inflaters = Array.from({ length: stages }, () => createInflate({ finishFlush: constants.Z_SYNC_FLUSH, chunkSize: CHUNK_BYTES }));
    const first = inflaters[0] as Inflate;
    const last = inflaters[stages - 1] as Inflate;
    let total = 0;
    const done = (): void => {
      for (const z of inflaters) z.destroy();
      resolve(total);
    };
    for (let i = 0; i + 1 < stages; i++) (inflaters[i] as Inflate).pipe(inflaters[i + 1] as Inflate);
    for (const z of inflaters) z.on('error', done);
    last.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > cap) done();
    });
    last.on('end', done);
    first.end(data);
  });
}

/** Throws CadLimitError when the file's Flate streams (but images) inflate to more than `maxDecodedBytes`. */
export async function checkPdfStreams(bytes: Uint8Array, maxDecodedBytes: number): Promise<void> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let left = maxDecodedBytes;
  for (let at = buffer.indexOf('stream'); at >= 0; at = buffer.indexOf('stream', at + 6)) {
    if (at >= 3 && buffer.toString('latin1', at - 3, at) === 'end') continue;
    const eol = buffer[at + 6];
    if (eol !== 0x0a && eol !== 0x0d) continue;
    const dict = dictBefore(buffer, at);
    if (!dict || dict.isImage) continue;
    let stages = 0;
    while (stages < dict.filters.length && FLATE.has(dict.filters[stages] as string)) stages++;
    if (stages === 0) continue;
    const start = at + 6 + (eol === 0x0d && buffer[at + 7] === 0x0a ? 2 : 1);
    left -= await inflatedBytes(bytes.subarray(start), stages, left);
    if (left < 0)
      throw new CadLimitError(
        'pdfDecodedBytes',
        maxDecodedBytes,
        `the PDF's compressed content inflates to more than ${maxDecodedBytes} bytes`,
      );
  }
}
