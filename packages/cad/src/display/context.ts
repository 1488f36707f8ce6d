/**
 * What an entity handler sees while the display list is built. The builder (builder.ts) owns the
 * implementation; handlers in other files (text, hatch, leaders, tables, images, dimensions) only
 * use this interface, so they can be written and tested on their own.
 *
 * Coordinates handed to the emit functions are in the entity's own coordinate system; the builder
 * applies `m` (a 3D affine matrix, see matrix.ts) and projects to x, y. Handlers build `m` with
 * `ctx.ocs(entity, elevation)` for 2D entities (OCS → current block space → world) or use
 * `ctx.matrix` for entities given in WCS (LINE, 3D polylines, 3DFACE, ...).
 */
import type { AttachedImage, Drawing, Entity, EntityBase, TextStyle } from '../model';
import type { Mat } from '../geom/matrix';
import type { BuildWarning, Gradient, TextPrimitive } from './types';
import type { FontProvider } from '../text/fonts';
import type { FontRef } from '../text/fonts';

/** A linetype pattern ready to apply: dash (>0), gap (<0), dot (0) lengths in entity units. */
export interface DashPattern {
  dashes: number[];
  total: number;
  /**
   * Complex linetypes: per element, the shape or text drawn where that element ends (undefined:
   * none), in the linetype's own units; `markScale` maps them to entity units like the dashes.
   */
  marks?: (LinetypeMark | undefined)[];
  markScale?: number;
}

/** A shape or text of a complex linetype element, in linetype units. */
export interface LinetypeMark {
  /** X along the line, Y across it, from where the element ends. */
  dx: number;
  dy: number;
  /** Radians: from the line's direction, or from the X axis when `absolute`. */
  rotation: number;
  absolute: boolean;
  /** A shape's strokes (x, y pairs), already scaled by the element's scale. */
  strokes?: number[][];
  /** A text, its style and height. */
  text?: string;
  style?: TextStyle;
  height?: number;
}

export interface StrokeOptions {
  /** Dash pattern (from `ctx.dashes(e)`); null or undefined = continuous. */
  dashes?: DashPattern | null;
  /** Restart the pattern at every vertex (LWPOLYLINE without linetype generation). Default false. */
  restartAtVertices?: boolean;
}

export interface FillOptions {
  gradient?: Gradient;
  /** Paint in the background colour (WIPEOUT). */
  wipeout?: boolean;
  /** Default 'evenodd' (holes and islands); 'nonzero' for overlapping pieces of one area (wide polylines). */
  rule?: 'evenodd' | 'nonzero';
}

export interface DrawContext {
  readonly drawing: Drawing;
  /** Current block space → world. Entities in WCS are drawn with this matrix. */
  readonly matrix: Mat;
  /** True while drawing paper-space entities of a layout. */
  readonly paperSpace: boolean;
  /** Font lookup (system fonts, SHX folder, CJK fallback). */
  readonly fonts: FontProvider;

  /** OCS of a 2D entity (its extrusion) with `elevation` as z, composed with `matrix`. */
  ocs(e: EntityBase, elevation?: number): Mat;
  /** The style index for an entity: colour, lineweight and layer resolved (ByLayer, ByBlock, layer 0 in blocks). */
  style(e: EntityBase): number;
  /** Style index with an explicit colour override (e.g. a dimension's own colours, MTEXT \C codes). Colour as in the model: aci/rgb. */
  styleWith(e: EntityBase, color: { aci?: number; rgb?: number }): number;
  /** The entity's linetype pattern scaled by LTSCALE, CELTSCALE and the entity's ltscale; null when continuous. */
  dashes(e: EntityBase): DashPattern | null;
  /**
   * Chord tolerance for tessellating curves given in the coordinate system of `m`, in those units:
   * small enough that curves look smooth when the whole drawing fills a 4000-pixel image.
   */
  tolerance(m: Mat): number;
  /** Number of segments for an arc of `radius` spanning `sweep` radians, under `m`. */
  arcSegments(radius: number, sweep: number, m: Mat): number;

  /** Stroke a polyline given as x, y pairs (z = 0) in the coordinate system of `m`. */
  stroke(style: number, m: Mat, xy: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void;
  /** Stroke a polyline given as x, y, z triples in the coordinate system of `m`. */
  stroke3(style: number, m: Mat, xyz: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void;
  /** Fill an area: rings of x, y pairs in the coordinate system of `m`, even-odd rule. */
  fill(style: number, m: Mat, rings: ArrayLike<number>[], options?: FillOptions): void;
  /** Emit one line of text. `text.matrix` maps text space to WORLD (build it with `textMatrix`). */
  text(text: Omit<TextPrimitive, 'kind' | 'font'>, font: FontRef): void;
  /**
   * Show a picture supplied with the drawing: `place` is its top-left corner, then the vectors along
   * its full width and down its full height, in the coordinate system of `m`; `clip` the part shown
   * (x, y pairs in that system), null for all. A context without it (the save-as lowering) keeps
   * the frame the handler strokes.
   */
  image?(style: number, m: Mat, picture: AttachedImage, place: readonly number[], clip: readonly number[] | null): void;

  /**
   * Draw the entities of block `name` with `m` mapping block coordinates (already offset by its
   * base point) to the current space; `owner` supplies ByBlock colour/linetype/lineweight and the
   * layer that layer-0 entities take. Nested and recursive references are handled.
   */
  drawBlock(name: string, m: Mat, owner: EntityBase): void;
  /** Draw another entity (a virtual one a handler made up, e.g. MTEXT of a MULTILEADER) in the current space. */
  drawEntity(e: Entity): void;
  /** Record a warning once per (code, subject). */
  warn(warning: BuildWarning): void;
  /**
   * A context that writes entities instead of drawing them (the save-as lowering,
   * save-as-graphics.ts, decision 0037) takes a handler's virtual MTEXT whole: true when it took
   * it, and the handler then lays it out only to measure it. The builder has none.
   */
  keepEntity?(e: Entity): boolean;
}

export type EntityHandler<E extends Entity = Entity> = (e: E, ctx: DrawContext) => void;
