/**
 * Font files for the Node back ends: which file and face a text primitive is set in, the faces of a
 * font collection (.ttc) by name, and one face cut out of a collection as a standalone font (the
 * canvas only loads the first face of a collection).
 *
 * The CJK fallback is Noto Sans CJK (Debian `fonts-noto-cjk`), found at the usual paths or at
 * `$XCAD_CJK_FONT`; its Simplified Chinese face is used.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { FontRef } from '../display/types';

const CJK_CANDIDATES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf',
  '/usr/share/fonts/noto-cjk/NotoSansCJKsc-Regular.otf',
  '/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc',
  '/System/Library/Fonts/PingFang.ttc',
];
/** The face of the CJK collection used for Chinese. */
export const CJK_FACE = 'NotoSansCJKsc-Regular';
export const CJK_FAMILY = 'Noto Sans CJK SC';

let cjkPath: string | null | undefined;

/** The Noto Sans CJK file, or null when none is installed. */
export function cjkFontFile(): string | null {
  if (cjkPath !== undefined) return cjkPath;
  const env = process.env['XCAD_CJK_FONT'];
  cjkPath = null;
  for (const f of [env, ...CJK_CANDIDATES]) {
    if (f && existsSync(f)) {
      cjkPath = f;
      break;
    }
  }
  return cjkPath;
}

const usable = new Map<string, boolean>();

/** A TrueType/OpenType file (or collection) the back ends can load (SHX fonts are drawn as paths by the builder). */
export function isOutlineFontFile(file: string | undefined): file is string {
  if (!file || !/\.(ttf|otf|ttc|otc)$/i.test(file)) return false;
  let ok = usable.get(file);
  if (ok === undefined) {
    try {
      ok = statSync(file).isFile();
    } catch {
      ok = false;
    }
    usable.set(file, ok);
  }
  return ok;
}

// ---- sfnt names ----------------------------------------------------------------------------------

export interface FaceInfo {
  index: number;
  /** Offset of the face's table directory in the file. */
  offset: number;
  family: string;
  subfamily: string;
  postscriptName: string;
}

function u16(b: Uint8Array, o: number): number {
  return ((b[o] ?? 0) << 8) | (b[o + 1] ?? 0);
}
function u32(b: Uint8Array, o: number): number {
  return (((b[o] ?? 0) << 24) | ((b[o + 1] ?? 0) << 16) | ((b[o + 2] ?? 0) << 8) | (b[o + 3] ?? 0)) >>> 0;
}
function tag(b: Uint8Array, o: number): string {
  return String.fromCharCode(b[o] ?? 0, b[o + 1] ?? 0, b[o + 2] ?? 0, b[o + 3] ?? 0);
}

function faceOffsets(b: Uint8Array): number[] {
  if (b.length < 12) return [];
  if (tag(b, 0) === 'ttcf') {
    const n = Math.min(u32(b, 8), 1024);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(u32(b, 12 + 4 * i));
    return out;
  }
  return [0];
}

interface TableRecord {
  tag: string;
  checksum: number;
  offset: number;
  length: number;
}

function tables(b: Uint8Array, offset: number): TableRecord[] {
  const n = u16(b, offset + 4);
  const out: TableRecord[] = [];
  for (let i = 0; i < n; i++) {
    const r = offset + 12 + 16 * i;
    if (r + 16 > b.length) break;
    out.push({ tag: tag(b, r), checksum: u32(b, r + 4), offset: u32(b, r + 8), length: u32(b, r + 12) });
  }
  return out;
}

function readNames(b: Uint8Array, nameTable: TableRecord): Map<number, string> {
  const names = new Map<number, string>();
  const o = nameTable.offset;
  if (o + 6 > b.length) return names;
  const count = u16(b, o + 2);
  const strings = o + u16(b, o + 4);
  const utf16 = new TextDecoder('utf-16be');
  for (let i = 0; i < count; i++) {
    const r = o + 6 + 12 * i;
    if (r + 12 > b.length) break;
    const platform = u16(b, r), encoding = u16(b, r + 2), language = u16(b, r + 4), id = u16(b, r + 6), len = u16(b, r + 8), off = u16(b, r + 10);
    const bytes = b.subarray(strings + off, strings + off + len);
    let s: string | null = null;
    if (platform === 3 && (encoding === 1 || encoding === 10 || encoding === 0)) {
      // Windows Unicode; prefer US English.
      if (names.has(id) && language !== 0x409) continue;
      s = utf16.decode(bytes);
    } else if (platform === 1 && encoding === 0 && !names.has(id)) {
      s = String.fromCharCode(...bytes);
    } else if (platform === 0 && !names.has(id)) {
      s = utf16.decode(bytes);
    }
    if (s !== null) names.set(id, s);
  }
  return names;
}

/** The faces of a font file (one for .ttf/.otf, several for a collection) with their names. */
export function fontFaces(bytes: Uint8Array): FaceInfo[] {
  return faceOffsets(bytes).map((offset, index) => {
    const name = tables(bytes, offset).find((t) => t.tag === 'name');
    const names = name ? readNames(bytes, name) : new Map<number, string>();
    return {
      index,
      offset,
      family: names.get(16) ?? names.get(1) ?? '',
      subfamily: names.get(17) ?? names.get(2) ?? '',
      postscriptName: names.get(6) ?? '',
    };
  });
}

/** The face `want` names (postscript name, family or full name; case and spaces ignored), else the first. */
export function pickFace(faces: FaceInfo[], want: string | undefined): FaceInfo | undefined {
  if (!want) return faces[0];
  const norm = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');
  const w = norm(want);
  return (
    faces.find((f) => norm(f.postscriptName) === w) ??
    faces.find((f) => norm(f.family) === w && /^(regular|book|normal|)$/i.test(f.subfamily)) ??
    faces.find((f) => norm(f.family) === w) ??
    faces.find((f) => norm(`${f.family}${f.subfamily}`) === w) ??
    faces[0]
  );
}

/** One face of a collection as a standalone sfnt (tables copied, offsets rewritten). */
export function extractFace(bytes: Uint8Array, face: FaceInfo): Uint8Array {
  if (face.offset === 0 && tag(bytes, 0) !== 'ttcf') return bytes;
  const recs = tables(bytes, face.offset).filter((t) => t.offset + t.length <= bytes.length);
  const headerSize = 12 + 16 * recs.length;
  let size = headerSize;
  for (const t of recs) size += (t.length + 3) & ~3;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(bytes.subarray(face.offset, face.offset + 4), 0);
  const n = recs.length;
  let pow = 1, log = 0;
  while (pow * 2 <= n) {
    pow *= 2;
    log++;
  }
  view.setUint16(4, n);
  view.setUint16(6, pow * 16);
  view.setUint16(8, log);
  view.setUint16(10, n * 16 - pow * 16);
  let at = headerSize;
  recs.forEach((t, i) => {
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) view.setUint8(r + k, t.tag.charCodeAt(k));
    view.setUint32(r + 4, t.checksum);
    view.setUint32(r + 8, at);
    view.setUint32(r + 12, t.length);
    out.set(bytes.subarray(t.offset, t.offset + t.length), at);
    at += (t.length + 3) & ~3;
  });
  return out;
}

// ---- file cache ---------------------------------------------------------------------------------

const fileCache = new Map<string, Buffer>();
const facesCache = new Map<string, FaceInfo[]>();

/** The bytes of a font file, read once per process. */
export function fontBytes(file: string): Buffer {
  let b = fileCache.get(file);
  if (!b) {
    b = readFileSync(file);
    fileCache.set(file, b);
  }
  return b;
}

export function facesOf(file: string): FaceInfo[] {
  let f = facesCache.get(file);
  if (!f) {
    f = fontFaces(fontBytes(file));
    facesCache.set(file, f);
  }
  return f;
}

/** A loadable font: a file and, for collections, the face (postscript name). */
export interface FontFile {
  file: string;
  /** Postscript name of the face in a collection; undefined for single-face files. */
  face?: string;
  /** The face's family name. */
  family: string;
}

const HAN_OR_WIDE = /[\u1100-\u11ff\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/;

/** Text that needs a CJK font. */
export function needsCjk(text: string): boolean {
  return HAN_OR_WIDE.test(text);
}

/** The CJK fallback font, or null when none is installed. */
export function cjkFont(): FontFile | null {
  const file = cjkFontFile();
  if (!file) return null;
  return resolveFile(file, CJK_FACE) ?? null;
}

function resolveFile(file: string, want: string | undefined): FontFile | undefined {
  try {
    const faces = facesOf(file);
    const face = pickFace(faces, want);
    if (!face) return undefined;
    return { file, family: face.family, ...(faces.length > 1 ? { face: face.postscriptName } : {}) };
  } catch {
    return undefined;
  }
}

/** The font file a FontRef points at (TrueType/OpenType only), with its face resolved. */
export function refFont(ref: FontRef | undefined): FontFile | undefined {
  if (!ref || !isOutlineFontFile(ref.file)) return undefined;
  const isCjkCollection = ref.file === cjkFontFile();
  return resolveFile(ref.file, ref.face ?? (isCjkCollection ? CJK_FACE : undefined));
}
