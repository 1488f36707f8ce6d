import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as NodeFontsModule from './node-fonts';

type NodeFonts = typeof NodeFontsModule;

// The renderers' CJK lookups are counted: a drawing without CJK text must not touch that font.
vi.mock('./node-fonts', async (importOriginal) => {
  const original = await importOriginal<NodeFonts>();
  return { ...original, cjkFont: vi.fn(original.cjkFont) };
});

const { cjkFont, extractFace, faceBytes, faceFile, facesOf, fontFaces, installedFace } = await import('./node-fonts');
const { renderScenes } = await import('./index');
const { CJK_FONT, LATIN_FONT, list, modelScene, STYLES, text } = await import('./test-scenes');

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const DEJAVU_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

const dir = mkdtempSync(join(tmpdir(), 'cad-fonts-'));
const cache = join(dir, 'cache');
const savedCache = process.env['CAD_FONT_CACHE'];
process.env['CAD_FONT_CACHE'] = cache;
afterAll(() => {
  if (savedCache === undefined) delete process.env['CAD_FONT_CACHE'];
  else process.env['CAD_FONT_CACHE'] = savedCache;
  rmSync(dir, { recursive: true, force: true });
});

// ---- hand-made fonts: a name table and a filler table per face ----------------------------------

function nameTable(family: string, subfamily: string, postscript: string): Uint8Array {
  const names: [number, string][] = [
    [1, family],
    [2, subfamily],
    [6, postscript],
  ];
  const strings = names.map(([, s]) => Buffer.from(s, 'utf16le').swap16());
  const header = 6 + 12 * names.length;
  const out = Buffer.alloc(header + strings.reduce((n, s) => n + s.length, 0));
  out.writeUInt16BE(0, 0);
  out.writeUInt16BE(names.length, 2);
  out.writeUInt16BE(header, 4);
  let at = 0;
  names.forEach(([id], i) => {
    const r = 6 + 12 * i;
    out.writeUInt16BE(3, r);
    out.writeUInt16BE(1, r + 2);
    out.writeUInt16BE(0x409, r + 4);
    out.writeUInt16BE(id, r + 6);
    out.writeUInt16BE((strings[i] as Buffer).length, r + 8);
    out.writeUInt16BE(at, r + 10);
    (strings[i] as Buffer).copy(out, header + at);
    at += (strings[i] as Buffer).length;
  });
  return out;
}

type Face = Record<string, Uint8Array>;

/** A .ttf of one face, or a .ttc collection of several (tables at absolute offsets). */
function fontFile(faces: Face[]): Buffer {
  const collection = faces.length > 1;
  const dirSize = (f: Face): number => 12 + 16 * Object.keys(f).length;
  let at = collection ? 12 + 4 * faces.length : 0;
  const dirAt = faces.map((f) => {
    const o = at;
    at += dirSize(f);
    return o;
  });
  const tableAt = faces.map((f) =>
    Object.values(f).map((t) => {
      const o = at;
      at += (t.length + 3) & ~3;
      return o;
    }),
  );
  const out = Buffer.alloc(at);
  if (collection) {
    out.write('ttcf', 0, 'latin1');
    out.writeUInt32BE(0x00010000, 4);
    out.writeUInt32BE(faces.length, 8);
    dirAt.forEach((o, i) => out.writeUInt32BE(o, 12 + 4 * i));
  }
  faces.forEach((f, i) => {
    const d = dirAt[i] as number;
    const entries = Object.entries(f);
    out.writeUInt32BE(0x00010000, d);
    out.writeUInt16BE(entries.length, d + 4);
    entries.forEach(([tag, data], k) => {
      const r = d + 12 + 16 * k;
      out.write(tag, r, 'latin1');
      out.writeUInt32BE(0, r + 4);
      out.writeUInt32BE((tableAt[i] as number[])[k] as number, r + 8);
      out.writeUInt32BE(data.length, r + 12);
      out.set(data, (tableAt[i] as number[])[k] as number);
    });
  });
  return out;
}

const face = (family: string, sub: string, ps: string, filler: number): Face => ({
  name: nameTable(family, sub, ps),
  zzzz: Buffer.alloc(64, filler),
});

describe('font files for the back ends', () => {
  const ttc = join(dir, 'Pair.ttc');
  writeFileSync(ttc, fontFile([face('Pair JP', 'Regular', 'PairJP-Regular', 1), face('Pair SC', 'Regular', 'PairSC-Regular', 2)]));

  it('lists the faces of a collection from its directory and name tables', () => {
    const faces = facesOf(ttc);
    expect(faces.map((f) => [f.family, f.subfamily, f.postscriptName])).toEqual([
      ['Pair JP', 'Regular', 'PairJP-Regular'],
      ['Pair SC', 'Regular', 'PairSC-Regular'],
    ]);
    expect(faces).toEqual(fontFaces(readFileSync(ttc)));
  });

  it('a face of a collection is cut out once into the cache folder and loaded from there by path', () => {
    const path = faceFile({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' });
    expect(path).not.toBeNull();
    expect(path?.startsWith(cache)).toBe(true);
    const cut = readFileSync(path as string);
    // A standalone font of that face only, the same bytes as a cut-out made in memory.
    expect(fontFaces(cut).map((f) => f.postscriptName)).toEqual(['PairSC-Regular']);
    expect(Buffer.compare(cut, Buffer.from(faceBytes({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' })))).toBe(0);
    const sc = facesOf(ttc)[1];
    expect(sc && Buffer.compare(cut, Buffer.from(extractFace(readFileSync(ttc), sc)))).toBe(0);
    // The same face again: the same file.
    expect(faceFile({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' })).toBe(path);
    // A single-face font is its own file.
    expect(faceFile({ file: DEJAVU, family: 'DejaVu Sans' })).toBe(DEJAVU);
  });

  it('a later run finds the cut-out by path; a changed collection gets a new one and the old goes', async () => {
    const first = faceFile({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' }) as string;
    const written = statSync(first).mtimeMs;
    vi.resetModules();
    const later = await vi.importActual<NodeFonts>('./node-fonts');
    expect(later.faceFile({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' })).toBe(first);
    expect(statSync(first).mtimeMs).toBe(written);
    // The collection is replaced (another modification time).
    utimesSync(ttc, new Date(), new Date(Date.now() + 5000));
    vi.resetModules();
    const after = await vi.importActual<NodeFonts>('./node-fonts');
    const second = after.faceFile({ file: ttc, face: 'PairSC-Regular', family: 'Pair SC' }) as string;
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
    expect(existsSync(first)).toBe(false);
    expect(readdirSync(cache).filter((n) => n.startsWith('Pair-'))).toHaveLength(1);
  });

  it('without a writable cache folder a face still loads, from memory', async () => {
    const saved = process.env['CAD_FONT_CACHE'];
    process.env['CAD_FONT_CACHE'] = join(ttc, 'not-a-folder');
    try {
      vi.resetModules();
      const fresh = await vi.importActual<NodeFonts>('./node-fonts');
      expect(fresh.faceFile({ file: ttc, face: 'PairJP-Regular', family: 'Pair JP' })).toBeNull();
      expect(fontFaces(fresh.faceBytes({ file: ttc, face: 'PairJP-Regular', family: 'Pair JP' })).map((f) => f.family)).toEqual([
        'Pair JP',
      ]);
    } finally {
      process.env['CAD_FONT_CACHE'] = saved;
    }
  });

  it('installed fonts are named by family and style; a copy elsewhere is not', () => {
    expect(installedFace({ file: DEJAVU, family: 'DejaVu Sans' })).toEqual({ family: 'DejaVu Sans', bold: false, italic: false });
    expect(installedFace({ file: DEJAVU_BOLD, family: 'DejaVu Sans' })).toEqual({ family: 'DejaVu Sans', bold: true, italic: false });
    const copy = join(dir, 'MyDejaVu.ttf');
    writeFileSync(copy, readFileSync(DEJAVU));
    expect(installedFace({ file: copy, family: 'DejaVu Sans' })).toBeUndefined();
  });
});

describe('the CJK font is looked up only for text that needs it', () => {
  beforeEach(() => vi.mocked(cjkFont).mockClear());
  const scene = (s: string, font: number) => modelScene(list([text(0, s, 10, 10, 5, font)], STYLES, [LATIN_FONT, CJK_FONT]));

  it('PNG and PDF of Latin text: never', async () => {
    await renderScenes([scene('Plan 1:100 Ø25 ±0.5', 0)], { format: 'png', width: 200 });
    await renderScenes([scene('Plan 1:100 Ø25 ±0.5', 0)], { format: 'pdf' });
    expect(cjkFont).not.toHaveBeenCalled();
  });

  it('PNG and PDF of Chinese text: yes', async () => {
    await renderScenes([scene('客厅', 1)], { format: 'png', width: 200 });
    expect(cjkFont).toHaveBeenCalled();
    vi.mocked(cjkFont).mockClear();
    await renderScenes([scene('客厅', 1)], { format: 'pdf' });
    expect(cjkFont).toHaveBeenCalled();
  });
});
