/**
 * The one table buildEntity follows: a DXF record's type → the family reader that builds its model
 * entity. Every EntityType has its reader here (`satisfies` makes a new type fail to compile until
 * it has one), beside the names other writers use for the same entity; a type not in the table
 * becomes UNKNOWN with its proxy graphics.
 */
import type { Entity, EntityType } from '../../model';
import type { DxfRecord } from '../record';
import { acis, ACIS_TYPES } from './acis';
import { underlay, UNDERLAY_TYPES } from './underlay';
import { insert, table } from './blocks';
import { lwpolyline, mline, polyline, spline } from './curves';
import { dimension, leader, tolerance } from './dimensions';
import { mesh, quad } from './faces';
import { hatch } from './hatch';
import { image, ole2frame } from './image';
import { arc, circle, ellipse, line, point, xline } from './lines';
import { mleader } from './mleader';
import { mtext, shape, text } from './text';
import { unknown } from './unknown';
import { viewport } from './viewport';

type ReadDxf = (r: DxfRecord) => Entity;

/** DXF names of model types that are not the type's own name. */
type Alias = 'ARC_DIMENSION' | 'LARGE_RADIAL_DIMENSION' | 'MLEADER';

const DXF_READERS = {
  LINE: line,
  POINT: point,
  CIRCLE: circle,
  ARC: arc,
  ELLIPSE: ellipse,
  XLINE: (r) => xline(r, 'XLINE'),
  RAY: (r) => xline(r, 'RAY'),
  LWPOLYLINE: lwpolyline,
  POLYLINE: polyline,
  SPLINE: spline,
  MLINE: mline,
  SOLID: (r) => quad(r, 'SOLID'),
  TRACE: (r) => quad(r, 'TRACE'),
  '3DFACE': (r) => quad(r, '3DFACE'),
  MESH: mesh,
  TEXT: (r) => text(r, 'TEXT'),
  ATTRIB: (r) => text(r, 'ATTRIB'),
  ATTDEF: (r) => text(r, 'ATTDEF'),
  MTEXT: mtext,
  INSERT: insert,
  ACAD_TABLE: table,
  DIMENSION: dimension,
  ARC_DIMENSION: dimension,
  LARGE_RADIAL_DIMENSION: dimension,
  LEADER: leader,
  MULTILEADER: mleader,
  MLEADER: mleader,
  HATCH: hatch,
  IMAGE: (r) => image(r, 'IMAGE'),
  WIPEOUT: (r) => image(r, 'WIPEOUT'),
  VIEWPORT: viewport,
  TOLERANCE: tolerance,
  SHAPE: shape,
  OLE2FRAME: ole2frame,
  ACIS: acis,
  UNDERLAY: underlay,
  UNKNOWN: unknown,
} satisfies Record<EntityType | Alias, ReadDxf>;

/** A Map, not the object: a record named like an Object.prototype member must not find one. */
const BY_NAME = new Map<string, ReadDxf>([
  ...Object.entries(DXF_READERS),
  ...ACIS_TYPES.map((t): [string, ReadDxf] => [t, acis]),
  ...UNDERLAY_TYPES.map((t): [string, ReadDxf] => [t, underlay]),
]);
// Model type names that no DXF record has.
BY_NAME.delete('ACIS');
BY_NAME.delete('UNDERLAY');

/** Builds a model entity from a record; UNKNOWN for types this reader does not model. */
export function buildEntity(r: DxfRecord): Entity {
  return (BY_NAME.get(r.type) ?? unknown)(r);
}
