// Numbers the DWG format itself fixes, shared by the DWG writer (dwg-writer/) and the DWG reader
// (packages/cad-dwg, which imports this file: decision 0016). Data only, browser-safe.

/** Object type numbers fixed by the format (500 and up are the file's own classes). */
export const DWG_OBJECT_TYPES = {
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
  SHAPE: 33,
  VIEWPORT: 34,
  ELLIPSE: 35,
  SPLINE: 36,
  REGION: 37,
  SOLID3D: 38,
  BODY: 39,
  RAY: 40,
  XLINE: 41,
  DICTIONARY: 42,
  OLEFRAME: 43,
  MTEXT: 44,
  LEADER: 45,
  TOLERANCE: 46,
  MLINE: 47,
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
  OLE2FRAME: 74,
  LWPOLYLINE: 77,
  HATCH: 78,
  XRECORD: 79,
  PLACEHOLDER: 80,
  LAYOUT: 82,
  PROXY_ENTITY: 498,
} as const;

/** Lineweights in 1/100 mm by their DWG index (0..23); 29 is ByLayer, 30 ByBlock, 31 the default. */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

/** DWG lineweight index (0..31) → the DXF lineweight: 1/100 mm, -1 ByLayer, -2 ByBlock, -3 default. */
export function lineweightOfIndex(index: number): number {
  if (index >= 0 && index < LINEWEIGHTS.length) return LINEWEIGHTS[index] as number;
  if (index === 29) return -1;
  if (index === 30) return -2;
  return -3;
}

/** The DWG lineweight index of a DXF lineweight (the nearest standard weight not above it). */
export function lineweightIndex(lw: number): number {
  if (lw === -1) return 29;
  if (lw === -2) return 30;
  if (lw < 0 || !Number.isFinite(lw)) return 31;
  let best = 0;
  for (let i = 0; i < LINEWEIGHTS.length; i++) if ((LINEWEIGHTS[i] as number) <= lw) best = i;
  return best;
}
