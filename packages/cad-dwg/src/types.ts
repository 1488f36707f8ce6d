/** LibreDWG's fixed object type numbers (dwg.h `DWG_OBJECT_TYPE`, the ones below 500 never move). */
export const T = {
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
  BLOCK_HEADER: 49,
  LAYER: 51,
  MLINESTYLE: 73,
  STYLE: 53,
  LTYPE: 57,
  VPORT: 65,
  APPID: 67,
  DIMSTYLE: 69,
  OLE2FRAME: 74,
  LWPOLYLINE: 77,
  HATCH: 78,
  LAYOUT: 82,
  PROXY_ENTITY: 498,
} as const;

/** Object supertype: 0 entity, 1 object. */
export const SUPERTYPE_ENTITY = 0;

/** LibreDWG error bits at or above this make the read unusable (DWG_ERR_CRITICAL). */
export const ERR_CRITICAL = 128;

/** DWG lineweight index (0..31) → 1/100 mm; 29 ByLayer (-1), 30 ByBlock (-2), 31 default (-3). */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

export function lineweight(index: number): number {
  if (index >= 0 && index < LINEWEIGHTS.length) return LINEWEIGHTS[index] as number;
  if (index === 29) return -1;
  if (index === 30) return -2;
  return -3;
}
