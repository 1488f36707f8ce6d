/**
 * Font lookup for the display-list builder (browser-safe).
 *
 * A text style names a font the way AutoCAD does: an SHX file ('txt', 'simplex.shx') with an
 * optional big font for Asian text ('gbcbig.shx'), or a TrueType file or family ('Arial.ttf',
 * 'simsun.ttc', the style's `fontFamily`). The provider turns that into fonts the back ends can
 * draw: SHX files found in a font folder are read and drawn as strokes; everything else is set as
 * text in a TrueType font, the requested one when a host (node-fonts.ts) finds its file, else a
 * substitute (DejaVu Sans for SHX and unknown fonts, Liberation for Arial/Times/Courier, Noto Sans
 * CJK for Chinese, Japanese and Korean). Text is split into runs by script so CJK characters never
 * land in a font without them. Advance widths come from the generated table (metrics-table.ts) or
 * from the font file itself.
 */
import type { TextStyle } from '../model';
import { isCjk } from './cjk';
import { FONT_METRICS, METRIC_CODES, type FontMetricsEntry } from './metrics-table';
import { readSfnt, type SfntFace } from './sfnt';
import { SHIPPED_FONTS } from './shipped';
import { loadShx, type ShxFont, type ShxGlyph } from './shx';

/** A font as the display list names it: what was asked for and what the back ends draw with. */
export interface FontRef {
  /** The name the drawing asked for (style font, e.g. 'simplex.shx', 'SimSun'). */
  requested: string;
  /** CSS-like family the back ends use: 'Noto Sans CJK SC', 'Noto Sans', ... */
  family: string;
  /** Absolute path of the font file used, when the back end should load one. */
  file?: string;
  /** Face name inside a font collection (.ttc), e.g. 'Noto Sans CJK SC'. */
  face?: string;
  /** True when the requested font was not found and this is a substitute. */
  substituted: boolean;
}

export interface ResolvedFont {
  ref: FontRef;
  /** Advance width of `text` in em units (font size 1). */
  measure(text: string): number;
  /** Cap height as a fraction of the em: CAD text height is the capital height, font size = height / capHeight. */
  capHeight: number;
  /**
   * SHX fonts: the glyph of a character as strokes, in units of the text height (capHeight is 1,
   * so the font size equals the text height). Present only for stroke fonts; such runs are drawn
   * with ctx.stroke instead of text primitives.
   */
  glyph?(ch: string): ShxGlyph | undefined;
  /** False when the font has no glyph for `ch` (the run then takes a fallback font). */
  covers?(ch: string): boolean;
  /**
   * How far the baseline is raised, in em: a CJK face set in place of an SHX big font puts its
   * ideographic em box (0.12 em below the baseline to 0.88 above) on the big font's square cell.
   */
  rise?: number;
}

/** A font asked for and not found, and whether its substitute looks like it. */
export interface Substitution {
  requested: string;
  /** The family drawn instead. */
  family: string;
  /**
   * True when the substitute is the usual stand-in for this kind of font and looks alike (a big
   * font drawn in the CJK face, Arial in its metric twin, 宋体 in the Song face): no notice.
   */
  alike: boolean;
}

/** MTEXT font overrides (\f and \F codes). */
export interface FontOverride {
  /** TrueType family (\fArial|b1|i0;). */
  family?: string;
  /** Font file (\Fromans.shx;). */
  file?: string;
  /** Big font named with the file (\Fsimplex.shx,gbcbig.shx;). */
  bigFont?: string;
  bold?: boolean;
  italic?: boolean;
}

export interface FontRun {
  text: string;
  font: ResolvedFont;
}

export interface FontProvider {
  /** The font to set `text` in for a text style (undefined style = STANDARD). */
  resolve(style: TextStyle | undefined, text: string): ResolvedFont;
  /** Fonts asked for and not found whose substitute looks different (the notices name these), each once. */
  missing(): string[];
  /** Every font asked for and not found, each once, with what stands in for it. */
  substitutions(): Substitution[];
  /** Characters no available font has (drawn as the fallback font's empty glyph), each once. */
  missingCharacters(): string[];
  /**
   * `text` split into runs of one font each: CJK characters go to a font that has them, characters
   * the style's font lacks to a fallback. Providers without it are used through `resolve` alone.
   */
  runs?(style: TextStyle | undefined, text: string, override?: FontOverride): FontRun[];
  /** A shape file (.shx) by the name a text style gives ('ltypeshp.shx', 'es'); undefined when not found. */
  shapeFile?(name: string): ShxFont | undefined;
}

/** What a platform offers the provider: font files (Node: the file system; browser: nothing or fetched bytes). */
export interface FontHost {
  /** A font file by the name a drawing gives ('txt.shx', 'SimSun.ttc', 'arial.ttf'), case-insensitive: its path. */
  findFile(name: string): string | undefined;
  /** An installed TrueType/OpenType font by family name. */
  findFamily?(family: string, bold: boolean, italic: boolean): { file: string; face?: string } | undefined;
  /** The file of a built-in substitute ('DejaVu Sans', 'Noto Sans SC', 'Noto Serif CJK JP', ... with ' Bold'): installed, else shipped. */
  substitute?(key: string, italic: boolean): { file: string; face?: string } | undefined;
  /** The bytes of a file returned by the functions above. */
  read(file: string): Uint8Array | undefined;
}

export interface FontProviderOptions {
  host?: FontHost;
  /** Double-byte encoding of big fonts ('gbk', 'big5', 'shift_jis', 'euc-kr'); default: guessed from the font name. */
  bigFontEncoding?: string;
}

// ---- character classes ----------------------------------------------------------------------

export function hasCjk(text: string): boolean {
  for (const ch of text) if (isCjk(ch.codePointAt(0) as number)) return true;
  return false;
}

/** Characters that take the font of their neighbours (no script of their own). */
function isNeutral(cp: number): boolean {
  return cp === 0x20 || cp === 0xa0 || cp === 0x09;
}

// ---- metrics --------------------------------------------------------------------------------

const CODE_INDEX = new Map<number, number>(METRIC_CODES.map((c, i) => [c, i]));
const DEFAULT_ADVANCE = 0.6;

/** Width of a character from a metrics-table entry (em units), undefined when not covered. */
function tableAdvance(m: FontMetricsEntry, cp: number): number | undefined {
  const i = CODE_INDEX.get(cp);
  if (i !== undefined) {
    const w = m.widths[i] as number;
    return w >= 0 ? w / 1000 : undefined;
  }
  if (cp < 0x20) return 0;
  if (m.cjk && isCjk(cp)) {
    if (cp >= 0xac00 && cp <= 0xd7af) return m.cjk.hangul / 1000;
    if (cp >= 0xff61 && cp <= 0xffdc) return m.cjk.halfwidth / 1000;
    return m.cjk.ideograph / 1000;
  }
  return undefined;
}

/** An estimate for fonts without a table: proportional sans widths. */
function estimateAdvance(cp: number): number {
  if (isCjk(cp)) return cp >= 0xff61 && cp <= 0xffdc ? 0.5 : 1;
  const dv = FONT_METRICS['DejaVu Sans'];
  const w = dv ? tableAdvance(dv, cp) : undefined;
  if (w !== undefined) return w * 0.95;
  if (cp === 0x20) return 0.28;
  return DEFAULT_ADVANCE;
}

// ---- font name classification ---------------------------------------------------------------

interface Substitute {
  /** Metrics-table key without ' Bold'. */
  key: string;
  family: string;
  /** Cap height to size the font by, when not the font's own. */
  capHeight?: number;
}

const SANS: Substitute = { key: 'DejaVu Sans', family: 'DejaVu Sans' };

// The CJK faces: the shipped Noto Sans SC / Noto Serif SC (text/shipped.ts) unless an installed
// font is found for the family (node-fonts.ts); one metrics table serves a script's faces (the
// same advance widths).
const CJK_SANS: Substitute = { key: SHIPPED_FONTS.cjkSans.family, family: SHIPPED_FONTS.cjkSans.family };
const CJK_SERIF: Substitute = { key: SHIPPED_FONTS.cjkSerif.family, family: SHIPPED_FONTS.cjkSerif.family };
const CJK_FACES: Record<'SC' | 'TC' | 'JP' | 'KR', [Substitute, Substitute]> = {
  SC: [CJK_SANS, CJK_SERIF],
  TC: [
    { key: CJK_SANS.key, family: 'Noto Sans CJK TC' },
    { key: CJK_SERIF.key, family: 'Noto Serif CJK TC' },
  ],
  JP: [
    { key: CJK_SANS.key, family: 'Noto Sans CJK JP' },
    { key: CJK_SERIF.key, family: 'Noto Serif CJK JP' },
  ],
  KR: [
    { key: CJK_SANS.key, family: 'Noto Sans CJK KR' },
    { key: CJK_SERIF.key, family: 'Noto Serif CJK KR' },
  ],
};
const CJK_SUBSTITUTES = new Set(Object.values(CJK_FACES).flat());

/** Song, Ming, Mincho, FangSong, Kai and Li fonts: set in the serif CJK face. */
const SERIF_CJK =
  /^n?sim(sun|fang|kai|li)|song|kaiti|^kai|stkaiti|stliti|mincho|batang|gungsuh|mingliu|uming|ukai|kaiu|serif cjk|han serif|^fs_|^fzfs|宋|仿|楷|隶|明朝/i;

/** The CJK face for a request: by the font's name (MS Gothic → JP, MingLiU → TC, SimSun → serif, ...), else by the text (kana → JP, hangul → KR). */
function cjkFace(names: string, text: string, serif: boolean): Substitute {
  const pick = (lang: 'SC' | 'TC' | 'JP' | 'KR'): Substitute => CJK_FACES[lang][serif ? 1 : 0];
  if (/gothic|mincho|meiryo|yu (gothic|mincho)|hiragino|extfont|jis|japan|kanji/i.test(names)) return pick('JP');
  if (/batang|gulim|dotum|malgun|gungsuh|whg|kor|hangul/i.test(names)) return pick('KR');
  if (/mingliu|msjh|chineset|big5|uming|ukai|kaiu|jhenghei/i.test(names)) return pick('TC');
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0xff66 && cp <= 0xff9f)) return pick('JP');
    if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return pick('KR');
  }
  return pick('SC');
}
// Liberation Sans/Serif have the advance widths of Arial/Times New Roman per em: set them at the
// em size those fonts would have (their cap heights), so lines measure as in the original.
const ARIAL: Substitute = { key: 'Liberation Sans', family: 'Liberation Sans', capHeight: 0.716 };
const TIMES: Substitute = { key: 'Liberation Serif', family: 'Liberation Serif', capHeight: 0.662 };
const COURIER: Substitute = { key: 'Liberation Mono', family: 'Liberation Mono' };
const MONO: Substitute = { key: 'DejaVu Sans Mono', family: 'DejaVu Sans Mono' };

/**
 * A CJK face set in place of an SHX big font: the big font's characters are square cells as tall
 * as the text height (advance = height x width factor), so the em is the text height and the
 * ideographic em box (Noto: 0.12 em below the baseline) is raised onto the cell.
 */
const CJK_FOR_SHX_CAP = 1;
const CJK_FOR_SHX_RISE = 0.12;

const CJK_TTF =
  /^n?sim(sun|hei|kai|fang|li|you|sun-extb)|song|hei(ti)?\b|^hei|kaiti|fangsong|mingliu|pmingliu|yahei|msyh|msjh|ms p?gothic|ms p?mincho|meiryo|batang|gulim|dotum|malgun|gungsuh|stxihei|stsong|stkaiti|stfangsong|dengxian|noto (sans|serif) (cjk|sc|tc|jp|kr)|source han|hiragino|pingfang|yu (gothic|mincho)|uming|ukai|wenquanyi|wqy|droid sans fallback|[\u3400-\u9fff\uac00-\ud7af]/i;
const SERIF_TTF = /times|roman|serif|georgia|garamond|cambria|bookman|palatino|century(?! gothic)|book antiqua|constantia/i;
const COURIER_TTF = /courier|^cour(bd|bi|i)?(\.|$)/i;
const MONO_TTF = /mono|consola|lucida console|lucida sans typewriter|fixedsys|terminal/i;
const ARIAL_TTF =
  /arial|helvetica|tahoma|verdana|calibri|segoe|microsoft sans|ms sans|trebuchet|candara|corbel|franklin|gill|futura|swis|isocp|isoct|romans/i;

function substituteFor(name: string): Substitute {
  if (CJK_TTF.test(name)) return cjkFace(name, '', SERIF_CJK.test(name));
  if (COURIER_TTF.test(name)) return COURIER;
  if (MONO_TTF.test(name)) return MONO;
  if (SERIF_TTF.test(name)) return TIMES;
  if (ARIAL_TTF.test(name)) return ARIAL;
  return SANS;
}

// ---- which substitutes look like the font asked for -------------------------------------------

/** SHX text fonts that a plain sans stands in for without a notice (AutoCAD's, the GB ones, TArch's). */
const COMMON_SHX =
  /^(txt|txt1|simplex|romans|romand|romanc|romant|complex|italic|isocp[23]?|isoct[23]?|isocpeur|isocteur|gbenor|gbeitc|tssdeng2?|monotxt)(\.shx)?$/i;
/** TrueType fonts and their look-alike substitute families. */
const ALIKE_TTF: [RegExp, (family: string) => boolean][] = [
  [/^(arial|helvetica)/i, (f) => f === ARIAL.family],
  [/^(times|times new roman)$|^times(bd|bi|i)?$/i, (f) => f === TIMES.family],
  [/^(courier|courier new|cour(bd|bi|i)?)$/i, (f) => f === COURIER.family],
  [
    /^(simhei|黑体|heiti|stheiti|stxihei|microsoft yahei|msyh(bd|l)?|微软雅黑|dengxian|等线|noto sans (cjk|sc)|source han sans|思源黑体|pingfang|wenquanyi|wqy)/i,
    (f) => f === CJK_SANS.family,
  ],
  [/^(n?simsun|宋体|新宋体|songti|stsong|noto serif (cjk|sc)|source han serif|思源宋体)/i, (f) => f === CJK_SERIF.family],
];

/** Whether a missing font's substitute looks like it: the README's "Fonts" section lists these pairs. */
function looksAlike(requested: string, sub: Substitute, bigFont: boolean): boolean {
  if (bigFont) return true;
  const stem = requested.replace(/\.(shx|ttf|ttc|otf|otc)$/i, '').trim();
  if (/\.shx$/i.test(requested)) return COMMON_SHX.test(stem) && sub === SANS;
  return ALIKE_TTF.some(([name, family]) => name.test(stem) && family(sub.family));
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return (parts[parts.length - 1] ?? path).trim();
}

function extOf(name: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  return m ? (m[1] as string).toLowerCase() : '';
}

interface Request {
  /** 'shx' (file given), 'ttf' (file given), 'family' (TrueType by family). */
  kind: 'shx' | 'ttf' | 'family';
  /** Requested name as reported when missing. */
  name: string;
  bigFont: string;
  bold: boolean;
  italic: boolean;
  /** The CJK face for this text. */
  cjk: Substitute;
}

function baseRequest(style: TextStyle | undefined, override?: FontOverride): Omit<Request, 'cjk'> {
  const bold = override?.bold ?? false;
  const italic = override?.italic ?? false;
  const bigFont = baseName(override?.bigFont ?? style?.bigFont ?? '');
  if (override?.file) {
    const f = baseName(override.file);
    const ext = extOf(f);
    return { kind: ext === 'shx' || !ext ? 'shx' : 'ttf', name: ext ? f : `${f}.shx`, bigFont, bold, italic };
  }
  if (override?.family) return { kind: 'family', name: override.family.trim(), bigFont, bold, italic };
  let font = baseName(style?.font ?? '');
  let big = bigFont;
  if (font.includes(',')) {
    // 'simplex.shx,gbcbig.shx' in one field.
    const [a, b] = font.split(',').map((x) => x.trim());
    font = a ?? '';
    if (b && !big) big = b;
  }
  const family = style?.fontFamily?.trim();
  const ext = extOf(font);
  if (ext === 'shx') return { kind: 'shx', name: font, bigFont: big, bold, italic };
  if (ext === 'ttf' || ext === 'ttc' || ext === 'otf' || ext === 'otc') {
    // Windows file names carry the weight: arialbd.ttf, timesbi.ttf, ...
    const stem = font.slice(0, -ext.length - 1).toLowerCase();
    const fileBold = /(bd|bi|z|bold)$/.test(stem) && /^(arial|times|cour|verdana|tahoma|georgia|calibri|consola|segoeui|trebuc)/.test(stem);
    return { kind: 'ttf', name: font, bigFont, bold: bold || fileBold, italic };
  }
  if (family) return { kind: 'family', name: family, bigFont: big, bold, italic };
  if (!font) return { kind: 'shx', name: 'txt.shx', bigFont: big, bold, italic };
  // A font name without extension: AutoCAD reads it as an SHX file ('txt', 'romans'), unless it
  // is plainly a Windows font name ('Arial', 'SimSun').
  if (/\s/.test(font) || ARIAL_TTF.test(font) || CJK_TTF.test(font) || SERIF_TTF.test(font) || COURIER_TTF.test(font)) {
    if (!/^(romans|isocp|isoct|isocpeur|isocteur)/i.test(font)) return { kind: 'family', name: font, bigFont: big, bold, italic };
  }
  return { kind: 'shx', name: `${font}.shx`, bigFont: big, bold, italic };
}

const NO_STYLE = {};

/** Requests by style and override, each with its Latin font once resolved (the hot path of MTEXT words). */
class RequestCache {
  private byStyle = new WeakMap<
    object,
    Map<string, { base: Omit<Request, 'cjk'>; latin?: ResolvedFont; faces: Map<Substitute, Request> }>
  >();

  get(
    style: TextStyle | undefined,
    override: FontOverride | undefined,
  ): { base: Omit<Request, 'cjk'>; latin?: ResolvedFont; faces: Map<Substitute, Request> } {
    const k = style ?? NO_STYLE;
    let m = this.byStyle.get(k);
    if (!m) {
      m = new Map();
      this.byStyle.set(k, m);
    }
    const key = override
      ? `${override.file ?? ''}|${override.family ?? ''}|${override.bigFont ?? ''}|${override.bold ? 1 : 0}|${override.italic ? 1 : 0}`
      : '';
    let e = m.get(key);
    if (!e) {
      e = { base: baseRequest(style, override), faces: new Map() };
      m.set(key, e);
    }
    return e;
  }
}

function withFace(entry: { base: Omit<Request, 'cjk'>; faces: Map<Substitute, Request> }, text: string): Request {
  // SHX fonts are strokes of even width: their Chinese is closest to the sans face.
  const face = cjkFace(`${entry.base.name} ${entry.base.bigFont}`, text, entry.base.kind !== 'shx' && SERIF_CJK.test(entry.base.name));
  let r = entry.faces.get(face);
  if (!r) {
    r = { ...entry.base, cjk: face };
    entry.faces.set(face, r);
  }
  return r;
}

// ---- big font encodings ---------------------------------------------------------------------

function guessBigFontEncoding(name: string): string {
  const n = name.toLowerCase();
  if (/chineset|big5|tc\b|cht|tchinese|kst/.test(n)) return 'big5';
  if (/extfont|jis|japan|kanji|@?ext|bigfont/.test(n)) return 'shift_jis';
  if (/whg|kor|hangul|ksc/.test(n)) return 'euc-kr';
  return 'gbk';
}

const dbcsTables = new Map<string, Map<number, number>>();

/** Unicode → double-byte code (lead << 8 | trail) for a legacy encoding, built once from TextDecoder. */
function dbcsTable(encoding: string): Map<number, number> {
  let t = dbcsTables.get(encoding);
  if (t) return t;
  t = new Map();
  let dec: { decode(input: Uint8Array): string };
  try {
    dec = new TextDecoder(encoding);
  } catch {
    dbcsTables.set(encoding, t);
    return t;
  }
  const trail: number[] = [];
  for (let b = 0x40; b <= 0xfe; b++) if (b !== 0x7f) trail.push(b);
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    const buf = new Uint8Array(trail.length * 2);
    trail.forEach((b, i) => {
      buf[2 * i] = lead;
      buf[2 * i + 1] = b;
    });
    const s = dec.decode(buf);
    const chars = [...s];
    if (chars.length === trail.length) {
      chars.forEach((ch, i) => {
        const cp = ch.codePointAt(0) as number;
        if (cp !== 0xfffd && !t.has(cp)) t.set(cp, (lead << 8) | (trail[i] as number));
      });
    } else {
      for (const b of trail) {
        pair[0] = lead;
        pair[1] = b;
        const c = [...dec.decode(pair)];
        if (c.length === 1) {
          const cp = (c[0] as string).codePointAt(0) as number;
          if (cp !== 0xfffd && cp >= 0x80 && !t.has(cp)) t.set(cp, (lead << 8) | b);
        }
      }
    }
  }
  dbcsTables.set(encoding, t);
  return t;
}

// ---- resolved font builders -----------------------------------------------------------------

function tableFont(ref: FontRef, metrics: FontMetricsEntry | undefined, capHeight?: number): ResolvedFont {
  const cache = new Map<number, number>();
  const adv = (cp: number): number => {
    let w = cache.get(cp);
    if (w === undefined) {
      w = (metrics ? tableAdvance(metrics, cp) : undefined) ?? estimateAdvance(cp);
      cache.set(cp, w);
    }
    return w;
  };
  const covered = metrics ? coverageOf(metrics) : null;
  return {
    ref,
    capHeight: capHeight ?? (metrics ? metrics.capHeight / 1000 : 0.72),
    measure(text) {
      let w = 0;
      for (const ch of text) w += adv(ch.codePointAt(0) as number);
      return w;
    },
    covers(ch) {
      const cp = ch.codePointAt(0) as number;
      if (cp < 0x20 || isNeutral(cp)) return true;
      if (!covered) return !isCjk(cp);
      return covered(cp);
    },
  };
}

const coverageCache = new WeakMap<FontMetricsEntry, (cp: number) => boolean>();

/** The coverage ranges of a metrics entry as a lookup ("gap.length" pairs in base 36, delta-encoded). */
function coverageOf(m: FontMetricsEntry): (cp: number) => boolean {
  let f = coverageCache.get(m);
  if (f) return f;
  const parts = m.coverage ? m.coverage.split(',') : [];
  const starts = new Uint32Array(parts.length);
  const ends = new Uint32Array(parts.length);
  let prev = 0;
  parts.forEach((p, i) => {
    const dot = p.indexOf('.');
    const a = prev + Number.parseInt(p.slice(0, dot), 36);
    const b = a + Number.parseInt(p.slice(dot + 1), 36);
    starts[i] = a;
    ends[i] = b;
    prev = b;
  });
  f = (cp) => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < (starts[mid] as number)) hi = mid - 1;
      else if (cp > (ends[mid] as number)) lo = mid + 1;
      else return true;
    }
    return false;
  };
  coverageCache.set(m, f);
  return f;
}

function sfntFont(ref: FontRef, face: SfntFace): ResolvedFont {
  const cache = new Map<number, number>();
  const adv = (cp: number): number => {
    let w = cache.get(cp);
    if (w === undefined) {
      w = face.advance(cp) ?? estimateAdvance(cp);
      cache.set(cp, w);
    }
    return w;
  };
  return {
    ref,
    capHeight: face.capHeight,
    measure(text) {
      let w = 0;
      for (const ch of text) w += adv(ch.codePointAt(0) as number);
      return w;
    },
    covers(ch) {
      const cp = ch.codePointAt(0) as number;
      return cp < 0x20 || isNeutral(cp) || face.advance(cp) !== undefined;
    },
  };
}

/** Alternatives for special characters in SHX fonts (old fonts put them at 127..129). */
const SHX_ALTERNATES: Record<number, number[]> = {
  0x2300: [0x2205, 0xd8, 0xf8, 129, 0x2349],
  0x2205: [0x2300, 0xd8, 129],
  0xb0: [127, 0x2218],
  0xb1: [128],
  0xa0: [0x20],
};

function shxMainFont(ref: FontRef, font: ShxFont): ResolvedFont {
  const code = (cp: number): number | undefined => {
    if (font.has(cp)) return cp;
    for (const alt of SHX_ALTERNATES[cp] ?? []) if (font.has(alt)) return alt;
    return undefined;
  };
  const glyph = (ch: string): ShxGlyph | undefined => {
    const cp = ch.codePointAt(0) as number;
    const c = code(cp);
    return c === undefined ? undefined : font.glyph(c);
  };
  const space = font.glyph(0x20)?.advance ?? 0.6;
  return {
    ref,
    capHeight: 1,
    glyph,
    measure(text) {
      let w = 0;
      for (const ch of text) {
        const cp = ch.codePointAt(0) as number;
        if (cp === 0x20 || cp === 0xa0) w += space;
        else w += glyph(ch)?.advance ?? 0;
      }
      return w;
    },
    covers(ch) {
      const cp = ch.codePointAt(0) as number;
      return cp < 0x20 || isNeutral(cp) || code(cp) !== undefined;
    },
  };
}

function shxBigFont(ref: FontRef, font: ShxFont, encoding: string): ResolvedFont {
  const table = dbcsTable(encoding);
  const glyph = (ch: string): ShxGlyph | undefined => {
    const cp = ch.codePointAt(0) as number;
    const c = table.get(cp);
    return c !== undefined && font.has(c) ? font.glyph(c) : undefined;
  };
  return {
    ref,
    capHeight: 1,
    glyph,
    measure(text) {
      let w = 0;
      for (const ch of text) w += glyph(ch)?.advance ?? 1;
      return w;
    },
    covers(ch) {
      return glyph(ch) !== undefined;
    },
  };
}

// ---- the provider -----------------------------------------------------------------------------

/** The metrics-table entry of a font file (by file name), if the table has one. */
function metricsOfFile(file: string): FontMetricsEntry | undefined {
  const name = baseName(file).toLowerCase();
  for (const m of Object.values(FONT_METRICS)) if (m.file.toLowerCase() === name) return m;
  return undefined;
}

class CoreFontProvider implements FontProvider {
  private substituted = new Map<string, Substitution>();
  private missingChars = new Set<string>();
  private resolved = new Map<string, ResolvedFont>();
  /** The resolved CJK substitutes: text in one of them needs no other CJK font. */
  private cjkSubstitutes = new WeakSet<ResolvedFont>();
  private shxCache = new Map<string, ShxFont | null>();
  private sfntCache = new Map<string, SfntFace[]>();
  private requests = new RequestCache();

  constructor(private options: FontProviderOptions) {}

  missing(): string[] {
    return [...this.substituted.values()].filter((s) => !s.alike).map((s) => s.requested);
  }

  substitutions(): Substitution[] {
    return [...this.substituted.values()];
  }

  missingCharacters(): string[] {
    return [...this.missingChars];
  }

  /** A font not found, and what stands in for it (the first substitute counts: the one most of its text takes). */
  private reportMissing(name: string, sub: Substitute, bigFont = false): void {
    const key = name.toLowerCase();
    if (name && !this.substituted.has(key))
      this.substituted.set(key, { requested: name, family: sub.family, alike: looksAlike(name, sub, bigFont) });
  }

  shapeFile(name: string): ShxFont | undefined {
    const n = name.trim();
    if (!n) return undefined;
    return this.loadShxFile(/\.[a-z0-9]+$/i.test(n) ? n : `${n}.shx`) ?? undefined;
  }

  private loadShxFile(name: string): ShxFont | null {
    const key = name.toLowerCase();
    let f = this.shxCache.get(key);
    if (f !== undefined) return f;
    f = null;
    const host = this.options.host;
    const path = host?.findFile(name);
    const bytes = path ? host?.read(path) : undefined;
    if (bytes) {
      try {
        f = loadShx(bytes);
      } catch {
        f = null;
      }
    }
    this.shxCache.set(key, f);
    return f;
  }

  private faces(file: string): SfntFace[] {
    let faces = this.sfntCache.get(file);
    if (!faces) {
      const bytes = this.options.host?.read(file);
      faces = bytes ? readSfnt(bytes) : [];
      this.sfntCache.set(file, faces);
    }
    return faces;
  }

  /**
   * A built-in substitute font, with the file the host has for it (installed or shipped), measured
   * from the metrics table when it has the file, else from the file itself.
   */
  private substitute(
    sub: Substitute,
    requested: string,
    bold: boolean,
    italic: boolean,
    capHeightArg?: number,
    rise?: number,
  ): ResolvedFont {
    const capHeight = capHeightArg ?? sub.capHeight;
    const key = `sub|${sub.family}|${bold}|${italic}|${requested}|${capHeight ?? ''}|${rise ?? ''}`;
    let f = this.resolved.get(key);
    if (f) return f;
    const found = this.options.host?.substitute?.(bold ? `${sub.family} Bold` : sub.family, italic);
    const tableKey = bold && FONT_METRICS[`${sub.key} Bold`] ? `${sub.key} Bold` : sub.key;
    const metrics = found ? metricsOfFile(found.file) : (FONT_METRICS[tableKey] ?? FONT_METRICS[sub.key]);
    const ref: FontRef = { requested, family: found?.face ?? metrics?.family ?? sub.family, substituted: true };
    if (found) {
      ref.file = found.file;
      if (found.face) ref.face = found.face;
    }
    f = tableFont(ref, metrics, capHeight);
    if (found && !metrics) {
      // A font the table does not know stands in: measure the file itself.
      const faces = this.faces(found.file);
      const face = faces.find((x) => x.family === found.face) ?? faces[0];
      if (face) {
        if (!found.face) ref.family = face.family;
        const real = sfntFont(ref, face);
        f = capHeight === undefined ? real : { ...real, capHeight };
      }
    }
    if (rise) f = { ...f, rise };
    if (CJK_SUBSTITUTES.has(sub)) this.cjkSubstitutes.add(f);
    this.resolved.set(key, f);
    return f;
  }

  /** A TrueType font the host found (file), measured from the file. */
  private realTtf(file: string, faceName: string | undefined, requested: string, bold: boolean): ResolvedFont | undefined {
    const key = `ttf|${file}|${faceName ?? ''}|${requested}`;
    let f = this.resolved.get(key);
    if (f) return f;
    const faces = this.faces(file);
    if (!faces.length) return undefined;
    const want = faceName?.toLowerCase();
    const face =
      (want && faces.find((x) => x.family.toLowerCase() === want || x.postscriptName.toLowerCase() === want)) ||
      (bold && faces.find((x) => /bold/i.test(x.subfamily))) ||
      faces[0];
    if (!face) return undefined;
    const ref: FontRef = { requested, family: face.family || requested, file, substituted: false };
    if (faces.length > 1) ref.face = face.family;
    f = sfntFont(ref, face);
    this.resolved.set(key, f);
    return f;
  }

  /** The font for non-CJK text of a request. */
  private latinFont(req: Request): ResolvedFont {
    const host = this.options.host;
    if (req.kind === 'shx') {
      const shx = this.loadShxFile(req.name);
      if (shx && shx.kind !== 'bigfont') {
        const key = `shx|${req.name.toLowerCase()}`;
        let f = this.resolved.get(key);
        if (!f) {
          const path = host?.findFile(req.name);
          f = shxMainFont({ requested: req.name, family: shx.name || req.name, ...(path ? { file: path } : {}), substituted: false }, shx);
          this.resolved.set(key, f);
        }
        return f;
      }
      this.reportMissing(req.name, SANS);
      return this.substitute(SANS, req.name, req.bold, req.italic);
    }
    if (req.kind === 'ttf') {
      const path = host?.findFile(req.name);
      const f = path ? this.realTtf(path, undefined, req.name, req.bold) : undefined;
      if (f) return f;
      // Maybe installed under its family name (arial.ttf → 'Arial').
      const fam = req.name.replace(/\.[a-z0-9]+$/i, '');
      const byFamily = host?.findFamily?.(fam, req.bold, req.italic);
      const g = byFamily ? this.realTtf(byFamily.file, byFamily.face, req.name, req.bold) : undefined;
      if (g) return g;
      return this.substituteMissing(req);
    }
    const byFamily = host?.findFamily?.(req.name, req.bold, req.italic);
    const g = byFamily ? this.realTtf(byFamily.file, byFamily.face, req.name, req.bold) : undefined;
    if (g) return g;
    return this.substituteMissing(req);
  }

  /** A TrueType font or family not found: its substitute, reported. */
  private substituteMissing(req: Request): ResolvedFont {
    const sub = substituteFor(req.name);
    this.reportMissing(req.name, sub);
    return this.substitute(sub, req.name, req.bold, req.italic);
  }

  /** The font for CJK text of a request. */
  private cjkFont(req: Request, latin: ResolvedFont, sample: string): ResolvedFont {
    if (req.kind === 'shx') {
      if (req.bigFont) {
        const big = this.loadShxFile(req.bigFont);
        if (big && big.kind === 'bigfont') {
          const key = `big|${req.bigFont.toLowerCase()}`;
          let f = this.resolved.get(key);
          if (!f) {
            const path = this.options.host?.findFile(req.bigFont);
            const enc = this.options.bigFontEncoding ?? guessBigFontEncoding(req.bigFont);
            f = shxBigFont(
              { requested: req.bigFont, family: big.name || req.bigFont, ...(path ? { file: path } : {}), substituted: false },
              big,
              enc,
            );
            this.resolved.set(key, f);
          }
          if (f.covers?.(sample) !== false) return f;
        } else this.reportMissing(req.bigFont, req.cjk, true);
      }
      // A unifont SHX with CJK glyphs of its own.
      if (latin.glyph && latin.covers?.(sample)) return latin;
      return this.substitute(req.cjk, req.bigFont || req.name, req.bold, req.italic, CJK_FOR_SHX_CAP, CJK_FOR_SHX_RISE);
    }
    if (latin.covers?.(sample) && !latin.ref.substituted) return latin;
    if (this.cjkSubstitutes.has(latin)) return latin;
    // A Latin TrueType font: CJK from the fallback font at the same em size.
    return this.substitute(req.cjk, req.name, req.bold, req.italic, latin.capHeight);
  }

  /** A font for a character the run's font lacks. */
  private fallbackFor(req: Request, ch: string): ResolvedFont {
    const cp = ch.codePointAt(0) as number;
    if (isCjk(cp)) {
      if (req.kind === 'shx')
        return this.substitute(req.cjk, req.bigFont || req.name, req.bold, req.italic, CJK_FOR_SHX_CAP, CJK_FOR_SHX_RISE);
      return this.substitute(req.cjk, req.name, req.bold, req.italic, this.latinFont(req).capHeight);
    }
    const sans = this.substitute(SANS, req.name, req.bold, req.italic);
    if (sans.covers?.(ch) !== false) return sans;
    return this.substitute(req.cjk, req.name, req.bold, req.italic);
  }

  runs(style: TextStyle | undefined, text: string, override?: FontOverride): FontRun[] {
    const entry = this.requests.get(style, override);
    const req = hasCjk(text) ? withFace(entry, text) : withFace(entry, '');
    const latin = entry.latin ?? (entry.latin = this.latinFont(req));
    const out: FontRun[] = [];
    let cur: FontRun | null = null;
    let pendingNeutral = '';
    for (const ch of text) {
      const cp = ch.codePointAt(0) as number;
      if (isNeutral(cp)) {
        if (cur) cur.text += ch;
        else pendingNeutral += ch;
        continue;
      }
      let font: ResolvedFont;
      if (isCjk(cp)) font = this.cjkFont(req, latin, ch);
      else font = latin.covers?.(ch) === false ? this.fallbackFor(req, ch) : latin;
      if (font.covers?.(ch) === false && font !== latin) {
        const alt = this.fallbackFor(req, ch);
        if (alt.covers?.(ch) !== false) font = alt;
      }
      if (font.covers?.(ch) === false) this.missingChars.add(ch);
      if (cur && cur.font === font) cur.text += ch;
      else {
        cur = { text: pendingNeutral + ch, font };
        pendingNeutral = '';
        out.push(cur);
      }
    }
    if (pendingNeutral) {
      if (cur) cur.text += pendingNeutral;
      else out.push({ text: pendingNeutral, font: latin });
    }
    return out;
  }

  resolve(style: TextStyle | undefined, text: string): ResolvedFont {
    const runs = this.runs(style, text);
    // The font of most of the text (CJK wins a tie: it has Latin glyphs too).
    let best: ResolvedFont | undefined;
    let bestLen = -1;
    for (const r of runs) {
      const len = r.text.length + (hasCjk(r.text) ? 0.5 : 0);
      if (len > bestLen) {
        bestLen = len;
        best = r.font;
      }
    }
    return best ?? this.latinFont(withFace(this.requests.get(style, undefined), text));
  }
}

/** A provider over a host's fonts (node-fonts.ts gives the Node one). */
export function createFontProvider(options: FontProviderOptions = {}): FontProvider {
  return new CoreFontProvider(options);
}

/** A provider that needs no files: substitutes by family name, widths from the generated table. */
export function defaultFontProvider(): FontProvider {
  return new CoreFontProvider({});
}

/** Runs of `text` with any provider (one run when the provider cannot split). */
export function fontRuns(provider: FontProvider, style: TextStyle | undefined, text: string, override?: FontOverride): FontRun[] {
  if (provider.runs) return provider.runs(style, text, override);
  return [{ text, font: provider.resolve(style, text) }];
}
