import { describe, expect, it } from 'vitest';
import { isChunkLoadError, mayReload } from './chunk-reload';

describe('isChunkLoadError', () => {
  it.each([
    Object.assign(new Error('Loading chunk 42 failed.'), { name: 'ChunkLoadError' }),
    new Error('Loading chunk app/layout failed.'),
    new Error('Loading CSS chunk 7 failed'),
    new Error('Failed to load chunk /_next/static/chunks/abc.js from module 123'),
    'Loading chunk 9 failed.',
  ])('recognises %s', (reason) => {
    expect(isChunkLoadError(reason)).toBe(true);
  });

  it.each([new Error('Network error'), new TypeError('x is undefined'), null, undefined, 42])('ignores %s', (reason) => {
    expect(isChunkLoadError(reason)).toBe(false);
  });
});

describe('mayReload (spec §4, §9: at most once per 60 s)', () => {
  it('allows the first reload and refuses another within 60 s', () => {
    expect(mayReload(null, 1_000_000)).toBe(true);
    expect(mayReload(1_000_000, 1_000_000 + 59_999)).toBe(false);
    expect(mayReload(1_000_000, 1_000_000 + 60_000)).toBe(true);
  });

  it('does not trust a broken or future timestamp', () => {
    expect(mayReload(Number.NaN, 5_000)).toBe(true);
    expect(mayReload(10_000, 5_000)).toBe(true);
  });
});
