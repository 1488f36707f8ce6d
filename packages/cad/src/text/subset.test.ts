/** TrueType subsets for the viewer: the glyphs asked for, drawn exactly as in the whole font, readable by fontkit (pdfkit's font engine). */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { shippedFontFile } from './node-fonts';
import { readGlyphOutlines, readSfnt, type GlyphOutlines } from './sfnt';
import { FontSubsetError, subsetTrueType, toWoff } from './subset';

/** fontkit (pdfkit's font engine, no type declarations): as much of it as these tests read. */
interface FkFont {
  numGlyphs: number;
  glyphForCodePoint(cp: number): { path: { toSVG(): string } };
}
const fontkit = createRequire(import.meta.url)('fontkit') as { create(b: Buffer): FkFont };

const CJK = readFileSync(shippedFontFile('cjkSans') as string);
const DEJAVU = readFileSync(shippedFontFile('sans') as string);

/** A glyph's outline as the list of drawing calls it makes. */
function outline(font: GlyphOutlines, cp: number): string {
  const calls: string[] = [];
  const rec =
    (name: string) =>
    (...args: number[]) =>
      calls.push(`${name}(${args.map((v) => v.toFixed(2)).join(',')})`);
  font.outline(font.glyphOf(cp), { moveTo: rec('M'), lineTo: rec('L'), quadraticCurveTo: rec('Q'), closePath: rec('Z') }, 1, 0, 0);
  return calls.join(' ');
}

describe('TrueType subsets', () => {
  it('keeps the glyphs of the characters asked for, with their outlines and advances, and nothing else', () => {
    const text = '设计说明：混凝土C30。';
    const sub = subsetTrueType(
      CJK,
      [...text].map((c) => c.codePointAt(0) as number),
    );
    expect(sub.length).toBeLessThan(12_000);
    const whole = readGlyphOutlines(CJK) as GlyphOutlines;
    const part = readGlyphOutlines(sub) as GlyphOutlines;
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      expect(part.glyphOf(cp), ch).toBeGreaterThan(0);
      expect(outline(part, cp)).toBe(outline(whole, cp));
      expect(part.advanceOf(part.glyphOf(cp))).toBe(whole.advanceOf(whole.glyphOf(cp)));
    }
    expect(part.glyphOf('国'.codePointAt(0) as number)).toBe(0);
    // The name table (copyright, OFL licence) travels with the subset.
    const [face] = readSfnt(sub);
    expect(face?.family).toBe('Noto Sans SC');
    // fontkit reads it as the whole font: same glyph for the same character.
    const f = fontkit.create(Buffer.from(sub));
    expect(f.numGlyphs).toBe(new Set(text).size + 1);
    expect(f.glyphForCodePoint(0x8bbe).path.toSVG()).toBe(fontkit.create(CJK).glyphForCodePoint(0x8bbe).path.toSVG());
  });

  it('takes the parts of composite glyphs along, renumbered', () => {
    // DejaVu Sans builds accented letters from their parts.
    const sub = subsetTrueType(DEJAVU, [0xc4, 0x1ea0]);
    const whole = readGlyphOutlines(DEJAVU) as GlyphOutlines;
    const part = readGlyphOutlines(sub) as GlyphOutlines;
    for (const cp of [0xc4, 0x1ea0]) expect(outline(part, cp)).toBe(outline(whole, cp));
    expect(fontkit.create(Buffer.from(sub)).numGlyphs).toBeGreaterThan(3);
  });

  it('packs WOFF 1.0 that unpacks to the same glyphs, smaller', () => {
    const sub = subsetTrueType(
      CJK,
      [...'平面图立面剖面'].map((c) => c.codePointAt(0) as number),
    );
    const woff = toWoff(sub, (b) => deflateSync(b));
    expect(Buffer.from(woff.subarray(0, 4)).toString('latin1')).toBe('wOFF');
    expect(woff.length).toBeLessThan(sub.length);
    const f = fontkit.create(Buffer.from(woff));
    expect(f.glyphForCodePoint(0x5e73).path.toSVG()).toBe(fontkit.create(Buffer.from(sub)).glyphForCodePoint(0x5e73).path.toSVG());
  });

  it('refuses a font without TrueType outlines or with cut tables', () => {
    expect(() => subsetTrueType(CJK.subarray(0, 4096), [0x4e2d])).toThrow(FontSubsetError);
    expect(() => subsetTrueType(new Uint8Array(64), [0x4e2d])).toThrow(FontSubsetError);
  });
});
