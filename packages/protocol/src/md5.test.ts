import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5Bytes, md5Hex } from './md5';

function nodeMd5(input: string | Uint8Array): string {
  return createHash('md5').update(input).digest('hex');
}

describe('md5Hex', () => {
  it('matches the RFC 1321 test suite', () => {
    expect(md5Hex('')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(md5Hex('a')).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(md5Hex('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(md5Hex('message digest')).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(md5Hex('abcdefghijklmnopqrstuvwxyz')).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(md5Hex('12345678901234567890123456789012345678901234567890123456789012345678901234567890')).toBe(
      '57edf4a22be3c955ac49da2e2107b67a',
    );
  });

  it('matches node:crypto at every length around the 64-byte block boundaries', () => {
    for (let length = 0; length <= 200; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(33 + ((i * 7) % 94))).join('');
      expect(md5Hex(text), `length ${length}`).toBe(nodeMd5(text));
    }
  });

  it('hashes the UTF-8 bytes of Chinese text and emoji', () => {
    for (const text of [
      '迅捷CAD编辑器',
      '当前账号未注册，请先注册！',
      '😀👍🏽',
      'name=迅捷&price=88',
      '中'.repeat(18),
      '中'.repeat(19),
      '中'.repeat(22),
    ]) {
      expect(md5Hex(text), text).toBe(nodeMd5(text));
    }
  });

  it('matches node:crypto on pseudo-random binary input', () => {
    let seed = 42;
    for (const length of [1, 55, 56, 57, 63, 64, 65, 127, 128, 1000, 4096]) {
      const bytes = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        bytes[i] = seed & 0xff;
      }
      const hex = Array.from(md5Bytes(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
      expect(hex, `length ${length}`).toBe(nodeMd5(bytes));
    }
  });

  it('matches node:crypto on a 1 MB input', () => {
    const text = 'CAD图纸'.repeat(100_000);
    expect(md5Hex(text)).toBe(nodeMd5(text));
  });
});
