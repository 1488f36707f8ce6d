/**
 * Drawing model → DXF, R12 (AC1009) to 2018 (AC1032), ASCII or binary.
 *
 * Handles are fresh (the source's are not reused: a DWG's may clash with what is added here) and
 * every owner (330) points at a record written in the same file. What a version cannot hold is
 * turned into what it can (see `lower.ts`) and reported once per kind in `notes`.
 */
import { entityKeyPoints } from '../key-points';
import { nearestAci } from '../geom/color';
import type {
  Block,
  Color,
  DimensionEntity,
  Drawing,
  Entity,
  HatchEntity,
  ImageEntity,
  Layout,
  PolylineEntity,
  TextEntity,
} from '../model';
import { Groups, toAscii, toBinary, type GroupValue } from './encode';
import { Lowering } from './lower';
import type { Vec3 } from '../geom/vector';

export type DxfVersion = 'R12' | '2000' | '2004' | '2007' | '2010' | '2013' | '2018';
export const DXF_VERSIONS: readonly DxfVersion[] = ['R12', '2000', '2004', '2007', '2010', '2013', '2018'];
export const ACADVER: Record<DxfVersion, string> = {
  R12: 'AC1009',
  '2000': 'AC1015',
  '2004': 'AC1018',
  '2007': 'AC1021',
  '2010': 'AC1024',
  '2013': 'AC1027',
  '2018': 'AC1032',
};

export interface WriteDxfOptions {
  version: DxfVersion;
  /** Binary DXF instead of ASCII. */
  binary?: boolean;
}

export interface WriteDxfResult {
  bytes: Uint8Array;
  /** What was changed to fit the version, one line per kind of change. */
  notes: string[];
}

const upper = (s: string): string => s.toUpperCase();
const isDefaultExtrusion = (v: Vec3): boolean => v[0] === 0 && v[1] === 0 && v[2] === 1;
const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;

/** Number of the release: 12, 2000, 2004, ... */
const yearOf = (v: DxfVersion): number => (v === 'R12' ? 12 : Number(v));

/** Handles by table and (upper-case) name, given out on first use. */
class HandleTable {
  private readonly map = new Map<string, string>();
  readonly names = new Map<string, string>();
  constructor(private readonly next: () => string) {}
  get(name: string): string {
    const key = upper(name);
    let h = this.map.get(key);
    if (!h) {
      h = this.next();
      this.map.set(key, h);
      this.names.set(key, name);
    }
    return h;
  }
  has(name: string): boolean {
    return this.map.has(upper(name));
  }
}

interface Space {
  /** Block record name. */
  block: string;
  layout?: Layout;
  entities: Entity[];
  paper: boolean;
}

export function writeDxf(drawing: Drawing, options: WriteDxfOptions): WriteDxfResult {
  return new DxfWriter(drawing, options).write();
}

class DxfWriter {
  private readonly d: Drawing;
  private readonly year: number;
  private readonly r12: boolean;
  private readonly options: WriteDxfOptions;
  private seed = 0x20;
  private readonly notes = new Map<string, number>();
  private readonly lowering: Lowering;
  private readonly layers: HandleTable;
  private readonly ltypes: HandleTable;
  private readonly styles: HandleTable;
  private readonly dimstyles: HandleTable;
  private readonly records: HandleTable;
  private readonly layoutHandles: HandleTable;
  /** Source IMAGEDEF handle (or a file name) → new IMAGEDEF handle and file. */
  private readonly imageDefs = new Map<string, { handle: string; fileName: string; size?: [number, number] }>();
  private readonly classes = new Set<string>();
  private readonly tableHandles = new Map<string, string>();

  constructor(d: Drawing, options: WriteDxfOptions) {
    this.d = d;
    this.options = options;
    this.year = yearOf(options.version);
    this.r12 = this.year === 12;
    const next = (): string => this.handle();
    this.layers = new HandleTable(next);
    this.ltypes = new HandleTable(next);
    this.styles = new HandleTable(next);
    this.dimstyles = new HandleTable(next);
    this.records = new HandleTable(next);
    this.layoutHandles = new HandleTable(next);
    this.lowering = new Lowering(d, this.year, chordTolerance(d), (key) => this.note(key));
  }

  private handle(): string {
    return (this.seed++).toString(16).toUpperCase();
  }

  /** Counts one change of a kind; the notes say "KIND: n what". */
  private note(key: string): void {
    this.notes.set(key, (this.notes.get(key) ?? 0) + 1);
  }

  write(): WriteDxfResult {
    const d = this.d;
    for (const t of ['VPORT', 'LTYPE', 'LAYER', 'STYLE', 'VIEW', 'UCS', 'APPID', 'DIMSTYLE', 'BLOCK_RECORD']) this.tableHandles.set(t, this.handle());
    // Fixed entries first, so they keep low handles as AutoCAD's do.
    this.layers.get('0');
    for (const n of ['ByBlock', 'ByLayer', 'Continuous']) this.ltypes.get(n);
    this.styles.get('Standard');
    this.dimstyles.get('Standard');

    const spaces = this.spaces();
    const blocks = new Groups();
    const entities = new Groups();
    const userBlocks = Object.values(d.blocks).filter((b) => !LAYOUT_BLOCK.test(b.name));
    for (const s of spaces) this.records.get(s.block);
    for (const b of userBlocks) this.records.get(b.name);

    for (const s of spaces) {
      const inEntities = s.block === '*Model_Space' || s.block === '*Paper_Space';
      const block: Block = { name: this.r12 ? s.block.replace('*', '$').toUpperCase() : s.block, basePoint: [0, 0, 0], flags: 0, anonymous: false, xref: false, layer: '0', entities: [] };
      this.writeBlock(blocks, block, s.paper, inEntities ? [] : s.entities);
      if (inEntities) for (const e of s.entities) this.writeEntity(entities, e, this.records.get(s.block), s.paper);
    }
    for (const b of userBlocks) this.writeBlock(blocks, b, false, b.entities);

    const objects = this.r12 ? null : this.objects(spaces);
    const tables = this.tables(spaces);
    const header = this.header();

    const out = new Groups();
    const section = (name: string, body: Groups): void => {
      out.g(0, 'SECTION').g(2, name).append(body).g(0, 'ENDSEC');
    };
    section('HEADER', header);
    if (!this.r12) section('CLASSES', this.classList());
    section('TABLES', tables);
    section('BLOCKS', blocks);
    section('ENTITIES', entities);
    if (objects) section('OBJECTS', objects);
    out.g(0, 'EOF');

    const unicode = this.year >= 2007;
    const bytes = this.options.binary ? toBinary(out, unicode, this.r12) : toAscii(out, unicode);
    const notes = [...this.notes].map(([key, n]) => {
      const colon = key.indexOf(':');
      return colon < 0 ? `${key} (${n})` : `${key.slice(0, colon)}: ${n} ${key.slice(colon + 1).trim()}`;
    });
    return { bytes, notes };
  }

  /** Model space, then the paper layouts (the first one is *Paper_Space; R12 keeps only it). */
  private spaces(): Space[] {
    const d = this.d;
    const model = d.layouts.find((l) => l.isModel);
    const spaces: Space[] = [{ block: '*Model_Space', entities: d.modelSpace, paper: false, ...(model ? { layout: model } : {}) }];
    const papers = d.layouts.filter((l) => !l.isModel);
    // The active layout (*Paper_Space) stays first.
    papers.sort((a, b) => (upper(a.blockName) === '*PAPER_SPACE' ? -1 : upper(b.blockName) === '*PAPER_SPACE' ? 1 : a.tabOrder - b.tabOrder));
    papers.forEach((l, i) => {
      if (this.r12 && i > 0) {
        const n = l.entities?.length ?? 0;
        for (let k = 0; k < n; k++) this.note(`${l.name}: entities of a second paper layout left out (R12 has one paper space)`);
        return;
      }
      spaces.push({ block: i === 0 ? '*Paper_Space' : `*Paper_Space${i - 1}`, layout: l, entities: l.entities ?? [], paper: true });
    });
    if (spaces.length === 1) spaces.push({ block: '*Paper_Space', entities: [], paper: true });
    return spaces;
  }

  // ---- entities -----------------------------------------------------------------------------

  private writeBlock(out: Groups, b: Block, paper: boolean, entities: Entity[]): void {
    const record = this.records.get(b.name);
    out.g(0, 'BLOCK').g(5, this.handle());
    if (!this.r12) out.g(330, record).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, this.layerName(b.layer));
    if (!this.r12) out.g(100, 'AcDbBlockBegin');
    out.g(2, b.name).g(70, b.flags & 0x7f).pt(10, b.basePoint).g(3, b.name);
    if (b.xrefPath) out.g(1, b.xrefPath);
    for (const e of entities) this.writeEntity(out, e, record, paper);
    out.g(0, 'ENDBLK').g(5, this.handle());
    if (!this.r12) out.g(330, record).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, this.layerName(b.layer));
    if (!this.r12) out.g(100, 'AcDbBlockEnd');
  }

  private layerName(name: string): string {
    const n = name || '0';
    this.layers.get(n);
    return n;
  }

  private writeEntity(out: Groups, source: Entity, owner: string, paper: boolean): void {
    for (const e of this.lowering.lower(source)) this.writeOne(out, e, owner, paper);
  }

  /** 0 TYPE, handle, owner, common groups; returns the handle. */
  private common(out: Groups, e: Entity, type: string, owner: string, paper: boolean): string {
    const h = this.handle();
    out.g(0, type).g(5, h);
    if (!this.r12) out.g(330, owner).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, this.layerName(e.layer));
    if (e.linetype && upper(e.linetype) !== 'BYLAYER') {
      this.ltypes.get(e.linetype);
      out.g(6, e.linetype);
    }
    this.color(out, e.color, 62, 420);
    if (!this.r12 && e.ltscale !== 1 && Number.isFinite(e.ltscale)) out.g(48, e.ltscale);
    if (!e.visible) out.g(60, 1);
    if (!this.r12 && e.lineweight !== -1) out.g(370, e.lineweight);
    if (this.year >= 2004 && e.transparency !== undefined) out.g(440, e.transparency);
    return h;
  }

  private color(out: Groups, c: Color, aciCode: number, rgbCode: number): void {
    if (c.rgb !== undefined) {
      if (this.year >= 2004) {
        out.g(aciCode, c.aci !== undefined && c.aci !== 256 && c.aci !== 0 ? c.aci : nearestAci(c.rgb));
        out.g(rgbCode, c.rgb);
      } else {
        out.g(aciCode, c.aci !== undefined && c.aci !== 256 && c.aci !== 0 ? c.aci : nearestAci(c.rgb));
        this.note(`true colour: changed to the nearest ACI colour (DXF ${this.options.version} has no true colours)`);
      }
    } else if (c.aci !== undefined && c.aci !== 256) out.g(aciCode, c.aci);
  }

  private sub(out: Groups, name: string): void {
    if (!this.r12) out.g(100, name);
  }

  private extrusion(out: Groups, e: { extrusion: Vec3 }): void {
    if (!isDefaultExtrusion(e.extrusion)) out.pt(210, e.extrusion);
  }

  private thickness(out: Groups, e: Entity): void {
    if (e.thickness) out.g(39, e.thickness);
  }

  private writeOne(out: Groups, e: Entity, owner: string, paper: boolean): void {
    switch (e.type) {
      case 'LINE':
        this.common(out, e, 'LINE', owner, paper);
        this.sub(out, 'AcDbLine');
        this.thickness(out, e);
        out.pt(10, e.start).pt(11, e.end);
        this.extrusion(out, e);
        return;
      case 'POINT':
        this.common(out, e, 'POINT', owner, paper);
        this.sub(out, 'AcDbPoint');
        out.pt(10, e.position);
        this.thickness(out, e);
        this.extrusion(out, e);
        if (e.angle) out.g(50, e.angle);
        return;
      case 'CIRCLE':
      case 'ARC':
        this.common(out, e, e.type, owner, paper);
        this.sub(out, 'AcDbCircle');
        this.thickness(out, e);
        out.pt(10, e.center).g(40, e.radius);
        this.extrusion(out, e);
        if (e.type === 'ARC') {
          this.sub(out, 'AcDbArc');
          out.g(50, e.startAngle).g(51, e.endAngle);
        }
        return;
      case 'ELLIPSE':
        this.common(out, e, 'ELLIPSE', owner, paper);
        this.sub(out, 'AcDbEllipse');
        out.pt(10, e.center).pt(11, e.majorAxis).pt(210, e.extrusion).g(40, e.ratio).g(41, e.startParam).g(42, e.endParam);
        return;
      case 'LWPOLYLINE': {
        this.common(out, e, 'LWPOLYLINE', owner, paper);
        this.sub(out, 'AcDbPolyline');
        out.g(90, e.vertices.length).g(70, (e.closed ? 1 : 0) | (e.plinegen ? 128 : 0));
        if (e.constantWidth) out.g(43, e.constantWidth);
        if (e.elevation) out.g(38, e.elevation);
        this.thickness(out, e);
        for (const v of e.vertices) {
          out.g(10, v.x).g(20, v.y);
          if (v.startWidth || v.endWidth) out.g(40, v.startWidth).g(41, v.endWidth);
          if (v.bulge) out.g(42, v.bulge);
        }
        this.extrusion(out, e);
        return;
      }
      case 'POLYLINE':
        this.polyline(out, e, owner, paper);
        return;
      case 'SPLINE': {
        this.common(out, e, 'SPLINE', owner, paper);
        this.sub(out, 'AcDbSpline');
        if (e.normal) out.pt(210, e.normal);
        const rational = e.weights.length > 0 && e.weights.length === e.controlPoints.length;
        out.g(70, (e.flags & ~4) | (rational ? 4 : 0)).g(71, e.degree).g(72, e.knots.length).g(73, e.controlPoints.length).g(74, e.fitPoints.length);
        out.g(42, 1e-10).g(43, 1e-10);
        if (e.fitPoints.length) out.g(44, 1e-10);
        if (e.startTangent) out.pt(12, e.startTangent);
        if (e.endTangent) out.pt(13, e.endTangent);
        for (const k of e.knots) out.g(40, k);
        if (rational) for (const w of e.weights) out.g(41, w);
        for (const p of e.controlPoints) out.pt(10, p);
        for (const p of e.fitPoints) out.pt(11, p);
        return;
      }
      case 'SOLID':
      case 'TRACE':
      case '3DFACE':
        this.common(out, e, e.type, owner, paper);
        this.sub(out, e.type === '3DFACE' ? 'AcDbFace' : 'AcDbTrace');
        e.points.forEach((p, i) => out.pt(10 + i, p));
        if (e.type === '3DFACE') {
          if (e.invisibleEdges) out.g(70, e.invisibleEdges);
        } else {
          this.thickness(out, e);
          this.extrusion(out, e);
        }
        return;
      case 'TEXT':
      case 'ATTDEF':
      case 'ATTRIB':
        this.text(out, e, owner, paper);
        return;
      case 'MTEXT': {
        this.common(out, e, 'MTEXT', owner, paper);
        this.sub(out, 'AcDbMText');
        out.pt(10, e.insertion).g(40, e.height).g(41, e.width);
        if (this.year >= 2007 && e.definedHeight) out.g(46, e.definedHeight);
        out.g(71, e.attachment || 1).g(72, e.drawingDirection || 1);
        const chars = Array.from(e.text);
        for (let i = 0; i + 250 < chars.length; i += 250) out.g(3, chars.slice(i, i + 250).join(''));
        out.g(1, chars.slice(Math.floor(Math.max(0, chars.length - 1) / 250) * 250).join(''));
        this.style(out, e.style);
        this.extrusion(out, e);
        if (e.direction) out.pt(11, e.direction);
        else if (e.rotation) out.g(50, e.rotation);
        out.g(73, e.lineSpacingStyle || 1).g(44, e.lineSpacingFactor || 1);
        if (this.year >= 2007 && e.background && e.background.flags) {
          out.g(90, e.background.flags);
          this.color(out, e.background.color, 63, 421);
          out.g(45, e.background.scale).g(441, 0);
        }
        return;
      }
      case 'INSERT': {
        const h = this.common(out, e, 'INSERT', owner, paper);
        const multi = e.columnCount > 1 || e.rowCount > 1;
        this.sub(out, multi && !this.r12 ? 'AcDbMInsertBlock' : 'AcDbBlockReference');
        if (e.attributes.length) out.g(66, 1);
        out.g(2, e.name).pt(10, e.insertion);
        if (e.scale[0] !== 1) out.g(41, e.scale[0]);
        if (e.scale[1] !== 1) out.g(42, e.scale[1]);
        if (e.scale[2] !== 1) out.g(43, e.scale[2]);
        if (e.rotation) out.g(50, e.rotation);
        if (multi) out.g(70, e.columnCount).g(71, e.rowCount).g(44, e.columnSpacing).g(45, e.rowSpacing);
        this.extrusion(out, e);
        if (e.attributes.length) {
          for (const a of e.attributes) this.text(out, { ...a, type: 'ATTRIB' }, h, paper);
          this.seqend(out, e, h, paper);
        }
        return;
      }
      case 'DIMENSION':
        this.dimension(out, e, owner, paper);
        return;
      case 'LEADER': {
        this.common(out, e, 'LEADER', owner, paper);
        this.sub(out, 'AcDbLeader');
        this.dimstyle(out, e.style);
        out.g(71, e.arrowhead ? 1 : 0).g(72, e.pathType).g(73, e.annotationType ?? 3);
        if (e.hooklineDirection !== undefined) out.g(74, e.hooklineDirection);
        if (e.hookline !== undefined) out.g(75, e.hookline ? 1 : 0);
        if (e.textHeight !== undefined) out.g(40, e.textHeight);
        if (e.textWidth !== undefined) out.g(41, e.textWidth);
        out.g(76, e.vertices.length);
        for (const v of e.vertices) out.pt(10, v);
        if (e.blockColor !== undefined) out.g(77, e.blockColor);
        this.extrusion(out, e);
        if (e.horizontalDirection) out.pt(211, e.horizontalDirection);
        return;
      }
      case 'HATCH':
        this.hatch(out, e, owner, paper);
        return;
      case 'IMAGE':
      case 'WIPEOUT':
        this.image(out, e, owner, paper);
        return;
      case 'XLINE':
      case 'RAY':
        this.common(out, e, e.type, owner, paper);
        this.sub(out, e.type === 'XLINE' ? 'AcDbXline' : 'AcDbRay');
        out.pt(10, e.base).pt(11, e.direction);
        return;
      case 'VIEWPORT': {
        this.common(out, e, 'VIEWPORT', owner, paper);
        this.sub(out, 'AcDbViewport');
        out.pt(10, e.center).g(40, e.width).g(41, e.height).g(68, e.status).g(69, e.id);
        if (this.r12) {
          // R12 keeps the view in the "MVIEW" list of the ACAD extended data.
          out.g(1001, 'ACAD').g(1000, 'MVIEW').g(1002, '{').g(1070, 16).pt(1010, e.viewTarget).pt(1010, e.viewDirection);
          out.g(1040, e.twist).g(1040, e.viewHeight).g(1040, e.viewCenter[0]).g(1040, e.viewCenter[1]).g(1040, 50).g(1040, 0).g(1040, 0);
          for (const flag of [0, 1000, 1, 0, 0, 0, 0, 0]) out.g(1070, flag);
          for (const n of [0, 0, 0, 10, 10, 10, 10]) out.g(1040, n);
          out.g(1070, 0).g(1002, '{');
          for (const l of this.frozenLayerNames(e.frozenLayers)) out.g(1003, l);
          out.g(1002, '}').g(1002, '}');
          return;
        }
        out.pt(12, e.viewCenter, true).pt(13, [0, 0], true).pt(14, [10, 10], true).pt(15, [10, 10], true);
        out.pt(16, e.viewDirection).pt(17, e.viewTarget).g(42, 50).g(43, 0).g(44, 0).g(45, e.viewHeight).g(50, 0).g(51, e.twist).g(72, 1000);
        for (const l of this.frozenLayerNames(e.frozenLayers)) out.g(331, this.layers.get(l));
        out.g(90, e.flags).g(281, 0).g(71, 1).g(74, 0);
        out.pt(110, [0, 0, 0]).pt(111, [1, 0, 0]).pt(112, [0, 1, 0]).g(79, 0).g(146, 0);
        return;
      }
      case 'MESH': {
        this.classes.add('MESH');
        this.common(out, e, 'MESH', owner, paper);
        this.sub(out, 'AcDbSubDMesh');
        out.g(71, 2).g(72, 0).g(91, 0).g(92, e.vertices.length);
        for (const v of e.vertices) out.pt(10, v);
        out.g(93, e.faces.reduce((t, f) => t + f.length + 1, 0));
        for (const f of e.faces) {
          out.g(90, f.length);
          for (const i of f) out.g(90, i);
        }
        out.g(94, e.edges.length);
        for (const [a, b] of e.edges) out.g(90, a).g(90, b);
        out.g(95, 0);
        return;
      }
      default:
        // Lowering leaves nothing else (MLINE, MULTILEADER, ACAD_TABLE, UNKNOWN are replaced or left out).
        return;
    }
  }

  /** Viewport frozen layers come as layer handles (DXF 2000+) or names (R12, DWG): names here. */
  private frozenLayerNames(list: string[]): string[] {
    const layers = Object.values(this.d.layers);
    const out: string[] = [];
    for (const item of list) {
      const byName = layers.find((l) => upper(l.name) === upper(item));
      const byHandle = byName ? undefined : layers.find((l) => l.handle !== undefined && upper(l.handle) === upper(item));
      const name = byName?.name ?? byHandle?.name;
      if (name) out.push(name);
    }
    return out;
  }

  private style(out: Groups, name: string): void {
    const n = name || 'Standard';
    this.styles.get(n);
    out.g(7, n);
  }

  private dimstyle(out: Groups, name: string): void {
    const n = name || 'Standard';
    this.dimstyles.get(n);
    out.g(3, n);
  }

  private seqend(out: Groups, e: Entity, owner: string, paper: boolean): void {
    out.g(0, 'SEQEND').g(5, this.handle());
    if (!this.r12) out.g(330, owner).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, this.layerName(e.layer));
  }

  private text(out: Groups, e: TextEntity, owner: string, paper: boolean): void {
    this.common(out, e, e.type, owner, paper);
    this.sub(out, 'AcDbText');
    this.thickness(out, e);
    out.pt(10, e.insertion).g(40, e.height).g(1, e.text);
    if (e.rotation) out.g(50, e.rotation);
    if (e.widthFactor !== 1) out.g(41, e.widthFactor);
    if (e.oblique) out.g(51, e.oblique);
    this.style(out, e.style);
    if (e.generation) out.g(71, e.generation);
    if (e.halign) out.g(72, e.halign);
    if (e.alignPoint) out.pt(11, e.alignPoint);
    else if (e.halign || e.valign) out.pt(11, e.insertion);
    this.extrusion(out, e);
    if (e.type === 'TEXT') {
      this.sub(out, 'AcDbText');
      if (e.valign) out.g(73, e.valign);
      return;
    }
    if (e.type === 'ATTDEF') {
      this.sub(out, 'AcDbAttributeDefinition');
      out.g(3, e.prompt ?? '');
    } else this.sub(out, 'AcDbAttribute');
    out.g(2, e.tag ?? '').g(70, e.attributeFlags ?? 0);
    if (e.valign) out.g(74, e.valign);
  }

  private polyline(out: Groups, e: PolylineEntity, owner: string, paper: boolean): void {
    const h = this.common(out, e, 'POLYLINE', owner, paper);
    const kindFlag = e.kind === 'polyface' ? 64 : e.kind === 'mesh' ? 16 : e.kind === '3d' ? 8 : 0;
    const sub = { '2d': 'AcDb2dPolyline', '3d': 'AcDb3dPolyline', mesh: 'AcDbPolygonMesh', polyface: 'AcDbPolyFaceMesh' }[e.kind];
    this.sub(out, sub);
    out.g(66, 1).pt(10, [0, 0, e.kind === '2d' ? e.elevation : 0]);
    this.thickness(out, e);
    out.g(70, (e.flags & ~(8 | 16 | 64)) | kindFlag | (e.closed ? 1 : 0));
    if (e.defaultStartWidth) out.g(40, e.defaultStartWidth);
    if (e.defaultEndWidth) out.g(41, e.defaultEndWidth);
    if (e.kind === 'mesh') out.g(71, e.m).g(72, e.n);
    // Faces of more than four corners become fans of triangles (a face record holds four).
    const faces: number[][] = [];
    if (e.kind === 'polyface')
      for (const f of e.faces) {
        if (f.length <= 4) faces.push(f);
        else for (let i = 1; i + 1 < f.length; i++) faces.push([f[0] as number, f[i] as number, f[i + 1] as number]);
      }
    if (e.kind === 'polyface') out.g(71, e.vertices.length).g(72, faces.length);
    if (e.kind === '2d') this.extrusion(out, e);
    const vsub = { '2d': 'AcDb2dVertex', '3d': 'AcDb3dPolylineVertex', mesh: 'AcDbPolygonMeshVertex', polyface: 'AcDbPolyFaceMeshVertex' }[e.kind];
    const vflag = e.kind === 'polyface' ? 192 : e.kind === 'mesh' ? 64 : e.kind === '3d' ? 32 : 0;
    const vertexHead = (): void => {
      out.g(0, 'VERTEX').g(5, this.handle());
      if (!this.r12) out.g(330, h).g(100, 'AcDbEntity');
      if (paper) out.g(67, 1);
      out.g(8, this.layerName(e.layer));
    };
    for (const v of e.vertices) {
      vertexHead();
      this.sub(out, 'AcDbVertex');
      this.sub(out, vsub);
      out.pt(10, v.position);
      if (v.startWidth) out.g(40, v.startWidth);
      if (v.endWidth) out.g(41, v.endWidth);
      if (v.bulge) out.g(42, v.bulge);
      out.g(70, (v.flags & ~(32 | 64 | 128)) | vflag);
    }
    for (const f of faces) {
      vertexHead();
      this.sub(out, 'AcDbFaceRecord');
      out.pt(10, [0, 0, 0]).g(70, 128);
      f.forEach((idx, i) => out.g(71 + i, idx));
    }
    this.seqend(out, e, h, paper);
  }

  private dimension(out: Groups, e: DimensionEntity, owner: string, paper: boolean): void {
    this.common(out, e, 'DIMENSION', owner, paper);
    this.sub(out, 'AcDbDimension');
    out.g(2, e.block).pt(10, e.defPoint).pt(11, e.textMidpoint).g(70, e.flags).g(71, e.attachment || 5).g(1, e.text);
    if (e.textRotation) out.g(53, e.textRotation);
    this.dimstyle(out, e.style);
    if (e.measurement !== undefined) out.g(42, e.measurement);
    this.extrusion(out, e);
    const p = e.defPoints;
    const pts = (...codes: (12 | 13 | 14 | 15 | 16)[]): void => {
      for (const c of codes) out.pt(c, p[`p${c}`] ?? [0, 0, 0]);
    };
    switch (e.dimType) {
      case 0:
      case 1:
        out.g(100, 'AcDbAlignedDimension');
        pts(13, 14);
        if (e.dimType === 0) out.g(50, e.angle).g(100, 'AcDbRotatedDimension');
        break;
      case 2:
        out.g(100, 'AcDb2LineAngularDimension');
        pts(13, 14, 15, 16);
        break;
      case 3:
      case 4:
        out.g(100, e.dimType === 3 ? 'AcDbDiametricDimension' : 'AcDbRadialDimension');
        pts(15);
        out.g(40, 0);
        break;
      case 5:
        out.g(100, 'AcDb3PointAngularDimension');
        pts(13, 14, 15);
        break;
      default:
        out.g(100, 'AcDbOrdinateDimension');
        pts(13, 14);
    }
  }

  private hatch(out: Groups, e: HatchEntity, owner: string, paper: boolean): void {
    this.common(out, e, 'HATCH', owner, paper);
    this.sub(out, 'AcDbHatch');
    out.pt(10, [0, 0, e.elevation]).pt(210, e.extrusion).g(2, e.pattern || (e.solid ? 'SOLID' : 'ANSI31'));
    out.g(70, e.solid ? 1 : 0).g(71, 0).g(91, e.paths.length);
    for (const path of e.paths) {
      if (path.polyline) {
        const vs = path.polyline.vertices;
        const bulges = vs.some((v) => v.bulge);
        out.g(92, path.flags | 2).g(72, bulges ? 1 : 0).g(73, path.polyline.closed ? 1 : 0).g(93, vs.length);
        for (const v of vs) {
          out.g(10, v.x).g(20, v.y);
          if (bulges) out.g(42, v.bulge);
        }
      } else {
        out.g(92, path.flags & ~2).g(93, path.edges.length);
        for (const ed of path.edges) {
          if (ed.kind === 'line') out.g(72, 1).pt(10, ed.start, true).pt(11, ed.end, true);
          else if (ed.kind === 'arc') out.g(72, 2).pt(10, ed.center, true).g(40, ed.radius).g(50, ed.startAngle).g(51, ed.endAngle).g(73, ed.ccw ? 1 : 0);
          else if (ed.kind === 'ellipse')
            out.g(72, 3).pt(10, ed.center, true).pt(11, ed.majorAxis, true).g(40, ed.ratio).g(50, ed.startAngle).g(51, ed.endAngle).g(73, ed.ccw ? 1 : 0);
          else {
            const rational = ed.rational && ed.weights.length === ed.controlPoints.length;
            out.g(72, 4).g(94, ed.degree).g(73, rational ? 1 : 0).g(74, ed.periodic ? 1 : 0).g(95, ed.knots.length).g(96, ed.controlPoints.length);
            for (const k of ed.knots) out.g(40, k);
            ed.controlPoints.forEach((c, i) => {
              out.pt(10, c, true);
              if (rational) out.g(42, ed.weights[i] ?? 1);
            });
            if (this.year >= 2010) {
              out.g(97, ed.fitPoints.length);
              for (const f of ed.fitPoints) out.pt(11, f, true);
            }
          }
        }
      }
      out.g(97, 0);
    }
    out.g(75, e.style).g(76, e.patternType);
    if (!e.solid) {
      out.g(52, e.patternAngle).g(41, e.patternScale || 1).g(77, e.patternDouble ? 1 : 0).g(78, e.patternLines.length);
      for (const l of e.patternLines) {
        out.g(53, l.angle).g(43, l.base[0]).g(44, l.base[1]).g(45, l.offset[0]).g(46, l.offset[1]).g(79, l.dashes.length);
        for (const dash of l.dashes) out.g(49, dash);
      }
    }
    out.g(98, 0);
    const gr = e.gradient;
    if (gr && this.year >= 2004) {
      out.g(450, 1).g(451, 0).g(452, gr.singleColor ? 1 : 0).g(453, gr.colors.length).g(460, gr.angle).g(461, gr.shift).g(462, gr.tint);
      gr.colors.forEach((c, i) => {
        out.g(463, i ? 1 : 0);
        if (c.rgb !== undefined) out.g(63, nearestAci(c.rgb)).g(421, c.rgb);
        else out.g(63, c.aci ?? 7);
      });
      out.g(470, gr.name);
    }
  }

  private image(out: Groups, e: ImageEntity, owner: string, paper: boolean): void {
    this.classes.add(e.type);
    this.common(out, e, e.type, owner, paper);
    this.sub(out, e.type === 'IMAGE' ? 'AcDbRasterImage' : 'AcDbWipeout');
    out.g(90, 0).pt(10, e.insertion).pt(11, e.u).pt(12, e.v).pt(13, e.imageSize, true);
    if (e.type === 'IMAGE') {
      this.classes.add('IMAGEDEF');
      const key = e.imageDefHandle ?? `file:${e.fileName ?? ''}`;
      let def = this.imageDefs.get(key);
      if (!def) {
        const src = e.imageDefHandle ? this.d.imageDefs[e.imageDefHandle] : undefined;
        def = { handle: this.handle(), fileName: src?.fileName ?? e.fileName ?? '' };
        const size = src?.size;
        if (size) def.size = size;
        this.imageDefs.set(key, def);
      }
      out.g(340, def.handle);
    } else out.g(340, '0');
    out.g(70, e.displayFlags).g(280, e.clipping ? 1 : 0).g(281, 50).g(282, 50).g(283, 0);
    const clip = e.clipBoundary;
    out.g(71, e.clipType || 1).g(91, clip.length);
    for (const p of clip) out.pt(14, p, true);
  }

  // ---- tables, objects, header ----------------------------------------------------------------

  private tables(spaces: Space[]): Groups {
    const d = this.d;
    const out = new Groups();
    for (const l of Object.values(d.layers)) this.layers.get(l.name);
    for (const l of Object.values(d.linetypes)) this.ltypes.get(l.name);
    for (const s of Object.values(d.textStyles)) this.styles.get(s.name);
    for (const s of Object.values(d.dimStyles)) this.dimstyles.get(s.name);
    // Layers name linetypes too.
    for (const l of Object.values(d.layers)) if (l.linetype) this.ltypes.get(l.linetype);

    const table = (name: string, count: number, body: (g: Groups) => void): void => {
      const th = this.tableHandles.get(name) as string;
      out.g(0, 'TABLE').g(2, name);
      if (!this.r12) out.g(5, th).g(330, '0').g(100, 'AcDbSymbolTable');
      out.g(70, count);
      if (name === 'DIMSTYLE' && !this.r12) out.g(100, 'AcDbDimStyleTable').g(71, 0);
      body(out);
      out.g(0, 'ENDTAB');
    };
    const entry = (type: string, handle: string, sub: string, name: string, flags: number): void => {
      out.g(0, type).g(type === 'DIMSTYLE' ? 105 : 5, handle);
      if (!this.r12) out.g(330, this.tableHandles.get(type) as string).g(100, 'AcDbSymbolTableRecord').g(100, sub);
      out.g(2, name).g(70, flags);
    };

    table('VPORT', 1, () => {
      entry('VPORT', this.handle(), 'AcDbViewportTableRecord', '*ACTIVE', 0);
      const [min, max] = extentsOf(d);
      const w = Math.max(max[0] - min[0], 1e-6), hgt = Math.max(max[1] - min[1], 1e-6);
      out.pt(10, [0, 0], true).pt(11, [1, 1], true).pt(12, [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2], true);
      out.pt(13, [0, 0], true).pt(14, [10, 10], true).pt(15, [10, 10], true).pt(16, [0, 0, 1]).pt(17, [0, 0, 0]);
      out.g(40, Math.max(hgt, w / 1.5) * 1.05).g(41, 1.5).g(42, 50).g(43, 0).g(44, 0).g(50, 0).g(51, 0);
      out.g(71, 0).g(72, 1000).g(73, 1).g(74, 3).g(75, 0).g(76, 0).g(77, 0).g(78, 0);
    });

    const ltypeNames = [...this.ltypes.names.values()];
    table('LTYPE', ltypeNames.length, () => {
      for (const name of ltypeNames) {
        const lt = Object.values(d.linetypes).find((l) => upper(l.name) === upper(name));
        entry('LTYPE', this.ltypes.get(name), 'AcDbLinetypeTableRecord', name, 0);
        const elements = lt?.elements ?? [];
        out.g(3, lt?.description ?? (upper(name) === 'CONTINUOUS' ? 'Solid line' : '')).g(72, 65).g(73, elements.length).g(40, lt?.totalLength ?? 0);
        for (const el of elements) {
          out.g(49, el.length);
          if (this.r12) {
            if (el.kind) this.note('LTYPE: text or shape elements of a linetype written as plain dashes (R12)');
            continue;
          }
          const styleName = el.styleHandle ? Object.values(d.textStyles).find((s) => s.handle && upper(s.handle) === upper(el.styleHandle ?? ''))?.name : undefined;
          const complex = el.kind !== 0 && styleName !== undefined;
          out.g(74, complex ? el.kind : 0);
          if (!complex) {
            if (el.kind) this.note('LTYPE: text or shape elements without their text style written as plain dashes');
            continue;
          }
          out.g(75, el.shapeNumber ?? 0).g(340, this.styles.get(styleName)).g(46, el.scale ?? 1).g(50, el.rotation ?? 0);
          out.g(44, el.offset?.[0] ?? 0).g(45, el.offset?.[1] ?? 0);
          if (el.kind & 2) out.g(9, el.text ?? '');
        }
      }
    });

    // Styles may be named by linetypes above: list them after.
    const layerNames = [...this.layers.names.values()];
    table('LAYER', layerNames.length, () => {
      for (const name of layerNames) {
        const l = Object.values(d.layers).find((x) => upper(x.name) === upper(name));
        entry('LAYER', this.layers.get(name), 'AcDbLayerTableRecord', name, l ? (l.frozen ? 1 : 0) | (l.locked ? 4 : 0) : 0);
        const aci = l ? l.color.aci || (l.color.rgb !== undefined ? nearestAci(l.color.rgb) : 7) : 7;
        if (l?.color.rgb !== undefined && this.year < 2004) this.note(`true colour: changed to the nearest ACI colour (DXF ${this.options.version} has no true colours)`);
        out.g(62, l && !l.on ? -Math.abs(aci) : Math.abs(aci));
        if (l?.color.rgb !== undefined && this.year >= 2004) out.g(420, l.color.rgb);
        out.g(6, l?.linetype || 'Continuous');
        if (!this.r12) {
          if (l && !l.plot && upper(name) !== 'DEFPOINTS') out.g(290, 0);
          out.g(370, l?.lineweight ?? -3);
        }
      }
    });

    const styleNames = [...this.styles.names.values()];
    table('STYLE', styleNames.length, () => {
      for (const name of styleNames) {
        const s = Object.values(d.textStyles).find((x) => upper(x.name) === upper(name));
        entry('STYLE', this.styles.get(name), 'AcDbTextStyleTableRecord', name, s?.flags ?? 0);
        out.g(40, s?.fixedHeight ?? 0).g(41, s?.widthFactor || 1).g(50, s?.oblique ?? 0).g(71, s?.generation ?? 0).g(42, 2.5);
        out.g(3, s?.font || 'txt').g(4, s?.bigFont ?? '');
        if (!this.r12 && s?.fontFamily) out.g(1001, 'ACAD').g(1000, s.fontFamily).g(1071, 0);
      }
    });
    table('VIEW', 0, () => undefined);
    table('UCS', 0, () => undefined);
    table('APPID', 1, () => entry('APPID', this.handle(), 'AcDbRegAppTableRecord', 'ACAD', 0));

    const dimNames = [...this.dimstyles.names.values()];
    table('DIMSTYLE', dimNames.length, () => {
      for (const name of dimNames) {
        const s = Object.values(d.dimStyles).find((x) => upper(x.name) === upper(name));
        entry('DIMSTYLE', this.dimstyles.get(name), 'AcDbDimStyleTableRecord', name, 0);
        for (const [k, v] of Object.entries(s?.vars ?? {})) {
          const code = Number(k);
          if (this.dimVarAllowed(code, v)) out.g(code, v as GroupValue);
        }
      }
    });

    if (!this.r12) {
      const names = [...this.records.names.values()];
      table('BLOCK_RECORD', names.length, () => {
        for (const name of names) {
          // The 70 that `entry` writes is the record's units here (0 unitless).
          entry('BLOCK_RECORD', this.records.get(name), 'AcDbBlockTableRecord', name, 0);
          out.g(340, this.layoutHandles.has(name) ? this.layoutHandles.get(name) : '0');
        }
      });
    }
    void spaces;
    return out;
  }

  /** DIMSTYLE groups that keep their meaning in this version; handles and names of blocks are left out. */
  private dimVarAllowed(code: number, v: unknown): boolean {
    if ([2, 5, 70, 100, 105, 330].includes(code) || code >= 1000 || code >= 340) return false;
    const isString = typeof v === 'string';
    const kind = code >= 3 && code <= 7 ? 0 : 1;
    if ((kind === 0) !== isString) return false;
    if (this.r12) return (code >= 3 && code <= 7) || (code >= 40 && code <= 48) || (code >= 71 && code <= 78) || (code >= 140 && code <= 147) || (code >= 170 && code <= 178);
    // From R13 DIMBLK names (5, 6, 7) are handles (342..344).
    if (code >= 5 && code <= 7) return false;
    return code < 300 || code === 371 || code === 372;
  }

  private objects(spaces: Space[]): Groups {
    const out = new Groups();
    const root = this.handle(), groups = this.handle(), layoutsDict = this.handle(), mlsDict = this.handle(), mlsStandard = this.handle();
    const imageDict = this.imageDefs.size ? this.handle() : null;
    const dict = (h: string, owner: string, entries: [string, string][]): void => {
      out.g(0, 'DICTIONARY').g(5, h).g(330, owner).g(100, 'AcDbDictionary').g(281, 1);
      for (const [name, handle] of entries) out.g(3, name).g(350, handle);
    };
    const rootEntries: [string, string][] = [
      ['ACAD_GROUP', groups],
      ['ACAD_LAYOUT', layoutsDict],
      ['ACAD_MLINESTYLE', mlsDict],
    ];
    if (imageDict) rootEntries.push(['ACAD_IMAGE_DICT', imageDict]);
    dict(root, '0', rootEntries);
    dict(groups, root, []);
    const layouts: [string, Space][] = spaces.map((s, i) => [s.layout?.name || (i === 0 ? 'Model' : `Layout${i}`), s]);
    // Layout names are unique in a drawing.
    const seen = new Set<string>();
    for (const l of layouts) {
      let n = l[0];
      for (let k = 2; seen.has(upper(n)); k++) n = `${l[0]} (${k})`;
      seen.add(upper(n));
      l[0] = n;
    }
    dict(layoutsDict, root, layouts.map(([name, s]) => [name, this.layoutHandles.get(s.block)]));
    dict(mlsDict, root, [['Standard', mlsStandard]]);
    out.g(0, 'MLINESTYLE').g(5, mlsStandard).g(330, mlsDict).g(100, 'AcDbMlineStyle').g(2, 'Standard').g(70, 0).g(3, '').g(62, 256).g(51, 90).g(52, 90);
    out.g(71, 2).g(49, 0.5).g(62, 256).g(6, 'BYLAYER').g(49, -0.5).g(62, 256).g(6, 'BYLAYER');
    layouts.forEach(([name, s], i) => this.layout(out, name, s, i, layoutsDict));
    if (imageDict) {
      dict(imageDict, root, [...this.imageDefs.values()].map((def, i) => [def.fileName.split(/[\\/]/).pop()?.replace(/\.[^.]*$/, '') || `image${i + 1}`, def.handle]));
      for (const def of this.imageDefs.values()) {
        out.g(0, 'IMAGEDEF').g(5, def.handle).g(330, imageDict).g(100, 'AcDbRasterImageDef').g(90, 0).g(1, def.fileName);
        out.pt(10, def.size ?? [1, 1], true).pt(11, [1, 1], true).g(280, 1).g(281, 0);
      }
    }
    return out;
  }

  private layout(out: Groups, name: string, s: Space, index: number, owner: string): void {
    const l = s.layout;
    const p = l?.plot ?? {};
    const model = index === 0;
    out.g(0, 'LAYOUT').g(5, this.layoutHandles.get(s.block)).g(330, owner).g(100, 'AcDbPlotSettings');
    out.g(1, p.pageSetupName ?? '').g(2, p.printer ?? 'none_device').g(4, p.paperName ?? '').g(6, '');
    const m = p.margins ?? [0, 0, 0, 0];
    out.g(40, m[0]).g(41, m[1]).g(42, m[2]).g(43, m[3]).g(44, p.paperWidth ?? 0).g(45, p.paperHeight ?? 0);
    out.g(46, p.plotOrigin?.[0] ?? 0).g(47, p.plotOrigin?.[1] ?? 0).g(48, 0).g(49, 0).g(140, 0).g(141, 0);
    out.g(142, p.customScale?.[0] ?? 1).g(143, p.customScale?.[1] ?? 1).g(70, model ? 1712 : 688).g(72, p.paperUnits ?? 1).g(73, p.rotation ?? 0).g(74, p.plotType ?? 5);
    out.g(7, p.styleSheet ?? '').g(75, 0).g(147, 1).g(148, 0).g(149, 0);
    out.g(100, 'AcDbLayout').g(1, name).g(70, 1).g(71, model ? 0 : Math.max(1, l?.tabOrder ?? index));
    out.pt(10, l?.limMin ?? [0, 0], true).pt(11, l?.limMax ?? [420, 297], true).pt(12, l?.insertionBase ?? [0, 0, 0]);
    out.pt(14, l?.extMin ?? [1e20, 1e20, 1e20]).pt(15, l?.extMax ?? [-1e20, -1e20, -1e20]).g(146, 0);
    out.pt(13, [0, 0, 0]).pt(16, [1, 0, 0]).pt(17, [0, 1, 0]).g(76, 0).g(330, this.records.get(s.block));
  }

  private classList(): Groups {
    const out = new Groups();
    const defs: Record<string, [string, string, number, number]> = {
      IMAGE: ['AcDbRasterImage', 'ISM', 127, 1],
      IMAGEDEF: ['AcDbRasterImageDef', 'ISM', 0, 0],
      WIPEOUT: ['AcDbWipeout', 'WipeOut|AutoCAD Express Tool|expresstools@autodesk.com', 127, 1],
      MESH: ['AcDbSubDMesh', 'ObjectDBX Classes', 0, 1],
    };
    for (const name of this.classes) {
      const def = defs[name];
      if (!def) continue;
      out.g(0, 'CLASS').g(1, name).g(2, def[0]).g(3, def[1]).g(90, def[2]);
      if (this.year >= 2004) out.g(91, 0);
      out.g(280, 0).g(281, def[3]);
    }
    return out;
  }

  private header(): Groups {
    const d = this.d;
    const h = d.header;
    const out = new Groups();
    const v = (name: string, code: number, value: GroupValue): void => {
      out.g(9, name).g(code, value);
    };
    const p = (name: string, value: readonly number[], twoD = false): void => {
      out.g(9, name).pt(10, value, twoD);
    };
    v('$ACADVER', 1, ACADVER[this.options.version]);
    if (!this.r12) v('$ACADMAINTVER', 70, 6);
    v('$DWGCODEPAGE', 3, 'ANSI_936');
    const num = (k: string): number | undefined => (typeof h.vars[k] === 'number' ? (h.vars[k] as number) : undefined);
    const pt = (k: string): Vec3 | undefined => (Array.isArray(h.vars[k]) ? (h.vars[k] as Vec3) : undefined);
    p('$INSBASE', pt('$INSBASE') ?? [0, 0, 0]);
    const [min, max] = extentsOf(d);
    p('$EXTMIN', min);
    p('$EXTMAX', max);
    p('$LIMMIN', h.limMin ?? [0, 0], true);
    p('$LIMMAX', h.limMax ?? [420, 297], true);
    v('$LTSCALE', 40, h.ltscale ?? 1);
    v('$TEXTSIZE', 40, h.textsize ?? 2.5);
    const textStyle = h.textStyle && this.styles.has(h.textStyle) ? h.textStyle : 'Standard';
    v('$TEXTSTYLE', 7, textStyle);
    v('$CLAYER', 8, '0');
    v('$DIMSTYLE', 2, h.dimstyle && this.dimstyles.has(h.dimstyle) ? h.dimstyle : 'Standard');
    v('$DIMSCALE', 40, h.dimscale ?? 1);
    v('$PDMODE', 70, h.pdmode ?? 0);
    v('$PDSIZE', 40, h.pdsize ?? 0);
    v('$PSLTSCALE', 70, h.psltscale ?? 1);
    if (this.r12) v('$HANDLING', 70, 1);
    else {
      v('$MEASUREMENT', 70, h.measurement ?? 1);
      v('$INSUNITS', 70, h.insUnits ?? num('$INSUNITS') ?? 4);
    }
    v('$HANDSEED', 5, (this.seed + 1).toString(16).toUpperCase());
    return out;
  }
}

/** Header extents when the source has them, else the box of the model's key points. */
export function extentsOf(d: Drawing): [Vec3, Vec3] {
  const h = d.header;
  if (h.extMin && h.extMax) return [h.extMin, h.extMax];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const e of d.modelSpace)
    for (const [x, y] of entityKeyPoints(e)) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    }
  if (!(x1 >= x0)) return [[0, 0, 0], [0, 0, 0]];
  return [[x0, y0, 0], [x1, y1, 0]];
}

/** Curves become polylines within 1e-4 of the drawing's diagonal (at least 1e-6). */
export function chordTolerance(d: Drawing): number {
  const [a, b] = extentsOf(d);
  const diag = Math.hypot(b[0] - a[0], b[1] - a[1]);
  return Math.max(diag * 1e-4, 1e-6);
}
