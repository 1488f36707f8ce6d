/**
 * The fonts the engine ships as npm dependencies (decision 0025), browser-safe: which package
 * and file each is, and the family it answers to. Chinese is drawn from them on a machine with no
 * CJK font installed, and the viewer draws CJK text from the same files (served in subsets by
 * the API), so the screen and every export agree.
 *
 * Only these files of the packages are used (npm installs every weight; the desktop app copies
 * only these, apps/desktop/src/bundle/stage-site.ts).
 */

export interface ShippedFont {
  /** The family name in the font's name table. */
  family: string;
  /** The npm package that carries it. */
  pkg: string;
  /** The file inside the package. */
  file: string;
}

export const SHIPPED_FONTS = {
  /** Chinese sans (黑体-like): big fonts, 黑体/雅黑 and every CJK text without a serif request. */
  cjkSans: { family: 'Noto Sans SC', pkg: '@expo-google-fonts/noto-sans-sc', file: '400Regular/NotoSansSC_400Regular.ttf' },
  /** Chinese serif (宋体-like): 宋体, 仿宋, 楷体 and other Song/Ming requests. */
  cjkSerif: { family: 'Noto Serif SC', pkg: '@expo-google-fonts/noto-serif-sc', file: '400Regular/NotoSerifSC_400Regular.ttf' },
  /** Latin substitutes when the OS has none (DejaVu is also the substitute of SHX fonts and unknown fonts). */
  sans: { family: 'DejaVu Sans', pkg: 'dejavu-fonts-ttf', file: 'ttf/DejaVuSans.ttf' },
  sansBold: { family: 'DejaVu Sans', pkg: 'dejavu-fonts-ttf', file: 'ttf/DejaVuSans-Bold.ttf' },
  mono: { family: 'DejaVu Sans Mono', pkg: 'dejavu-fonts-ttf', file: 'ttf/DejaVuSansMono.ttf' },
} as const satisfies Record<string, ShippedFont>;

export type ShippedFontKey = keyof typeof SHIPPED_FONTS;

/** The licence and notice files kept with each package's fonts (OFL-1.1 asks for the notice to travel with the font). */
export const SHIPPED_FONT_NOTICES: Readonly<Record<string, readonly string[]>> = {
  '@expo-google-fonts/noto-sans-sc': ['package.json', 'LICENSE', 'LICENSE_FONT'],
  '@expo-google-fonts/noto-serif-sc': ['package.json', 'LICENSE', 'LICENSE_FONT'],
  'dejavu-fonts-ttf': ['package.json', 'LICENSE', 'README.md'],
};

/** The CJK faces the viewer fetches in subsets: its URL names the face by these keys. */
export const SERVED_CJK_FACES = { sans: SHIPPED_FONTS.cjkSans, serif: SHIPPED_FONTS.cjkSerif } as const;
export type ServedCjkFace = keyof typeof SERVED_CJK_FACES;

/**
 * Changes whenever a served font file changes (a new package version): the viewer's font URLs
 * carry it, so browsers never keep a subset of an older font under an immutable URL.
 */
export const SHIPPED_FONT_VERSION = 'noto-sc-0.4.3';

// ---- the viewer's font subsets (apps/api cad-fonts routes) ----------------------------------------

/** Where the API serves subsets of the served faces: `${CAD_FONTS_PATH}/{sans|serif}.woff?v=&c=`. */
export const CAD_FONTS_PATH = '/api/site/cad-fonts';
/** Characters one subset may hold (a URL stays under ~6 KB); a drawing with more asks for several. */
export const MAX_SUBSET_CODE_POINTS = 800;

/** Sorted, distinct code points as base-36 gaps from the previous one (the first from 0), joined by '.'. */
export function encodeCodePoints(codePoints: readonly number[]): string {
  let prev = 0;
  return codePoints
    .map((cp) => {
      const s = (cp - prev).toString(36);
      prev = cp;
      return s;
    })
    .join('.');
}

/** The code points of `encodeCodePoints`; null unless strictly increasing, within Unicode and at most MAX_SUBSET_CODE_POINTS. */
export function decodeCodePoints(text: string): number[] | null {
  if (!/^[0-9a-z]{1,6}(\.[0-9a-z]{1,6})*$/.test(text)) return null;
  const parts = text.split('.');
  if (parts.length > MAX_SUBSET_CODE_POINTS) return null;
  const out: number[] = [];
  let prev = 0;
  for (const [i, p] of parts.entries()) {
    const gap = Number.parseInt(p, 36);
    if (i > 0 && gap < 1) return null;
    prev += gap;
    if (prev > 0x10ffff) return null;
    out.push(prev);
  }
  return out;
}

/** The URL of a subset of a served face with these code points (sorted, distinct, at most MAX_SUBSET_CODE_POINTS). */
export function cadFontUrl(face: ServedCjkFace, codePoints: readonly number[]): string {
  return `${CAD_FONTS_PATH}/${face}.woff?v=${SHIPPED_FONT_VERSION}&c=${encodeCodePoints(codePoints)}`;
}
