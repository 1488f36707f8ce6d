/**
 * Node font discovery: the fonts a drawing names, looked up in the configured font folders
 * (`fontDirs`, $CAD_FONT_DIR: SHX and TrueType files) and the system font folders, and the
 * installed substitutes (DejaVu Sans, Liberation, Noto Sans CJK).
 *
 * The `cad` command runs once per file, so what it finds is kept between runs in a cache folder
 * (`node_modules/.cache/cad-fonts/` of this package, or $CAD_FONT_CACHE): the list of font files
 * under each large font folder, valid while none of its folders has changed (their modification
 * times), and the family names of each font file, valid while the file's size and modification
 * time are unchanged. A folder or cache that cannot be read or written is simply scanned again.
 */
import { type Dirent, closeSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFontProvider, type FontHost, type FontProvider } from './fonts';
import { sfntFamilies } from './sfnt';

export interface NodeFontOptions {
  /** Folders searched first (SHX and TrueType fonts named by drawings). $CAD_FONT_DIR is added. */
  fontDirs?: string[];
  /** Search the system font folders too (default true). */
  systemFonts?: boolean;
  /** Double-byte encoding of big fonts (default: guessed from the font name, GBK for Chinese). */
  bigFontEncoding?: string;
}

const SYSTEM_DIRS = [
  '/usr/share/fonts',
  '/usr/local/share/fonts',
  join(homedir(), '.fonts'),
  join(homedir(), '.local/share/fonts'),
  '/Library/Fonts',
  '/System/Library/Fonts',
  join(homedir(), 'Library/Fonts'),
  'C:\\Windows\\Fonts',
];

const FONT_EXT = /\.(shx|ttf|ttc|otf|otc)$/i;

/** Installed files for the built-in substitutes, first found wins: [file, face in a collection]. */
const SUBSTITUTES: Record<string, { regular: [string, string?][]; italic?: [string, string?][] }> = {
  'DejaVu Sans': { regular: [['DejaVuSans.ttf'], ['LiberationSans-Regular.ttf'], ['NotoSans-Regular.ttf'], ['Arial.ttf']], italic: [['DejaVuSans-Oblique.ttf']] },
  'DejaVu Sans Bold': { regular: [['DejaVuSans-Bold.ttf'], ['LiberationSans-Bold.ttf'], ['NotoSans-Bold.ttf']], italic: [['DejaVuSans-BoldOblique.ttf']] },
  'DejaVu Sans Mono': { regular: [['DejaVuSansMono.ttf'], ['LiberationMono-Regular.ttf']], italic: [['DejaVuSansMono-Oblique.ttf']] },
  'Liberation Sans': { regular: [['LiberationSans-Regular.ttf'], ['DejaVuSans.ttf']], italic: [['LiberationSans-Italic.ttf']] },
  'Liberation Sans Bold': { regular: [['LiberationSans-Bold.ttf'], ['DejaVuSans-Bold.ttf']], italic: [['LiberationSans-BoldItalic.ttf']] },
  'Liberation Serif': { regular: [['LiberationSerif-Regular.ttf'], ['DejaVuSerif.ttf']], italic: [['LiberationSerif-Italic.ttf']] },
  'Liberation Serif Bold': { regular: [['LiberationSerif-Bold.ttf'], ['DejaVuSerif-Bold.ttf']], italic: [['LiberationSerif-BoldItalic.ttf']] },
  'Liberation Mono': { regular: [['LiberationMono-Regular.ttf'], ['DejaVuSansMono.ttf']], italic: [['LiberationMono-Italic.ttf']] },
  ...cjkSubstitutes(),
};

/** Noto Sans CJK faces (SC, TC, JP, KR): the collection, single-face OTFs, other CJK fonts as a last resort. */
function cjkSubstitutes(): Record<string, { regular: [string, string?][] }> {
  const out: Record<string, { regular: [string, string?][] }> = {};
  const others: [string, string?][] = [['wqy-microhei.ttc', 'WenQuanYi Micro Hei'], ['wqy-zenhei.ttc', 'WenQuanYi Zen Hei'], ['DroidSansFallbackFull.ttf']];
  for (const lang of ['SC', 'TC', 'JP', 'KR']) {
    const face = `Noto Sans CJK ${lang}`;
    const sc: [string, string?][] = lang === 'SC' ? [] : [['NotoSansCJK-Regular.ttc', 'Noto Sans CJK SC'], ['NotoSansCJKsc-Regular.otf']];
    out[face] = {
      regular: [['NotoSansCJK-Regular.ttc', face], [`NotoSansCJK${lang.toLowerCase()}-Regular.otf`], [`NotoSans${lang}-Regular.otf`], [`SourceHanSans${lang}-Regular.otf`], ...sc, ...others],
    };
    out[`${face} Bold`] = { regular: [['NotoSansCJK-Bold.ttc', face], [`NotoSansCJK${lang.toLowerCase()}-Bold.otf`], ...(out[face]?.regular ?? [])] };
  }
  return out;
}

// ---- the cache folder ---------------------------------------------------------------------------

/** Where font caches are kept: $CAD_FONT_CACHE, else node_modules/.cache/cad-fonts/ of this package; null if unknown. */
/**
 * A 64-bit FNV-1a hash of a string, 16 hex digits: names the cache files after a path. Not
 * node:crypto, whose loading alone costs a few milliseconds of every `cad convert` run.
 */
export function cacheKey(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) h = BigInt.asUintN(64, (h ^ BigInt(text.charCodeAt(i))) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

export function fontCacheDir(): string | null {
  const env = process.env['CAD_FONT_CACHE'];
  if (env) return env;
  try {
    return fileURLToPath(new URL('../../node_modules/.cache/cad-fonts/', import.meta.url));
  } catch {
    return null;
  }
}

function readJson(file: string | null): unknown {
  if (!file) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Writes a cache file whole or not at all (other processes may be reading it); failures are ignored. */
function writeJson(file: string | null, value: unknown): void {
  if (!file) return;
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  } catch {
    // No cache this time.
  }
}

const mtimeOf = (path: string): number | null => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
};

// ---- font folders -------------------------------------------------------------------------------

const INDEX_VERSION = 1;
/** Folders with fewer entries than this are scanned each time (quicker than checking a cache). */
const CACHE_MIN_ENTRIES = 100;

/** The font files under a folder (recursive, bounded), in scan order, and its folders' modification times. */
interface FolderIndex {
  v: number;
  root: string;
  /** Every folder scanned → its modification time (an entry added, removed or renamed changes it). */
  dirs: Record<string, number>;
  /** [lower-case file name, path]. */
  files: [string, string][];
}

function isFolderIndex(v: unknown, root: string): v is FolderIndex {
  const x = v as FolderIndex | null;
  return !!x && x.v === INDEX_VERSION && x.root === root && typeof x.dirs === 'object' && x.dirs !== null && Array.isArray(x.files);
}

/** Scans a folder tree for font files; null when it is not a readable folder. */
function scanFolder(root: string): { index: FolderIndex; entries: number } | null {
  const rootTime = mtimeOf(root);
  if (rootTime === null) return null;
  const index: FolderIndex = { v: INDEX_VERSION, root, dirs: {}, files: [] };
  let entries = 0;
  const budget = { files: 20_000 };
  const walk = (dir: string, depth: number, mtime: number): void => {
    if (depth > 6 || budget.files <= 0) return;
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    index.dirs[dir] = mtime;
    for (const e of list) {
      if (--budget.files <= 0) return;
      entries++;
      const name = e.name;
      const path = join(dir, name);
      if (FONT_EXT.test(name)) {
        index.files.push([name.toLowerCase(), path]);
        continue;
      }
      if (name.startsWith('.') || /\.(gz|pcf|bdf|pfb|afm|enc|dir|alias|conf)$/i.test(name)) continue;
      if (!e.isDirectory() && !e.isSymbolicLink()) continue;
      try {
        const st = statSync(path);
        if (st.isDirectory()) walk(path, depth + 1, st.mtimeMs);
      } catch {
        /* unreadable entry */
      }
    }
  };
  walk(root, 0, rootTime);
  return { index, entries };
}

const folderCacheFile = (root: string): string | null => {
  const dir = fontCacheDir();
  return dir ? join(dir, `folder-${cacheKey(root)}.json`) : null;
};

/** The font files under a folder: from the cache while none of its folders changed, else scanned (and cached). */
function folderFiles(root: string): [string, string][] {
  const file = folderCacheFile(root);
  const cached = readJson(file);
  if (isFolderIndex(cached, root)) {
    const dirs = Object.entries(cached.dirs);
    if (dirs.length && dirs.every(([d, m]) => mtimeOf(d) === m)) return cached.files;
  }
  const scanned = scanFolder(root);
  if (!scanned) return [];
  if (scanned.entries >= CACHE_MIN_ENTRIES) writeJson(file, scanned.index);
  return scanned.index.files;
}

/** Font files under `dirs`, by lower-case file name; earlier folders and entries win. */
function scanDirs(dirs: string[]): Map<string, string> {
  const into = new Map<string, string>();
  for (const d of dirs) for (const [key, path] of folderFiles(d)) if (!into.has(key)) into.set(key, path);
  return into;
}

// ---- family names -------------------------------------------------------------------------------

interface FaceName {
  family: string;
  subfamily: string;
  postscriptName: string;
}

interface FacesCache {
  v: number;
  /** Font file → its size and modification time when read, and its faces' names. */
  files: Record<string, { size: number; mtime: number; faces: FaceName[] }>;
}

const facesCacheFile = (): string | null => {
  const dir = fontCacheDir();
  return dir ? join(dir, 'faces.json') : null;
};

/** The faces of a font file from its table directory and name table (not the whole file). */
function readFaceNames(file: string): FaceName[] {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    return sfntFamilies((offset, length) => {
      const buf = new Uint8Array(Math.max(0, Math.min(length, 16 << 20)));
      readSync(fd, buf, 0, buf.length, offset);
      return buf;
    }).map(({ family, subfamily, postscriptName }) => ({ family, subfamily, postscriptName }));
  } finally {
    closeSync(fd);
  }
}

/** The family names of every TrueType/OpenType file in `files`, reusing the names cached for unchanged files. */
function familyNames(files: string[]): { family: string; subfamily: string; postscriptName: string; file: string; collection: boolean }[] {
  const cacheFile = facesCacheFile();
  const raw = readJson(cacheFile) as FacesCache | null;
  const cache: FacesCache = raw && raw.v === INDEX_VERSION && typeof raw.files === 'object' && raw.files !== null ? raw : { v: INDEX_VERSION, files: {} };
  let changed = false;
  const out: { family: string; subfamily: string; postscriptName: string; file: string; collection: boolean }[] = [];
  for (const file of files) {
    let st: { size: number; mtimeMs: number };
    try {
      st = statSync(file);
    } catch {
      continue;
    }
    let entry = cache.files[file];
    if (!entry || entry.size !== st.size || entry.mtime !== st.mtimeMs || !Array.isArray(entry.faces)) {
      entry = { size: st.size, mtime: st.mtimeMs, faces: readFaceNames(file) };
      cache.files[file] = entry;
      changed = true;
    }
    for (const f of entry.faces) out.push({ ...f, file, collection: entry.faces.length > 1 });
  }
  if (changed) {
    // Entries for files that are gone are dropped.
    const listed = new Set(files);
    for (const f of Object.keys(cache.files)) if (!listed.has(f) && mtimeOf(f) === null) delete cache.files[f];
    writeJson(cacheFile, cache);
  }
  return out;
}

function envDirs(): string[] {
  const v = process.env.CAD_FONT_DIR;
  return v ? v.split(process.platform === 'win32' ? ';' : ':').filter((d) => d.length > 0) : [];
}

/** The Node font provider: configured folders, $CAD_FONT_DIR, system fonts; substitutes and CJK fallback. */
export function nodeFontProvider(options: NodeFontOptions = {}): FontProvider {
  const userDirs = [...(options.fontDirs ?? []), ...envDirs()].filter((d, i, a) => a.indexOf(d) === i);
  let user: Map<string, string> | null = null;
  let system: Map<string, string> | null = null;
  const userFiles = (): Map<string, string> => (user ??= scanDirs(userDirs));
  const systemFiles = (): Map<string, string> => (system ??= options.systemFonts !== false ? scanDirs(SYSTEM_DIRS) : new Map());
  const byName = (name: string): string | undefined => {
    const key = basename(name.replace(/\\/g, '/')).toLowerCase();
    const candidates = /\.[a-z0-9]+$/i.test(key) ? [key] : [`${key}.shx`, `${key}.ttf`, `${key}.ttc`, `${key}.otf`];
    for (const c of candidates) {
      const hit = userFiles().get(c) ?? systemFiles().get(c);
      if (hit) return hit;
    }
    return undefined;
  };

  let families: { family: string; subfamily: string; postscriptName: string; file: string; collection: boolean }[] | null = null;
  const familyIndex = (): NonNullable<typeof families> => {
    if (families) return families;
    const files: string[] = [];
    for (const map of [userFiles(), systemFiles()]) for (const file of map.values()) if (!/\.shx$/i.test(file)) files.push(file);
    families = familyNames(files);
    return families;
  };

  const readCache = new Map<string, Uint8Array | undefined>();
  const host: FontHost = {
    findFile: byName,
    findFamily(family, bold, italic) {
      const want = family.toLowerCase().replace(/\s+/g, ' ').trim();
      if (!want) return undefined;
      const faces = familyIndex().filter((f) => f.family.toLowerCase() === want || f.postscriptName.toLowerCase() === want.replace(/ /g, ''));
      if (!faces.length) return undefined;
      const score = (f: (typeof faces)[number]): number => {
        const sub = f.subfamily.toLowerCase();
        let s = 0;
        if (/bold/.test(sub) === bold) s += 2;
        if (/italic|oblique/.test(sub) === italic) s += 1;
        if (/^(regular|normal|book|roman)$/.test(sub)) s += 0.5;
        return s;
      };
      const best = faces.reduce((a, b) => (score(b) > score(a) ? b : a));
      return best.collection ? { file: best.file, face: best.family } : { file: best.file };
    },
    substitute(key, italic) {
      const spec = SUBSTITUTES[key];
      if (!spec) return undefined;
      const lists = italic && spec.italic ? [spec.italic, spec.regular] : [spec.regular];
      for (const list of lists) {
        for (const [file, face] of list) {
          const path = systemFiles().get(file.toLowerCase()) ?? userFiles().get(file.toLowerCase());
          if (path) return face ? { file: path, face } : { file: path };
        }
      }
      return undefined;
    },
    read(file) {
      if (readCache.has(file)) return readCache.get(file);
      let bytes: Uint8Array | undefined;
      try {
        const b = readFileSync(file);
        bytes = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      } catch {
        bytes = undefined;
      }
      readCache.set(file, bytes);
      return bytes;
    },
  };
  return createFontProvider({ host, ...(options.bigFontEncoding ? { bigFontEncoding: options.bigFontEncoding } : {}) });
}
