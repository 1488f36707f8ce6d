/**
 * The drawing model shared by every CAD source (DXF now, DWG later) and consumed by the display-list
 * builder. Plain data only: every value is JSON-serialisable (no classes, no Maps, no typed arrays).
 *
 * Conventions:
 * - Lengths are in drawing units (see `header.insUnits`), untransformed: entity coordinates are in
 *   the entity's own coordinate system (OCS) when DXF stores them so (2D entities with an
 *   `extrusion` other than [0, 0, 1]); the renderer applies the arbitrary-axis algorithm.
 * - Angles are in DEGREES, as DXF writes them (ARC start/end, TEXT rotation, INSERT rotation, ...).
 *   Exceptions, named so in their field docs: ELLIPSE start/end *parameters* and hatch gradient
 *   angle are RADIANS, as in DXF.
 * - Points are `Vec3` tuples (geom/vector).
 * - Colour: `aci` 0 = ByBlock, 256 = ByLayer, 1..255 indexed; `rgb` 0xRRGGBB true colour, which wins
 *   over `aci` when present.
 */
import type { HatchPatternLine } from './geom/hatch-patterns';
import type { Vec3 } from './geom/vector';

export type HeaderValue = string | number | boolean | Vec3;

export interface Color {
  /** AutoCAD Color Index: 0 = ByBlock, 256 = ByLayer, 1..255 palette. Layers store the absolute value. */
  aci?: number;
  /** True colour 0xRRGGBB (DXF group 420). */
  rgb?: number;
}

export interface Header {
  /** $ACADVER, e.g. 'AC1015'; '' when the file has no header. */
  acadVersion: string;
  /** Human release name, e.g. 'R2000'. */
  release: string;
  /** $DWGCODEPAGE as written, e.g. 'ANSI_936'. */
  codePage?: string;
  /** The text encoding actually used to decode strings ('utf-8', 'gbk', 'windows-1252', ...). */
  encoding: string;
  /** $INSUNITS (0 unitless, 1 inches, 4 millimetres, 6 metres, ...). */
  insUnits?: number;
  /** $MEASUREMENT: 0 imperial, 1 metric. */
  measurement?: number;
  extMin?: Vec3;
  extMax?: Vec3;
  limMin?: Vec3;
  limMax?: Vec3;
  ltscale?: number;
  psltscale?: number;
  pdmode?: number;
  pdsize?: number;
  textsize?: number;
  textStyle?: string;
  dimscale?: number;
  dimstyle?: string;
  /** Every header variable by name ('$ACADVER', '$EXTMIN', ...). */
  vars: Record<string, HeaderValue>;
}

export interface Layer {
  name: string;
  handle?: string;
  color: Color;
  linetype: string;
  /** Lineweight in 1/100 mm; -1 ByLayer, -2 ByBlock, -3 default. */
  lineweight: number;
  /** False when the layer colour is negative (layer off). */
  on: boolean;
  frozen: boolean;
  locked: boolean;
  plot: boolean;
}

export interface LinetypeElement {
  /** Dash (>0), gap (<0) or dot (0) length in drawing units. */
  length: number;
  /** 0 plain; bit 2 text, bit 4 shape (complex element). */
  kind: number;
  shapeNumber?: number;
  styleHandle?: string;
  text?: string;
  scale?: number;
  /** Rotation in degrees. */
  rotation?: number;
  offset?: [number, number];
}

export interface Linetype {
  name: string;
  handle?: string;
  description: string;
  totalLength: number;
  elements: LinetypeElement[];
}

export interface TextStyle {
  name: string;
  handle?: string;
  flags: number;
  /** Font file (e.g. 'txt.shx', 'simsun.ttc'). */
  font: string;
  bigFont: string;
  /** TrueType family name from the style's ACAD extended data, when present. */
  fontFamily?: string;
  /** The 1071 beside it: the font's bold (0x2000000) and italic (0x1000000) flags, character set and pitch. */
  fontFlags?: number;
  /** 0 = not fixed. */
  fixedHeight: number;
  widthFactor: number;
  /** Oblique angle in degrees. */
  oblique: number;
  /** Bit 2 backwards, bit 4 upside down. */
  generation: number;
}

export interface DimStyle {
  name: string;
  handle?: string;
  /** Raw DIMSTYLE groups by DXF group code (e.g. 40 = DIMSCALE, 140 = DIMTXT). */
  vars: Record<number, string | number | boolean>;
}

export interface BlockRecord {
  name: string;
  handle?: string;
  /** Handle of the LAYOUT object for layout blocks. */
  layoutHandle?: string;
  insUnits?: number;
}

export interface Block {
  name: string;
  handle?: string;
  /** Handle of the owning BLOCK_RECORD. */
  recordHandle?: string;
  basePoint: Vec3;
  /** 1 anonymous, 2 has attributes, 4 xref, 8 xref overlay, 16 external, 32 resolved, 64 referenced. */
  flags: number;
  anonymous: boolean;
  xref: boolean;
  xrefPath?: string;
  layer: string;
  entities: Entity[];
  /**
   * An external reference's drawing, read from a file supplied with this one (companions.ts): drawn
   * in place of the reference, its layers shown as `NAME|layer`. Writers leave it out: a saved
   * drawing keeps the reference, as AutoCAD's SAVEAS does.
   */
  attached?: { file: string; drawing: Drawing };
}

export interface PlotSettings {
  pageSetupName?: string;
  printer?: string;
  /** Paper size name (group 4), e.g. 'ISO_A3_(420.00_x_297.00_MM)'. */
  paperName?: string;
  /** Paper width/height in millimetres (44/45). */
  paperWidth?: number;
  paperHeight?: number;
  /** Unprintable margins in mm: left, bottom, right, top (40..43). */
  margins?: [number, number, number, number];
  plotOrigin?: [number, number];
  /** 0 = none, 1 = 90° ccw, 2 = upside down, 3 = 90° cw. */
  rotation?: number;
  /** 0 inches, 1 millimetres, 2 pixels. */
  paperUnits?: number;
  plotType?: number;
  customScale?: [number, number];
  styleSheet?: string;
}

export interface Layout {
  name: string;
  handle?: string;
  tabOrder: number;
  /** '*Model_Space', '*Paper_Space', '*Paper_Space0', ... */
  blockName: string;
  blockRecordHandle?: string;
  isModel: boolean;
  limMin?: Vec3;
  limMax?: Vec3;
  extMin?: Vec3;
  extMax?: Vec3;
  insertionBase?: Vec3;
  plot?: PlotSettings;
  /** Paper-space entities (undefined for the model layout: use `Drawing.modelSpace`). */
  entities?: Entity[];
  /** The VIEWPORT entities of this layout (also present in `entities`). */
  viewports: ViewportEntity[];
}

export interface ImageDef {
  handle: string;
  fileName: string;
  size?: [number, number];
  /** The picture itself, when its file was supplied with the drawing (companions.ts). */
  attached?: AttachedImage;
  /** An underlay's definition (PDFDEFINITION, DWFDEFINITION, DGNDEFINITION): the page or sheet shown. */
  page?: string;
}

/** A raster picture supplied with a drawing: its bytes as the file has them, PNG or JPEG. */
export interface AttachedImage {
  /** The supplied file's name. */
  file: string;
  mime: 'image/png' | 'image/jpeg';
  /** Pixels, read from the file's header. */
  width: number;
  height: number;
  bytes: Uint8Array;
}

export interface Drawing {
  header: Header;
  layers: Record<string, Layer>;
  linetypes: Record<string, Linetype>;
  textStyles: Record<string, TextStyle>;
  dimStyles: Record<string, DimStyle>;
  blockRecords: BlockRecord[];
  blocks: Record<string, Block>;
  /** Sorted by tab order; the model layout first. R12 files get synthetic layouts. */
  layouts: Layout[];
  modelSpace: Entity[];
  imageDefs: Record<string, ImageDef>;
  /**
   * SORTENTSTABLE draw order, by the owning block record's handle (upper case): entity handle ->
   * sort handle. Entities listed are drawn in sort-handle order instead of handle order.
   */
  drawOrder?: Record<string, Record<string, string>>;
  /** MLINESTYLE objects by name (upper case). */
  mlineStyles?: Record<string, MLineStyle>;
  /** Counts of entity types read as UNKNOWN, and of ignored records. */
  stats: { entities: number; unknown: Record<string, number> };
}

// ---------------------------------------------------------------------------------------------
// Entities

export interface EntityBase {
  handle?: string;
  layer: string;
  color: Color;
  /** 'BYLAYER' when absent. */
  linetype: string;
  ltscale: number;
  /** 1/100 mm; -1 ByLayer (default), -2 ByBlock, -3 default. */
  lineweight: number;
  visible: boolean;
  /** Extrusion / OCS normal, default [0, 0, 1]. */
  extrusion: Vec3;
  thickness?: number;
  /** Owner handle (block record) when written. */
  owner?: string;
  /** True when the entity is in paper space (group 67 = 1). */
  paperSpace: boolean;
  transparency?: number;
  /**
   * Extended data of applications other than AutoCAD's own (whose ACAD data the readers turn into
   * fields: dimension overrides, R12 viewports), in the order read; kept so that a save-as keeps
   * what add-ons stored on the object.
   */
  xdata?: XData[];
}

/**
 * One item of extended data: its DXF group code (1000-1071) and value; a point (1010-1013) is one
 * item of three numbers, as DWG stores it (DXF spreads it over codes +0, +10, +20). Binary chunks
 * (1004) are hex strings, handles (1005) hex strings.
 */
export interface XDataItem {
  code: number;
  value: string | number | Vec3;
}

/** The extended data one registered application (APPID) attached to an object. */
export interface XData {
  app: string;
  items: XDataItem[];
}

export interface LineEntity extends EntityBase {
  type: 'LINE';
  start: Vec3;
  end: Vec3;
}
export interface PointEntity extends EntityBase {
  type: 'POINT';
  position: Vec3;
  angle: number;
}
export interface CircleEntity extends EntityBase {
  type: 'CIRCLE';
  center: Vec3;
  radius: number;
}
export interface ArcEntity extends EntityBase {
  type: 'ARC';
  center: Vec3;
  radius: number;
  /** Degrees, counter-clockwise in the OCS. */
  startAngle: number;
  endAngle: number;
}
export interface EllipseEntity extends EntityBase {
  type: 'ELLIPSE';
  center: Vec3;
  /** Major axis end point relative to the centre (WCS). */
  majorAxis: Vec3;
  ratio: number;
  /** Start/end PARAMETERS in radians (0..2π = full ellipse). */
  startParam: number;
  endParam: number;
}

export interface LwVertex {
  x: number;
  y: number;
  bulge: number;
  startWidth: number;
  endWidth: number;
}
export interface LwPolylineEntity extends EntityBase {
  type: 'LWPOLYLINE';
  vertices: LwVertex[];
  closed: boolean;
  /** Linetype generation across vertices (flag 128). */
  plinegen: boolean;
  constantWidth: number;
  elevation: number;
}

export interface PolylineVertex {
  position: Vec3;
  bulge: number;
  startWidth: number;
  endWidth: number;
  flags: number;
  /** Polyface face record: 1-based vertex indices (negative = invisible edge). */
  face?: number[];
}
export interface PolylineEntity extends EntityBase {
  type: 'POLYLINE';
  kind: '2d' | '3d' | 'polyface' | 'mesh';
  flags: number;
  closed: boolean;
  elevation: number;
  defaultStartWidth: number;
  defaultEndWidth: number;
  /** Mesh M/N counts, or polyface vertex/face counts. */
  m: number;
  n: number;
  meshClosedN: boolean;
  /** For polyface meshes: only the coordinate vertices; faces go to `faces`. */
  vertices: PolylineVertex[];
  faces: number[][];
}

export interface SplineEntity extends EntityBase {
  type: 'SPLINE';
  degree: number;
  /** 1 closed, 2 periodic, 4 rational, 8 planar, 16 linear. */
  flags: number;
  closed: boolean;
  periodic: boolean;
  rational: boolean;
  knots: number[];
  /** Empty when all weights are 1. */
  weights: number[];
  controlPoints: Vec3[];
  fitPoints: Vec3[];
  startTangent?: Vec3;
  endTangent?: Vec3;
  normal?: Vec3;
}

export interface QuadEntity extends EntityBase {
  type: 'SOLID' | 'TRACE' | '3DFACE';
  /** Four corners; SOLID/TRACE use the "Z" order 1-2-4-3. */
  points: [Vec3, Vec3, Vec3, Vec3];
  /** 3DFACE invisible-edge flags. */
  invisibleEdges?: number;
}

export interface TextEntity extends EntityBase {
  type: 'TEXT' | 'ATTRIB' | 'ATTDEF';
  text: string;
  insertion: Vec3;
  /** Second alignment point (group 11); used when halign/valign are not 0. */
  alignPoint?: Vec3;
  height: number;
  /** Degrees. */
  rotation: number;
  widthFactor: number;
  /** Degrees. */
  oblique: number;
  style: string;
  /** 72: 0 left, 1 center, 2 right, 3 aligned, 4 middle, 5 fit. */
  halign: number;
  /** 73 (74 for ATTRIB/ATTDEF): 0 baseline, 1 bottom, 2 middle, 3 top. */
  valign: number;
  /** 71: 2 backwards, 4 upside down. */
  generation: number;
  /** ATTRIB/ATTDEF only. */
  tag?: string;
  prompt?: string;
  /** ATTRIB/ATTDEF flags: 1 invisible, 2 constant, 4 verify, 8 preset. */
  attributeFlags?: number;
  /** A multi-line attribute (R2018 "Embedded Object"): the MTEXT drawn instead of the single line. */
  mtext?: MTextEntity;
}

export interface MTextColumns {
  /** 0 none, 1 static, 2 dynamic. */
  type: number;
  count: number;
  width: number;
  gutter: number;
  autoHeight: boolean;
  heights: number[];
}
export interface MTextEntity extends EntityBase {
  type: 'MTEXT';
  /** Raw text with MTEXT formatting codes, joined from 3 + 1 groups; `\U+` escapes decoded. */
  text: string;
  insertion: Vec3;
  height: number;
  /** Reference rectangle width (41); 0 = no wrapping. */
  width: number;
  /** Defined (column) height (46; 41 of the R2018 embedded object); absent or 0 = as tall as the text. */
  definedHeight?: number;
  /** 1 top-left .. 9 bottom-right. */
  attachment: number;
  /** 1 left-to-right, 3 top-to-bottom, 5 by style. */
  drawingDirection: number;
  /** X-axis direction (11), when written. */
  direction?: Vec3;
  /** Degrees; derived from `direction` when present. */
  rotation: number;
  style: string;
  lineSpacingFactor: number;
  lineSpacingStyle: number;
  background?: { flags: number; color: Color; scale: number };
  columns?: MTextColumns;
}

export interface InsertEntity extends EntityBase {
  type: 'INSERT';
  name: string;
  insertion: Vec3;
  scale: Vec3;
  rotation: number;
  columnCount: number;
  rowCount: number;
  columnSpacing: number;
  rowSpacing: number;
  attributes: TextEntity[];
  /** XCLIP: the clipping boundary of this reference (its SPATIAL_FILTER), when clipping is on. */
  clip?: BlockClip;
}

/**
 * An XCLIP boundary (SPATIAL_FILTER object in the INSERT's extension dictionary, ACAD_FILTER →
 * SPATIAL): what the reference shows of its block.
 */
export interface BlockClip {
  /**
   * Closed polygon (at least 3 points) in the block's own coordinates (those of its entities, before
   * the base point offset and the INSERT's transform); a rectangular clip has its 4 corners.
   */
  boundary: [number, number][];
  /** Inverted clip: the block is hidden INSIDE `boundary` and shown outside it. */
  inverted: boolean;
}

export interface DimensionEntity extends EntityBase {
  type: 'DIMENSION';
  /** Anonymous block holding the rendered dimension ('*D12'). */
  block: string;
  /** Group 70 & 7: 0 linear, 1 aligned, 2 angular, 3 diameter, 4 radius, 5 angular 3-point, 6 ordinate. */
  dimType: number;
  flags: number;
  style: string;
  /** User text ('' = measurement, '<>' = measurement placeholder). */
  text: string;
  measurement?: number;
  defPoint: Vec3;
  textMidpoint: Vec3;
  /** 13..16 definition points (when present). */
  defPoints: Partial<Record<'p13' | 'p14' | 'p15' | 'p16' | 'p12', Vec3>>;
  /** Degrees. */
  textRotation: number;
  /** Degrees (rotated linear dimensions). */
  angle: number;
  attachment: number;
}

export interface LeaderEntity extends EntityBase {
  type: 'LEADER';
  vertices: Vec3[];
  arrowhead: boolean;
  /** 0 straight, 1 spline. */
  pathType: number;
  style: string;
  annotation?: string;
  /** 73: 0 MTEXT, 1 tolerance, 2 block reference, 3 none. */
  annotationType?: number;
  /** 75: the leader has a hook line (its last segment) towards its MTEXT; absent = not written (taken as on, as ezdxf does). */
  hookline?: boolean;
  /** 74: 0 = the hook line runs along the horizontal direction (211), 1 = against it (absent: 1, as ezdxf reads it). */
  hooklineDirection?: number;
  /** 40 / 41: the annotation's text height and width (the width extends the line under the text). */
  textHeight?: number;
  textWidth?: number;
  /** 211: horizontal direction (WCS), default [1, 0, 0]. */
  horizontalDirection?: Vec3;
  /** 77: the colour used when DIMCLRD is ByBlock. */
  blockColor?: number;
  /** Dimension-style overrides from the entity's ACAD DSTYLE extended data, by DIMSTYLE group code. */
  dimOverrides?: Record<number, number | string>;
}

export interface MLeaderLine {
  vertices: Vec3[];
  /** 91: index of the line (selects a per-line arrowhead). */
  index?: number;
  /** 92: colour of this line when it differs from the leader colour (absent = the leader colour). */
  color?: Color;
}
export interface MLeaderEntity extends EntityBase {
  type: 'MULTILEADER';
  leaders: {
    lastPoint?: Vec3;
    doglegVector?: Vec3;
    doglegLength: number;
    lines: MLeaderLine[];
    /** 271: 0 horizontal attachment (landing along the dogleg), 1 vertical. */
    attachmentDirection?: number;
  }[];
  /** MTEXT content (context 304), with MTEXT formatting codes. */
  text?: string;
  /** Text location (context 12, WCS): the attachment point given by `textAlignment`. */
  textPosition?: Vec3;
  /** Character height (context 41), already scaled. */
  textHeight?: number;
  /** Text x direction (context 13, WCS). */
  textDirection?: Vec3;
  /** Defined text width (context 43, times the content scale gives drawing units); 0 = no wrapping. */
  textWidth?: number;
  blockHandle?: string;
  /** Block content position (context 15, WCS). */
  blockPosition?: Vec3;
  /** Arrowhead size (context 140), already scaled. */
  arrowSize?: number;
  /** MLEADERSTYLE handle (340). */
  styleHandle?: string;
  /** Content scale (context 40). */
  contentScale?: number;
  /** Content base point (context 10, WCS): where the landing meets the content. */
  contentBase?: Vec3;
  /** Landing gap (context 145): also the text frame's margin. */
  landingGap?: number;
  /** Text style handle (context 340, else 343). */
  textStyleHandle?: string;
  /** Text plane normal (context 11). */
  textNormal?: Vec3;
  /** Context 171: 1 left, 2 center, 3 right (the MTEXT top-row attachment at `textPosition`). */
  textAlignment?: number;
  /** 179: the text attachment point written at the entity level. */
  textAttachmentPoint?: number;
  /** Context 172: MTEXT drawing direction (1 left to right, 3 top to bottom, 5 by style). */
  textFlow?: number;
  textDefinedHeight?: number;
  textLineSpacingFactor?: number;
  /** 1 at least, 2 exactly. */
  textLineSpacingStyle?: number;
  /** Text colour (context 90, else 92); ByBlock ({ aci: 0 }) means the MULTILEADER's own colour. */
  textColor?: Color;
  /** Background mask (context 292 on): colour (91), scale (141), window colour (291). */
  textBackground?: { color?: Color; scale: number; useWindowColor: boolean };
  /** 292: a frame around the text. */
  textFrame?: boolean;
  /** Horizontal attachments (context 174/175, else 173/95): 0 top of top line .. 5 underline bottom line, 6 underline top line, 8 underline all. */
  textLeftAttachment?: number;
  textRightAttachment?: number;
  /** Vertical attachments (273 top, 272 bottom): 9 center, 10 overline and center. */
  textTopAttachment?: number;
  textBottomAttachment?: number;
  /** 271: 0 horizontal, 1 vertical text attachment. */
  textAttachmentDirection?: number;
  /** 170: 0 invisible, 1 straight, 2 spline leader lines. */
  leaderType?: number;
  /** 91: leader line colour; ByBlock ({ aci: 0 }) means the MULTILEADER's own colour. */
  leaderColor?: Color;
  /** 341: leader linetype (LTYPE handle). */
  leaderLinetypeHandle?: string;
  /** 171: leader lineweight (1/100 mm, -1 ByLayer, -2 ByBlock). */
  leaderLineweight?: number;
  /** 290 / 291: landing and dogleg enabled. */
  hasLanding?: boolean;
  hasDogleg?: boolean;
  /** 342: arrowhead block record handle (absent or '0' = closed filled). */
  arrowHandle?: string;
  /** 94 / 345: per-line arrowheads by leader line index. */
  arrowHeads?: { index: number; handle: string }[];
  /** 172: 0 none, 1 block, 2 MTEXT, 3 tolerance. */
  contentType?: number;
  /** Block content colour (context 93, else 93 at the entity level). */
  blockColor?: Color;
  /** Block content scale (context 16, else 10). */
  blockScale?: Vec3;
  /** Block content rotation in DEGREES (context 46, radians in DXF). */
  blockRotation?: number;
  /** Block content normal (context 14). */
  blockNormal?: Vec3;
  /** Attribute values of the block content: ATTDEF handle (330), index (177), width (44), text (302). */
  blockAttributes?: { handle: string; index: number; width: number; text: string }[];
}

export type HatchEdge =
  | { kind: 'line'; start: [number, number]; end: [number, number] }
  | { kind: 'arc'; center: [number, number]; radius: number; startAngle: number; endAngle: number; ccw: boolean }
  | {
      kind: 'ellipse';
      center: [number, number];
      majorAxis: [number, number];
      ratio: number;
      startAngle: number;
      endAngle: number;
      ccw: boolean;
    }
  | {
      kind: 'spline';
      degree: number;
      rational: boolean;
      periodic: boolean;
      knots: number[];
      controlPoints: [number, number][];
      weights: number[];
      fitPoints: [number, number][];
    };

export interface HatchPath {
  /** 1 external, 2 polyline, 4 derived, 8 textbox, 16 outermost. */
  flags: number;
  /** Polyline path (flag 2): vertices with bulges. */
  polyline?: { vertices: { x: number; y: number; bulge: number }[]; closed: boolean };
  edges: HatchEdge[];
}

export interface HatchEntity extends EntityBase {
  type: 'HATCH';
  pattern: string;
  solid: boolean;
  associative: boolean;
  elevation: number;
  paths: HatchPath[];
  /** 0 normal (odd parity), 1 outermost, 2 ignore. */
  style: number;
  patternType: number;
  /** Degrees. */
  patternAngle: number;
  patternScale: number;
  patternDouble: boolean;
  patternLines: HatchPatternLine[];
  gradient?: { name: string; colors: Color[]; /** radians */ angle: number; shift: number; singleColor: boolean; tint: number };
}

export interface ImageEntity extends EntityBase {
  type: 'IMAGE' | 'WIPEOUT';
  insertion: Vec3;
  /** One pixel along u / v, in drawing units. */
  u: Vec3;
  v: Vec3;
  imageSize: [number, number];
  imageDefHandle?: string;
  /** Resolved from the IMAGEDEF object, when present. */
  fileName?: string;
  displayFlags: number;
  clipping: boolean;
  /** 1 rectangle, 2 polygon. */
  clipType: number;
  /** Clip boundary in pixel coordinates. */
  clipBoundary: [number, number][];
}

export interface TableEntity extends EntityBase {
  type: 'ACAD_TABLE';
  block: string;
  insertion: Vec3;
  rows: number;
  columns: number;
  rowHeights: number[];
  columnWidths: number[];
  /** Cell texts in row-major order when the table is simple. */
  cells: string[];
  /**
   * AutoCAD's own drawing of the table (its proxy graphics, hex) when the reader could take neither
   * the table block nor the cells (R2010+ DWG tables): drawn instead.
   */
  graphics?: string;
}

export interface XLineEntity extends EntityBase {
  type: 'XLINE' | 'RAY';
  base: Vec3;
  direction: Vec3;
}

export interface ViewportEntity extends EntityBase {
  type: 'VIEWPORT';
  /** Paper-space centre. */
  center: Vec3;
  width: number;
  height: number;
  /** Viewport id (69): 1 is the paper-space overall view. */
  id: number;
  /** 68: -1 off-screen, 0 off, >0 on (stack order). */
  status: number;
  on: boolean;
  viewCenter: [number, number];
  viewTarget: Vec3;
  viewDirection: Vec3;
  viewHeight: number;
  /** Paper units per model unit: height / viewHeight. */
  scale: number;
  /** Degrees. */
  twist: number;
  flags: number;
  frozenLayers: string[];
  clipBoundaryHandle?: string;
}

export interface MLineVertex {
  position: Vec3;
  /** Direction of the segment starting here. */
  direction: Vec3;
  /** Miter direction: element lines sit at `params[i][0]` along it. */
  miter: Vec3;
  /** Per element: its parameters (the first is the offset along the miter, already scaled). */
  params: number[][];
}
export interface MLineEntity extends EntityBase {
  type: 'MLINE';
  style: string;
  styleHandle?: string;
  scale: number;
  /** 0 top, 1 zero, 2 bottom. */
  justification: number;
  closed: boolean;
  vertices: MLineVertex[];
}

export interface MLineStyle {
  name: string;
  handle?: string;
  flags: number;
  elements: { offset: number; color: Color; linetype: string }[];
}

/** A subdivision MESH (level-0 control cage). */
export interface MeshEntity extends EntityBase {
  type: 'MESH';
  vertices: Vec3[];
  faces: number[][];
  edges: [number, number][];
}

/** A feature control frame (形位公差, GB/T 1182 / ISO 1101): boxes of GD&T symbols, values and datums. */
export interface ToleranceEntity extends EntityBase {
  type: 'TOLERANCE';
  /** Dimension style name (text height DIMTXT, gap DIMGAP, colours DIMCLRD / DIMCLRT, text style). */
  style: string;
  /** WCS insertion point: the frame's top-left corner (middle left of the first row). */
  insertion: Vec3;
  /** WCS direction of the frame's X axis. */
  direction: Vec3;
  /**
   * The frame's text as stored: rows separated by ^J (line feeds), boxes by %%v, GD&T symbols as
   * {\Fgdt;x} (x a letter of the gdt font: j position, n diameter, m MMC, ...).
   */
  text: string;
}

/** A shape from a shape file (.shx): a name (DXF) or number (DWG) in the text style that loads the file. */
export interface ShapeEntity extends EntityBase {
  type: 'SHAPE';
  /** OCS insertion point. */
  insertion: Vec3;
  size: number;
  /** Shape name (DXF group 2); DWG files give the number instead. */
  name: string;
  shapeNumber?: number;
  /** Handle of the text style that loads its shape file (DWG; such styles often have no name). */
  styleHandle?: string;
  /** Degrees. */
  rotation: number;
  widthFactor: number;
  /** Degrees. */
  oblique: number;
}

/** An OLE object (a pasted Excel table or picture) with its frame and the object's data. */
export interface Ole2FrameEntity extends EntityBase {
  type: 'OLE2FRAME';
  /** WCS upper-left and lower-right corners. */
  corner1: Vec3;
  corner2: Vec3;
  /** The OLE object data (a compound document) as hex; '' when not read. */
  data: string;
}

export interface UnknownEntity extends EntityBase {
  type: 'UNKNOWN';
  dxfType: string;
  /**
   * Proxy entity graphics as hex, as read: the binary metafile a custom entity saves for programs
   * that cannot run its code (DXF 310 groups after the 92/160 byte count; the DWG common entity
   * graphics). Set for ACAD_PROXY_ENTITY and custom types such as TArch's TCH_WALL or AEC_WALL;
   * display/proxy.ts draws it.
   */
  graphics?: string;
}

/**
 * A 3DSOLID, REGION, BODY or surface (PLANESURFACE, EXTRUDEDSURFACE, ...): its ACIS modeler data,
 * which display/acis.ts reads for the edges AutoCAD's 2D wireframe draws. Neither is set when the
 * entity is empty or its data could not be taken from the file.
 */
export interface AcisEntity extends EntityBase {
  type: 'ACIS';
  /** The DXF type: 3DSOLID, REGION, BODY, PLANESURFACE, ... */
  dxfType: string;
  /** SAT text, deciphered (DXF groups 1/3 and DWG up to R2010). */
  sat?: string;
  /** SAB binary as hex (R2013 and later: the DXF ACDSDATA section, the DWG where LibreDWG gives it). */
  sab?: string;
}

/**
 * A PDFUNDERLAY (or DWF / DGN underlay): a page of another file shown under the drawing. Its own
 * coordinates are the page's, in inches from its lower-left corner, placed by insertion, scale and
 * rotation in the plane of its extrusion.
 */
export interface UnderlayEntity extends EntityBase {
  type: 'UNDERLAY';
  /** PDFUNDERLAY, DWFUNDERLAY, DGNUNDERLAY. */
  dxfType: string;
  insertion: Vec3;
  scale: Vec3;
  /** Degrees. */
  rotation: number;
  /** 1 clipping on, 2 underlay on, 4 monochrome, 8 adjusted for the background, 16 clip inverted. */
  flags: number;
  contrast: number;
  fade: number;
  /** The clip boundary in the underlay's own coordinates: 2 points are the corners of a rectangle. */
  clipBoundary: [number, number][];
  /** Its definition object's handle; the file and page resolved from it. */
  defHandle?: string;
  fileName?: string;
  page?: string;
  /**
   * Set by the conversion when the file was supplied: the block holding the page's vectors (in the
   * underlay's own coordinates) and the page's size.
   */
  content?: { block: string; width: number; height: number };
}

export type Entity =
  | LineEntity
  | PointEntity
  | CircleEntity
  | ArcEntity
  | EllipseEntity
  | LwPolylineEntity
  | PolylineEntity
  | SplineEntity
  | QuadEntity
  | TextEntity
  | MTextEntity
  | InsertEntity
  | DimensionEntity
  | LeaderEntity
  | MLeaderEntity
  | HatchEntity
  | ImageEntity
  | TableEntity
  | XLineEntity
  | ViewportEntity
  | MLineEntity
  | MeshEntity
  | ToleranceEntity
  | ShapeEntity
  | Ole2FrameEntity
  | AcisEntity
  | UnderlayEntity
  | UnknownEntity;

export type EntityType = Entity['type'];

/** The entity interface for one `type` (works for shared interfaces such as TEXT/ATTRIB/ATTDEF). */
export type EntityOf<T extends EntityType> = Entity extends infer E
  ? E extends Entity
    ? T extends E['type']
      ? E
      : never
    : never
  : never;
