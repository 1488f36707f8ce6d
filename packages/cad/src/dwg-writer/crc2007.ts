/**
 * The checksums of the R2007 container, checked against AutoCAD's own 2007 files (container.test.ts):
 *
 * - every one reads the data in a fixed shuffled order: each 8-byte block as its 16-bit words
 *   last to first (bytes 6 7 4 5 2 3 0 1), a 4-to-7-byte tail with its first two words swapped
 *   (2 3 0 1, then the rest in order), a shorter tail in order;
 * - the starting value is derived from a seed and the data's length with the format's LCG
 *   (0x343FD, 0x269EC3) in two ways ("seed 1": the low and high halves; "seed 2": a second round);
 * - "normal" CRC-64: ECMA-182 (0x42F0E1EBA9EA3693) most significant bit first from seed 2,
 *   inverted at the end: the file header table and the compressed table's check value;
 * - "mirrored" CRC-64: least significant bit first with the reflected 0xAD93D23594C935A9
 *   (0x95AC9329AC4BC9B5 reflected) from seed 1, not inverted: system pages and data pages;
 * - the page checksum: Adler-32's two sums in the same order, started from the LCG of the length.
 *
 * 64-bit values are kept as two 32-bit halves (`hi`, `lo`) to stay fast on large sections.
 */

const U64 = (1n << 64n) - 1n;

function table(poly: bigint, reflected: boolean): { hi: Uint32Array; lo: Uint32Array } {
  const hi = new Uint32Array(256);
  const lo = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = reflected ? BigInt(i) : BigInt(i) << 56n;
    for (let k = 0; k < 8; k++) {
      if (reflected) c = c & 1n ? (c >> 1n) ^ poly : c >> 1n;
      else c = c & (1n << 63n) ? ((c << 1n) ^ poly) & U64 : (c << 1n) & U64;
    }
    hi[i] = Number(c >> 32n);
    lo[i] = Number(c & 0xffffffffn);
  }
  return { hi, lo };
}

const NORMAL = table(0x42f0e1eba9ea3693n, false);
const MIRRORED = table(0x95ac9329ac4bc9b5n, true);

/** `data` in the order the checksums read it. */
function shuffled(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length);
  const full = data.length & ~7;
  for (let b = 0; b < full; b += 8) {
    out[b] = data[b + 6] as number;
    out[b + 1] = data[b + 7] as number;
    out[b + 2] = data[b + 4] as number;
    out[b + 3] = data[b + 5] as number;
    out[b + 4] = data[b + 2] as number;
    out[b + 5] = data[b + 3] as number;
    out[b + 6] = data[b] as number;
    out[b + 7] = data[b + 1] as number;
  }
  const rest = data.length - full;
  const order = rest >= 4 ? [2, 3, 0, 1, 4, 5, 6].slice(0, rest) : [0, 1, 2].slice(0, rest);
  order.forEach((k, i) => (out[full + i] = data[full + k] as number));
  return out;
}

function seed1(seed: bigint, length: number): bigint {
  let s = ((seed + BigInt(length)) * 0x343fdn + 0x269ec3n) & U64;
  s |= (s * (0x343fdn << 32n) + (0x269ec3n << 32n)) & U64;
  return ~s & U64;
}

function seed2(seed: bigint, length: number): bigint {
  let s = ((seed + BigInt(length)) * 0x343fdn + 0x269ec3n) & U64;
  s = (s * 0x1000343fdn + BigInt(length) + 0x269ec3n) & U64;
  return ~s & U64;
}

const join = (hi: number, lo: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);

/** The normal CRC-64 of `data` (file header table, compressed table). */
export function crc64Normal(data: Uint8Array, seed = 0n): bigint {
  const start = seed2(seed, data.length);
  let hi = Number(start >> 32n) | 0;
  let lo = Number(start & 0xffffffffn) | 0;
  const sh = shuffled(data);
  for (let k = 0; k < sh.length; k++) {
    const b = sh[k] as number;
    const i = ((hi >>> 24) ^ b) & 0xff;
    hi = ((hi << 8) | (lo >>> 24)) ^ (NORMAL.hi[i] as number);
    lo = (lo << 8) ^ (NORMAL.lo[i] as number);
  }
  return ~join(hi, lo) & U64;
}

/** The mirrored CRC-64 of `data` (system pages, data pages). */
export function crc64Mirrored(data: Uint8Array, seed = 0n): bigint {
  const start = seed1(seed, data.length);
  let hi = Number(start >> 32n) | 0;
  let lo = Number(start & 0xffffffffn) | 0;
  const sh = shuffled(data);
  for (let k = 0; k < sh.length; k++) {
    const b = sh[k] as number;
    const i = (lo ^ b) & 0xff;
    lo = ((lo >>> 8) | (hi << 24)) ^ (MIRRORED.lo[i] as number);
    hi = (hi >>> 8) ^ (MIRRORED.hi[i] as number);
  }
  return join(hi, lo);
}

/** The R2007 page checksum of a page's uncompressed data. */
export function pageChecksum2007(data: Uint8Array, seed = 0): number {
  const start = (Math.imul(seed + data.length, 0x343fd) + 0x269ec3) >>> 0;
  let sum1 = start & 0xffff;
  let sum2 = start >>> 16;
  let n = 0;
  const sh = shuffled(data);
  for (let k = 0; k < sh.length; k++) {
    const b = sh[k] as number;
    sum1 += b;
    sum2 += sum1;
    if (++n === 0x15b0) {
      sum1 %= 0xfff1;
      sum2 %= 0xfff1;
      n = 0;
    }
  }
  sum1 %= 0xfff1;
  sum2 %= 0xfff1;
  return ((sum2 << 16) | sum1) >>> 0;
}
