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
import {
  type Dirent,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createFontProvider, type FontHost, type FontProvider } from './fonts';
import { sfntFamilies } from './sfnt';
import { SHIPPED_FONTS, type ShippedFontKey } from './shipped';

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

/** Installed fonts are used unless $CAD_SYSTEM_FONTS is 0 (tests, and hosts that want the same output everywhere). */
export function systemFontsEnabled(): boolean {
  return process.env['CAD_SYSTEM_FONTS'] !== '0';
}

// ---- shipped fonts ------------------------------------------------------------------------------

const requireHere = createRequire(import.meta.url);
const shippedPaths = new Map<ShippedFontKey, string | null>();

/** The file of a font the engine ships (an npm dependency), or null when it is not installed. */
export function shippedFontFile(key: ShippedFontKey): string | null {
  let path = shippedPaths.get(key);
  if (path === undefined) {
    const f = SHIPPED_FONTS[key];
    try {
      path = requireHere.resolve(`${f.pkg}/${f.file}`);
    } catch {
      path = null;
    }
    shippedPaths.set(key, path);
  }
  return path;
}

// ---- substitutes --------------------------------------------------------------------------------

/** An installed file for a substitute: its name in a font folder and the face in a collection. */
type Candidate = [string, string?];

interface SubstituteSpec {
  regular: Candidate[];
  italic?: Candidate[];
  /** The shipped font that stands in when no installed file is found. */
  shipped: ShippedFontKey;
  /** CJK faces: $XCAD_CJK_FONT comes first and any installed CJK font of the script and style before the shipped one. */
  cjk?: { lang: CjkLang; serif: boolean };
}

type CjkLang = 'SC' | 'TC' | 'JP' | 'KR';

/** Installed files for the built-in substitutes, first found wins, then the shipped font. */
const SUBSTITUTES: Record<string, SubstituteSpec> = {
  'DejaVu Sans': {
    regular: [['DejaVuSans.ttf'], ['LiberationSans-Regular.ttf'], ['NotoSans-Regular.ttf'], ['Arial.ttf']],
    italic: [['DejaVuSans-Oblique.ttf']],
    shipped: 'sans',
  },
  'DejaVu Sans Bold': {
    regular: [['DejaVuSans-Bold.ttf'], ['LiberationSans-Bold.ttf'], ['NotoSans-Bold.ttf']],
    italic: [['DejaVuSans-BoldOblique.ttf']],
    shipped: 'sansBold',
  },
  'DejaVu Sans Mono': {
    regular: [['DejaVuSansMono.ttf'], ['LiberationMono-Regular.ttf']],
    italic: [['DejaVuSansMono-Oblique.ttf']],
    shipped: 'mono',
  },
  'Liberation Sans': {
    regular: [['LiberationSans-Regular.ttf'], ['DejaVuSans.ttf']],
    italic: [['LiberationSans-Italic.ttf']],
    shipped: 'sans',
  },
  'Liberation Sans Bold': {
    regular: [['LiberationSans-Bold.ttf'], ['DejaVuSans-Bold.ttf']],
    italic: [['LiberationSans-BoldItalic.ttf']],
    shipped: 'sansBold',
  },
  'Liberation Serif': {
    regular: [['LiberationSerif-Regular.ttf'], ['DejaVuSerif.ttf']],
    italic: [['LiberationSerif-Italic.ttf']],
    shipped: 'sans',
  },
  'Liberation Serif Bold': {
    regular: [['LiberationSerif-Bold.ttf'], ['DejaVuSerif-Bold.ttf']],
    italic: [['LiberationSerif-BoldItalic.ttf']],
    shipped: 'sansBold',
  },
  'Liberation Mono': {
    regular: [['LiberationMono-Regular.ttf'], ['DejaVuSansMono.ttf']],
    italic: [['LiberationMono-Italic.ttf']],
    shipped: 'mono',
  },
  ...cjkSubstitutes(),
};

/**
 * The CJK faces (fonts.ts names them: 'Noto Sans SC', 'Noto Sans CJK JP', 'Noto Serif SC', ...):
 * Noto CJK collections and single-face files, Source Han, the common Linux CJK fonts; a bold
 * request tries the bold files first.
 */
function cjkSubstitutes(): Record<string, SubstituteSpec> {
  const out: Record<string, SubstituteSpec> = {};
  for (const serif of [false, true]) {
    const kind = serif ? 'Serif' : 'Sans';
    const others: Candidate[] = serif
      ? [
          ['uming.ttc', 'AR PL UMing CN'],
          ['simsun.ttc', 'SimSun'],
        ]
      : [['wqy-microhei.ttc', 'WenQuanYi Micro Hei'], ['wqy-zenhei.ttc', 'WenQuanYi Zen Hei'], ['DroidSansFallbackFull.ttf']];
    for (const lang of ['SC', 'TC', 'JP', 'KR'] as const) {
      const face = `Noto ${kind} CJK ${lang}`;
      const sc: Candidate[] =
        lang === 'SC' ? [] : [[`Noto${kind}CJK-Regular.ttc`, `Noto ${kind} CJK SC`], [`Noto${kind}CJKsc-Regular.otf`]];
      const regular: Candidate[] = [
        [`Noto${kind}CJK-Regular.ttc`, face],
        [`Noto${kind}CJK${lang.toLowerCase()}-Regular.otf`],
        [`Noto${kind}${lang}-Regular.otf`],
        [`SourceHan${kind}${lang}-Regular.otf`],
        ...sc,
        ...others,
      ];
      const shipped = serif ? 'cjkSerif' : 'cjkSans';
      const spec = { shipped, cjk: { lang, serif } } as const;
      // SC, the face drawings mostly need, answers to the shipped font's own family name too.
      const names = lang === 'SC' ? [face, SHIPPED_FONTS[shipped].family] : [face];
      for (const name of names) {
        out[name] = { regular, ...spec };
        out[`${name} Bold`] = {
          regular: [[`Noto${kind}CJK-Bold.ttc`, face], [`Noto${kind}CJK${lang.toLowerCase()}-Bold.otf`], ...regular],
          ...spec,
        };
      }
    }
  }
  return out;
}

/** Code page bits of OS/2 ulCodePageRange1 by script: GB2312, Big5, JIS, Korean Wansung. */
const CODE_PAGE_BIT: Record<CjkLang, number> = { SC: 1 << 18, TC: 1 << 20, JP: 1 << 17, KR: 1 << 19 };
const ANY_CJK_PAGES = CODE_PAGE_BIT.SC | CODE_PAGE_BIT.TC | CODE_PAGE_BIT.JP | CODE_PAGE_BIT.KR;
/** Family names of Song/Ming/Mincho (serif) CJK fonts. */
const SERIF_CJK_FAMILY = /serif|song|ming|mincho|batang|fangsong|kai|宋|明|仿|楷/i;

/** An installed font with CJK code pages for a script and style (any name): the best by script, then style. */
function anyInstalledCjk(faces: readonly IndexedFace[], lang: CjkLang, serif: boolean): { file: string; face?: string } | undefined {
  let best: IndexedFace | undefined;
  let bestScore = 0;
  for (const f of faces) {
    const pages = f.codePages ?? 0;
    if (!(pages & ANY_CJK_PAGES) || /bold|light|thin|black|heavy|medium/i.test(f.subfamily)) continue;
    const score = (pages & CODE_PAGE_BIT[lang] ? 4 : 1) + (SERIF_CJK_FAMILY.test(f.family) === serif ? 2 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = f;
    }
  }
  // A font of the other style only when the script matches: the shipped face of the right style is better than a poor match.
  if (!best || bestScore < 6) return undefined;
  return best.collection ? { file: best.file, face: best.family } : { file: best.file };
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

const isFile = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

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
  /** OS/2 ulCodePageRange1: which legacy code pages (GB2312, Big5...) the face covers. */
  codePages?: number;
}

/** A face of an indexed font file. */
interface IndexedFace extends FaceName {
  file: string;
  collection: boolean;
}

/** Version of faces.json (2: with the code pages). */
const FACES_VERSION = 2;

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
    }).map(({ family, subfamily, postscriptName, codePages }) => ({ family, subfamily, postscriptName, codePages }));
  } finally {
    closeSync(fd);
  }
}

/** The family names of every TrueType/OpenType file in `files`, reusing the names cached for unchanged files. */
function familyNames(files: string[]): IndexedFace[] {
  const cacheFile = facesCacheFile();
  const raw = readJson(cacheFile) as FacesCache | null;
  const cache: FacesCache =
    raw && raw.v === FACES_VERSION && typeof raw.files === 'object' && raw.files !== null ? raw : { v: FACES_VERSION, files: {} };
  let changed = false;
  const out: IndexedFace[] = [];
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

/** The Node font host: configured folders, $CAD_FONT_DIR, system fonts (unless hidden), the shipped fonts. */
export function nodeFontHost(options: NodeFontOptions = {}): FontHost {
  const userDirs = [...(options.fontDirs ?? []), ...envDirs()].filter((d, i, a) => a.indexOf(d) === i);
  const useSystem = options.systemFonts ?? systemFontsEnabled();
  let user: Map<string, string> | null = null;
  let system: Map<string, string> | null = null;
  const userFiles = (): Map<string, string> => (user ??= scanDirs(userDirs));
  const systemFiles = (): Map<string, string> => (system ??= useSystem ? scanDirs(SYSTEM_DIRS) : new Map());
  const byName = (name: string): string | undefined => {
    const key = basename(name.replace(/\\/g, '/')).toLowerCase();
    const candidates = /\.[a-z0-9]+$/i.test(key) ? [key] : [`${key}.shx`, `${key}.ttf`, `${key}.ttc`, `${key}.otf`];
    for (const c of candidates) {
      const hit = userFiles().get(c) ?? systemFiles().get(c);
      if (hit) return hit;
    }
    return undefined;
  };

  let families: IndexedFace[] | null = null;
  const familyIndex = (): IndexedFace[] => {
    if (families) return families;
    const files: string[] = [];
    for (const map of [userFiles(), systemFiles()]) for (const file of map.values()) if (!/\.shx$/i.test(file)) files.push(file);
    families = familyNames(files);
    return families;
  };

  const readCache = new Map<string, Uint8Array | undefined>();
  return {
    findFile: byName,
    findFamily(family, bold, italic) {
      const want = family.toLowerCase().replace(/\s+/g, ' ').trim();
      if (!want) return undefined;
      const faces = familyIndex().filter(
        (f) => f.family.toLowerCase() === want || f.postscriptName.toLowerCase() === want.replace(/ /g, ''),
      );
      if (!faces.length) return undefined;
      const score = (f: IndexedFace): number => {
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
      // The order of README "Fonts": $XCAD_CJK_FONT, installed fonts by name, any installed CJK font, the shipped font.
      const cjkFile = spec.cjk ? process.env['XCAD_CJK_FONT'] : undefined;
      if (spec.cjk && cjkFile && isFile(cjkFile)) {
        // A collection: the face of the script and style by Noto CJK's names, else its first.
        return /\.(ttc|otc)$/i.test(cjkFile)
          ? { file: cjkFile, face: `Noto ${spec.cjk.serif ? 'Serif' : 'Sans'} CJK ${spec.cjk.lang}` }
          : { file: cjkFile };
      }
      const lists = italic && spec.italic ? [spec.italic, spec.regular] : [spec.regular];
      for (const list of lists) {
        for (const [file, face] of list) {
          const path = systemFiles().get(file.toLowerCase()) ?? userFiles().get(file.toLowerCase());
          if (path) return face ? { file: path, face } : { file: path };
        }
      }
      const any = spec.cjk ? anyInstalledCjk(familyIndex(), spec.cjk.lang, spec.cjk.serif) : undefined;
      if (any) return any;
      const shipped = shippedFontFile(spec.shipped);
      return shipped ? { file: shipped } : undefined;
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
}

/** The Node font provider: configured folders, $CAD_FONT_DIR, system fonts; substitutes and CJK fallback. */
export function nodeFontProvider(options: NodeFontOptions = {}): FontProvider {
  return createFontProvider({
    host: nodeFontHost(options),
    ...(options.bigFontEncoding ? { bigFontEncoding: options.bigFontEncoding } : {}),
  });
}

const cjkFallbacks = new Map<string, { file: string; face?: string } | null>();

/**
 * The CJK font the back ends fall back to for text their font cannot show (sans or serif), by the
 * same order as the provider's substitutes; looked up once per process and setting.
 */
export function cjkFallbackFont(serif: boolean): { file: string; face?: string } | null {
  const key = `${serif}|${systemFontsEnabled()}|${process.env['XCAD_CJK_FONT'] ?? ''}|${process.env['CAD_FONT_DIR'] ?? ''}`;
  let found = cjkFallbacks.get(key);
  if (found === undefined) {
    found =
      nodeFontHost({ fontDirs: [] }).substitute?.(serif ? SHIPPED_FONTS.cjkSerif.family : SHIPPED_FONTS.cjkSans.family, false) ?? null;
    cjkFallbacks.set(key, found);
  }
  return found;
}
