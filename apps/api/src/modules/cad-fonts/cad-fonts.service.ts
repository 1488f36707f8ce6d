import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { shippedFontFile } from '@xcad/cad/fonts';
import { decodeCodePoints, SERVED_CJK_FACES, type ServedCjkFace, SHIPPED_FONT_VERSION, subsetTrueType, toWoff } from '@xcad/cad/text';

// Decision 0025: the viewer draws CJK text from the fonts the CAD engine ships, so the
// screen and every export agree. It asks for the characters a drawing has; this answers a WOFF
// subset of the shipped face with just those glyphs (a few hundred KB at most for a drawing with
// a few hundred distinct characters, where the whole face is 10-15 MB).

export type CadFontRefusal = 'notFound' | 'malformed';

export class CadFontError extends Error {
  override readonly name = 'CadFontError';
  constructor(
    readonly refusal: CadFontRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Recent subsets kept in memory: a drawing's viewers ask for the same ones. */
const CACHE_BYTES = 32 << 20;

export interface CadFontsService {
  /** The WOFF subset of `face` (from `sans.woff`) holding the code points `c` encodes, for font version `v`. */
  subset(file: string, version: unknown, codes: unknown): Uint8Array;
}

export function createCadFontsService(): CadFontsService {
  const fonts = new Map<ServedCjkFace, Uint8Array>();
  const cache = new Map<string, Uint8Array>();
  let cached = 0;

  /** The face's file, read once per process (10-15 MB). */
  const fontOf = (face: ServedCjkFace): Uint8Array => {
    let bytes = fonts.get(face);
    if (!bytes) {
      const file = shippedFontFile(face === 'sans' ? 'cjkSans' : 'cjkSerif');
      if (!file) throw new Error(`the shipped font ${SERVED_CJK_FACES[face].pkg} is not installed (npm ci)`);
      bytes = new Uint8Array(readFileSync(file));
      fonts.set(face, bytes);
    }
    return bytes;
  };

  return {
    subset(file, version, codes) {
      const face = /^(sans|serif)\.woff$/.exec(file)?.[1] as ServedCjkFace | undefined;
      if (!face) throw new CadFontError('notFound', `no font ${JSON.stringify(file.slice(0, 40))}`);
      // A page of another release asks for a font this server no longer has.
      if (version !== SHIPPED_FONT_VERSION)
        throw new CadFontError('notFound', `font version ${JSON.stringify(String(version).slice(0, 40))} is not ${SHIPPED_FONT_VERSION}`);
      const codePoints = typeof codes === 'string' ? decodeCodePoints(codes) : null;
      if (!codePoints) throw new CadFontError('malformed', 'c must list up to 800 increasing code points');
      const key = `${face}|${codes as string}`;
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      const woff = toWoff(subsetTrueType(fontOf(face), codePoints), (data) => deflateSync(data));
      cache.set(key, woff);
      cached += woff.length;
      for (const [k, v] of cache) {
        if (cached <= CACHE_BYTES) break;
        cache.delete(k);
        cached -= v.length;
      }
      return woff;
    },
  };
}
