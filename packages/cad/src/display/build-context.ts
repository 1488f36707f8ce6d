/**
 * The context one build draws through: block expansion, ByLayer/ByBlock resolution, layer
 * visibility, linetypes, the points and entities budgets, XLINE/RAY clipping. Every entity goes
 * through HANDLERS (handlers.ts), the one table of entity type → handler.
 */
import type { AttachedImage, Block, Drawing, Entity, EntityBase, InsertEntity, Linetype, XLineEntity } from '../model';
import { CadLimitError } from '../errors';
import { inDrawOrder } from '../drawing';
import { limitsOf, type EngineLimits } from '../limits';
import { defaultFontProvider, type FontProvider } from '../text/fonts';
import { aciColor, FOREGROUND } from '../geom/color';
import { clipLine } from '../geom/clip';
import type { DashPattern, FillOptions, LinetypeMark, StrokeOptions } from './context';
import { drawMark, linetypeMarks } from './linetype-marks';
import { dashPolyline } from './dash';
import { HANDLERS, type BuildContext, type DrawEntity } from './handlers';
import { ListWriter } from './list';
import { IDENTITY, apply, isDefaultExtrusion, multiply, ocsToWcs, rotationZ, scaleOf, translation, type Mat } from '../geom/matrix';
import type { FontRef } from '../text/fonts';
import type { BuildWarning, DisplayList, LayerInfo, TextPrimitive } from './types';

export interface BuildOptions {
  /** Which scenes: every layout (default), only the model, or layouts by name ('Model' = model). */
  layouts?: 'all' | 'model' | string[];
  /** Draw entities on layers that are off or frozen (the viewer toggles layers itself). */
  includeHiddenLayers?: boolean;
  /**
   * Output for plotting (PDF, PNG, ...): layers marked not to plot, and DEFPOINTS, are left out.
   * Default true; a viewer on screen sets false (AutoCAD shows those layers on screen).
   */
  plot?: boolean;
  fonts?: FontProvider;
  /** The entities and points budgets (limits.ts); the defaults protect every caller from hostile files. */
  limits?: Partial<Pick<EngineLimits, 'entities' | 'points'>>;
  /**
   * What reaching the points budget does: 'refuse' (default) stops the build with a CadLimitError;
   * 'truncate' keeps what was drawn and warns (code 'limit'): the viewer shows part of a drawing
   * too large for the device. The entities budget always refuses: it bounds the time spent.
   */
  pointLimit?: 'refuse' | 'truncate';
}

const MAX_DEPTH = 24;
const DEFAULT_LINEWEIGHT_MM = 0.25;

interface Owner {
  /** Effective layer name for layer-0 entities. */
  layer: string;
  color: number;
  linetype: string;
  lineweight: number;
  ltscale: number;
}

interface LayerState {
  index: number;
  color: number;
  linetype: string;
  lineweight: number;
  on: boolean;
  frozen: boolean;
}

/**
 * The drawing whose entities are being drawn: the one built, or an external reference attached to
 * it (companions.ts), whose layers are named `XREF|layer` in the list and whose blocks and
 * linetypes are its own. Header settings (LTSCALE, LWDEFAULT, XCLIPFRAME) are the host's, as in
 * AutoCAD.
 */
interface Scope {
  drawing: Drawing;
  /** '' for the drawing built, 'XREF|' (nested: 'OUTER|INNER|') for an attached reference. */
  prefix: string;
  linetypes: Map<string, Linetype>;
  blocksByName: Map<string, string>;
}

function scopeOf(drawing: Drawing, prefix: string): Scope {
  const linetypes = new Map<string, Linetype>();
  for (const lt of Object.values(drawing.linetypes)) linetypes.set(lt.name.toUpperCase(), lt);
  const blocksByName = new Map<string, string>();
  for (const name of Object.keys(drawing.blocks)) blocksByName.set(name.toUpperCase(), name);
  return { drawing, prefix, linetypes, blocksByName };
}

export class Builder implements BuildContext {
  readonly fonts: FontProvider;
  matrix: Mat = IDENTITY;
  paperSpace = false;
  private out: ListWriter;
  private owner: Owner | null = null;
  private depth = 0;
  private activeBlocks = new Set<string>();
  private layerStates = new Map<string, LayerState>();
  private readonly rootScope: Scope;
  private scope: Scope;
  private readonly xrefScopes = new Map<string, Scope>();
  /** The shapes and texts of complex linetypes, per linetype (null: none). */
  private marks = new Map<Linetype, (LinetypeMark | undefined)[] | null>();
  private baseTolerance: number;
  private ltFactor = 1;
  private points = 0;
  private readonly maxPoints: number;
  private entities = 0;
  private readonly maxEntities: number;
  private xlines: { style: number; base: [number, number]; dir: [number, number]; ray: boolean }[] = [];
  readonly warningMap = new Map<string, BuildWarning>();
  readonly drawn: Record<string, number> = {};
  readonly skipped: Record<string, number> = {};
  readonly layerInfos: LayerInfo[] = [];

  constructor(
    private readonly root: Drawing,
    private options: BuildOptions,
  ) {
    this.fonts = options.fonts ?? defaultFontProvider();
    const limits = limitsOf(options.limits);
    this.maxPoints = limits.points;
    this.maxEntities = limits.entities;
    this.rootScope = this.scope = scopeOf(root, '');
    for (const layer of Object.values(root.layers)) this.addLayer(layer.name);
    this.out = new ListWriter(this.layerInfos);
    this.baseTolerance = 1;
  }

  /** The drawing whose entities are being drawn (an attached xref's while its content is drawn). */
  get drawing(): Drawing {
    return this.scope.drawing;
  }

  /** A layer by its name in the list: the host's record first (it keeps `XREF|layer` states), then the xref's own. */
  private layerRecord(name: string): Drawing['layers'][string] | undefined {
    const key = name.toUpperCase();
    const find = (d: Drawing, n: string, k: string) => d.layers[n] ?? Object.values(d.layers).find((l) => l.name.toUpperCase() === k);
    const own = find(this.root, name, key);
    if (own || !this.scope.prefix || !key.startsWith(this.scope.prefix.toUpperCase())) return own;
    const rest = name.slice(this.scope.prefix.length);
    return find(this.scope.drawing, rest, rest.toUpperCase());
  }

  private addLayer(name: string): LayerState {
    const key = name.toUpperCase();
    let st = this.layerStates.get(key);
    if (st) return st;
    const layer = this.layerRecord(name);
    const color = layer ? (layer.color.rgb !== undefined ? layer.color.rgb : aciColor(layer.color.aci ?? 7)) : FOREGROUND;
    const lw = layer && layer.lineweight >= 0 ? layer.lineweight / 100 : this.defaultLineweight();
    const plotted = !(this.options.plot ?? true) || (key.slice(key.lastIndexOf('|') + 1) !== 'DEFPOINTS' && (layer ? layer.plot : true));
    st = {
      index: this.layerInfos.length,
      color,
      linetype: layer?.linetype ?? 'CONTINUOUS',
      lineweight: lw,
      on: (layer ? layer.on : true) && plotted,
      frozen: layer ? layer.frozen : false,
    };
    this.layerInfos.push({ name: layer && !this.scope.prefix ? layer.name : name, color, visible: st.on && !st.frozen });
    this.layerStates.set(key, st);
    return st;
  }

  private defaultLineweight(): number {
    const v = this.root.header.vars['$LWDEFAULT'];
    return typeof v === 'number' && v >= 0 && v <= 211 ? v / 100 : DEFAULT_LINEWEIGHT_MM;
  }

  // ---- scenes -------------------------------------------------------------------------------

  /** Entities in SORTENTSTABLE order for their owner (a block record handle), else as given. */
  ordered(entities: Entity[], owner: string | undefined): Entity[] {
    return inDrawOrder(this.drawing, entities, owner);
  }

  buildList(entities: Entity[], tolerance: number, ltFactor: number, paperSpace: boolean): DisplayList {
    this.out = new ListWriter(this.layerInfos);
    this.baseTolerance = tolerance;
    this.ltFactor = ltFactor;
    this.paperSpace = paperSpace;
    this.matrix = IDENTITY;
    this.owner = null;
    this.xlines = [];
    for (const e of entities) {
      if (e.type === 'VIEWPORT') continue;
      this.drawEntity(e);
    }
    this.emitXlines();
    return this.out.finish();
  }

  // ---- DrawContext ----------------------------------------------------------------------------

  ocs(e: EntityBase, elevation = 0): Mat {
    const o = isDefaultExtrusion(e.extrusion)
      ? elevation
        ? translation(0, 0, elevation)
        : IDENTITY
      : multiply(ocsToWcs(e.extrusion), translation(0, 0, elevation));
    return o === IDENTITY ? this.matrix : multiply(this.matrix, o);
  }

  /** The layer's name in the list: layer 0 in a block takes the reference's; an xref's others are `XREF|layer`. */
  private effectiveLayer(e: EntityBase): string {
    if (e.layer === '0' || e.layer === '') return this.owner ? this.owner.layer : '0';
    return this.scope.prefix ? this.scope.prefix + e.layer : e.layer;
  }

  private resolveColor(e: EntityBase, color: { aci?: number; rgb?: number }, layer: LayerState): number {
    if (color.rgb !== undefined && color.aci !== 0 && color.aci !== 256) return color.rgb;
    if (color.rgb !== undefined && color.aci === undefined) return color.rgb;
    const aci = color.aci ?? 256;
    if (aci === 256) return layer.color;
    if (aci === 0) return this.owner ? this.owner.color : FOREGROUND;
    void e;
    return aciColor(aci);
  }

  private resolveLineweight(e: EntityBase, layer: LayerState): number {
    const lw = e.lineweight;
    if (lw === -1 || lw === undefined) return layer.lineweight;
    if (lw === -2) return this.owner ? this.owner.lineweight : layer.lineweight;
    if (lw < 0) return this.defaultLineweight();
    return lw / 100;
  }

  style(e: EntityBase): number {
    return this.styleWith(e, e.color);
  }

  styleWith(e: EntityBase, color: { aci?: number; rgb?: number }): number {
    const layer = this.addLayer(this.effectiveLayer(e));
    return this.out.style(this.resolveColor(e, color, layer), this.resolveLineweight(e, layer), layer.index);
  }

  dashes(e: EntityBase): DashPattern | null {
    let name = (e.linetype || 'BYLAYER').toUpperCase();
    if (name === 'BYLAYER') name = this.addLayer(this.effectiveLayer(e)).linetype.toUpperCase();
    else if (name === 'BYBLOCK') name = (this.owner?.linetype ?? 'CONTINUOUS').toUpperCase();
    if (name === 'CONTINUOUS' || name === 'BYLAYER' || name === 'BYBLOCK') return null;
    const lt = this.scope.linetypes.get(name) ?? this.rootScope.linetypes.get(name);
    if (!lt || !lt.elements.length) return null;
    const global = typeof this.root.header.ltscale === 'number' && this.root.header.ltscale > 0 ? this.root.header.ltscale : 1;
    const celt = this.owner ? this.owner.ltscale : 1;
    const scale = global * (e.ltscale > 0 ? e.ltscale : 1) * celt * this.ltFactor;
    const dashes = lt.elements.map((el) => el.length * scale);
    const total = dashes.reduce((s, d) => s + Math.abs(d), 0);
    if (!(total > 0)) return null;
    let marks = this.marks.get(lt);
    if (marks === undefined) {
      marks = linetypeMarks(this.drawing, this.fonts, lt) ?? null;
      this.marks.set(lt, marks);
    }
    // Without gaps a pattern draws as a continuous line, unless it carries shapes (TRACKS' ties).
    if (marks) return { dashes, total, marks, markScale: scale };
    return dashes.some((d) => d < 0) ? { dashes, total } : null;
  }

  tolerance(m: Mat): number {
    return this.baseTolerance / scaleOf(m);
  }

  arcSegments(radius: number, sweep: number, m: Mat): number {
    const r = Math.abs(radius);
    const tol = this.tolerance(m);
    const full = r <= tol ? 8 : Math.ceil(Math.PI / Math.acos(Math.max(-1, 1 - tol / r)));
    const perFull = Math.min(Math.max(full, 8), 1024);
    return Math.max(1, Math.ceil((perFull * Math.abs(sweep)) / (2 * Math.PI)));
  }

  private budget(n: number): boolean {
    this.points += n;
    if (this.points <= this.maxPoints) return true;
    if (this.options.pointLimit !== 'truncate')
      throw new CadLimitError('points', this.maxPoints, `the drawing needs more than ${this.maxPoints} points to draw`);
    this.warn({ code: 'limit', subject: 'points', message: `Stopped drawing after ${this.maxPoints} points` });
    return false;
  }

  /** One more entity drawn or block reference expanded: a MINSERT grid or nested blocks stop here. */
  private countEntity(): void {
    if (++this.entities > this.maxEntities)
      throw new CadLimitError(
        'entities',
        this.maxEntities,
        `the drawing has more than ${this.maxEntities} entities once its blocks are expanded`,
      );
  }

  stroke(style: number, m: Mat, xy: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void {
    const n = xy.length >> 1;
    if (n < 2 && !(n === 1 && closed)) return;
    const w: number[] = new Array<number>((n + (closed ? 1 : 0)) * 2);
    const a0 = m[0] as number,
      a1 = m[1] as number,
      a3 = m[3] as number,
      b0 = m[4] as number,
      b1 = m[5] as number,
      b3 = m[7] as number;
    for (let i = 0; i < n; i++) {
      const x = xy[2 * i] as number,
        y = xy[2 * i + 1] as number;
      w[2 * i] = a0 * x + a1 * y + a3;
      w[2 * i + 1] = b0 * x + b1 * y + b3;
    }
    if (closed) {
      w[2 * n] = w[0] as number;
      w[2 * n + 1] = w[1] as number;
    }
    this.emitStroke(style, w, m, options);
  }

  stroke3(style: number, m: Mat, xyz: ArrayLike<number>, closed: boolean, options?: StrokeOptions): void {
    const n = Math.floor(xyz.length / 3);
    if (n < 2) return;
    const w: number[] = new Array<number>((n + (closed ? 1 : 0)) * 2);
    for (let i = 0; i < n; i++) {
      const [x, y] = apply(m, xyz[3 * i] as number, xyz[3 * i + 1] as number, xyz[3 * i + 2] as number);
      w[2 * i] = x;
      w[2 * i + 1] = y;
    }
    if (closed) {
      w[2 * n] = w[0] as number;
      w[2 * n + 1] = w[1] as number;
    }
    this.emitStroke(style, w, m, options);
  }

  /** `w` is already in world coordinates; dashes are in the units of `m`'s source space. */
  private emitStroke(style: number, w: number[], m: Mat, options?: StrokeOptions): void {
    if (!this.budget(w.length >> 1)) return;
    for (let i = 0; i < w.length; i++) if (!Number.isFinite(w[i])) return;
    const pattern = options?.dashes;
    if (pattern) {
      const s = scaleOf(m);
      const world: DashPattern = { dashes: pattern.dashes.map((d) => d * s), total: pattern.total * s };
      // Dashes shorter than the tolerance cannot be seen: draw the line continuous.
      if (world.total > this.baseTolerance * 4) {
        const marks = pattern.marks;
        const f = s * (pattern.markScale ?? 1);
        dashPolyline(
          w,
          world,
          options?.restartAtVertices ?? false,
          this.baseTolerance,
          (run) => this.out.strokeWorld(style, run),
          marks
            ? (i, x, y, ux, uy) => {
                const mark = marks[i];
                if (mark) drawMark(this, style, mark, x, y, ux, uy, f);
              }
            : undefined,
        );
        return;
      }
    }
    this.out.strokeWorld(style, w);
  }

  fill(style: number, m: Mat, rings: ArrayLike<number>[], options?: FillOptions): void {
    const world: number[][] = [];
    let total = 0;
    for (const r of rings) {
      const n = r.length >> 1;
      if (n < 3) continue;
      const w = new Array<number>(n * 2);
      for (let i = 0; i < n; i++) {
        const [x, y] = apply(m, r[2 * i] as number, r[2 * i + 1] as number);
        if (!Number.isFinite(x) || !Number.isFinite(y)) return;
        w[2 * i] = x;
        w[2 * i + 1] = y;
      }
      total += n;
      world.push(w);
    }
    if (!world.length || !this.budget(total)) return;
    this.out.fillWorld(style, world, options?.wipeout ? 'wipeout' : 'fill', options?.gradient, options?.rule ?? 'evenodd');
  }

  text(t: Omit<TextPrimitive, 'kind' | 'font'>, font: FontRef): void {
    if (!t.text || !(t.size > 0) || !t.matrix.every(Number.isFinite)) return;
    if (!this.budget(4)) return;
    this.out.text({ kind: 'text', ...t, font: this.out.font(font) });
  }

  /** What the entities of a block reference inherit from it (ByBlock values, layer 0's layer). */
  private ownerOf(owner: EntityBase): Owner {
    const layer = this.addLayer(this.effectiveLayer(owner));
    const color = this.resolveColor(owner, owner.color, layer);
    let linetype = owner.linetype || 'BYLAYER';
    if (linetype.toUpperCase() === 'BYLAYER') linetype = layer.linetype;
    else if (linetype.toUpperCase() === 'BYBLOCK') linetype = this.owner?.linetype ?? 'CONTINUOUS';
    return {
      layer: this.layerInfos[layer.index]?.name ?? owner.layer,
      color,
      linetype,
      lineweight: this.resolveLineweight(owner, layer),
      ltscale: (this.owner?.ltscale ?? 1) * (owner.ltscale > 0 ? owner.ltscale : 1),
    };
  }

  drawBlock(name: string, m: Mat, owner: EntityBase): void {
    const key = this.scope.blocksByName.get(name.toUpperCase());
    const block = key === undefined ? undefined : this.drawing.blocks[key];
    if (!block) {
      this.warn({ code: 'missing-block', subject: name, message: `Block "${name}" is referenced but not defined` });
      return;
    }
    if (block.xref && !block.attached)
      this.warn({ code: 'xref', subject: name, message: `External reference "${block.xrefPath || name}" is not attached` });
    const active = this.scope.prefix + (key as string);
    if (this.depth >= MAX_DEPTH || this.activeBlocks.has(active)) return;
    const savedMatrix = this.matrix;
    const savedOwner = this.owner;
    const savedScope = this.scope;
    this.owner = this.ownerOf(owner);
    const attached = block.xref ? block.attached : undefined;
    const bp = attached ? xrefBase(block, attached.drawing) : block.basePoint;
    this.matrix = bp[0] || bp[1] || bp[2] ? multiply(m, translation(-bp[0], -bp[1], -bp[2])) : m;
    this.depth++;
    this.activeBlocks.add(active);
    try {
      if (attached) {
        // The referenced drawing's model space, with its own blocks, linetypes and layers.
        this.scope = this.xrefScope(block, attached.drawing);
        const d = attached.drawing;
        const record = d.blockRecords.find((r) => r.name.toUpperCase() === '*MODEL_SPACE')?.handle;
        for (const e of this.ordered(d.modelSpace, record)) if (e.type !== 'VIEWPORT') this.drawEntity(e);
      } else {
        for (const e of this.ordered(block.entities, block.recordHandle)) {
          if (e.type === 'ATTDEF') continue;
          this.drawEntity(e);
        }
      }
    } finally {
      this.activeBlocks.delete(active);
      this.depth--;
      this.matrix = savedMatrix;
      this.owner = savedOwner;
      this.scope = savedScope;
    }
  }

  private xrefScope(block: Block, drawing: Drawing): Scope {
    const prefix = `${this.scope.prefix}${block.name}|`;
    let scope = this.xrefScopes.get(prefix.toUpperCase());
    if (!scope || scope.drawing !== drawing) {
      scope = scopeOf(drawing, prefix);
      this.xrefScopes.set(prefix.toUpperCase(), scope);
    }
    return scope;
  }

  /**
   * A picture supplied with the drawing, placed by `place` in the coordinate system of `m`: the
   * top-left corner, then the vectors along its full width and down its full height; `clip`
   * (x, y pairs in the same system) the part shown, null for all of it.
   */
  image(style: number, m: Mat, picture: AttachedImage, place: readonly number[], clip: readonly number[] | null): void {
    const [ox, oy, ux, uy, vx, vy] = place as [number, number, number, number, number, number];
    const [x0, y0] = apply(m, ox, oy, 0);
    const [x1, y1] = apply(m, ox + ux, oy + uy, 0);
    const [x2, y2] = apply(m, ox + vx, oy + vy, 0);
    const matrix: [number, number, number, number, number, number] = [x1 - x0, y1 - y0, x2 - x0, y2 - y0, x0, y0];
    if (!matrix.every(Number.isFinite) || !this.budget(4)) return;
    const ring: number[] = [];
    for (let i = 0; clip && i + 1 < clip.length; i += 2) {
      const [x, y] = apply(m, clip[i] as number, clip[i + 1] as number, 0);
      ring.push(x, y);
    }
    if (ring.length >= 6 && ring.every(Number.isFinite)) {
      this.out.beginClip(ring, false);
      try {
        this.out.image(style, picture, matrix);
      } finally {
        this.out.endClip();
      }
    } else this.out.image(style, picture, matrix);
  }

  drawEntity(e: Entity): void {
    if (!e.visible) return;
    this.countEntity();
    const layer = this.addLayer(this.effectiveLayer(e));
    if (!this.options.includeHiddenLayers) {
      if (layer.frozen) return;
      if (!layer.on && e.type !== 'INSERT') return;
    }
    try {
      if ((HANDLERS[e.type] as DrawEntity)(e, this) !== false) this.count(e.type);
    } catch (err) {
      if (err instanceof CadLimitError) throw err;
      // One malformed entity must not lose the drawing.
      this.skip(e.type);
      this.warn({
        code: 'unsupported-entity',
        subject: e.type,
        message: `A ${e.type} entity could not be drawn: ${(err as Error).message}`,
      });
    }
  }

  count(type: string): void {
    this.drawn[type] = (this.drawn[type] ?? 0) + 1;
  }

  skip(type: string): void {
    this.skipped[type] = (this.skipped[type] ?? 0) + 1;
  }

  warn(w: BuildWarning): void {
    const key = `${w.code}|${w.subject}`;
    if (!this.warningMap.has(key)) this.warningMap.set(key, w);
  }

  // ---- INSERT / MINSERT -----------------------------------------------------------------------

  drawInsert(e: InsertEntity): void {
    const [sx, sy, sz] = e.scale;
    if (!sx || !sy || !Number.isFinite(sx) || !Number.isFinite(sy)) return;
    const base = multiply(
      this.ocs(e),
      multiply(translation(e.insertion[0], e.insertion[1], e.insertion[2]), rotationZ((e.rotation * Math.PI) / 180)),
    );
    const cols = Math.max(1, Math.min(e.columnCount || 1, 10_000));
    const rows = Math.max(1, Math.min(e.rowCount || 1, 10_000));
    const scale: Mat = [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, sz || 1, 0];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (c || r) this.countEntity();
        const cell = c || r ? multiply(base, translation(c * e.columnSpacing, r * e.rowSpacing)) : base;
        const m = multiply(cell, scale);
        const ring = e.clip ? this.clipRing(e, m) : null;
        if (!ring || !e.clip) {
          this.drawBlock(e.name, m, e);
          continue;
        }
        this.out.beginClip(ring, e.clip.inverted);
        try {
          this.drawBlock(e.name, m, e);
        } finally {
          this.out.endClip();
        }
        // $XCLIPFRAME 1: the clipping frame is displayed and plotted (0: neither, 2: displayed only).
        if (Number(this.root.header.vars['$XCLIPFRAME']) === 1)
          this.out.strokeWorld(this.style(e), [...ring, ring[0] as number, ring[1] as number]);
      }
    }
    // Attributes belong to the reference: on layer 0 they take its layer (and its visibility), ByBlock its colour.
    if (!e.attributes.length) return;
    const savedOwner = this.owner;
    this.owner = this.ownerOf(e);
    try {
      for (const a of e.attributes) {
        if ((a.attributeFlags ?? 0) & 1) continue;
        this.drawEntity(a);
      }
    } finally {
      this.owner = savedOwner;
    }
  }

  /** The XCLIP boundary of a reference in world coordinates (x, y pairs); `m` maps block coordinates as drawBlock gets it. */
  private clipRing(e: Extract<Entity, { type: 'INSERT' }>, m: Mat): number[] | null {
    const key = this.scope.blocksByName.get(e.name.toUpperCase());
    const bp = (key === undefined ? undefined : this.drawing.blocks[key])?.basePoint ?? [0, 0, 0];
    const bm = bp[0] || bp[1] || bp[2] ? multiply(m, translation(-bp[0], -bp[1], -bp[2])) : m;
    const ring: number[] = [];
    for (const [x, y] of e.clip?.boundary ?? []) {
      const [wx, wy] = apply(bm, x, y, 0);
      if (!Number.isFinite(wx) || !Number.isFinite(wy)) return null;
      ring.push(wx, wy);
    }
    return ring.length >= 6 ? ring : null;
  }

  // ---- XLINE / RAY ------------------------------------------------------------------------------

  addXline(e: XLineEntity): void {
    const [bx, by] = apply(this.matrix, e.base[0], e.base[1], e.base[2]);
    const [ex, ey] = apply(this.matrix, e.base[0] + e.direction[0], e.base[1] + e.direction[1], e.base[2] + e.direction[2]);
    const dx = ex - bx,
      dy = ey - by;
    const len = Math.hypot(dx, dy);
    if (!(len > 0)) return;
    this.xlines.push({ style: this.style(e), base: [bx, by], dir: [dx / len, dy / len], ray: e.type === 'RAY' });
  }

  /** Construction lines are clipped to the extents of everything else (or a box around themselves). */
  private emitXlines(): void {
    if (!this.xlines.length) return;
    let b = this.out.bounds();
    if (!b) {
      b = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
      for (const x of this.xlines) {
        b.minX = Math.min(b.minX, x.base[0] - 1);
        b.maxX = Math.max(b.maxX, x.base[0] + 1);
        b.minY = Math.min(b.minY, x.base[1] - 1);
        b.maxY = Math.max(b.maxY, x.base[1] + 1);
      }
    }
    for (const x of this.xlines) {
      const seg = clipLine(x.base, x.dir, x.ray, b);
      if (seg) this.out.strokeWorld(x.style, seg);
    }
  }
}

// ---- extents and tolerance ----------------------------------------------------------------------

/**
 * Where an attached xref's drawing sits in its block: the host's block base point when it has one
 * (AutoCAD keeps the xref's INSBASE there), else the referenced drawing's $INSBASE.
 */
function xrefBase(block: Block, drawing: Drawing): [number, number, number] {
  const bp = block.basePoint;
  if (bp[0] || bp[1] || bp[2]) return bp;
  const v = drawing.header.vars['$INSBASE'];
  return Array.isArray(v) && v.length >= 2 && v.every((n) => typeof n === 'number' && Number.isFinite(n))
    ? [v[0] as number, v[1] as number, (v[2] as number | undefined) ?? 0]
    : [0, 0, 0];
}
