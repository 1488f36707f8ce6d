/**
 * Font files for the Node back ends: which file and face a text primitive is set in, the faces of a
 * font collection (.ttc) by name, and one face cut out of a collection as a standalone font (the
 * canvas only loads the first face of a collection).
 *
 * The CJK fallback is text/node-fonts.ts's: `$XCAD_CJK_FONT`, an installed CJK font, else the
 * shipped Noto Sans SC / Noto Serif SC.
 *
 * Start-up cost counts (the `cad` command runs once per file): a font file is opened only when a
 * text primitive uses it, and only its table directory and name table are read to find its faces.
 * A face cut out of a collection is written once to a cache folder
 * (`node_modules/.cache/cad-fonts/` of this package, or `$CAD_FONT_CACHE`), keyed by the
 * collection's path, modification time and size, so that later runs load it by path instead of
 * reading a 19 MB CJK collection.
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import type { FontRef } from '../text/fonts';
import { cacheKey, cjkFallbackFont, fontCacheDir } from '../text/node-fonts';

const usable = new Map<string, boolean>();

/** A TrueType/OpenType file (or collection) the back ends can load (SHX fonts are drawn as paths by the builder). */
export function isOutlineFontFile(file: string | undefined): file is string {
  if (!file || !/\.(ttf|otf|ttc|otc)$/i.test(file)) return false;
  let ok = usable.get(file);
  if (ok === undefined) {
    try {
      ok = statSync(file).isFile();
    } catch {
      ok = false;
    }
    usable.set(file, ok);
  }
  return ok;
}

// ---- sfnt names ----------------------------------------------------------------------------------

export interface FaceInfo {
  index: number;
  /** Offset of the face's table directory in the file. */
  offset: number;
  family: string;
  subfamily: string;
  postscriptName: string;
  /** The face keeps TrueType outlines (a 'glyf' table), which the raster back end draws itself. */
  glyf: boolean;
}

function u16(b: Uint8Array, o: number): number {
  return ((b[o] ?? 0) << 8) | (b[o + 1] ?? 0);
}
function u32(b: Uint8Array, o: number): number {
  return (((b[o] ?? 0) << 24) | ((b[o + 1] ?? 0) << 16) | ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0)) >>> 0;
}
function tag(b: Uint8Array, o: number): string {
  return String.fromCharCode(b[o] ?? 0, b[o + 1] ?? 0, b[o + 2] ?? 0, b[o + 3] ?? 0);
}

/** `length` bytes of a font at `offset` (fewer at the end of the file): from memory or from the file. */
type ReadAt = (offset: number, length: number) => Uint8Array;

const bytesReader =
  (bytes: Uint8Array): ReadAt =>
  (offset, length) =>
    bytes.subarray(offset, offset + length);

/** Reads parts of a file by position; the longest read is capped (a damaged length must not allocate gigabytes). */
function withFileReader<T>(file: string, use: (read: ReadAt) => T): T {
  const fd = openSync(file, 'r');
  try {
    return use((offset, length) => {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, 16 << 20)));
      const n = buf.length ? readSync(fd, buf, 0, buf.length, offset) : 0;
      return buf.subarray(0, n);
    });
  } finally {
    closeSync(fd);
  }
}

function faceOffsets(read: ReadAt): number[] {
  const head = read(0, 12);
  if (head.length < 12) return [];
  if (tag(head, 0) === 'ttcf') {
    const list = read(12, 4 * Math.min(u32(head, 8), 1024));
    const out: number[] = [];
    for (let i = 0; i + 4 <= list.length; i += 4) out.push(u32(list, i));
    return out;
  }
  return [0];
}

interface TableRecord {
  tag: string;
  checksum: number;
  offset: number;
  length: number;
}

function tables(read: ReadAt, offset: number): TableRecord[] {
  const head = read(offset, 12);
  if (head.length < 12) return [];
  const dir = read(offset + 12, 16 * u16(head, 4));
  const out: TableRecord[] = [];
  for (let r = 0; r + 16 <= dir.length; r += 16)
    out.push({ tag: tag(dir, r), checksum: u32(dir, r + 4), offset: u32(dir, r + 8), length: u32(dir, r + 12) });
  return out;
}

/** The strings of a name table (`b` holds the table). */
function readNames(b: Uint8Array): Map<number, string> {
  const names = new Map<number, string>();
  if (b.length < 6) return names;
  const count = u16(b, 2);
  const strings = u16(b, 4);
  const utf16 = new TextDecoder('utf-16be');
  for (let i = 0; i < count; i++) {
    const r = 6 + 12 * i;
    if (r + 12 > b.length) break;
    const platform = u16(b, r),
      encoding = u16(b, r + 2),
      language = u16(b, r + 4),
      id = u16(b, r + 6),
      len = u16(b, r + 8),
      off = u16(b, r + 10);
    const bytes = b.subarray(strings + off, strings + off + len);
    let s: string | null = null;
    if (platform === 3 && (encoding === 1 || encoding === 10 || encoding === 0)) {
      // Windows Unicode; prefer US English.
      if (names.has(id) && language !== 0x409) continue;
      s = utf16.decode(bytes);
    } else if (platform === 1 && encoding === 0 && !names.has(id)) {
      s = String.fromCharCode(...bytes);
    } else if (platform === 0 && !names.has(id)) {
      s = utf16.decode(bytes);
    }
    if (s !== null) names.set(id, s);
  }
  return names;
}

function faces(read: ReadAt): FaceInfo[] {
  return faceOffsets(read).map((offset, index) => {
    const recs = tables(read, offset);
    const name = recs.find((t) => t.tag === 'name');
    const names = name ? readNames(read(name.offset, name.length)) : new Map<number, string>();
    return {
      index,
      offset,
      family: names.get(16) ?? names.get(1) ?? '',
      subfamily: names.get(17) ?? names.get(2) ?? '',
      postscriptName: names.get(6) ?? '',
      glyf: recs.some((t) => t.tag === 'glyf'),
    };
  });
}

/** The faces of a font file (one for .ttf/.otf, several for a collection) with their names. */
export function fontFaces(bytes: Uint8Array): FaceInfo[] {
  return faces(bytesReader(bytes));
}

/** The face `want` names (postscript name, family or full name; case and spaces ignored), else the first. */
export function pickFace(faces: FaceInfo[], want: string | undefined): FaceInfo | undefined {
  if (!want) return faces[0];
  const norm = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');
  const w = norm(want);
  return (
    faces.find((f) => norm(f.postscriptName) === w) ??
    faces.find((f) => norm(f.family) === w && /^(regular|book|normal|)$/i.test(f.subfamily)) ??
    faces.find((f) => norm(f.family) === w) ??
    faces.find((f) => norm(`${f.family}${f.subfamily}`) === w) ??
    faces[0]
  );
}

/** One face of a collection as a standalone sfnt (tables copied, offsets rewritten). */
export function extractFace(bytes: Uint8Array, face: FaceInfo): Uint8Array {
  if (face.offset === 0 && tag(bytes, 0) !== 'ttcf') return bytes;
  const recs = tables(bytesReader(bytes), face.offset).filter((t) => t.offset + t.length <= bytes.length);
  const headerSize = 12 + 16 * recs.length;
  let size = headerSize;
  for (const t of recs) size += (t.length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(bytes.subarray(face.offset, face.offset + 4), 0);
  const n = recs.length;
  let pow = 1,
    log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  view.setUint16(4, n);
  view.setUint16(6, pow * 16);
  view.setUint16(8, log);
  view.setUint16(10, n * 16 - pow * 16);
  let at = headerSize;
  recs.forEach((t, i) => {
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) view.setUint8(r + k, t.tag.charCodeAt(k));
    view.setUint32(r + 4, t.checksum);
    view.setUint32(r + 8, at);
    view.setUint32(r + 12, t.length);
    out.set(bytes.subarray(t.offset, t.offset + t.length), at);
    at += (t.length + 3) & ~3;
  });
  return out;
}

// ---- file cache ---------------------------------------------------------------------------------

const fileCache = new Map<string, Buffer>();
const facesCache = new Map<string, FaceInfo[]>();

/** The bytes of a font file, read once per process. */
export function fontBytes(file: string): Buffer {
  let b = fileCache.get(file);
  if (!b) {
    b = readFileSync(file);
    fileCache.set(file, b);
  }
  return b;
}

/** The faces of a font file, from its table directories and name tables only (not the whole file). */
export function facesOf(file: string): FaceInfo[] {
  let f = facesCache.get(file);
  if (!f) {
    const bytes = fileCache.get(file);
    f = bytes ? fontFaces(bytes) : withFileReader(file, faces);
    facesCache.set(file, f);
  }
  return f;
}

/** A loadable font: a file and, for collections, the face (postscript name). */
export interface FontFile {
  file: string;
  /** Postscript name of the face in a collection; undefined for single-face files. */
  face?: string;
  /** The face's family name. */
  family: string;
}

// ---- faces cut out of collections, cached as files -------------------------------------------------

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

const faceFiles = new Map<string, string | null>();

/**
 * A file holding just this font, to load by path: the file itself for a single-face font; for a
 * face of a collection, the face cut out into the cache folder (written on first use, keyed by the
 * collection's path, modification time and size). Null when the cut-out cannot be cached (no
 * writable cache folder): callers then load `faceBytes` from memory.
 */
export function faceFile(f: FontFile): string | null {
  if (!f.face) return f.file;
  const key = `${f.file}|${f.face}`;
  let path = faceFiles.get(key);
  if (path !== undefined) return path;
  path = null;
  try {
    const dir = fontCacheDir();
    const face = pickFace(facesOf(f.file), f.face);
    if (dir && face) {
      const st = statSync(f.file);
      const hash = cacheKey(`${f.file}\0${st.mtimeMs}\0${st.size}\0${face.offset}`);
      const stem = `${basename(f.file).replace(/\.[^.]+$/, '')}-${face.index}-`.replace(/[^\w.-]+/g, '_');
      const existing = [`${stem}${hash}.otf`, `${stem}${hash}.ttf`].map((n) => join(dir, n)).find(isFile);
      if (existing) path = existing;
      else {
        const bytes = extractFace(fontBytes(f.file), face);
        const target = join(dir, `${stem}${hash}${tag(bytes, 0) === 'OTTO' ? '.otf' : '.ttf'}`);
        mkdirSync(dir, { recursive: true });
        const tmp = `${target}.${process.pid}.tmp`;
        writeFileSync(tmp, bytes);
        renameSync(tmp, target);
        path = target;
        // Cut-outs of an older version of the same collection.
        for (const name of readdirSync(dir))
          if (name.startsWith(stem) && join(dir, name) !== target && !name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
        // The collection's bytes were only needed for the cut-out.
        fileCache.delete(f.file);
      }
    }
  } catch {
    path = null;
  }
  faceFiles.set(key, path);
  return path;
}

/** The bytes of just this font (a face of a collection cut out), for loaders that take bytes. */
export function faceBytes(f: FontFile): Uint8Array {
  if (!f.face) return fontBytes(f.file);
  const face = pickFace(facesOf(f.file), f.face);
  if (!face) throw new Error(`no face ${f.face} in ${f.file}`);
  return extractFace(fontBytes(f.file), face);
}

// ---- installed fonts ----------------------------------------------------------------------------

/** The folders the OS installs fonts in: fonts there can be used by family name, without loading the file. */
function installedDirs(): string[] {
  const home = homedir();
  if (process.platform === 'darwin') return ['/System/Library/Fonts', '/Library/Fonts', join(home, 'Library', 'Fonts')];
  if (process.platform === 'win32')
    return [join(process.env['WINDIR'] ?? 'C:\\Windows', 'Fonts'), join(home, 'AppData', 'Local', 'Microsoft', 'Windows', 'Fonts')];
  return ['/usr/share/fonts', '/usr/local/share/fonts', join(home, '.fonts'), join(home, '.local', 'share', 'fonts')];
}

let installedRoots: string[] | undefined;

/** An installed face as a CSS font: family name, bold, italic. */
export interface InstalledFace {
  family: string;
  bold: boolean;
  italic: boolean;
}

const PLAIN_STYLE = /^(regular|normal|book|roman|bold|italic|oblique|bold italic|bold oblique)$/i;

/**
 * The face of a font file in an OS font folder whose style CSS can name (regular, bold, italic):
 * a graphics library that finds installed fonts by name can use it as `bold 12px "Family"`.
 * Undefined for fonts elsewhere (a drawing's font folder) and for other styles (condensed, light...).
 */
export function installedFace(f: FontFile): InstalledFace | undefined {
  installedRoots ??= installedDirs().map((d) => resolve(d) + sep);
  const file = resolve(f.file);
  if (!installedRoots.some((root) => file.startsWith(root))) return undefined;
  try {
    const face = pickFace(facesOf(f.file), f.face);
    const sub = face?.subfamily.trim() ?? '';
    if (!face?.family || !PLAIN_STYLE.test(sub)) return undefined;
    return { family: face.family, bold: /bold/i.test(sub), italic: /italic|oblique/i.test(sub) };
  } catch {
    return undefined;
  }
}

const HAN_OR_WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

/** Text that needs a CJK font. */
export function needsCjk(text: string): boolean {
  return HAN_OR_WIDE.test(text);
}

/** The CJK fallback font (sans, or serif for Song/Ming text), or null when there is none at all. */
export function cjkFont(serif = false): FontFile | null {
  const found = cjkFallbackFont(serif);
  return (found && resolveFile(found.file, found.face)) ?? null;
}

function resolveFile(file: string, want: string | undefined): FontFile | undefined {
  try {
    const faces = facesOf(file);
    const face = pickFace(faces, want);
    if (!face) return undefined;
    return { file, family: face.family, ...(faces.length > 1 ? { face: face.postscriptName } : {}) };
  } catch {
    return undefined;
  }
}

/** The font file a FontRef points at (TrueType/OpenType only), with its face resolved. */
export function refFont(ref: FontRef | undefined): FontFile | undefined {
  if (!ref || !isOutlineFontFile(ref.file)) return undefined;
  return resolveFile(ref.file, ref.face);
}
