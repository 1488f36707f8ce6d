import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '@xcad/db';
import { describe, expect, it } from 'vitest';
import { mp4DurationSeconds } from './mp4-duration';

// The course importer checks each lesson's authored duration against its clip's movie header.

function box(type: string, payload: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(8 + payload.length);
  new DataView(bytes.buffer).setUint32(0, bytes.length);
  bytes.set(new TextEncoder().encode(type), 4);
  bytes.set(payload, 8);
  return bytes;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

function mvhd(version: 0 | 1, timescale: number, duration: number): Uint8Array {
  const payload = new Uint8Array(version === 1 ? 32 : 20);
  const view = new DataView(payload.buffer);
  payload[0] = version;
  if (version === 1) {
    view.setUint32(20, timescale);
    view.setBigUint64(24, BigInt(duration));
  } else {
    view.setUint32(12, timescale);
    view.setUint32(16, duration);
  }
  return box('mvhd', payload);
}

describe('mp4DurationSeconds', () => {
  it('reads a committed lesson clip as the whole seconds its lesson declares', () => {
    const clip = readFileSync(path.join(repositoryRoot, 'content/media/course/coordinates-and-line.mp4'));
    const lessons = readFileSync(path.join(repositoryRoot, 'content/course/lessons.yml'), 'utf8');
    const declared = Number(/slug: coordinates-and-line[\s\S]*?duration: (\d+)/.exec(lessons)?.[1]);
    expect(declared).toBeGreaterThan(10);
    expect(mp4DurationSeconds(clip)).toBeCloseTo(declared, 1);
  });

  it('reads version 0 and version 1 movie headers after other boxes', () => {
    const ftyp = box('ftyp', new TextEncoder().encode('isom\0\0\x02\0'));
    expect(mp4DurationSeconds(concat(ftyp, box('moov', concat(box('udta', new Uint8Array(4)), mvhd(0, 1000, 19_500)))))).toBe(19.5);
    expect(mp4DurationSeconds(concat(ftyp, box('moov', mvhd(1, 90_000, 90_000 * 21))))).toBe(21);
  });

  it('answers undefined for bytes that are not a readable MP4', () => {
    expect(mp4DurationSeconds(new TextEncoder().encode('not a video at all'))).toBeUndefined();
    expect(mp4DurationSeconds(box('ftyp', new Uint8Array(8)))).toBeUndefined();
    // A moov box that claims more bytes than the file has.
    const truncated = box('moov', mvhd(0, 1000, 5000)).slice(0, 20);
    expect(mp4DurationSeconds(truncated)).toBeUndefined();
    expect(mp4DurationSeconds(box('moov', mvhd(0, 0, 5000)))).toBeUndefined();
  });
});
