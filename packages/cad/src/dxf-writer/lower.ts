/**
 * What a DXF version cannot hold, turned into what it can: every rule counts each object it
 * changes through `note` (a structured save-as note, decision 0037), so the writer reports each
 * kind of change once with its count.
 */
import { aciColor } from '../geom/color';
import { clipSpan, type Box2 } from '../geom/clip';
import { apply3, isDefaultExtrusion, ocsToWcs } from '../geom/matrix';
import { plainMText } from '../text/mtext-parser';
import type {
  Block,
  Drawing,
  Entity,
  EntityBase,
  HatchEntity,
  InsertEntity,
  LineEntity,
  LwPolylineEntity,
  MLeaderEntity,
  MTextEntity,
  PolylineEntity,
  QuadEntity,
  TextEntity,
  XLineEntity,
} from '../model';
import { change, type SaveAsHow, type SaveAsNote } from '../save-as';
import { extentsOf, keyPointBox } from './extents';
import { ellipsePoints, fillTrapezoids, hatchRings, patternLines, patternSegments, splinePolyline } from './geometry';
import type { Vec3 } from '../geom/vector';

const MAX_PATTERN_SEGMENTS = 100_000;
/** Bands a gradient is written as where the version has no gradients. */
const GRADIENT_BANDS = 48;

/** The common fields of `e`, for the entities that replace it (handle and owner are new). */
function baseOf(e: Entity): EntityBase {
  const b: EntityBase = {
    layer: e.layer,
    color: { ...e.color },
    linetype: e.linetype,
    ltscale: e.ltscale,
    lineweight: e.lineweight,
    visible: e.visible,
    extrusion: e.extrusion,
    paperSpace: e.paperSpace,
  };
  if (e.thickness !== undefined) b.thickness = e.thickness;
  if (e.transparency !== undefined) b.transparency = e.transparency;
  return b;
}

/**
 * Draws an object as the entities the display draws it with (save-as-graphics.ts, above the
 * display floor, decision 0037); null when it has nothing to draw.
 */
export interface GraphicsLowering {
  draw(e: Entity): Entity[] | null;
}

/**
 * The pieces written for `source`, with its extended data where it can go: an object written as one
 * (itself, or converted: an R12 POLYLINE for an LWPOLYLINE) keeps it; written as several, none of
 * them carries it (copied onto each, an add-on would find its object several times) and `lost` says so.
 */
export function withXdata(source: Entity, pieces: Entity[]): { pieces: Entity[]; lost: boolean } {
  const xdata = source.xdata?.length ? source.xdata : undefined;
  if (pieces.length === 1) {
    const only = pieces[0] as Entity;
    return { pieces: xdata && only.xdata !== xdata ? [{ ...only, xdata }] : pieces, lost: false };
  }
  return {
    pieces: pieces.map((e) => (e.xdata ? { ...e, xdata: undefined } : e)),
    lost: !!xdata && pieces.length > 1,
  };
}

export class Lowering {
  private readonly blocks = new Map<string, Block>();
  /** While the entities replacing one object are lowered further, only that object is counted. */
  private muted = 0;

  constructor(
    private readonly d: Drawing,
    private readonly year: number,
    private readonly tol: number,
    private readonly report: (n: SaveAsNote) => void,
    private readonly graphics?: GraphicsLowering,
    /** The first release that holds an MTEXT background mask: DXF 2007, DWG 2004. */
    private readonly backgroundFrom = 2007,
  ) {
    for (const b of Object.values(d.blocks)) this.blocks.set(b.name.toUpperCase(), b);
  }

  private note(type: string, how: SaveAsHow, what: string): void {
    if (!this.muted) this.report(change(type, how, what));
  }

  /** The entities replacing one object, lowered further for this version without being counted again. */
  private lowerAll(es: Entity[]): Entity[] {
    this.muted++;
    try {
      return es.flatMap((x) => this.lower(x));
    } finally {
      this.muted--;
    }
  }

  /** The entities written for `e` (itself when the version holds it). */
  lower(e: Entity): Entity[] {
    const r12 = this.year === 12;
    switch (e.type) {
      case 'UNKNOWN': {
        const g = e.graphics ? this.graphics?.draw(e) : null;
        if (g) {
          this.note(e.dxfType, 'proxy-graphics', 'kept as its proxy graphics (lines, fills and text)');
          return this.lowerAll(g);
        }
        // Kept as UNKNOWN by the reader (custom objects, and types it does not decode): with no proxy
        // graphics to draw (none, or none that draw anything) there is nothing to write.
        this.note(e.dxfType, 'no-graphics', 'left out (an object the writer cannot encode, with no proxy graphics to keep)');
        return [];
      }
      case 'ACIS':
      case 'UNDERLAY':
        // Not written yet (its modeler data is kept by no writer): left out as before it was read.
        this.note(e.dxfType, 'no-graphics', 'left out (an object the writer cannot encode, with no proxy graphics to keep)');
        return [];
      case 'INSERT':
        // A reference to a block the drawing does not define (a damaged file, or one the reader
        // could not take the block from): a reader of the result would refuse it. (References the
        // graphic lowering makes, e.g. to an arrowhead block, are the writer's own affair.)
        if (this.muted || this.blocks.has(e.name.toUpperCase())) break;
        this.note('INSERT', 'broken-input', 'left out (its block is missing)');
        return [];
      case 'ACAD_TABLE': {
        const b = this.blocks.get(e.block.toUpperCase());
        if (!b) {
          const g = this.graphics?.draw(e);
          if (g) {
            this.note('ACAD_TABLE', 'graphics', 'drawn as its cell borders and texts (its table block is missing)');
            return this.lowerAll(g);
          }
          this.note('ACAD_TABLE', 'broken-input', 'left out (its table block is missing and its cells were not read)');
          return [];
        }
        this.note('ACAD_TABLE', 'block', 'written as a reference to its table block');
        return [this.insert(e, b.name, e.insertion)];
      }
      case 'TOLERANCE':
      case 'SHAPE':
      case 'OLE2FRAME': {
        // R13 and later hold a feature control frame itself; R12 gets what the display draws.
        if (e.type === 'TOLERANCE' && !r12) break;
        // Written as what the display draws (frame lines, symbols and text; the shape's strokes; the
        // OLE frame and its preview picture): the writer has no encoding of its own for them.
        const g = this.graphics?.draw(e);
        if (g?.length) {
          this.note(e.type, 'graphics', 'written as its lines, fills and text');
          return this.lowerAll(g);
        }
        this.note(e.type, 'no-graphics', 'left out (nothing of it could be drawn)');
        return [];
      }
      case 'MLINE': {
        this.note('MLINE', 'polyline', 'written as one polyline per element line');
        const count = Math.max(0, ...e.vertices.map((v) => v.params.length));
        const out: Entity[] = [];
        for (let j = 0; j < count; j++) {
          const pts = e.vertices.map((v): Vec3 => {
            const t = v.params[j]?.[0] ?? 0;
            return [v.position[0] + v.miter[0] * t, v.position[1] + v.miter[1] * t, v.position[2] + v.miter[2] * t];
          });
          out.push(this.wcsPolyline(e, pts, e.closed));
        }
        return out;
      }
      case 'MULTILEADER': {
        const g = this.graphics?.draw(e);
        if (g) {
          this.note('MULTILEADER', 'graphics', 'drawn as its leader lines, arrowheads, landing, frame and content');
          return this.lowerAll(g);
        }
        this.note('MULTILEADER', 'graphics', 'written as its leader lines and text');
        return this.lowerAll(this.mleader(e));
      }
      case 'MTEXT': {
        // A background fill (and its frame) the version cannot hold: drawn as the display draws it
        // (a solid fill and a closed polyline behind the text), the text kept without it.
        const bg = e.background;
        if (bg && bg.flags & 1 && this.year !== 12 && this.year < this.backgroundFrom) {
          const behind = (this.graphics?.draw(e) ?? []).filter((x) => x.type === 'HATCH' || (x.type === 'LWPOLYLINE' && x.closed));
          if (behind.length) {
            this.note('MTEXT', 'graphics', 'background mask drawn as a solid fill behind the text');
            const { background: _bg, ...text } = e;
            return [...this.lowerAll(behind), ...this.lower(text)];
          }
        }
        // Columns (2018's MTEXT holds them; the writers write them from 2018): before, the text is
        // laid out in its columns and written as TEXT runs where the columns put its lines.
        const c = e.columns;
        const columns = c && c.type > 0 && (c.count > 1 || c.heights.filter((h) => h > 0).length > 1);
        if (!columns || this.year >= 2018 || this.year === 12) break;
        const g = this.graphics?.draw(e);
        if (!g) break;
        this.note('MTEXT', 'text', `columns written as TEXT lines (MTEXT has columns from 2018)`);
        return this.lowerAll(g);
      }
      case 'HATCH': {
        // Gradients arrive in 2004: before, bands of solid fills in the colours the gradient has
        // there (a linear or cylinder gradient), else one solid fill in its first colour (R12's
        // hatch rule below takes that colour too).
        if (!e.gradient || this.year >= 2004) break;
        const bands = this.gradientBands(e);
        if (!bands && r12) break;
        const year = r12 ? 'R12' : String(this.year);
        this.note(
          'HATCH',
          'solid-fill',
          `gradient fills written as ${bands ? 'bands of solid fills' : 'solid fills'} (${year} has no gradients)`,
        );
        // R12 has no HATCH: each band as the SOLIDs of its pieces.
        if (bands && r12) return bands.flatMap((b) => this.solids(b));
        if (bands) return bands;
        const first = e.gradient.colors[0];
        const { gradient: _g, ...rest } = e;
        return [{ ...rest, solid: true, pattern: 'SOLID', patternLines: [], ...(first ? { color: { ...first } } : {}) }];
      }
      case 'MESH':
        if (this.year >= 2010) return [e];
        this.note('MESH', 'polyface', `written as a polyface mesh (DXF ${this.year === 12 ? 'R12' : this.year} has no MESH)`);
        return [
          this.polyface(
            e,
            e.vertices,
            e.faces.map((f) => f.map((i) => i + 1)),
          ),
        ];
      default:
    }
    if (!r12) return [e];
    switch (e.type) {
      case 'MTEXT': {
        this.note('MTEXT', 'text', 'written as TEXT lines, one per line (R12 has no MTEXT)');
        const g = this.graphics?.draw(e);
        return g ? this.lowerAll(g) : this.mtextLines(e);
      }
      case 'LWPOLYLINE':
        this.note('LWPOLYLINE', 'polyline', 'written as POLYLINE (R12)');
        return [this.fromLw(e)];
      case 'ELLIPSE': {
        this.note('ELLIPSE', 'polyline', 'written as a polyline within the chord tolerance (R12)');
        const pts = ellipsePoints(e, this.tol);
        const full = Math.abs(e.endParam - e.startParam) >= Math.PI * 2 - 1e-9 || Math.abs(e.endParam - e.startParam) < 1e-12;
        return [this.wcsPolyline(e, pts, full)];
      }
      case 'SPLINE': {
        this.note('SPLINE', 'polyline', 'written as a polyline within the chord tolerance (R12)');
        const pts = splinePolyline(e, this.tol);
        const a = pts[0],
          z = pts[pts.length - 1];
        const closed = e.closed && pts.length > 2 && !!a && !!z && a[0] === z[0] && a[1] === z[1] && a[2] === z[2];
        if (closed) pts.pop();
        return [this.wcsPolyline(e, pts, closed)];
      }
      case 'HATCH':
        return this.hatch(e);
      case 'DIMENSION': {
        const b = this.blocks.get(e.block.toUpperCase());
        if (!b) {
          const g = this.graphics?.draw(e);
          if (g) {
            this.note(
              'DIMENSION',
              'graphics',
              'drawn as its lines, arrowheads and text (its block is missing; R12 has no dimension entity of its own)',
            );
            return this.lowerAll(g);
          }
          this.note('DIMENSION', 'broken-input', 'left out (its block is missing; R12 gets dimensions as block references)');
          return [];
        }
        this.note('DIMENSION', 'block', 'written as a reference to its block (R12)');
        return [this.insert(e, b.name, b.basePoint)];
      }
      case 'LEADER': {
        // As the display draws it: its path (a spline one as its curve), arrowhead and hook line.
        const g = this.graphics?.draw(e);
        if (g) {
          this.note('LEADER', 'graphics', 'drawn as its lines and arrowhead (R12 has no LEADER)');
          return this.lowerAll(g);
        }
        this.note('LEADER', 'polyline', 'written as a polyline (R12)');
        return [this.wcsPolyline(e, e.vertices, false)];
      }
      case 'XLINE':
      case 'RAY': {
        // A construction line has no ends: R12 gets the line the display draws, across the extents
        // of the drawing's other objects (the drawing looks the same at its extents).
        const line = this.acrossExtents(e);
        if (line) {
          this.note(e.type, 'line', 'written as a LINE across the drawing (R12 has no construction lines)');
          return [line];
        }
        this.note(e.type, 'not-in-version', `left out (R12 has no ${e.type})`);
        return [];
      }
      case 'IMAGE': {
        // The pixels are an external file R12 cannot refer to: its frame (what the display draws
        // of an image) keeps its place.
        const frame = this.graphics?.draw(e);
        if (frame?.length) {
          this.note('IMAGE', 'frame', 'left out, its frame kept as a polyline (R12 has no raster images)');
          return this.lowerAll(frame);
        }
        this.note(e.type, 'not-in-version', `left out (R12 has no ${e.type})`);
        return [];
      }
      case 'WIPEOUT':
        this.note(e.type, 'not-in-version', `left out (R12 has no ${e.type})`);
        return [];
      default:
        return [e];
    }
  }

  /**
   * An XLINE or RAY as the LINE the display draws for it: clipped to the extents of the other objects
   * of its space (model space: the drawing's extents; a paper layout: its entities'), null when it
   * misses them or they are empty.
   */
  private acrossExtents(e: XLineEntity): LineEntity | null {
    const box = this.extentsFor(e.paperSpace);
    if (!box) return null;
    const [px, py, pz] = e.base;
    const [dx, dy, dz] = e.direction;
    const span = clipSpan([px, py], [dx, dy], e.type === 'RAY', box);
    if (!span) return null;
    const at = (t: number): Vec3 => [px + dx * t, py + dy * t, pz + dz * t];
    return { ...baseOf(e), type: 'LINE', start: at(span[0]), end: at(span[1]) };
  }

  private readonly extents = new Map<boolean, Box2 | null>();
  private extentsFor(paper: boolean): Box2 | null {
    if (this.extents.has(paper)) return this.extents.get(paper) ?? null;
    let box: Box2 | null = null;
    if (!paper) {
      const [a, b] = extentsOf(this.d, (x) => x.type !== 'XLINE' && x.type !== 'RAY');
      if (b[0] > a[0] || b[1] > a[1]) box = { minX: a[0], minY: a[1], maxX: b[0], maxY: b[1] };
    } else {
      // The paper space R12 keeps: the active layout's (*Paper_Space).
      const papers = this.d.layouts.filter((l) => !l.isModel);
      const layout = papers.find((l) => l.blockName.toUpperCase() === '*PAPER_SPACE') ?? papers[0];
      box = keyPointBox((layout?.entities ?? []).filter((x) => x.type !== 'XLINE' && x.type !== 'RAY'));
    }
    this.extents.set(paper, box);
    return box;
  }

  private insert(e: Entity, name: string, at: Vec3): InsertEntity {
    return {
      ...baseOf(e),
      type: 'INSERT',
      name,
      insertion: at,
      scale: [1, 1, 1],
      rotation: 0,
      columnCount: 1,
      rowCount: 1,
      columnSpacing: 0,
      rowSpacing: 0,
      attributes: [],
    };
  }

  private polylineOf(e: Entity, kind: PolylineEntity['kind'], pts: Vec3[], closed: boolean, elevation: number): PolylineEntity {
    const base = baseOf(e);
    if (kind === '3d') base.extrusion = [0, 0, 1];
    return {
      ...base,
      type: 'POLYLINE',
      kind,
      flags: (closed ? 1 : 0) | (kind === '3d' ? 8 : 0),
      closed,
      elevation,
      defaultStartWidth: 0,
      defaultEndWidth: 0,
      m: 0,
      n: 0,
      meshClosedN: false,
      vertices: pts.map((p) => ({ position: p, bulge: 0, startWidth: 0, endWidth: 0, flags: 0 })),
      faces: [],
    };
  }

  /**
   * WCS points as the simplest polyline that holds them: flat ones (constant z, default extrusion)
   * as LWPOLYLINE (2000+) or 2D POLYLINE (R12), others as a 3D POLYLINE.
   */
  private wcsPolyline(e: Entity, pts: Vec3[], closed: boolean): Entity {
    const z = pts[0]?.[2] ?? 0;
    const flat = isDefaultExtrusion(e.extrusion) && pts.every((p) => p[2] === z);
    if (!flat) return this.polylineOf(e, '3d', pts, closed, 0);
    if (this.year === 12)
      return this.polylineOf(
        e,
        '2d',
        pts.map((p) => [p[0], p[1], z]),
        closed,
        z,
      );
    const lw: LwPolylineEntity = {
      ...baseOf(e),
      type: 'LWPOLYLINE',
      vertices: pts.map((p) => ({ x: p[0], y: p[1], bulge: 0, startWidth: 0, endWidth: 0 })),
      closed,
      plinegen: false,
      constantWidth: 0,
      elevation: z,
    };
    return lw;
  }

  private fromLw(e: LwPolylineEntity): PolylineEntity {
    const pl = this.polylineOf(e, '2d', [], e.closed, e.elevation);
    pl.flags |= e.plinegen ? 128 : 0;
    pl.defaultStartWidth = e.constantWidth;
    pl.defaultEndWidth = e.constantWidth;
    pl.vertices = e.vertices.map((v) => ({
      position: [v.x, v.y, e.elevation],
      bulge: v.bulge,
      startWidth: v.startWidth || e.constantWidth,
      endWidth: v.endWidth || e.constantWidth,
      flags: 0,
    }));
    return pl;
  }

  private polyface(e: Entity, vertices: Vec3[], faces: number[][]): PolylineEntity {
    const pl = this.polylineOf(e, 'polyface', vertices, false, 0);
    pl.extrusion = [0, 0, 1];
    pl.flags = 64;
    pl.faces = faces;
    return pl;
  }

  /** MTEXT → one TEXT per line, placed as the MTEXT's attachment point would place the block of lines. */
  private mtextLines(e: MTextEntity): TextEntity[] {
    const lines = plainMText(e.text).split('\n');
    const h = e.height || 1;
    const pitch = ((h * 5) / 3) * (e.lineSpacingFactor || 1);
    const att = Math.min(9, Math.max(1, e.attachment || 1));
    const col = (att - 1) % 3;
    const row = Math.floor((att - 1) / 3);
    const n = lines.length;
    // The direction vector, when there is one, wins over the rotation (WCS; a flat MTEXT's OCS is the WCS).
    const dir = e.direction && Math.hypot(e.direction[0], e.direction[1]) > 1e-12 ? e.direction : undefined;
    const rotation = dir ? (Math.atan2(dir[1], dir[0]) * 180) / Math.PI : e.rotation;
    const a = (rotation * Math.PI) / 180;
    const vx = -Math.sin(a),
      vy = Math.cos(a);
    const out: TextEntity[] = [];
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const y = row === 0 ? -h - i * pitch : row === 1 ? (h + (n - 1) * pitch) / 2 - h - i * pitch : (n - 1 - i) * pitch;
      const p: Vec3 = [e.insertion[0] + vx * y, e.insertion[1] + vy * y, e.insertion[2]];
      const t: TextEntity = {
        ...baseOf(e),
        type: 'TEXT',
        text: line,
        insertion: p,
        height: h,
        rotation,
        widthFactor: 1,
        oblique: 0,
        style: e.style,
        halign: col,
        valign: 0,
        generation: 0,
      };
      if (col) t.alignPoint = p;
      out.push(t);
    });
    return out;
  }

  private mleader(e: MLeaderEntity): Entity[] {
    const out: Entity[] = [];
    const base = { ...e, extrusion: [0, 0, 1] as Vec3 };
    if (e.leaderColor && e.leaderColor.aci !== 0) base.color = { ...e.leaderColor };
    if (e.leaderType !== 0)
      for (const leader of e.leaders) {
        for (const line of leader.lines) {
          const pts = [...line.vertices];
          if (leader.lastPoint) pts.push(leader.lastPoint);
          if (pts.length >= 2) out.push(this.wcsPolyline(base, pts, false));
        }
        if (leader.lastPoint && leader.doglegVector && e.hasDogleg !== false && leader.doglegLength) {
          const p = leader.lastPoint,
            dv = leader.doglegVector,
            l = leader.doglegLength;
          out.push(this.wcsPolyline(base, [p, [p[0] + dv[0] * l, p[1] + dv[1] * l, p[2] + dv[2] * l]], false));
        }
      }
    if (e.text && e.textPosition) {
      const dir = e.textDirection ?? [1, 0, 0];
      const m: MTextEntity = {
        ...baseOf(e),
        extrusion: [0, 0, 1],
        type: 'MTEXT',
        text: e.text,
        insertion: e.textPosition,
        height: e.textHeight ?? 2.5,
        width: (e.textWidth ?? 0) * (e.contentScale ?? 1),
        attachment: Math.min(3, Math.max(1, e.textAlignment ?? 1)),
        drawingDirection: 1,
        rotation: (Math.atan2(dir[1], dir[0]) * 180) / Math.PI,
        style: 'Standard',
        lineSpacingFactor: e.textLineSpacingFactor ?? 1,
        lineSpacingStyle: e.textLineSpacingStyle ?? 1,
      };
      if (e.textColor && e.textColor.aci !== 0) m.color = { ...e.textColor };
      out.push(m);
    }
    return out;
  }

  /**
   * A linear or cylinder gradient as GRADIENT_BANDS solid HATCHes across its axis, each in the
   * colour the display's gradient has at its middle (colours as hatch.ts resolves them: one-colour
   * gradients run to the colour's shade or tint; INV* swap the ends). Null for radial gradients.
   */
  private gradientBands(e: HatchEntity): HatchEntity[] | null {
    const g = e.gradient;
    const name = (g?.name || 'LINEAR').toUpperCase();
    if (!g || !g.colors.length || /SPHER|CURVED|HEMI/.test(name)) return null;
    const rgbOf = (c: { aci?: number; rgb?: number } | undefined): number => (c?.rgb !== undefined ? c.rgb : aciColor(c?.aci ?? 7));
    const mix = (a: number, b: number, f: number): number => {
      const ch = (sh: number): number => Math.round(((a >> sh) & 255) * (1 - f) + ((b >> sh) & 255) * f);
      return (ch(16) << 16) | (ch(8) << 8) | ch(0);
    };
    let c0 = rgbOf(g.colors[0]);
    let c1: number;
    if (g.singleColor || g.colors.length < 2) {
      const t = Number.isFinite(g.tint) ? Math.min(1, Math.max(0, g.tint)) : 0;
      c1 = t < 0.5 ? mix(c0, 0x000000, (0.5 - t) * 2) : mix(c0, 0xffffff, (t - 0.5) * 2);
    } else c1 = rgbOf(g.colors[1]);
    if (name.startsWith('INV')) [c0, c1] = [c1, c0];
    // Turn the gradient's axis onto +y, cut the area into bands across it, turn the pieces back.
    const turn = Math.PI / 2 - (Number.isFinite(g.angle) ? g.angle : 0);
    const [cos, sin] = [Math.cos(turn), Math.sin(turn)];
    const rings = hatchRings(e, this.tol).map((r) => r.map(([x, y]): [number, number] => [x * cos - y * sin, x * sin + y * cos]));
    const ys = rings.flat().map((p) => p[1]);
    const lo = Math.min(...ys),
      hi = Math.max(...ys);
    if (!(hi > lo)) return null;
    const cuts = Array.from({ length: GRADIENT_BANDS - 1 }, (_, k) => lo + ((k + 1) * (hi - lo)) / GRADIENT_BANDS);
    const byBand = new Map<number, HatchEntity['paths']>();
    for (const q of fillTrapezoids(rings, 20_000, cuts)) {
      const mid = (q[0][1] + q[2][1]) / 2;
      const band = Math.min(GRADIENT_BANDS - 1, Math.max(0, Math.floor(((mid - lo) / (hi - lo)) * GRADIENT_BANDS)));
      const back = ([x, y]: [number, number]): { x: number; y: number; bulge: number } => ({
        x: x * cos + y * sin,
        y: -x * sin + y * cos,
        bulge: 0,
      });
      const vertices = [q[0], q[1], q[3], q[2]].map(back);
      const paths = byBand.get(band) ?? [];
      paths.push({ flags: 2, polyline: { vertices, closed: true }, edges: [] });
      byBand.set(band, paths);
    }
    const { gradient: _g, ...rest } = e;
    return [...byBand].map(([band, paths]): HatchEntity => {
      const t = (band + 0.5) / GRADIENT_BANDS;
      const f = name.includes('CYLINDER') ? (t < 0.5 ? 2 * t : 2 - 2 * t) : t;
      return { ...rest, solid: true, pattern: 'SOLID', patternLines: [], paths, color: { rgb: mix(c0, c1, f) } };
    });
  }

  /** The SOLIDs of a solid HATCH's polyline paths (each a convex quad: a gradient band's pieces). */
  private solids(e: HatchEntity): QuadEntity[] {
    const base = baseOf(e);
    return e.paths.flatMap((p): QuadEntity[] => {
      const v = p.polyline?.vertices ?? [];
      if (v.length !== 4) return [];
      // SOLID corners go 1, 2, 4, 3 around the quad.
      const [a, b, c, d] = v.map((q): Vec3 => [q.x, q.y, e.elevation]) as [Vec3, Vec3, Vec3, Vec3];
      return [{ ...base, type: 'SOLID', points: [a, b, d, c] }];
    });
  }

  private hatch(e: HatchEntity): Entity[] {
    const rings = hatchRings(e, this.tol);
    const out: Entity[] = [];
    for (const ring of rings)
      out.push(
        this.polylineOf(
          e,
          '2d',
          ring.map(([x, y]) => [x, y, e.elevation]),
          true,
          e.elevation,
        ),
      );
    const fill = e.solid || e.gradient !== undefined;
    if (fill) {
      this.note('HATCH', 'hatch-lines', 'written as its boundary polylines and SOLID fills (R12)');
      const base = baseOf(e);
      const first = e.gradient?.colors[0];
      if (first) base.color = { ...first };
      for (const q of fillTrapezoids(rings)) {
        const solid: QuadEntity = {
          ...base,
          type: 'SOLID',
          points: q.map(([x, y]): Vec3 => [x, y, e.elevation]) as QuadEntity['points'],
        };
        out.push(solid);
      }
      return out;
    }
    this.note('HATCH', 'hatch-lines', 'written as its boundary polylines and pattern LINEs (R12)');
    const { segments, truncated } = patternSegments(rings, patternLines(e, this.d), MAX_PATTERN_SEGMENTS);
    if (truncated) this.note('HATCH', 'detail', `pattern cut at ${MAX_PATTERN_SEGMENTS} lines (too dense to expand)`);
    const toWcs = ocsToWcs(e.extrusion);
    const base = { ...baseOf(e), extrusion: [0, 0, 1] as Vec3 };
    for (const [x0, y0, x1, y1] of segments) {
      const line: LineEntity = {
        ...base,
        type: 'LINE',
        start: apply3(toWcs, x0, y0, e.elevation),
        end: apply3(toWcs, x1, y1, e.elevation),
      };
      out.push(line);
    }
    return out;
  }
}
