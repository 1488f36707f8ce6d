/**
 * The R2007 LZ77 variant (AC1021 pages and system pages), both directions: the writer compresses,
 * the tests decompress AutoCAD's pages and ours.
 *
 * A stream is a literal run of 8 or more bytes, then copies; each copy's last byte carries in its
 * low three bits the number of literals (0..7) that follow it. When it carries 0, the next byte is
 * either another copy or (high nibble 0) a long literal run's length. Literal bytes are stored in
 * a scrambled order (32-byte blocks with their 8-byte quarters reversed, the tail by a fixed table),
 * which `literalOrder` describes for both sides.
 *
 *  - literal run length L >= 8: one byte L - 8 (L <= 22), or 0x0F then a byte n (L = 23 + n,
 *    n < 0xFF), or 0x0F 0xFF then 16-bit words added while they are 0xFFFF;
 *  - copy of 3..18 bytes from 1..8192 back: 0x10 | (len - 3), (off - 1) & 0xFF,
 *    ((off - 1) >> 8) << 3 | lit;
 *  - copy of up to 255 bytes from up to 65535 back: 0x20 | (len & 7), off & 0xFF, off >> 8,
 *    (len & 0xF8) | lit;
 *  - the decoder also reads the other copy forms AutoCAD uses (0x00-0x0F after a copy marker
 *    0xF0-0xFF: 19+ bytes; 0x28-0x2F: lengths from 256; 0x3X-0xFX: 3..15 bytes within 512).
 */

/** Pieces of the literal order per tail length: [kind, offset]; kind 1-3 reversed bytes, 4/8 straight, 16 two swapped halves. */
const TAIL: readonly (readonly [number, number])[][] = [
  [],
  [[1, 0]],
  [[2, 0]],
  [[3, 0]],
  [[4, 0]],
  [
    [1, 4],
    [4, 0],
  ],
  [
    [1, 5],
    [4, 1],
    [1, 0],
  ],
  [
    [2, 5],
    [4, 1],
    [1, 0],
  ],
  [[8, 0]],
  [
    [1, 8],
    [8, 0],
  ],
  [
    [1, 9],
    [8, 1],
    [1, 0],
  ],
  [
    [2, 9],
    [8, 1],
    [1, 0],
  ],
  [
    [4, 8],
    [8, 0],
  ],
  [
    [1, 12],
    [4, 8],
    [8, 0],
  ],
  [
    [1, 13],
    [4, 9],
    [8, 1],
    [1, 0],
  ],
  [
    [2, 13],
    [4, 9],
    [8, 1],
    [1, 0],
  ],
  [[16, 0]],
  [
    [8, 9],
    [1, 8],
    [8, 0],
  ],
  [
    [1, 17],
    [16, 1],
    [1, 0],
  ],
  [
    [3, 16],
    [16, 0],
  ],
  [
    [4, 16],
    [16, 0],
  ],
  [
    [1, 20],
    [4, 16],
    [16, 0],
  ],
  [
    [2, 20],
    [4, 16],
    [16, 0],
  ],
  [
    [3, 20],
    [4, 16],
    [16, 0],
  ],
  [
    [8, 16],
    [16, 0],
  ],
  [
    [8, 17],
    [1, 16],
    [16, 0],
  ],
  [
    [1, 25],
    [8, 17],
    [1, 16],
    [16, 0],
  ],
  [
    [2, 25],
    [8, 17],
    [1, 16],
    [16, 0],
  ],
  [
    [4, 24],
    [8, 16],
    [16, 0],
  ],
  [
    [1, 28],
    [4, 24],
    [8, 16],
    [16, 0],
  ],
  [
    [2, 28],
    [4, 24],
    [8, 16],
    [16, 0],
  ],
  [
    [1, 30],
    [4, 26],
    [8, 18],
    [16, 2],
    [2, 0],
  ],
];

/** `order[i]` is the position in the stored literal run of the run's i-th decoded byte. */
export function literalOrder(length: number): Uint32Array {
  const order = new Uint32Array(length);
  let o = 0;
  const piece = (base: number, kind: number, at: number): void => {
    const from = base + at;
    if (kind <= 3) for (let k = kind - 1; k >= 0; k--) order[o++] = from + k;
    else if (kind === 16) {
      for (let k = 0; k < 8; k++) order[o++] = from + 8 + k;
      for (let k = 0; k < 8; k++) order[o++] = from + k;
    } else for (let k = 0; k < kind; k++) order[o++] = from + k;
  };
  let base = 0;
  for (; length - base >= 32; base += 32) {
    piece(base, 16, 16);
    piece(base, 16, 0);
  }
  for (const [kind, at] of TAIL[length - base] as (readonly [number, number])[]) piece(base, kind, at);
  return order;
}

const WINDOW = 0xffff;
const MIN_MATCH = 3;
const MAX_COPY = 255;
/** The short copy form's limits. */
const SHORT_COPY = 18;
const SHORT_OFFSET = 0x2000;
const MAX_CHAIN = 32;
const HASH_BITS = 15;

/** Compresses `data` (8 bytes or more) into an R2007 stream (longer than `data` when it does not compress). */
export function compress2007(data: Uint8Array): Uint8Array {
  if (data.length < 8) throw new RangeError('R2007 compression needs at least 8 bytes');
  const out: number[] = [];
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const prev = new Int32Array(data.length).fill(-1);
  const hash = (i: number): number =>
    (((data[i] as number) << 10) ^ ((data[i + 1] as number) << 5) ^ (data[i + 2] as number)) & ((1 << HASH_BITS) - 1);
  const insert = (i: number): void => {
    if (i + 2 >= data.length) return;
    const h = hash(i);
    prev[i] = head[h] as number;
    head[h] = i;
  };

  let litStart = 0;
  /** Index in `out` of the last copy's final byte (its low bits take the count of short literal runs), or -1. */
  let lastCopy = -1;
  const flushLiterals = (end: number): void => {
    const n = end - litStart;
    if (n === 0) return;
    if (n <= 7 && lastCopy >= 0) out[lastCopy] = (out[lastCopy] as number) | n;
    else if (n < 23) out.push(n - 8);
    else {
      out.push(0x0f);
      let rest = n - 23;
      if (rest < 0xff) out.push(rest);
      else {
        out.push(0xff);
        rest -= 0xff;
        while (rest >= 0xffff) {
          out.push(0xff, 0xff);
          rest -= 0xffff;
        }
        out.push(rest & 0xff, rest >> 8);
      }
    }
    const order = literalOrder(n);
    const stored = new Array<number>(n);
    for (let i = 0; i < n; i++) stored[order[i] as number] = data[litStart + i] as number;
    for (const b of stored) out.push(b);
    lastCopy = -1;
  };

  // The stream opens with a literal run of at least 8 bytes.
  for (let i = 0; i < 8; i++) insert(i);
  let i = 8;
  while (i < data.length) {
    let bestLen = 0;
    let bestOff = 0;
    if (i + MIN_MATCH <= data.length) {
      let cand = head[hash(i)] as number;
      for (let chain = 0; cand >= 0 && i - cand <= WINDOW && chain < MAX_CHAIN; chain++, cand = prev[cand] as number) {
        let len = 0;
        const max = Math.min(data.length - i, MAX_COPY * 16);
        while (len < max && data[cand + len] === data[i + len]) len++;
        if (len > bestLen) {
          bestLen = len;
          bestOff = i - cand;
          if (len >= 258) break;
        }
      }
    }
    if (bestLen < MIN_MATCH) {
      insert(i);
      i++;
      continue;
    }
    flushLiterals(i);
    // A long match as consecutive copies of at most 255 bytes, none shorter than 3.
    let left = bestLen;
    while (left >= MIN_MATCH) {
      const len = Math.min(MAX_COPY, left - (left - MAX_COPY > 0 && left - MAX_COPY < MIN_MATCH ? MIN_MATCH : 0));
      if (len <= SHORT_COPY && bestOff <= SHORT_OFFSET) {
        const off = bestOff - 1;
        out.push(0x10 | (len - 3), off & 0xff, (off >> 8) << 3);
      } else out.push(0x20 | (len & 7), bestOff & 0xff, bestOff >> 8, len & 0xf8);
      lastCopy = out.length - 1;
      for (let k = 0; k < len; k++) insert(i + k);
      i += len;
      left -= len;
    }
    litStart = i;
  }
  flushLiterals(data.length);
  return Uint8Array.from(out);
}

/** Decompresses an R2007 stream into `size` bytes; throws on a malformed stream. */
export function decompress2007(src: Uint8Array, size: number): Uint8Array {
  const dst = new Uint8Array(size);
  let d = 0;
  let s = 0;
  const byte = (): number => {
    if (s >= src.length) throw new RangeError('R2007 stream ends early');
    return src[s++] as number;
  };
  const literal = (n: number): void => {
    if (d + n > size || s + n > src.length) throw new RangeError('R2007 literal run out of bounds');
    const order = literalOrder(n);
    for (let k = 0; k < n; k++) dst[d + k] = src[s + (order[k] as number)] as number;
    d += n;
    s += n;
  };
  const copy = (offset: number, length: number): void => {
    if (offset > d || offset <= 0 || d + length > size) throw new RangeError('R2007 copy out of bounds');
    for (let k = 0; k < length; k++, d++) dst[d] = dst[d - offset] as number;
  };
  /** Reads one copy instruction whose first byte is `op`; returns its last byte. */
  const instruction = (op: number): number => {
    let length: number;
    let offset: number;
    let last: number;
    switch (op >> 4) {
      case 0:
        length = (op & 0xf) + 0x13;
        offset = byte();
        last = byte();
        length += (last >> 3) & 0x10;
        offset += ((last & 0x78) << 5) + 1;
        break;
      case 1:
        length = (op & 0xf) + 3;
        offset = byte();
        last = byte();
        offset += ((last & 0xf8) << 5) + 1;
        break;
      case 2:
        offset = byte();
        offset |= byte() << 8;
        length = op & 7;
        if ((op & 8) === 0) {
          last = byte();
          length += last & 0xf8;
        } else {
          offset++;
          length += byte() << 3;
          last = byte();
          length += ((last & 0xf8) << 8) + 0x100;
        }
        break;
      default:
        length = op >> 4;
        offset = op & 15;
        last = byte();
        offset += ((last & 0xf8) << 1) + 1;
    }
    copy(offset, length);
    return last;
  };
  const literalLength = (op: number): number => {
    let n = op + 8;
    if (n === 0x17) {
      let x = byte();
      n += x;
      if (x === 0xff)
        do {
          x = byte() | (byte() << 8);
          n += x;
        } while (x === 0xffff);
    }
    return n;
  };

  let op = byte();
  let pending = 0;
  if ((op & 0xf0) === 0x20) {
    s += 2;
    pending = byte() & 7;
  }
  while (s < src.length) {
    literal(pending || literalLength(op));
    pending = 0;
    if (s >= src.length) break;
    let last = instruction(byte());
    for (;;) {
      pending = last & 7;
      if (pending !== 0 || s >= src.length) break;
      op = byte();
      if (op >> 4 === 0) break;
      last = instruction(op >> 4 === 0x0f ? op & 0xf : op);
    }
  }
  if (d !== size) throw new RangeError(`R2007 stream gives ${d} bytes, ${size} expected`);
  return dst;
}
