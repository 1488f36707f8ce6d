/**
 * Glyph outlines read from TrueType fonts (text/sfnt.ts readGlyphOutlines), which the PNG/JPG back
 * end fills instead of asking the canvas to set text. Checked against the font's own numbers: the
 * glyph's bounding box in its 'glyf' header (read here independently), contour counts, and a
 * composite glyph built from its parts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shippedFontFile } from './node-fonts';
import { readGlyphOutlines, type GlyphOutlines, type OutlineSink } from './sfnt';
import { sfntTables, writeSfnt } from './subset';
import { fontCollection } from './test-helpers';

const LIBERATION = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';

/** A face in CFF form as far as the reader can tell: the shipped font's tables with 'CFF ' in place of glyf and loca. */
function cffFace(): Uint8Array {
  const tables = sfntTables(readFileSync(shippedFontFile('cjkSans') as string));
  tables.delete('glyf');
  tables.delete('loca');
  tables.set('CFF ', new Uint8Array(64));
  return writeSfnt(tables, 0x4f54544f);
}

class Recorder implements OutlineSink {
  contours = 0;
  lines = 0;
  curves = 0;
  closed = 0;
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;
  private at(x: number, y: number): void {
    this.minX = Math.min(this.minX, x);
    this.maxX = Math.max(this.maxX, x);
    this.minY = Math.min(this.minY, y);
    this.maxY = Math.max(this.maxY, y);
  }
  moveTo(x: number, y: number): void {
    this.contours++;
    this.at(x, y);
  }
  lineTo(x: number, y: number): void {
    this.lines++;
    this.at(x, y);
  }
  quadraticCurveTo(_cx: number, _cy: number, x: number, y: number): void {
    this.curves++;
    this.at(x, y);
  }
  closePath(): void {
    this.closed++;
  }
}

/** The bounding box a glyph's 'glyf' entry records (xMin, yMin, xMax, yMax), read straight from the file. */
function recordedBox(bytes: Buffer, glyph: number): [number, number, number, number] {
  const dir = (tag: string): number => {
    for (let i = 0; i < bytes.readUInt16BE(4); i++)
      if (bytes.toString('latin1', 12 + i * 16, 16 + i * 16) === tag) return bytes.readUInt32BE(12 + i * 16 + 8);
    throw new Error(tag);
  };
  const long = bytes.readInt16BE(dir('head') + 50) === 1;
  const loca = dir('loca');
  const at = dir('glyf') + (long ? bytes.readUInt32BE(loca + glyph * 4) : bytes.readUInt16BE(loca + glyph * 2) * 2);
  return [bytes.readInt16BE(at + 2), bytes.readInt16BE(at + 4), bytes.readInt16BE(at + 6), bytes.readInt16BE(at + 8)];
}

const draw = (o: GlyphOutlines, ch: string, scale = 1, dx = 0, dy = 0): Recorder => {
  const r = new Recorder();
  o.outline(o.glyphOf(ch.codePointAt(0) as number), r, scale, dx, dy);
  return r;
};

describe('TrueType glyph outlines', () => {
  const bytes = readFileSync(LIBERATION);
  const font = readGlyphOutlines(bytes);

  it('reads the glyphs, advances and units of a TrueType font', () => {
    expect(font).not.toBeNull();
    const o = font as GlyphOutlines;
    expect(o.unitsPerEm).toBe(2048);
    expect(o.glyphOf(0x48)).toBeGreaterThan(0);
    expect(o.glyphOf(0x4e2d)).toBe(0); // 中: not in Liberation Sans
    // Liberation Sans has Arial's advances: H is 1479 units, i 455.
    expect(o.advanceOf(o.glyphOf(0x48))).toBe(1479);
    expect(o.advanceOf(o.glyphOf(0x69))).toBe(455);
  });

  it("draws 'H' as one closed contour of straight lines spanning the box its table records, y flipped", () => {
    const o = font as GlyphOutlines;
    const h = draw(o, 'H');
    expect([h.contours, h.closed, h.curves]).toEqual([1, 1, 0]);
    expect(h.lines).toBeGreaterThanOrEqual(11);
    const [x0, y0, x1, y1] = recordedBox(bytes, o.glyphOf(0x48));
    expect([h.minX, h.maxX]).toEqual([x0, x1]);
    // y up in the font, y down out of the reader.
    expect([h.minY, h.maxY + 0]).toEqual([-y1, -y0 + 0]);
  });

  it("draws 'O' as two contours of curves, inside its recorded box, scaled and moved", () => {
    const o = font as GlyphOutlines;
    const r = draw(o, 'O', 0.01, 100, 50);
    expect(r.contours).toBe(2);
    expect(r.curves).toBeGreaterThan(8);
    const [x0, y0, x1, y1] = recordedBox(bytes, o.glyphOf(0x4f));
    expect(r.minX).toBeCloseTo(100 + x0 * 0.01, 6);
    expect(r.maxX).toBeCloseTo(100 + x1 * 0.01, 6);
    expect(r.minY).toBeCloseTo(50 - y1 * 0.01, 6);
    expect(r.maxY).toBeCloseTo(50 - y0 * 0.01, 6);
  });

  it("builds a composite glyph from its parts: 'Ä' is 'A' and a dieresis above the cap height", () => {
    const o = font as GlyphOutlines;
    const a = draw(o, 'A');
    const umlaut = draw(o, 'Ä');
    expect(umlaut.contours).toBe(a.contours + 2);
    expect(umlaut.minY).toBeLessThan(a.minY - 100);
    expect(umlaut.maxY).toBeCloseTo(a.maxY, 0);
  });

  it('returns null for a font without TrueType outlines (CFF) and for damaged bytes, and never throws on a cut glyph table', () => {
    const cff = Buffer.from(fontCollection([cffFace(), cffFace()]));
    // The face table directories of the collection: none has a 'glyf' table.
    expect(readGlyphOutlines(cff, cff.readUInt32BE(12))).toBeNull();
    expect(readGlyphOutlines(cff, cff.readUInt32BE(16))).toBeNull();
    expect(readGlyphOutlines(new Uint8Array(40))).toBeNull();
    // Cut short, the glyph table runs past the end of the bytes: refused.
    expect(readGlyphOutlines(bytes.subarray(0, bytes.length >> 1))).toBeNull();
    // A glyph whose data is garbage draws what it can and never throws.
    const scrambled = Buffer.from(bytes);
    const h = recordedBox(bytes, (font as GlyphOutlines).glyphOf(0x48));
    expect(h[2]).toBeGreaterThan(0);
    for (let i = 0; i < scrambled.length; i += 7) if (i > scrambled.length / 3) scrambled[i] = 0xff;
    const bad = readGlyphOutlines(scrambled);
    expect(bad).not.toBeNull();
    for (const ch of 'HOÄag') expect(() => draw(bad as GlyphOutlines, ch)).not.toThrow();
  });
});
