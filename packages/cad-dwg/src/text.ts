/** DWG code pages and the `\U+XXXX` / `\M+nXXXX` escapes AutoCAD writes into 8-bit strings. */

/** LibreDWG's code page numbers (dwg.h `DWG_CODEPAGE`), in order, as $DWGCODEPAGE names. */
const CODEPAGE_NAMES = [
  'UTF8', 'US_ASCII', 'ISO_8859_1', 'ISO_8859_2', 'ISO_8859_3', 'ISO_8859_4', 'ISO_8859_5', 'ISO_8859_6',
  'ISO_8859_7', 'ISO_8859_8', 'ISO_8859_9', 'DOS437', 'DOS850', 'DOS852', 'DOS855', 'DOS857', 'DOS860',
  'DOS861', 'DOS863', 'DOS864', 'DOS865', 'DOS869', 'DOS932', 'MACINTOSH', 'BIG5', 'KSC5601', 'JOHAB',
  'DOS866', 'ANSI_1250', 'ANSI_1251', 'ANSI_1252', 'GB2312', 'ANSI_1253', 'ANSI_1254', 'ANSI_1255',
  'ANSI_1256', 'ANSI_1257', 'ANSI_874', 'ANSI_932', 'ANSI_936', 'ANSI_949', 'ANSI_950', 'ANSI_1361',
  'UTF16', 'ANSI_1258',
];

/** WHATWG labels for the same numbers (the closest decoder where the web has none). */
const CODEPAGE_ENCODINGS = [
  'utf-8', 'windows-1252', 'iso-8859-1', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6',
  'iso-8859-7', 'iso-8859-8', 'windows-1254', 'windows-1252', 'windows-1252', 'windows-1250', 'windows-1251',
  'windows-1254', 'windows-1252', 'windows-1252', 'windows-1252', 'windows-1256', 'windows-1252', 'windows-1253',
  'shift_jis', 'macintosh', 'big5', 'euc-kr', 'euc-kr', 'ibm866', 'windows-1250', 'windows-1251', 'windows-1252',
  'gbk', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257', 'windows-874',
  'shift_jis', 'gbk', 'euc-kr', 'big5', 'euc-kr', 'utf-16le', 'windows-1258',
];

/** '$DWGCODEPAGE' name for LibreDWG's code page number ('ANSI_936'), or undefined. */
export function codePageName(n: number): string | undefined {
  return CODEPAGE_NAMES[n];
}

/** TextDecoder label for LibreDWG's code page number; windows-1252 when unknown (R11 files say 255). */
export function codePageEncoding(n: number): string {
  return CODEPAGE_ENCODINGS[n] ?? 'windows-1252';
}

export type Decoder = InstanceType<typeof TextDecoder>;

const decoders = new Map<string, Decoder>();

export function decoderFor(encoding: string, fatal = false): Decoder {
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

/** `\M+n`: 1 shift_jis, 2 big5, 3 wansung, 4 johab, 5 gbk. */
const MIF: Record<string, string> = { '1': 'shift_jis', '2': 'big5', '3': 'euc-kr', '4': 'euc-kr', '5': 'gbk' };
const ESCAPE = /\\U\+([0-9A-Fa-f]{4})|\\M\+([1-5])([0-9A-Fa-f]{4})/g;

/** Replaces `\U+XXXX` and `\M+nXXXX`; other backslash codes (MTEXT formatting) stay. */
export function decodeEscapes(s: string): string {
  if (s.indexOf('\\') < 0) return s;
  return s.replace(ESCAPE, (all, u: string | undefined, n: string | undefined, mb: string | undefined) => {
    if (u !== undefined) return String.fromCodePoint(parseInt(u, 16));
    if (n === undefined || mb === undefined) return all;
    const code = parseInt(mb, 16);
    const bytes = code > 0xff ? new Uint8Array([code >> 8, code & 0xff]) : new Uint8Array([code]);
    try {
      return decoderFor(MIF[n] ?? 'gbk', true).decode(bytes);
    } catch {
      return all;
    }
  });
}

const RELEASES: Record<string, string> = {
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

/** Release name for a version string, as the DXF reader names them ('R2000'; 'R11-' before R12). */
export function releaseName(version: string): string {
  if (!version) return 'R12';
  return RELEASES[version] ?? (version < 'AC1009' || version.startsWith('AC1.') || version.startsWith('AC2.') ? 'R11-' : version);
}
