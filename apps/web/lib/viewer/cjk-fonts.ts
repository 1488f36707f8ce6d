import { cadFontUrl, isCjk, MAX_SUBSET_CODE_POINTS, SERVED_CJK_FACES, type ServedCjkFace } from '@xcad/cad/text';
import type { ListTexts } from './types';

// Decision 0025: CJK text is drawn from the fonts the CAD engine ships (Noto Sans SC,
// Noto Serif SC), so the screen agrees with the PDF and PNG exports on every machine and browser.
// Only when a drawing has CJK text, the site's API is asked for a subset with just its characters
// (cad-fonts routes): a drawing with a few hundred distinct characters fetches ~50-100 KB, not
// the 10-15 MB faces. Each subset is a FontFace of the family below, limited by `unicode-range`
// to its characters; characters already loaded are never asked for again in this page.

/** The CSS families the served faces are registered under (names no installed font has). */
export const SERVED_FAMILIES: Readonly<Record<ServedCjkFace, string>> = {
  sans: `Xcad ${SERVED_CJK_FACES.sans.family}`,
  serif: `Xcad ${SERVED_CJK_FACES.serif.family}`,
};

/** The served face a font of the engine stands for: Song/Ming/serif CJK faces take the serif one. */
export function servedFaceOf(family: string): ServedCjkFace {
  return /serif (sc|cjk)|song|ming|simsun|mincho|batang/i.test(family) ? 'serif' : 'sans';
}

/** The CJK characters of a drawing's texts, by the served face each is drawn in. */
export function cjkCodePoints(lists: readonly ListTexts[]): Record<ServedCjkFace, Set<number>> {
  const out: Record<ServedCjkFace, Set<number>> = { sans: new Set(), serif: new Set() };
  for (const list of lists) {
    const faces = list.fonts.map((f) => servedFaceOf(f.family));
    const t = list.texts;
    for (let k = 0; k < t.count; k++) {
      const set = out[faces[t.fonts[k] as number] ?? 'sans'];
      for (const ch of t.chars.slice(t.offsets[k] as number, t.offsets[k + 1] as number)) {
        const cp = ch.codePointAt(0) as number;
        if (isCjk(cp)) set.add(cp);
      }
    }
  }
  return out;
}

/** CSS unicode-range of sorted code points: runs of consecutive ones as U+A-B. */
export function unicodeRange(codePoints: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < codePoints.length;) {
    let j = i;
    while (j + 1 < codePoints.length && (codePoints[j + 1] as number) === (codePoints[j] as number) + 1) j++;
    const a = (codePoints[i] as number).toString(16).toUpperCase(),
      b = (codePoints[j] as number).toString(16).toUpperCase();
    parts.push(i === j ? `U+${a}` : `U+${a}-${b}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/** One subset to load: a face, its characters, its URL. */
export interface SubsetRequest {
  face: ServedCjkFace;
  codePoints: number[];
  url: string;
}

/** The subsets to fetch for characters not loaded yet, at most MAX_SUBSET_CODE_POINTS each. */
export function subsetRequests(wanted: Record<ServedCjkFace, Set<number>>, loaded: Record<ServedCjkFace, Set<number>>): SubsetRequest[] {
  const out: SubsetRequest[] = [];
  for (const face of ['sans', 'serif'] as const) {
    const missing = [...wanted[face]].filter((cp) => !loaded[face].has(cp)).sort((a, b) => a - b);
    for (let i = 0; i < missing.length; i += MAX_SUBSET_CODE_POINTS) {
      const codePoints = missing.slice(i, i + MAX_SUBSET_CODE_POINTS);
      out.push({ face, codePoints, url: cadFontUrl(face, codePoints) });
    }
  }
  return out;
}

/** Characters this page has loaded (or is loading) per face. */
const loaded: Record<ServedCjkFace, Set<number>> = { sans: new Set(), serif: new Set() };
/** Subsets being fetched: a second drawing waits for the ones it shares with the first. */
const pending = new Set<Promise<void>>();

/**
 * Loads the served faces for the CJK characters of a drawing and resolves once they can be drawn;
 * null when there is nothing to wait for (no CJK text, or every character already loaded). A
 * subset that fails to load is left to the CSS fallbacks (installed CJK fonts) and asked for again
 * by the next drawing that needs it.
 */
export function loadCjkFonts(lists: readonly ListTexts[]): Promise<void> | null {
  if (typeof FontFace === 'undefined' || typeof document === 'undefined') return null;
  const requests = subsetRequests(cjkCodePoints(lists), loaded);
  const waits = [...pending];
  for (const r of requests) {
    for (const cp of r.codePoints) loaded[r.face].add(cp);
    const face = new FontFace(SERVED_FAMILIES[r.face], `url(${r.url})`, { unicodeRange: unicodeRange(r.codePoints) });
    const done = face.load().then(
      (f) => {
        document.fonts.add(f);
      },
      () => {
        for (const cp of r.codePoints) loaded[r.face].delete(cp);
      },
    );
    const tracked = done.finally(() => pending.delete(tracked));
    pending.add(tracked);
    waits.push(tracked);
  }
  return waits.length ? Promise.all(waits).then(() => undefined) : null;
}
