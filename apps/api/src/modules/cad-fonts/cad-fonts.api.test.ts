import { createRequire } from 'node:module';
import { cadFontUrl, MAX_SUBSET_CODE_POINTS } from '@xcad/cad/text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test-app';

// Decision 0025: the viewer's CJK glyphs come from the CAD engine's shipped fonts, in subsets of the
// characters a drawing has.

/** fontkit (pdfkit's font engine, no type declarations) reads the WOFF back. */
const fontkit = createRequire(import.meta.url)('fontkit') as {
  create(b: Buffer): { familyName: string; numGlyphs: number; hasGlyphForCodePoint(cp: number): boolean };
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const cps = (s: string): number[] => [...new Set([...s].map((c) => c.codePointAt(0) as number))].sort((a, b) => a - b);

describe('GET /api/site/cad-fonts/{face}.woff', () => {
  it('answers a WOFF of just the characters asked for, cached for good', async () => {
    const res = await t.app.inject({ method: 'GET', url: cadFontUrl('sans', cps('设计说明混凝土')) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('font/woff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const font = fontkit.create(res.rawPayload);
    expect(font.familyName).toBe('Noto Sans SC');
    expect(font.numGlyphs).toBe(8);
    for (const cp of cps('设计说明混凝土')) expect(font.hasGlyphForCodePoint(cp)).toBe(true);
    expect(font.hasGlyphForCodePoint(0x56fd)).toBe(false);
    expect(res.rawPayload.length).toBeLessThan(12_000);
    const serif = await t.app.inject({ method: 'GET', url: cadFontUrl('serif', cps('宋体')) });
    expect(fontkit.create(serif.rawPayload).familyName).toBe('Noto Serif SC');
  });

  it('a few hundred distinct characters come to a few hundred KB at most', async () => {
    // 500 of the common ideographs (U+4E00 on, every 7th).
    const many = Array.from({ length: 500 }, (_, i) => 0x4e00 + 7 * i);
    const res = await t.app.inject({ method: 'GET', url: cadFontUrl('sans', many) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(300_000);
  });

  it('refuses an unknown face or font version (404) and a bad character list (400)', async () => {
    const good = cadFontUrl('sans', [0x4e2d]);
    for (const url of [good.replace('sans.woff', 'arial.woff'), good.replace(/v=[^&]+/, 'v=old')]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toHaveProperty('code');
    }
    const tooMany = Array.from({ length: MAX_SUBSET_CODE_POINTS + 1 }, (_, i) => 0x4e00 + i);
    for (const c of ['', 'zz.0', '4e00.-1', 'x!y', encodeURIComponent('中'), `${(0x110000).toString(36)}`]) {
      const res = await t.app.inject({ method: 'GET', url: good.replace(/c=.*$/, `c=${c}`) });
      expect(res.statusCode, c).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: cadFontUrl('sans', tooMany) })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: good.replace(/&c=.*$/, '') })).statusCode).toBe(400);
  });
});
