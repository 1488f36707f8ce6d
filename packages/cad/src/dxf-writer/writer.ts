/**
 * Drawing model → DXF, R12 (AC1009) to 2018 (AC1032), ASCII or binary.
 *
 * Handles are fresh (the source's are not reused: a DWG's may clash with what is added here) and
 * every owner (330) points at a record written in the same file. What a version cannot hold is
 * turned into what it can (see `lower.ts`) and reported once per kind in `notes`.
 */
import { inDrawOrder, layoutEntitiesInOrder, recordHandleOf, xdataApps } from '../drawing';
import { nearestAci } from '../geom/color';
import type { Block, BlockClip, Drawing, Entity, Layout } from '../model';
import { Groups, toAscii, toBinary, xdataGroups, type GroupValue } from './encode';
import { layerName, type EntityWriterContext } from './entities/common';
import { DXF_WRITERS, type WriteEntity } from './entities/table';
import { HandleTable, upper } from './handles';
import { chordTolerance, extentsOf } from './extents';
import { Lowering, withXdata, type GraphicsLowering } from './lower';
import { change, SaveAsLog, type SaveAsChange, type SaveAsNote } from '../save-as';
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
  /** Draws what the version cannot hold as our renderer draws it (`graphicsLowering`, save-as-graphics.ts). */
  graphics?: GraphicsLowering;
}

export interface WriteDxfResult {
  bytes: Uint8Array;
  /** What was changed to fit the version, one line per kind of change. */
  notes: string[];
  /** The same changes, one entry per (type, outcome, how): the save-as report (decision 0037). */
  changes: SaveAsChange[];
}

const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;

/** Number of the release: 12, 2000, 2004, ... */
const yearOf = (v: DxfVersion): number => (v === 'R12' ? 12 : Number(v));

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

class DxfWriter implements EntityWriterContext {
  readonly d: Drawing;
  readonly year: number;
  readonly r12: boolean;
  private readonly options: WriteDxfOptions;
  private seed = 0x20;
  private readonly log = new SaveAsLog();
  private readonly lowering: Lowering;
  readonly layers: HandleTable;
  readonly ltypes: HandleTable;
  readonly styles: HandleTable;
  readonly dimstyles: HandleTable;
  private readonly records: HandleTable;
  private readonly layoutHandles: HandleTable;
  /** Source IMAGEDEF handle (or a file name) → new IMAGEDEF handle and file. */
  readonly imageDefs = new Map<string, { handle: string; fileName: string; size?: [number, number] }>();
  readonly classes = new Set<string>();
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
    this.lowering = new Lowering(d, this.year, chordTolerance(d), (n) => this.note(n), options.graphics);
  }

  get version(): DxfVersion {
    return this.options.version;
  }

  handle(): string {
    return (this.seed++).toString(16).toUpperCase();
  }

  /** Source entity handle → its new handle, and whether an entity was written with it. */
  private readonly bySource = new Map<string, { handle: string; used: boolean }>();

  entityHandle(e: Entity): string {
    const key = e.handle ? upper(e.handle) : '';
    const promised = key ? this.bySource.get(key) : undefined;
    // A second entity with the same source handle (pieces of one object) gets a handle of its own.
    if (promised?.used || (!promised && !key)) return this.handle();
    if (promised) {
      promised.used = true;
      return promised.handle;
    }
    const handle = this.handle();
    this.bySource.set(key, { handle, used: true });
    return handle;
  }

  /** XCLIPs written: the INSERT, its extension dictionary and the clip. */
  private readonly clips: { insert: string; xdict: string; clip: BlockClip }[] = [];

  xclip(insert: string, clip: BlockClip): string {
    const xdict = this.handle();
    this.clips.push({ insert, xdict, clip });
    return xdict;
  }

  refHandle(source: string): string {
    const key = upper(source);
    let promised = this.bySource.get(key);
    if (!promised) this.bySource.set(key, (promised = { handle: this.handle(), used: false }));
    return promised.handle;
  }

  /** Counts one object changed to fit the version. */
  note(n: SaveAsNote): void {
    this.log.note(n);
  }

  write(): WriteDxfResult {
    const d = this.d;
    for (const t of ['VPORT', 'LTYPE', 'LAYER', 'STYLE', 'VIEW', 'UCS', 'APPID', 'DIMSTYLE', 'BLOCK_RECORD'])
      this.tableHandles.set(t, this.handle());
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
      const block: Block = {
        name: this.r12 ? s.block.replace('*', '$').toUpperCase() : s.block,
        basePoint: [0, 0, 0],
        flags: 0,
        anonymous: false,
        xref: false,
        layer: '0',
        entities: [],
      };
      this.writeBlock(blocks, block, s.paper, inEntities ? [] : s.entities);
      if (inEntities) for (const e of s.entities) this.writeEntity(entities, e, this.records.get(s.block), s.paper);
    }
    for (const b of userBlocks) this.writeBlock(blocks, b, false, inDrawOrder(d, b.entities, b.recordHandle));

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
    return { bytes, notes: this.log.notes, changes: this.log.changes };
  }

  /** Model space, then the paper layouts (the first one is *Paper_Space; R12 keeps only it). */
  private spaces(): Space[] {
    const d = this.d;
    const model = d.layouts.find((l) => l.isModel);
    // Entities in their draw order (decision 0037): fresh handles rise in writing order.
    const modelEntities = inDrawOrder(d, d.modelSpace, recordHandleOf(d, '*Model_Space'));
    const spaces: Space[] = [{ block: '*Model_Space', entities: modelEntities, paper: false, ...(model ? { layout: model } : {}) }];
    const papers = d.layouts.filter((l) => !l.isModel);
    // The active layout (*Paper_Space) stays first.
    papers.sort((a, b) =>
      upper(a.blockName) === '*PAPER_SPACE' ? -1 : upper(b.blockName) === '*PAPER_SPACE' ? 1 : a.tabOrder - b.tabOrder,
    );
    papers.forEach((l, i) => {
      if (this.r12 && i > 0) {
        const what = 'entities of a second paper layout left out (R12 has one paper space)';
        for (const e of l.entities ?? []) {
          this.note(
            change(e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type, 'not-in-version', what, l.name),
          );
          // A block reference's attributes go with it.
          if (e.type === 'INSERT')
            for (let k = 0; k < e.attributes.length; k++) this.note(change('ATTRIB', 'not-in-version', what, l.name));
        }
        return;
      }
      spaces.push({
        block: i === 0 ? '*Paper_Space' : `*Paper_Space${i - 1}`,
        layout: l,
        entities: layoutEntitiesInOrder(d, l),
        paper: true,
      });
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
    out.g(8, layerName(this, b.layer));
    if (!this.r12) out.g(100, 'AcDbBlockBegin');
    out
      .g(2, b.name)
      .g(70, b.flags & 0x7f)
      .pt(10, b.basePoint)
      .g(3, b.name);
    if (b.xrefPath) out.g(1, b.xrefPath);
    for (const e of entities) this.writeEntity(out, e, record, paper);
    out.g(0, 'ENDBLK').g(5, this.handle());
    if (!this.r12) out.g(330, record).g(100, 'AcDbEntity');
    if (paper) out.g(67, 1);
    out.g(8, layerName(this, b.layer));
    if (!this.r12) out.g(100, 'AcDbBlockEnd');
  }

  private writeEntity(out: Groups, source: Entity, owner: string, paper: boolean): void {
    const { pieces, lost } = withXdata(source, this.lowering.lower(source));
    const type = source.type === 'UNKNOWN' || source.type === 'ACIS' || source.type === 'UNDERLAY' ? source.dxfType : source.type;
    // What the pieces report (a true colour) counts once, for the source object.
    this.log.within(source, type, () => {
      for (const e of pieces) {
        // Lowering leaves no type without a writer (MLINE, MULTILEADER, ACAD_TABLE, UNKNOWN are replaced or left out).
        const write = DXF_WRITERS[e.type] as WriteEntity | null;
        if (!write) continue;
        if (!e.xdata?.length) {
          write(this, out, e, owner, paper);
          continue;
        }
        // Extended data ends the entity's own record, before its vertices or attributes.
        const own = new Groups();
        write(this, own, e, owner, paper);
        const end = own.codes.indexOf(0, 1);
        const tail = new Groups();
        for (const x of e.xdata) xdataGroups(tail, x, (h) => this.refHandle(h));
        out.append(own, 0, end < 0 ? own.codes.length : end).append(tail);
        if (end >= 0) out.append(own, end);
      }
      if (lost) this.note(change(type, 'detail', 'extended data left out (the object was written as several others)'));
    });
  }

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
      if (!this.r12)
        out
          .g(330, this.tableHandles.get(type) as string)
          .g(100, 'AcDbSymbolTableRecord')
          .g(100, sub);
      out.g(2, name).g(70, flags);
    };

    table('VPORT', 1, () => {
      entry('VPORT', this.handle(), 'AcDbViewportTableRecord', '*ACTIVE', 0);
      const [min, max] = extentsOf(d);
      const w = Math.max(max[0] - min[0], 1e-6),
        hgt = Math.max(max[1] - min[1], 1e-6);
      out
        .pt(10, [0, 0], true)
        .pt(11, [1, 1], true)
        .pt(12, [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2], true);
      out.pt(13, [0, 0], true).pt(14, [10, 10], true).pt(15, [10, 10], true).pt(16, [0, 0, 1]).pt(17, [0, 0, 0]);
      out
        .g(40, Math.max(hgt, w / 1.5) * 1.05)
        .g(41, 1.5)
        .g(42, 50)
        .g(43, 0)
        .g(44, 0)
        .g(50, 0)
        .g(51, 0);
      out.g(71, 0).g(72, 1000).g(73, 1).g(74, 3).g(75, 0).g(76, 0).g(77, 0).g(78, 0);
    });

    const ltypeNames = [...this.ltypes.names.values()];
    table('LTYPE', ltypeNames.length, () => {
      for (const name of ltypeNames) {
        const lt = Object.values(d.linetypes).find((l) => upper(l.name) === upper(name));
        entry('LTYPE', this.ltypes.get(name), 'AcDbLinetypeTableRecord', name, 0);
        const elements = lt?.elements ?? [];
        out
          .g(3, lt?.description ?? (upper(name) === 'CONTINUOUS' ? 'Solid line' : ''))
          .g(72, 65)
          .g(73, elements.length)
          .g(40, lt?.totalLength ?? 0);
        // One note per linetype whose text or shape elements become plain dashes.
        let dashed: string | null = null;
        for (const el of elements) {
          out.g(49, el.length);
          if (this.r12) {
            if (el.kind) dashed = 'text or shape elements of a linetype written as plain dashes (R12)';
            continue;
          }
          const styleName = el.styleHandle
            ? Object.values(d.textStyles).find((s) => s.handle && upper(s.handle) === upper(el.styleHandle ?? ''))?.name
            : undefined;
          const complex = el.kind !== 0 && styleName !== undefined;
          out.g(74, complex ? el.kind : 0);
          if (!complex) {
            if (el.kind) dashed = 'text or shape elements without their text style written as plain dashes';
            continue;
          }
          out
            .g(75, el.shapeNumber ?? 0)
            .g(340, this.styles.get(styleName))
            .g(46, el.scale ?? 1)
            .g(50, el.rotation ?? 0);
          out.g(44, el.offset?.[0] ?? 0).g(45, el.offset?.[1] ?? 0);
          if (el.kind & 2) out.g(9, el.text ?? '');
        }
        if (dashed) this.note(change('LTYPE', 'plain-dashes', dashed));
      }
    });

    // Styles may be named by linetypes above: list them after.
    const layerNames = [...this.layers.names.values()];
    table('LAYER', layerNames.length, () => {
      for (const name of layerNames) {
        const l = Object.values(d.layers).find((x) => upper(x.name) === upper(name));
        entry('LAYER', this.layers.get(name), 'AcDbLayerTableRecord', name, l ? (l.frozen ? 1 : 0) | (l.locked ? 4 : 0) : 0);
        const aci = l ? l.color.aci || (l.color.rgb !== undefined ? nearestAci(l.color.rgb) : 7) : 7;
        if (l?.color.rgb !== undefined && this.year < 2004)
          this.note(
            change(
              'LAYER',
              'nearest-colour',
              `changed to the nearest ACI colour (DXF ${this.options.version} has no true colours)`,
              'true colour',
            ),
          );
        out.g(62, l && !l.on ? -Math.abs(aci) : Math.abs(aci));
        if (l?.color.rgb !== undefined && this.year >= 2004) out.g(420, l.color.rgb);
        out.g(6, l?.linetype || 'Continuous');
        if (!this.r12) {
          if (l && !l.plot && upper(name) !== 'DEFPOINTS') out.g(290, 0);
          out.g(370, l?.lineweight ?? -3);
        } else if (l && l.lineweight >= 0) this.note(change('LAYER', 'detail', 'lineweights left out (R12 has none)'));
      }
    });

    const styleNames = [...this.styles.names.values()];
    table('STYLE', styleNames.length, () => {
      for (const name of styleNames) {
        const s = Object.values(d.textStyles).find((x) => upper(x.name) === upper(name));
        entry('STYLE', this.styles.get(name), 'AcDbTextStyleTableRecord', name, s?.flags ?? 0);
        out
          .g(40, s?.fixedHeight ?? 0)
          .g(41, s?.widthFactor || 1)
          .g(50, s?.oblique ?? 0)
          .g(71, s?.generation ?? 0)
          .g(42, 2.5);
        // A TrueType style may name no font file: 2000+ keep its family in the ACAD extended data
        // below (and the file empty, as AutoCAD writes it: a reader takes a named file first); R12
        // has no family and names the family's file instead. Either way it is not drawn in txt.
        const font = s?.font || (s?.fontFamily ? (this.r12 ? `${s.fontFamily}.ttf` : '') : 'txt');
        out.g(3, font).g(4, s?.bigFont ?? '');
        if (!this.r12 && s?.fontFamily)
          out
            .g(1001, 'ACAD')
            .g(1000, s.fontFamily)
            .g(1071, s.fontFlags ?? 0);
      }
    });
    table('VIEW', 0, () => undefined);
    table('UCS', 0, () => undefined);
    const apps = ['ACAD', ...xdataApps(d)];
    table('APPID', apps.length, () => {
      for (const app of apps) entry('APPID', this.handle(), 'AcDbRegAppTableRecord', app, 0);
    });

    const dimNames = [...this.dimstyles.names.values()];
    table('DIMSTYLE', dimNames.length, () => {
      for (const name of dimNames) {
        const s = Object.values(d.dimStyles).find((x) => upper(x.name) === upper(name));
        entry('DIMSTYLE', this.dimstyles.get(name), 'AcDbDimStyleTableRecord', name, 0);
        for (const [k, v] of Object.entries(s?.vars ?? {})) {
          const code = Number(k);
          if (code >= 340 && code <= 347) {
            const ref = this.r12 || typeof v !== 'string' ? null : this.dimRef(code, v);
            if (ref) out.g(code, ref);
          } else if (this.dimVarAllowed(code, v)) out.g(code, v as GroupValue);
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

  /**
   * The new handle of what a DIMSTYLE handle group names: its text style (340), leader and arrow
   * blocks (341..344, block records) or dimension linetypes (345..347); null when it is not written.
   */
  private dimRef(code: number, source: string): string | null {
    const d = this.d;
    const key = upper(source);
    const name =
      code === 340
        ? Object.values(d.textStyles).find((x) => x.handle && upper(x.handle) === key)?.name
        : code <= 344
          ? d.blockRecords.find((r) => r.handle && upper(r.handle) === key)?.name
          : Object.values(d.linetypes).find((l) => l.handle && upper(l.handle) === key)?.name;
    const table = code === 340 ? this.styles : code <= 344 ? this.records : this.ltypes;
    return name && table.has(name) ? table.get(name) : null;
  }

  /** DIMSTYLE groups that keep their meaning in this version; handles and names of blocks are left out. */
  private dimVarAllowed(code: number, v: unknown): boolean {
    if ([2, 5, 70, 100, 105, 330].includes(code) || code >= 1000 || (code >= 340 && code !== 371 && code !== 372)) return false;
    const isString = typeof v === 'string';
    const kind = code >= 3 && code <= 7 ? 0 : 1;
    if ((kind === 0) !== isString) return false;
    if (this.r12)
      return (
        (code >= 3 && code <= 7) ||
        (code >= 40 && code <= 48) ||
        (code >= 71 && code <= 78) ||
        (code >= 140 && code <= 147) ||
        (code >= 170 && code <= 178)
      );
    // From R13 DIMBLK names (5, 6, 7) are handles (342..344).
    if (code >= 5 && code <= 7) return false;
    return code < 300 || code === 371 || code === 372;
  }

  private objects(spaces: Space[]): Groups {
    const out = new Groups();
    const root = this.handle(),
      groups = this.handle(),
      layoutsDict = this.handle(),
      mlsDict = this.handle(),
      mlsStandard = this.handle();
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
    // Whether wipeout frames show (the display draws them by it): kept when the source says.
    const wipeoutFrame = this.d.header.vars.$WIPEOUTFRAME;
    const wipeoutVars = typeof wipeoutFrame === 'number' ? this.handle() : null;
    if (wipeoutVars) {
      rootEntries.push(['ACAD_WIPEOUT_VARS', wipeoutVars]);
      this.classes.add('WIPEOUTVARIABLES');
    }
    dict(root, '0', rootEntries);
    if (wipeoutVars)
      out
        .g(0, 'WIPEOUTVARIABLES')
        .g(5, wipeoutVars)
        .g(330, root)
        .g(100, 'AcDbWipeoutVariables')
        .g(70, wipeoutFrame as number);
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
    dict(
      layoutsDict,
      root,
      layouts.map(([name, s]) => [name, this.layoutHandles.get(s.block)]),
    );
    dict(mlsDict, root, [['Standard', mlsStandard]]);
    out
      .g(0, 'MLINESTYLE')
      .g(5, mlsStandard)
      .g(330, mlsDict)
      .g(100, 'AcDbMlineStyle')
      .g(2, 'Standard')
      .g(70, 0)
      .g(3, '')
      .g(62, 256)
      .g(51, 90)
      .g(52, 90);
    out.g(71, 2).g(49, 0.5).g(62, 256).g(6, 'BYLAYER').g(49, -0.5).g(62, 256).g(6, 'BYLAYER');
    layouts.forEach(([name, s], i) => this.layout(out, name, s, i, layoutsDict));
    for (const c of this.clips) this.spatialFilter(out, c, dict);
    if (imageDict) {
      dict(
        imageDict,
        root,
        [...this.imageDefs.values()].map((def, i) => [
          def.fileName
            .split(/[\\/]/)
            .pop()
            ?.replace(/\.[^.]*$/, '') || `image${i + 1}`,
          def.handle,
        ]),
      );
      for (const def of this.imageDefs.values()) {
        out.g(0, 'IMAGEDEF').g(5, def.handle).g(330, imageDict).g(100, 'AcDbRasterImageDef').g(90, 0).g(1, def.fileName);
        out
          .pt(10, def.size ?? [1, 1], true)
          .pt(11, [1, 1], true)
          .g(280, 1)
          .g(281, 0);
      }
    }
    return out;
  }

  /**
   * An XCLIP: the INSERT's extension dictionary → ACAD_FILTER → SPATIAL, a SPATIAL_FILTER whose
   * boundary is in block coordinates (both of its matrices the identity); an inverted clip also
   * keeps its hole in the ACAD_XREC_ROUNDTRIP record AutoCAD writes for it.
   */
  private spatialFilter(
    out: Groups,
    c: { insert: string; xdict: string; clip: BlockClip },
    dict: (h: string, owner: string, entries: [string, string][]) => void,
  ): void {
    const filters = this.handle(),
      filter = this.handle();
    const own = c.clip.inverted ? { xdict: this.handle(), record: this.handle() } : null;
    dict(c.xdict, c.insert, [['ACAD_FILTER', filters]]);
    dict(filters, c.xdict, [['SPATIAL', filter]]);
    out.g(0, 'SPATIAL_FILTER').g(5, filter);
    if (own) out.g(102, '{ACAD_XDICTIONARY').g(360, own.xdict).g(102, '}');
    out.g(330, filters).g(100, 'AcDbFilter').g(100, 'AcDbSpatialFilter').g(70, c.clip.boundary.length);
    for (const p of c.clip.boundary) out.pt(10, p, true);
    out.pt(210, [0, 0, 1]).pt(11, [0, 0, 0]).g(71, 1).g(72, 0).g(73, 0);
    for (let k = 0; k < 2; k++) for (const v of [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]) out.g(40, v);
    if (!own) return;
    dict(own.xdict, filter, [['ACAD_XREC_ROUNDTRIP', own.record]]);
    out.g(0, 'XRECORD').g(5, own.record).g(330, own.xdict).g(100, 'AcDbXrecord').g(280, 1);
    out.g(102, 'ACAD_INVERTEDCLIP_ROUNDTRIP');
    for (const p of c.clip.boundary) out.pt(10, [p[0], p[1], 0]);
    out.g(102, 'ACAD_INVERTEDCLIP_ROUNDTRIP_COMPARE');
  }

  private layout(out: Groups, name: string, s: Space, index: number, owner: string): void {
    const l = s.layout;
    const p = l?.plot ?? {};
    const model = index === 0;
    out.g(0, 'LAYOUT').g(5, this.layoutHandles.get(s.block)).g(330, owner).g(100, 'AcDbPlotSettings');
    out
      .g(1, p.pageSetupName ?? '')
      .g(2, p.printer ?? 'none_device')
      .g(4, p.paperName ?? '')
      .g(6, '');
    const m = p.margins ?? [0, 0, 0, 0];
    out
      .g(40, m[0])
      .g(41, m[1])
      .g(42, m[2])
      .g(43, m[3])
      .g(44, p.paperWidth ?? 0)
      .g(45, p.paperHeight ?? 0);
    out
      .g(46, p.plotOrigin?.[0] ?? 0)
      .g(47, p.plotOrigin?.[1] ?? 0)
      .g(48, 0)
      .g(49, 0)
      .g(140, 0)
      .g(141, 0);
    out
      .g(142, p.customScale?.[0] ?? 1)
      .g(143, p.customScale?.[1] ?? 1)
      .g(70, model ? 1712 : 688)
      .g(72, p.paperUnits ?? 1)
      .g(73, p.rotation ?? 0)
      .g(74, p.plotType ?? 5);
    out
      .g(7, p.styleSheet ?? '')
      .g(75, 0)
      .g(147, 1)
      .g(148, 0)
      .g(149, 0);
    out
      .g(100, 'AcDbLayout')
      .g(1, name)
      .g(70, 1)
      .g(71, model ? 0 : Math.max(1, l?.tabOrder ?? index));
    out
      .pt(10, l?.limMin ?? [0, 0], true)
      .pt(11, l?.limMax ?? [420, 297], true)
      .pt(12, l?.insertionBase ?? [0, 0, 0]);
    out
      .pt(14, l?.extMin ?? [1e20, 1e20, 1e20])
      .pt(15, l?.extMax ?? [-1e20, -1e20, -1e20])
      .g(146, 0);
    out.pt(13, [0, 0, 0]).pt(16, [1, 0, 0]).pt(17, [0, 1, 0]).g(76, 0).g(330, this.records.get(s.block));
  }

  private classList(): Groups {
    const out = new Groups();
    const defs: Record<string, [string, string, number, number]> = {
      IMAGE: ['AcDbRasterImage', 'ISM', 127, 1],
      IMAGEDEF: ['AcDbRasterImageDef', 'ISM', 0, 0],
      WIPEOUT: ['AcDbWipeout', 'WipeOut|AutoCAD Express Tool|expresstools@autodesk.com', 127, 1],
      WIPEOUTVARIABLES: ['AcDbWipeoutVariables', 'WipeOut|AutoCAD Express Tool|expresstools@autodesk.com', 0, 0],
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

export { chordTolerance, extentsOf };
