/** DXF code pages → WHATWG encoding labels, and `\U+XXXX` / `\M+nXXXX` escape decoding. */

export type Decoder = InstanceType<typeof TextDecoder>;

const decoders = new Map<string, Decoder>();

export function getDecoder(encoding: string, fatal = false): Decoder {
  const key = `${encoding}|${fatal ? 1 : 0}`;
  let d = decoders.get(key);
  if (!d) {
    try {
      d = new TextDecoder(encoding, { fatal });
    } catch {
      d = new TextDecoder('windows-1252', { fatal });
    }
    decoders.set(key, d);
  }
  return d;
}

/** Maps a $DWGCODEPAGE value ('ANSI_936', 'dos932', ...) to a TextDecoder encoding label. */
export function encodingForCodePage(codePage: string): string {
  const cp = codePage.trim().toUpperCase();
  const m = /(\d+)$/.exec(cp);
  const n = m ? Number(m[1]) : NaN;
  switch (n) {
    case 936:
      return 'gbk';
    case 932:
      return 'shift_jis';
    case 950:
      return 'big5';
    case 949:
      return 'euc-kr';
    case 1361:
      return 'euc-kr'; // johab has no WHATWG decoder; euc-kr is the closest
    case 874:
      return 'windows-874';
    case 1250:
    case 1251:
    case 1252:
    case 1253:
    case 1254:
    case 1255:
    case 1256:
    case 1257:
    case 1258:
      return `windows-${n}`;
    case 437:
    case 850:
      return 'windows-1252';
    case 866:
      return 'ibm866';
    default:
      return 'windows-1252';
  }
}

/** `\M+n`: n = 1 shift_jis, 2 big5, 3 euc-kr (wansung), 4 johab, 5 gbk. */
const mifEncodings: Record<string, string> = { '1': 'shift_jis', '2': 'big5', '3': 'euc-kr', '4': 'euc-kr', '5': 'gbk' };

const escapeRe = /\\U\+([0-9A-Fa-f]{4})|\\M\+([1-5])([0-9A-Fa-f]{4})/g;

/** Replaces `\U+XXXX` and `\M+nXXXX` escapes; other backslash codes (MTEXT formatting) are kept. */
export function decodeEscapes(s: string): string {
  if (s.indexOf('\\') < 0) return s;
  return s.replace(escapeRe, (all, u: string | undefined, n: string | undefined, mb: string | undefined) => {
    if (u !== undefined) return String.fromCodePoint(parseInt(u, 16));
    if (n !== undefined && mb !== undefined) {
      const code = parseInt(mb, 16);
      const bytes = code > 0xff ? new Uint8Array([code >> 8, code & 0xff]) : new Uint8Array([code]);
      try {
        return getDecoder(mifEncodings[n] ?? 'gbk', true).decode(bytes);
      } catch {
        return all;
      }
    }
    return all;
  });
}

const releases: Record<string, string> = {
  AC1006: 'R10',
  AC1009: 'R12',
  AC1012: 'R13',
  AC1014: 'R14',
  AC1015: 'R2000',
  AC1018: 'R2004',
  AC1021: 'R2007',
  AC1024: 'R2010',
  AC1027: 'R2013',
  AC1032: 'R2018',
};

/** Release name for a version string ('R2000'; 'R11-' before R12, DWG's 'AC1.40'/'AC2.10' included). */
export function releaseName(acadVersion: string): string {
  if (!acadVersion) return 'R12';
  return releases[acadVersion] ?? (acadVersion < 'AC1009' || acadVersion.startsWith('AC2.') ? 'R11-' : acadVersion);
}
