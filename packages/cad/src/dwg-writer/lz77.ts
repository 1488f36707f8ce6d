/**
 * The R2004 LZ77 variant, compressing side: a greedy matcher over a 16 KB window (hash chains of
 * three-byte prefixes), emitting the format's opcodes. A stream is: an optional literal run (4 or
 * more bytes), then copies, each carrying the count of literals that follow it, then 0x11.
 *
 *  - literal run length L >= 4: one byte L - 3 (L <= 18), else 0x00, zero bytes each worth 0xFF,
 *    and a final non-zero byte (L - 3 - 0x0F in total);
 *  - copy of 3..14 bytes from 1..1024 back: one byte (len + 1) << 4 | (off - 1 & 3) << 2 | lit,
 *    then (off - 1) >> 2;
 *  - copy of 3+ bytes from 1..0x4000 back: 0x20 | (len - 2) (or 0x20 and an extended count for
 *    34+), then two bytes ((off - 1) & 0x3F) << 2 | lit and (off - 1) >> 6;
 *  - `lit` (two bits) is the number of literals after the copy when 1..3; 0 means either none
 *    or a literal run length byte follows.
 */

const WINDOW = 0x4000;
const MIN_MATCH = 3;
const MAX_CHAIN = 32;
const HASH_BITS = 15;

function runLength(out: number[], n: number, base: number): void {
  // The extended count: 0x00 bytes worth 0xFF each, then the non-zero remainder.
  let rest = n - base;
  while (rest > 0xff) {
    out.push(0);
    rest -= 0xff;
  }
  out.push(rest);
}

/** Literal run length (4 or more) as the opcode byte(s) before the literal bytes. */
function literalLength(out: number[], n: number): void {
  if (n <= 18) out.push(n - 3);
  else {
    out.push(0);
    runLength(out, n - 3, 0x0f);
  }
}

export function compress2004(data: Uint8Array): Uint8Array {
  const n = data.length;
  const out: number[] = [];
  const head = new Int32Array(1 << HASH_BITS).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const hash = (i: number): number =>
    ((((data[i] as number) << 16) ^ ((data[i + 1] as number) << 8) ^ (data[i + 2] as number)) * 2654435761) >>> (32 - HASH_BITS);
  const insert = (i: number): void => {
    if (i + 2 >= n) return;
    const h = hash(i);
    prev[i] = head[h] as number;
    head[h] = i;
  };

  interface Copy {
    len: number;
    off: number;
    litStart: number;
    litEnd: number;
  }
  const copies: Copy[] = [];
  let firstLiterals = 0;
  let i = 0;
  while (i < n) {
    let bestLen = 0;
    let bestOff = 0;
    // The first literal run may not be 1..3 bytes long: no copy before the fourth byte.
    if (i + MIN_MATCH <= n && (copies.length > 0 || i === 0 || i >= 4)) {
      let cand = head[hash(i)] as number;
      for (let chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++, cand = prev[cand] as number) {
        const off = i - cand;
        if (off > WINDOW) break;
        let len = 0;
        while (i + len < n && data[cand + len] === data[i + len]) len++;
        if (len > bestLen) {
          bestLen = len;
          bestOff = off;
        }
      }
    }
    if (bestLen >= MIN_MATCH) {
      const last = copies[copies.length - 1];
      if (last) last.litEnd = i;
      else firstLiterals = i;
      copies.push({ len: bestLen, off: bestOff, litStart: i + bestLen, litEnd: i + bestLen });
      for (let k = 0; k < bestLen; k++) insert(i + k);
      i += bestLen;
    } else {
      insert(i);
      i++;
    }
  }
  const last = copies[copies.length - 1];
  if (last) last.litEnd = n;
  else firstLiterals = n;

  if (firstLiterals > 0) {
    literalLength(out, firstLiterals);
    for (let k = 0; k < firstLiterals; k++) out.push(data[k] as number);
  }
  for (const c of copies) {
    const lits = c.litEnd - c.litStart;
    const litBits = lits >= 1 && lits <= 3 ? lits : 0;
    const o = c.off - 1;
    if (c.len <= 14 && c.off <= 1024) {
      out.push(((c.len + 1) << 4) | ((o & 3) << 2) | litBits, o >> 2);
    } else {
      if (c.len <= 33) out.push(0x20 | (c.len - 2));
      else {
        out.push(0x20);
        runLength(out, c.len - 2, 0x1f);
      }
      out.push(((o & 0x3f) << 2) | litBits, o >> 6);
    }
    if (lits >= 4) literalLength(out, lits);
    for (let k = c.litStart; k < c.litEnd; k++) out.push(data[k] as number);
  }
  out.push(0x11);
  return Uint8Array.from(out);
}
