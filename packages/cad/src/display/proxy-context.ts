/** The DrawContext a proxy's commands draw through: the builder's, with the proxy's pushed matrices applied. */
/** Delegates to the builder's context, with `matrix` = its matrix ∘ the proxy's pushed matrices. */
import type { Drawing, Entity, EntityBase } from '../model';
import type { FontRef } from '../text/fonts';
import type { DashPattern, DrawContext, FillOptions, StrokeOptions } from './context';
import { drawCurveEntity } from './curves';
import { isDefaultExtrusion, multiply, ocsToWcs, translation, type Mat } from '../geom/matrix';
import { drawText } from './text';
import type { BuildWarning, TextPrimitive } from './types';

export class SubContext implements DrawContext {
  constructor(
    private readonly base: DrawContext,
    readonly matrix: Mat,
  ) {}
  get drawing(): Drawing {
    return this.base.drawing;
  }
  get paperSpace(): boolean {
    return this.base.paperSpace;
  }
  get fonts(): DrawContext['fonts'] {
    return this.base.fonts;
  }
  ocs(e: EntityBase, elevation = 0): Mat {
    if (isDefaultExtrusion(e.extrusion)) return elevation ? multiply(this.matrix, translation(0, 0, elevation)) : this.matrix;
    return multiply(this.matrix, multiply(ocsToWcs(e.extrusion), translation(0, 0, elevation)));
  }
  style(e: EntityBase): number {
    return this.base.style(e);
  }
  styleWith(e: EntityBase, color: { aci?: number; rgb?: number }): number {
    return this.base.styleWith(e, color);
  }
  dashes(e: EntityBase): DashPattern | null {
    return this.base.dashes(e);
  }
  tolerance(m: Mat): number {
    return this.base.tolerance(m);
  }
  arcSegments(radius: number, sweep: number, m: Mat): number {
    return this.base.arcSegments(radius, sweep, m);
  }
  stroke(style: number, m: Mat, xy: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void {
    this.base.stroke(style, m, xy, closed, options);
  }
  stroke3(style: number, m: Mat, xyz: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void {
    this.base.stroke3(style, m, xyz, closed, options);
  }
  fill(style: number, m: Mat, rings: ArrayLike<number>[], options?: FillOptions): void {
    this.base.fill(style, m, rings, options);
  }
  text(text: Omit<TextPrimitive, 'kind' | 'font'>, font: FontRef): void {
    this.base.text(text, font);
  }
  drawBlock(name: string, m: Mat, owner: EntityBase): void {
    this.base.drawBlock(name, m, owner);
  }
  /** The virtual entities of a proxy: the geometric types and TEXT, drawn in this context's space. */
  drawEntity(e: Entity): void {
    if (drawCurveEntity(e, this)) return;
    if (e.type === 'TEXT') drawText(e, this);
    else if (this.matrix === this.base.matrix) this.base.drawEntity(e);
  }
  warn(w: BuildWarning): void {
    this.base.warn(w);
  }
}
