/**
 * The one table the writer follows: entity type → the function that writes it. Every EntityType
 * has an entry (`satisfies` makes a new type fail to compile until it is written or explicitly
 * left to lower.ts); null: lowering replaces the type before it gets here (MLINE, MULTILEADER,
 * ACAD_TABLE, SHAPE, OLE2FRAME, and TOLERANCE in R12: their graphics) or leaves it out (UNKNOWN).
 */
import type { Entity, EntityOf, EntityType } from '../../model';
import type { Groups } from '../encode';
import { writeInsert } from './blocks';
import type { EntityWriterContext } from './common';
import { writeLwPolyline, writePolyline, writeSpline } from './curves';
import { writeDimension, writeLeader } from './dimensions';
import { writeMesh, writeQuad } from './faces';
import { writeHatch } from './hatch';
import { writeImage } from './image';
import { writeCircle, writeEllipse, writeLine, writePoint, writeTolerance, writeXline } from './lines';
import { writeMText, writeText } from './text';
import { writeViewport } from './viewport';

export type WriteEntity<E extends Entity = Entity> = (w: EntityWriterContext, out: Groups, e: E, owner: string, paper: boolean) => void;

export const DXF_WRITERS = {
  LINE: writeLine,
  POINT: writePoint,
  CIRCLE: writeCircle,
  ARC: writeCircle,
  ELLIPSE: writeEllipse,
  XLINE: writeXline,
  RAY: writeXline,
  LWPOLYLINE: writeLwPolyline,
  POLYLINE: writePolyline,
  SPLINE: writeSpline,
  SOLID: writeQuad,
  TRACE: writeQuad,
  '3DFACE': writeQuad,
  MESH: writeMesh,
  TEXT: writeText,
  ATTDEF: writeText,
  ATTRIB: writeText,
  MTEXT: writeMText,
  INSERT: writeInsert,
  DIMENSION: writeDimension,
  LEADER: writeLeader,
  HATCH: writeHatch,
  IMAGE: writeImage,
  WIPEOUT: writeImage,
  VIEWPORT: writeViewport,
  MLINE: null,
  MULTILEADER: null,
  ACAD_TABLE: null,
  TOLERANCE: writeTolerance,
  SHAPE: null,
  OLE2FRAME: null,
  ACIS: null,
  UNDERLAY: null,
  UNKNOWN: null,
} satisfies { [K in EntityType]: WriteEntity<EntityOf<K>> | null };
