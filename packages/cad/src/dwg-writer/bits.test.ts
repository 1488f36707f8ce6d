/** The bit codes and checksums against bytes worked out by hand from the format description. */
import { describe, expect, it } from 'vitest';
import { BitWriter, modularChar, modularShort, unsignedModularChar } from './bits';
import { crc32 } from 'node:zlib';
import { crc16, pageChecksum } from './crc';

const hex = (w: BitWriter): string => Buffer.from(w.toBytes()).toString('hex');
const ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

describe('bit codes', () => {
  it('B and BB fill bytes from the most significant bit', () => {
    expect(hex(new BitWriter().b(1).b(0).b(1))).toBe('a0');
    expect(hex(new BitWriter().bb(2))).toBe('80');
    expect(hex(new BitWriter().bb(1).bb(3).b(1))).toBe('78');
  });

  it('RC, RS, RL, RD are little-endian and need no alignment', () => {
    expect(hex(new BitWriter().b(1).b(1).b(1).rc(0xff))).toBe('ffe0');
    expect(hex(new BitWriter().rs(0x1234))).toBe('3412');
    expect(hex(new BitWriter().rl(0x12345678))).toBe('78563412');
    expect(hex(new BitWriter().rd(2.5))).toBe('0000000000000440');
  });

  it('BS: 10 = 0, 11 = 256, 01 + a byte, 00 + a raw short', () => {
    expect(hex(new BitWriter().bs(0))).toBe('80');
    expect(hex(new BitWriter().bs(256))).toBe('c0');
    expect(hex(new BitWriter().bs(5))).toBe('4140');
    expect(hex(new BitWriter().bs(300))).toBe('0b0040');
    expect(hex(new BitWriter().bs(-1))).toBe('3fffc0');
  });

  it('BL: 10 = 0, 01 + a byte, 00 + a raw long', () => {
    expect(hex(new BitWriter().bl(0))).toBe('80');
    expect(hex(new BitWriter().bl(7))).toBe('41c0');
    expect(hex(new BitWriter().bl(70000))).toBe('1c04404000');
  });

  it('BD: 01 = 1.0, 10 = 0.0, 00 + a raw double; -0 keeps its sign', () => {
    expect(hex(new BitWriter().bd(1))).toBe('40');
    expect(hex(new BitWriter().bd(0))).toBe('80');
    expect(hex(new BitWriter().bd(2.5))).toBe('000000000000011000');
    expect(hex(new BitWriter().bd(-0))).toBe('000000000000002000');
  });

  it('DD: the default, its low four bytes replaced, or a full double', () => {
    expect(hex(new BitWriter().dd(1, 1))).toBe('00');
    // 1.0000000000000002 differs from 1.0 in its lowest byte only.
    expect(hex(new BitWriter().dd(1.0000000000000002, 1))).toBe('4040000000');
    // 2.5 against 1.0: the two high bytes differ, so the full value (11 + RD).
    expect(hex(new BitWriter().dd(2.5, 1))).toBe('c00000000000011000');
  });

  it('BE and BT take one bit for the usual values', () => {
    expect(hex(new BitWriter().be([0, 0, 1]).bt(0))).toBe('c0');
    expect(hex(new BitWriter().bt(1))).toBe('20');
  });

  it('H: code and byte count in one byte, then the handle bytes, most significant first', () => {
    expect(hex(new BitWriter().h(5, 0x2a))).toBe('512a');
    expect(hex(new BitWriter().h(4, 0))).toBe('40');
    expect(hex(new BitWriter().h(3, 0x1234))).toBe('321234');
  });

  it('TV counts and writes the terminating NUL, as AutoCAD does', () => {
    expect(hex(new BitWriter().tv(ascii('m')))).toBe('409b4000');
    expect(hex(new BitWriter().tv(new Uint8Array(0)))).toBe('80');
  });

  it('append keeps a stream that does not end on a byte boundary', () => {
    const a = new BitWriter().b(1).b(0).b(1);
    const b = new BitWriter().b(1).bb(3);
    expect(hex(a.append(b))).toBe('bc');
  });

  it('patchRl overwrites a raw long written earlier, bits around it unchanged', () => {
    const w = new BitWriter().b(1);
    const at = w.bitLength;
    w.rl(0xffffffff).b(1);
    w.patchRl(at, 0x01020304);
    expect(hex(w)).toBe('82018100c0');
  });
});

describe('modular numbers', () => {
  it('MC: 7 bits a byte, low group first, 0x40 of the last byte is the sign', () => {
    expect(modularChar(4650)).toEqual([0xaa, 0x24]);
    expect(modularChar(-4650)).toEqual([0xaa, 0x64]);
    expect(modularChar(10)).toEqual([0x0a]);
    expect(modularChar(64)).toEqual([0xc0, 0x00]);
    expect(modularChar(-1)).toEqual([0x41]);
  });

  it('unsigned MC uses all 7 bits of the last byte', () => {
    expect(unsignedModularChar(100)).toEqual([0x64]);
    expect(unsignedModularChar(200)).toEqual([0xc8, 0x01]);
  });

  it('MS: 15 bits a little-endian word, 0x8000 = more follows', () => {
    expect(modularShort(0x7fff)).toEqual([0xff, 0x7f]);
    expect(modularShort(32768)).toEqual([0x00, 0x80, 0x01, 0x00]);
    expect(modularShort(71)).toEqual([0x47, 0x00]);
  });
});

describe('checksums', () => {
  it('the 16-bit CRC is CRC-16/ARC with a seed', () => {
    expect(crc16(ascii('123456789'), 0)).toBe(0xbb3d);
    expect(crc16(ascii('123456789'), 0xffff)).toBe(0x4b37);
    expect(crc16(new Uint8Array(0), 0xc0c1)).toBe(0xc0c1);
    // A range gives what the slice gives.
    expect(crc16(ascii('xx123456789yy'), 0, 2, 11)).toBe(0xbb3d);
  });

  it('CRC-32 is the IEEE one and chains', () => {
    expect(crc32(ascii('123456789'))).toBe(0xcbf43926);
    expect(crc32(ascii('56789'), crc32(ascii('1234')))).toBe(0xcbf43926);
  });

  it('the R2004 page checksum is Adler-32 seeded', () => {
    expect(pageChecksum(1, ascii('Wikipedia'))).toBe(0x11e60398);
    // Sums over more than one reduction block.
    const big = new Uint8Array(20_000).fill(0xff);
    let a = 1,
      b = 0;
    for (const x of big) {
      a = (a + x) % 65521;
      b = (b + a) % 65521;
    }
    expect(pageChecksum(1, big)).toBe(((b << 16) | a) >>> 0);
  });
});
