/**
 * The font discovery cache of node-fonts.ts: what a font folder holds and the family names of its
 * TrueType files are kept between runs, and found again when a folder or a file changes.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TextStyle } from '../model';
import { fontCacheDir, nodeFontProvider } from './node-fonts';

const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

const root = mkdtempSync(join(tmpdir(), 'cad-font-cache-'));
const cache = join(root, 'cache');
const fonts = join(root, 'fonts');
const saved = process.env['CAD_FONT_CACHE'];
process.env['CAD_FONT_CACHE'] = cache;
afterAll(() => {
  if (saved === undefined) delete process.env['CAD_FONT_CACHE'];
  else process.env['CAD_FONT_CACHE'] = saved;
  rmSync(root, { recursive: true, force: true });
});

// A font folder large enough to be cached: 150 SHX files (never read here) in two sub-folders.
mkdirSync(join(fonts, 'a', 'deep'), { recursive: true });
mkdirSync(join(fonts, 'b'), { recursive: true });
for (let i = 0; i < 150; i++) writeFileSync(join(fonts, i % 2 ? 'a' : 'b', `f${i}.shx`), 'not a font');

const style = (font: string, fontFamily?: string): TextStyle => ({
  name: 'S',
  flags: 0,
  font,
  bigFont: '',
  fixedHeight: 0,
  widthFactor: 1,
  oblique: 0,
  generation: 0,
  ...(fontFamily ? { fontFamily } : {}),
});

const folderCaches = (): string[] => (existsSync(cache) ? readdirSync(cache).filter((n) => n.startsWith('folder-')) : []);

describe('font folder cache', () => {
  it('the cache folder is $CAD_FONT_CACHE', () => {
    expect(fontCacheDir()).toBe(cache);
  });

  it('a large folder is listed once, then read from the cache; a file added later is found', () => {
    copyFileSync(DEJAVU, join(fonts, 'a', 'deep', 'First.ttf'));
    const p1 = nodeFontProvider({ fontDirs: [fonts], systemFonts: false });
    expect(p1.resolve(style('first.ttf'), 'x').ref.file).toBe(join(fonts, 'a', 'deep', 'First.ttf'));
    expect(folderCaches()).toHaveLength(1);
    const file = join(cache, folderCaches()[0] as string);
    const listed = JSON.parse(readFileSync(file, 'utf8')) as { files: [string, string][] };
    expect(listed.files).toHaveLength(151);

    // The next run reads the list: a name only the cache knows is found there.
    listed.files.push(['onlyincache.ttf', join(fonts, 'a', 'deep', 'First.ttf')]);
    writeFileSync(file, JSON.stringify(listed));
    const p2 = nodeFontProvider({ fontDirs: [fonts], systemFonts: false });
    expect(p2.resolve(style('onlyincache.ttf'), 'x').ref).toMatchObject({
      file: join(fonts, 'a', 'deep', 'First.ttf'),
      substituted: false,
    });

    // A font added to a sub-folder changes that folder: the list is made again.
    copyFileSync(DEJAVU, join(fonts, 'a', 'deep', 'Second.ttf'));
    const p3 = nodeFontProvider({ fontDirs: [fonts], systemFonts: false });
    expect(p3.resolve(style('second.ttf'), 'x').ref.file).toBe(join(fonts, 'a', 'deep', 'Second.ttf'));
    expect(p3.resolve(style('onlyincache.ttf'), 'x').ref.substituted).toBe(true);
    expect(p3.missing()).toEqual(['onlyincache.ttf']);
  });

  it('a small folder is not cached (listing it is quicker than reading a cache)', () => {
    const small = join(root, 'small');
    mkdirSync(small);
    writeFileSync(join(small, 'one.shx'), 'x');
    const before = folderCaches().length;
    nodeFontProvider({ fontDirs: [small], systemFonts: false }).resolve(style('one.shx'), 'x');
    expect(folderCaches()).toHaveLength(before);
  });

  it('family names are kept per file, and read again when the file changes', () => {
    const fam = join(root, 'fam');
    mkdirSync(fam);
    const font = join(fam, 'Renamed.ttf');
    copyFileSync(DEJAVU, font);
    const p1 = nodeFontProvider({ fontDirs: [fam], systemFonts: false });
    expect(p1.resolve(style('', 'DejaVu Sans'), 'x').ref).toMatchObject({ file: font, substituted: false });
    const facesFile = join(cache, 'faces.json');
    const names = JSON.parse(readFileSync(facesFile, 'utf8')) as { files: Record<string, { faces: { family: string }[] }> };
    expect(names.files[font]?.faces.map((f) => f.family)).toEqual(['DejaVu Sans']);

    // What the cache says is used while the file is unchanged...
    (names.files[font]?.faces[0] as { family: string }).family = 'Cached Family';
    writeFileSync(facesFile, JSON.stringify(names));
    const p2 = nodeFontProvider({ fontDirs: [fam], systemFonts: false });
    expect(p2.resolve(style('', 'Cached Family'), 'x').ref).toMatchObject({ file: font, substituted: false });

    // ...and read from the file again once it changes.
    utimesSync(font, new Date(), new Date(Date.now() + 5000));
    const p3 = nodeFontProvider({ fontDirs: [fam], systemFonts: false });
    expect(p3.resolve(style('', 'Cached Family'), 'x').ref.substituted).toBe(true);
    expect(p3.resolve(style('', 'DejaVu Sans'), 'x').ref).toMatchObject({ file: font, substituted: false });
  });
});
