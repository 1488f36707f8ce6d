import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStoredZip, zipStore, ZipReadError } from './zip';

// Decision 0019: the zip of several converted files, checked against the format (APPNOTE 4.3) with an
// independent CRC, and by Info-ZIP's unzip (Debian package unzip) itself.

/** CRC-32 bit by bit (no table), to check the writer's. */
function slowCrc32(data: Uint8Array): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

const encoder = new TextEncoder();
const pdf = encoder.encode('%PDF-1.3\n% a page\n%%EOF\n');
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const when = new Date(2026, 10, 22, 14, 37, 58);

describe('zipStore', () => {
  const zip = zipStore(
    [
      { name: '一层平面图.pdf', data: pdf },
      { name: '详图/详图-布局1.png', data: png },
    ],
    when,
  );
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);

  it('writes local headers with UTF-8 names, stored data, CRC and sizes', () => {
    expect(view.getUint32(0, true)).toBe(0x04034b50);
    expect(view.getUint16(6, true) & 0x0800).toBe(0x0800);
    expect(view.getUint16(8, true)).toBe(0);
    expect(view.getUint32(14, true)).toBe(slowCrc32(pdf));
    expect(view.getUint32(18, true)).toBe(pdf.length);
    expect(view.getUint32(22, true)).toBe(pdf.length);
    const nameLength = view.getUint16(26, true);
    expect(new TextDecoder().decode(zip.subarray(30, 30 + nameLength))).toBe('一层平面图.pdf');
    expect(Buffer.from(zip.subarray(30 + nameLength, 30 + nameLength + pdf.length)).toString()).toBe(Buffer.from(pdf).toString());
  });

  it('dates the entries in MS-DOS form', () => {
    const time = view.getUint16(10, true);
    const date = view.getUint16(12, true);
    expect([time >> 11, (time >> 5) & 63, (time & 31) * 2]).toEqual([14, 37, 58]);
    expect([(date >> 9) + 1980, (date >> 5) & 15, date & 31]).toEqual([2026, 11, 22]);
  });

  it('ends with a central directory that lists every entry', () => {
    const end = zip.length - 22;
    expect(view.getUint32(end, true)).toBe(0x06054b50);
    expect(view.getUint16(end + 10, true)).toBe(2);
    const centralSize = view.getUint32(end + 12, true);
    const centralStart = view.getUint32(end + 16, true);
    expect(centralStart + centralSize).toBe(end);
    expect(view.getUint32(centralStart, true)).toBe(0x02014b50);
  });

  it('reads back what it wrote, and refuses what it did not', () => {
    const entries = readStoredZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['一层平面图.pdf', '详图/详图-布局1.png']);
    expect(Array.from(entries[1]?.data ?? [])).toEqual(Array.from(png));
    const damaged = new Uint8Array(zip);
    const firstData = 30 + view.getUint16(26, true);
    damaged[firstData + 2] = (damaged[firstData + 2] ?? 0) ^ 0xff;
    expect(() => readStoredZip(damaged)).toThrow(ZipReadError);
    expect(() => readStoredZip(pdf)).toThrow(ZipReadError);
  });

  it('an empty list is a valid empty zip', () => {
    const empty = zipStore([], when);
    expect(empty.length).toBe(22);
    expect(readStoredZip(empty)).toEqual([]);
  });

  it('is accepted by Info-ZIP unzip, Chinese names intact', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xcad-zip-'));
    try {
      const file = path.join(dir, 'result.zip');
      writeFileSync(file, zip);
      expect(execFileSync('unzip', ['-t', file], { encoding: 'utf8' })).toMatch(/No errors detected/);
      const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' });
      expect(listing.trim().split('\n')).toEqual(['一层平面图.pdf', '详图/详图-布局1.png']);
      execFileSync('unzip', ['-q', file, '-d', path.join(dir, 'out')]);
      expect(readFileSync(path.join(dir, 'out', '详图', '详图-布局1.png'))).toEqual(Buffer.from(png));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
