/** Fixed numbers of the DWG format (R13 and later): sentinels, object types, lineweights, versions. */

export type DwgVersion = '2000' | '2004' | '2007' | '2010' | '2013' | '2018';

/** Every release this module knows the name of, in order. */
export const DWG_VERSION_NAMES: readonly DwgVersion[] = ['2000', '2004', '2007', '2010', '2013', '2018'];

/** The releases `writeDwg` writes (the others are refused with a message listing these). */
export const DWG_WRITE_VERSIONS: readonly DwgVersion[] = ['2000', '2004', '2007', '2010', '2013', '2018'];

export const DWG_ACADVER: Record<DwgVersion, string> = {
  '2000': 'AC1015',
  '2004': 'AC1018',
  '2007': 'AC1021',
  '2010': 'AC1024',
  '2013': 'AC1027',
  '2018': 'AC1032',
};

/** The internal release number AutoCAD stores next to the signature (file header, aux header). */
export const DWG_RELEASE_NUMBER: Record<DwgVersion, number> = { '2000': 0x17, '2004': 0x19, '2007': 0x1b, '2010': 0x1d, '2013': 0x1f, '2018': 0x21 };

const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);

/** 16-byte markers around the R13-R2000 sections. */
export const SENTINEL = {
  headerStart: bytes(0xcf, 0x7b, 0x1f, 0x23, 0xfd, 0xde, 0x38, 0xa9, 0x5f, 0x7c, 0x68, 0xb8, 0x4e, 0x6d, 0x33, 0x5f),
  headerEnd: bytes(0x30, 0x84, 0xe0, 0xdc, 0x02, 0x21, 0xc7, 0x56, 0xa0, 0x83, 0x97, 0x47, 0xb1, 0x92, 0xcc, 0xa0),
  classesStart: bytes(0x8d, 0xa1, 0xc4, 0xb8, 0xc4, 0xa9, 0xf8, 0xc5, 0xc0, 0xdc, 0xf4, 0x5f, 0xe7, 0xcf, 0xb6, 0x8a),
  classesEnd: bytes(0x72, 0x5e, 0x3b, 0x47, 0x3b, 0x56, 0x07, 0x3a, 0x3f, 0x23, 0x0b, 0xa0, 0x18, 0x30, 0x49, 0x75),
  previewStart: bytes(0x1f, 0x25, 0x6d, 0x07, 0xd4, 0x36, 0x28, 0x28, 0x9d, 0x57, 0xca, 0x3f, 0x9d, 0x44, 0x10, 0x2b),
  previewEnd: bytes(0xe0, 0xda, 0x92, 0xf8, 0x2b, 0xc9, 0xd7, 0xd7, 0x62, 0xa8, 0x35, 0xc0, 0x62, 0xbb, 0xef, 0xd4),
  secondHeaderStart: bytes(0xd4, 0x7b, 0x21, 0xce, 0x28, 0x93, 0x9f, 0xbf, 0x53, 0x24, 0x40, 0x09, 0x12, 0x3c, 0xaa, 0x01),
  secondHeaderEnd: bytes(0x2b, 0x84, 0xde, 0x31, 0xd7, 0x6c, 0x60, 0x40, 0xac, 0xdb, 0xbf, 0xf6, 0xed, 0xc3, 0x55, 0xfe),
  fileHeaderEnd: bytes(0x95, 0xa0, 0x4e, 0x28, 0x99, 0x82, 0x1a, 0xe5, 0x5e, 0x41, 0xe0, 0x5f, 0x9d, 0x3a, 0x4d, 0x00),
};

/** Object type numbers fixed by the format (types 500 and up are the file's classes). */
export const OT = {
  TEXT: 1,
  ATTRIB: 2,
  ATTDEF: 3,
  BLOCK: 4,
  ENDBLK: 5,
  SEQEND: 6,
  INSERT: 7,
  MINSERT: 8,
  VERTEX_2D: 10,
  VERTEX_3D: 11,
  VERTEX_MESH: 12,
  VERTEX_PFACE: 13,
  VERTEX_PFACE_FACE: 14,
  POLYLINE_2D: 15,
  POLYLINE_3D: 16,
  ARC: 17,
  CIRCLE: 18,
  LINE: 19,
  DIMENSION_ORDINATE: 20,
  DIMENSION_LINEAR: 21,
  DIMENSION_ALIGNED: 22,
  DIMENSION_ANG3PT: 23,
  DIMENSION_ANG2LN: 24,
  DIMENSION_RADIUS: 25,
  DIMENSION_DIAMETER: 26,
  POINT: 27,
  FACE3D: 28,
  POLYLINE_PFACE: 29,
  POLYLINE_MESH: 30,
  SOLID: 31,
  TRACE: 32,
  VIEWPORT: 34,
  ELLIPSE: 35,
  SPLINE: 36,
  RAY: 40,
  XLINE: 41,
  DICTIONARY: 42,
  MTEXT: 44,
  LEADER: 45,
  BLOCK_CONTROL: 48,
  BLOCK_HEADER: 49,
  LAYER_CONTROL: 50,
  LAYER: 51,
  STYLE_CONTROL: 52,
  STYLE: 53,
  LTYPE_CONTROL: 56,
  LTYPE: 57,
  VIEW_CONTROL: 60,
  UCS_CONTROL: 62,
  VPORT_CONTROL: 64,
  VPORT: 65,
  APPID_CONTROL: 66,
  APPID: 67,
  DIMSTYLE_CONTROL: 68,
  DIMSTYLE: 69,
  VX_CONTROL: 70,
  GROUP: 72,
  MLINESTYLE: 73,
  LWPOLYLINE: 77,
  HATCH: 78,
  XRECORD: 79,
  PLACEHOLDER: 80,
  LAYOUT: 82,
} as const;

/** Lineweights in 1/100 mm by their DWG index (0..23); 29 ByLayer, 30 ByBlock, 31 default. */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

/** The DWG lineweight index of a DXF lineweight (the nearest standard weight not above it). */
export function lineweightIndex(lw: number): number {
  if (lw === -1) return 29;
  if (lw === -2) return 30;
  if (lw < 0 || !Number.isFinite(lw)) return 31;
  let best = 0;
  for (let i = 0; i < LINEWEIGHTS.length; i++) if ((LINEWEIGHTS[i] as number) <= lw) best = i;
  return best;
}

/** LibreDWG's / AutoCAD's code page number for ANSI_936 (simplified Chinese, GBK). */
export const CODEPAGE_ANSI_936 = 39;
