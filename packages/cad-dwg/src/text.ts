/** DWG code pages and the `\U+XXXX` / `\M+nXXXX` escapes AutoCAD writes into 8-bit strings. */

/** LibreDWG's code page numbers (dwg.h `DWG_CODEPAGE`), in order, as $DWGCODEPAGE names. */
const CODEPAGE_NAMES = [
  'UTF8',
  'US_ASCII',
  'ISO_8859_1',
  'ISO_8859_2',
  'ISO_8859_3',
  'ISO_8859_4',
  'ISO_8859_5',
  'ISO_8859_6',
  'ISO_8859_7',
  'ISO_8859_8',
  'ISO_8859_9',
  'DOS437',
  'DOS850',
  'DOS852',
  'DOS855',
  'DOS857',
  'DOS860',
  'DOS861',
  'DOS863',
  'DOS864',
  'DOS865',
  'DOS869',
  'DOS932',
  'MACINTOSH',
  'BIG5',
  'KSC5601',
  'JOHAB',
  'DOS866',
  'ANSI_1250',
  'ANSI_1251',
  'ANSI_1252',
  'GB2312',
  'ANSI_1253',
  'ANSI_1254',
  'ANSI_1255',
  'ANSI_1256',
  'ANSI_1257',
  'ANSI_874',
  'ANSI_932',
  'ANSI_936',
  'ANSI_949',
  'ANSI_950',
  'ANSI_1361',
  'UTF16',
  'ANSI_1258',
];

/** WHATWG labels for the same numbers (the closest decoder where the web has none). */
const CODEPAGE_ENCODINGS = [
  'utf-8',
  'windows-1252',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-3',
  'iso-8859-4',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'windows-1254',
  'windows-1252',
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'windows-1254',
  'windows-1252',
  'windows-1252',
  'windows-1252',
  'windows-1256',
  'windows-1252',
  'windows-1253',
  'shift_jis',
  'macintosh',
  'big5',
  'euc-kr',
  'euc-kr',
  'ibm866',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'gbk',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-874',
  'shift_jis',
  'gbk',
  'euc-kr',
  'big5',
  'euc-kr',
  'utf-16le',
  'windows-1258',
];

/** '$DWGCODEPAGE' name for LibreDWG's code page number ('ANSI_936'), or undefined. */
export function codePageName(n: number): string | undefined {
  return CODEPAGE_NAMES[n];
}

/** TextDecoder label for LibreDWG's code page number; windows-1252 when unknown (R11 files say 255). */
export function codePageEncoding(n: number): string {
  return CODEPAGE_ENCODINGS[n] ?? 'windows-1252';
}

// The decoder cache, the escapes and the release names are the engine's own (browser-safe, no
// dependencies); this program uses them as they are (decision 0016).
export { decodeEscapes, getDecoder as decoderFor, releaseName, type Decoder } from '@xcad/cad/dxf';
