/**
 * The one table EntityReader.read follows: a DWG entity's fixed object type (below 500), or its
 * DXF class name for the types numbered per file (500 and above), → the family reader that
 * builds its model entity. null: a sub-entity its parent reads (vertices, attributes, block
 * brackets). A type in neither is kept as UNKNOWN with its proxy graphics.
 */
import { T } from '../types';
import { acis } from './acis';
import { underlay } from './underlay';
import { insert, table } from './blocks';
import type { ReadEntity } from './context';
import { lwpolyline, mline, polyline, spline } from './curves';
import { dimension, leader, tolerance } from './dimensions';
import { face3d, mesh, solid } from './faces';
import { hatch } from './hatch';
import { image, ole2frame } from './image';
import { arc, circle, ellipse, line, point, xline } from './lines';
import { mleader } from './mleader';
import { mtext, shape, text } from './text';
import { viewport } from './viewport';

export const ENTITY_READERS: ReadonlyMap<number | string, ReadEntity | null> = new Map<number | string, ReadEntity | null>([
  [T.BLOCK, null],
  [T.ENDBLK, null],
  [T.SEQEND, null],
  [T.VERTEX_2D, null],
  [T.VERTEX_3D, null],
  [T.VERTEX_MESH, null],
  [T.VERTEX_PFACE, null],
  [T.VERTEX_PFACE_FACE, null],
  [T.ATTRIB, null],
  [T.LINE, line],
  [T.POINT, point],
  [T.CIRCLE, circle],
  [T.ARC, arc],
  [T.ELLIPSE, ellipse],
  [T.XLINE, xline],
  [T.RAY, xline],
  [T.LWPOLYLINE, lwpolyline],
  [T.POLYLINE_2D, polyline],
  [T.POLYLINE_3D, polyline],
  [T.POLYLINE_PFACE, polyline],
  [T.POLYLINE_MESH, polyline],
  [T.SPLINE, spline],
  [T.MLINE, mline],
  [T.SOLID, solid],
  [T.TRACE, solid],
  [T.FACE3D, face3d],
  [T.TEXT, text],
  [T.ATTDEF, text],
  [T.MTEXT, mtext],
  [T.INSERT, insert],
  [T.MINSERT, insert],
  [T.DIMENSION_ORDINATE, dimension],
  [T.DIMENSION_LINEAR, dimension],
  [T.DIMENSION_ALIGNED, dimension],
  [T.DIMENSION_ANG3PT, dimension],
  [T.DIMENSION_ANG2LN, dimension],
  [T.DIMENSION_RADIUS, dimension],
  [T.DIMENSION_DIAMETER, dimension],
  [T.LEADER, leader],
  [T.HATCH, hatch],
  [T.VIEWPORT, viewport],
  [T.TOLERANCE, tolerance],
  [T.SHAPE, shape],
  [T.OLE2FRAME, ole2frame],
  // Classes: drawn like the fixed DIMENSION types by their block, with the DXF 70 type they stand for.
  ['ARC_DIMENSION', (r, obj, tio, type, owner) => dimension(r, obj, tio, type, owner, 5)],
  ['LARGE_RADIAL_DIMENSION', (r, obj, tio, type, owner) => dimension(r, obj, tio, type, owner, 4)],
  ['MESH', mesh],
  ['3DLINE', line],
  ['MULTILEADER', mleader],
  ['IMAGE', (r, obj, tio, type, owner) => image(r, obj, tio, type, owner, 'IMAGE')],
  ['WIPEOUT', (r, obj, tio, type, owner) => image(r, obj, tio, type, owner, 'WIPEOUT')],
  ['ACAD_TABLE', table],
  [T.SOLID3D, acis],
  [T.REGION, acis],
  [T.BODY, acis],
  ...['SURFACE', 'PLANESURFACE', 'EXTRUDEDSURFACE', 'LOFTEDSURFACE', 'REVOLVEDSURFACE', 'SWEPTSURFACE', 'NURBSURFACE'].map(
    (name): [string, ReadEntity] => [name, acis],
  ),
  ...['PDFUNDERLAY', 'DWFUNDERLAY', 'DGNUNDERLAY'].map((name): [string, ReadEntity] => [
    name,
    (r, obj, tio, type, owner) => underlay(r, obj, tio, type, owner, name),
  ]),
]);
