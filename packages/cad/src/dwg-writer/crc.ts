/**
 * The checksums of the DWG format: the 16-bit CRC the specification calls "CRC8" (the reflected
 * 0x8005 polynomial, table-driven one byte at a time, with a seed: 0xC0C1 for most sections) and
 * the R2004 page checksum (an Adler-32 variant). The standard CRC-32 (R2004 section maps) is
 * Node's `zlib.crc32`, whose second argument continues a running checksum.
 */

const CRC16_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

/** The DWG 16-bit CRC of `data[from, to)`, starting from `seed`. */
export function crc16(data: Uint8Array, seed: number, from = 0, to = data.length): number {
  let crc = seed & 0xffff;
  for (let i = from; i < to; i++) crc = (crc >>> 8) ^ (CRC16_TABLE[(crc ^ (data[i] as number)) & 0xff] as number);
  return crc;
}

/**
 * The R2004 page checksum: Adler-32's two running sums (modulo 65521), seeded with a previous
 * checksum, summed in blocks of at most 0x15B0 bytes before each reduction.
 */
export function pageChecksum(seed: number, data: Uint8Array, from = 0, to = data.length): number {
  let sum1 = seed & 0xffff;
  let sum2 = (seed >>> 16) & 0xffff;
  let i = from;
  while (i < to) {
    const chunk = Math.min(0x15b0, to - i);
    for (let k = 0; k < chunk; k++) {
      sum1 += data[i++] as number;
      sum2 += sum1;
    }
    sum1 %= 0xfff1;
    sum2 %= 0xfff1;
  }
  return ((sum2 << 16) | (sum1 & 0xffff)) >>> 0;
}
