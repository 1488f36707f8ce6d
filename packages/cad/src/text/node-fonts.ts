/**
 * Node font discovery: the fonts a drawing names, looked up in the configured font folders
 * (`fontDirs`, $CAD_FONT_DIR: SHX and TrueType files) and the system font folders, and the
 * installed substitutes (DejaVu Sans, Liberation, Noto Sans CJK).
 */
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
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

/** Font files under `dir` (recursive, bounded), by lower-case file name; earlier entries win. */
function scan(dir: string, into: Map<string, string>, depth = 0, budget = { files: 20_000 }): void {
  if (depth > 6 || budget.files <= 0) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (--budget.files <= 0) return;
    const path = join(dir, name);
    if (FONT_EXT.test(name)) {
      const key = name.toLowerCase();
      if (!into.has(key)) into.set(key, path);
      continue;
    }
    if (name.startsWith('.') || /\.(gz|pcf|bdf|pfb|afm|enc|dir|alias|conf)$/i.test(name)) continue;
    try {
      if (statSync(path).isDirectory()) scan(path, into, depth + 1, budget);
    } catch {
      /* unreadable entry */
    }
  }
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
  const userFiles = (): Map<string, string> => {
    if (!user) {
      user = new Map();
      for (const d of userDirs) scan(d, user);
    }
    return user;
  };
  const systemFiles = (): Map<string, string> => {
    if (!system) {
      system = new Map();
      if (options.systemFonts !== false) for (const d of SYSTEM_DIRS) scan(d, system);
    }
    return system;
  };
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
    families = [];
    for (const files of [userFiles(), systemFiles()]) {
      for (const file of files.values()) {
        if (/\.shx$/i.test(file)) continue;
        let fd: number;
        try {
          fd = openSync(file, 'r');
        } catch {
          continue;
        }
        try {
          const faces = sfntFamilies((offset, length) => {
            const buf = new Uint8Array(length);
            readSync(fd, buf, 0, length, offset);
            return buf;
          });
          for (const f of faces) families.push({ ...f, file, collection: faces.length > 1 });
        } finally {
          closeSync(fd);
        }
      }
    }
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
