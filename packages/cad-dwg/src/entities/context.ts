/**
 * What an entity family's reader is given: the struct access, the table names, the common fields
 * (EntityReader reads them once for every family) and the sub-entities of a parent.
 */
import type { Color, Entity, EntityBase, InsertEntity, TextEntity } from '@xcad/cad/model';
import type { Vec3 } from '@xcad/cad/geom';
import type { Access } from '../access';

/** Table names by handle, filled before any entity is read. */
export interface Names {
  layers: Map<number, string>;
  ltypes: Map<number, string>;
  styles: Map<number, string>;
  dimstyles: Map<number, string>;
  /** BLOCK_HEADER handle → block name. */
  blocks: Map<number, string>;
  /** MLINESTYLE handle → style name. */
  mlineStyles: Map<number, string>;
  /** APPID handle → application name (extended data is filed under it). */
  appids: Map<number, string>;
  /** Extended data strings are UTF-16 (R2007+), else in the file's code page. */
  unicodeEed: boolean;
  /** Names of the BYBLOCK and CONTINUOUS linetype records ('ByBlock', 'Continuous'). */
  byBlock: string;
  continuous: string;
  /** R2000+: entities carry lineweights and linetype flags (R13/R14 refer to a linetype record). */
  r2000: boolean;
  /** R2010+: LibreDWG misreads the end of a LEADER (see dimensions.ts). */
  r2010: boolean;
  /** R12 and before: colours come from the R11 entity header. */
  preR13: boolean;
}

/** Where the entity lives: its block record's handle and whether that is a paper-space block. */
export interface Owner {
  handle: string;
  paperSpace: boolean;
}

export interface EntityContext {
  readonly a: Access;
  readonly names: Names;
  readonly warnings: string[];
  /** INSERTs with an extension dictionary, and its handle (a possible XCLIP: ACAD_FILTER → SPATIAL). */
  readonly xdictInserts: [InsertEntity, number][];
  /** ATTRIBs that came without a text-style reference (LibreDWG drops it from R2010+ ATTRIBs): the block's ATTDEF gives it. */
  readonly unstyledAttribs: [InsertEntity, TextEntity][];
  /** The fields every entity has: handle, layer, colour, linetype, lineweight, extrusion, ... */
  base(obj: number, tio: number, type: number, owner: Owner): EntityBase;
  /** A CMC colour field of an entity struct. */
  structColor(tio: number, type: number, field: string): Color;
  /** A table record's name by the handle a reference points at, else `def`. */
  name(map: Map<number, string>, ref: number, def: string): string;
  /** The entity's proxy graphics (AutoCAD's own drawing of it, the common entity data's preview) as hex. */
  graphics(obj: number): string | undefined;
  /** Sub-entities (vertices, attributes) of a POLYLINE or INSERT, in order. */
  owned(obj: number, tio: number, type: number, arrayField: string, firstField: string, lastField: string): number[];
}

/** Reads one DWG entity (`obj`, its type-specific struct `tio`, its fixed `type`) into the model. */
export type ReadEntity = (r: EntityContext, obj: number, tio: number, type: number, owner: Owner) => Entity;

export function isZero(v: Vec3): boolean {
  return v[0] === 0 && v[1] === 0 && v[2] === 0;
}

export function normalOr(v: Vec3): Vec3 {
  return isZero(v) ? [0, 0, 1] : v;
}
