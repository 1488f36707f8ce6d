import { MAX_SUBSET_CODE_POINTS, decodeCodePoints } from '@xcad/cad/text';
import { describe, expect, it } from 'vitest';
import { cjkCodePoints, servedFaceOf, subsetRequests, unicodeRange } from './cjk-fonts';
import type { ListTexts } from './types';

/** A list with texts in fonts of the given families. */
function listOf(texts: [string, number][], families: string[]): ListTexts {
  const chars = texts.map(([s]) => s).join('');
  const offsets = new Uint32Array(texts.length + 1);
  texts.forEach(([s], i) => (offsets[i + 1] = (offsets[i] as number) + s.length));
  return {
    id: 0,
    bounds: null,
    fonts: families.map((family) => ({ requested: family, family, substituted: true })),
    texts: {
      count: texts.length,
      chars,
      offsets,
      matrices: new Float64Array(6 * texts.length),
      sizes: new Float32Array(texts.length).fill(1),
      widths: new Float32Array(texts.length).fill(1),
      styles: new Uint32Array(texts.length),
      fonts: Uint16Array.from(texts.map(([, f]) => f)),
      orders: new Float32Array(texts.length),
      clips: new Int32Array(texts.length).fill(-1),
    },
  };
}

const cp = (s: string): number[] => [...s].map((c) => c.codePointAt(0) as number);

describe('the CJK faces the viewer loads', () => {
  it("asks for the drawing's CJK characters only, each once, by the face its text is set in", () => {
    const lists = [
      listOf(
        [
          ['客厅 Living room', 0],
          ['设计说明：', 1],
          ['ABC', 2],
          ['客厅', 0],
        ],
        ['Noto Sans SC', 'Noto Serif SC', 'DejaVu Sans'],
      ),
    ];
    const wanted = cjkCodePoints(lists);
    expect([...wanted.sans].sort()).toEqual(cp('厅客').sort());
    expect([...wanted.serif].sort()).toEqual(cp('设计说明：').sort());
    const requests = subsetRequests(wanted, { sans: new Set(), serif: new Set() });
    expect(requests.map((r) => r.face)).toEqual(['sans', 'serif']);
    // The URL lists the characters, sorted: the API decodes the same list.
    expect(decodeCodePoints(new URL(requests[0]!.url, 'http://x').searchParams.get('c') ?? '')).toEqual(cp('厅客').sort((a, b) => a - b));
    // Loaded characters are not asked for again; a drawing without CJK asks for nothing.
    expect(subsetRequests(wanted, { sans: new Set(cp('客厅')), serif: new Set(cp('设计说明：')) })).toEqual([]);
    expect(subsetRequests(cjkCodePoints([listOf([['Plan 1:100', 0]], ['DejaVu Sans'])]), { sans: new Set(), serif: new Set() })).toEqual(
      [],
    );
  });

  it('splits a drawing with many characters into subsets of at most MAX_SUBSET_CODE_POINTS', () => {
    const many = new Set(Array.from({ length: 2000 }, (_, i) => 0x4e00 + i));
    const requests = subsetRequests({ sans: many, serif: new Set() }, { sans: new Set(), serif: new Set() });
    expect(requests.map((r) => r.codePoints.length)).toEqual([
      MAX_SUBSET_CODE_POINTS,
      MAX_SUBSET_CODE_POINTS,
      2000 - 2 * MAX_SUBSET_CODE_POINTS,
    ]);
    for (const r of requests) expect(r.url.length).toBeLessThan(8000);
  });

  it('limits each face to its characters (unicode-range) and picks the serif face for Song/Ming text', () => {
    expect(unicodeRange([0x4e00, 0x4e01, 0x4e02, 0x4e2d, 0x20000])).toBe('U+4E00-4E02, U+4E2D, U+20000');
    expect(servedFaceOf('Noto Serif CJK JP')).toBe('serif');
    expect(servedFaceOf('Noto Sans SC')).toBe('sans');
    expect(servedFaceOf('Liberation Serif')).toBe('sans');
  });
});
