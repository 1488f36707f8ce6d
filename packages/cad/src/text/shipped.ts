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
