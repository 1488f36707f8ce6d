/**
 * Font lookup for the display-list builder. (Placeholder contract: the text work replaces the
 * default provider with real metrics, SHX fonts and system font discovery.)
 */
import type { TextStyle } from '../model';
import type { FontRef } from '../display/types';

export interface ResolvedFont {
  ref: FontRef;
  /** Advance width of `text` in em units (font size 1). */
  measure(text: string): number;
  /** Cap height as a fraction of the em: CAD text height is the capital height, font size = height / capHeight. */
  capHeight: number;
}

export interface FontProvider {
  /** The font to set `text` in for a text style (undefined style = STANDARD). */
  resolve(style: TextStyle | undefined, text: string): ResolvedFont;
  /** Fonts asked for and not found, each once. */
  missing(): string[];
}

const HAN = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

/** A provider that needs no files: Noto families by name, widths estimated. */
export function defaultFontProvider(): FontProvider {
  const cjk: FontRef = { requested: '', family: 'Noto Sans CJK SC', substituted: true };
  const latin: FontRef = { requested: '', family: 'Noto Sans', substituted: true };
  const measure = (text: string): number => {
    let w = 0;
    for (const ch of text) w += HAN.test(ch) ? 1 : ch === ' ' ? 0.26 : /[il.,:;'|!]/.test(ch) ? 0.25 : /[MW@mw]/.test(ch) ? 0.85 : 0.56;
    return w;
  };
  return {
    resolve(style, text) {
      const ref = HAN.test(text) ? cjk : latin;
      return { ref: { ...ref, requested: style?.font ?? '' }, measure, capHeight: 0.72 };
    },
    missing: () => [],
  };
}
