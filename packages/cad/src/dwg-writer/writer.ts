/**
 * Drawing model → DWG. Handles are fresh and given out in a first pass (tables, blocks, every
 * entity and its vertices, attributes and SEQEND, the objects), so that each object can name the
 * others (owners, links, first/last entities, layouts) when it is encoded in the second pass. What
 * the release cannot hold goes through the DXF writer's `Lowering` (the same rules for the same
 * release year) and is reported once per kind in `notes`.
 */
import { nearestAci } from '../geom/color';
import { entityKeyPoints } from '../key-points';
import { inDrawOrder, layoutEntitiesInOrder, recordHandleOf, xdataApps } from '../drawing';
import type { Block, BlockClip, Drawing, Entity, Layer, Layout, Linetype, PolylineEntity, TextStyle } from '../model';
import { encodeString } from '../dxf-writer/encode';
import { Lowering, withXdata, type GraphicsLowering } from '../dxf-writer/lower';
import { change, SaveAsLog, type SaveAsChange, type SaveAsNote } from '../save-as';
import { chordTolerance, extentsOf } from '../dxf-writer/writer';
import {
  CODEPAGE_ANSI_936,
  DWG_ACADVER,
  DWG_RELEASE_NUMBER,
  DWG_VERSION_NAMES,
  DWG_WRITE_VERSIONS,
  OT,
  type DwgVersion,
} from './constants';
import { assemble2000, streamedSection, type DwgClass, type EncodedObject } from './container2000';
import { assemble2004 } from './container2004';
import { assemble2007 } from './container2007';
import { encodeBlockMarker, encodeEntity, NATIVE_TYPES, type EntityContext, type Placed } from './entities';
import { headerStreams, writeHeaderVars, type HeaderHandles } from './header-vars';
import { eedItems, eedString, type Eed } from './object';
import {
  appidRecord,
  blockHeader,
  controlObject,
  dictionary,
  dimstyleRecord,
  imageDef,
  imageDefReactor,
  layerRecord,
  layoutObject,
  ltypeRecord,
  mlineStyle,
  placeholder,
  styleRecord,
  vportRecord,
  spatialFilter,
  wipeoutVariables,
  type TableContext,
} from './tables';

export type { DwgVersion } from './constants';

/** A request this writer cannot serve (a release not written yet). Same name as the engine's convert refusals. */
export class DwgWriteError extends Error {
  readonly reason: 'unsupported-version';
  constructor(message: string) {
    super(message);
    this.name = 'CadConvertError';
    this.reason = 'unsupported-version';
  }
}

export interface WriteDwgOptions {
  version: DwgVersion;
  /** Draws what the release cannot hold as our renderer draws it (`graphicsLowering`, save-as-graphics.ts). */
  graphics?: GraphicsLowering;
}

export interface WriteDwgResult {
  bytes: Uint8Array;
  /** What was changed to fit the release, one line per kind of change. */
  notes: string[];
  /** The same changes, one entry per (type, outcome, how): the save-as report (decision 0037). */
  changes: SaveAsChange[];
}

export function writeDwg(drawing: Drawing, options: WriteDwgOptions): WriteDwgResult {
  const v = options.version;
  if (!DWG_WRITE_VERSIONS.includes(v)) {
    const known = (DWG_VERSION_NAMES as readonly string[]).includes(v);
    throw new DwgWriteError(
      `${known ? `DWG ${v} output is not supported yet` : `unknown DWG version '${String(v)}'`}: DWG can be written as ${DWG_WRITE_VERSIONS.join(', ')}`,
    );
  }
  return new DwgWriter(drawing, v, options.graphics).write();
}

const upper = (s: string): string => s.toUpperCase();

/**
 * What an entity becomes in a DWG release: the DXF writer's lowering for the same year (MLINE,
 * MULTILEADER, tables, ... to what the release holds), MESH as a polyface mesh (this writer has
 * no MESH encoding, so even 2010+ get the polyface), and whatever still has no DWG encoding left
 * out. Each change is reported through `note` once per entity.
 */
export class DwgLowering {
  private readonly base: Lowering;
  private readonly mesh: Lowering;

  constructor(
    d: Drawing,
    private readonly version: DwgVersion,
    private readonly note: (n: SaveAsNote) => void,
    graphics?: GraphicsLowering,
  ) {
    const tol = chordTolerance(d);
    this.base = new Lowering(d, Number(version), tol, note, graphics, 2004);
    // A release without MESH: its polyface rule, with a note that names the DWG release.
    this.mesh = new Lowering(d, 2004, tol, () =>
      note(change('MESH', 'polyface', `written as a polyface mesh (no DWG ${version} MESH encoding)`)),
    );
  }

  lower(e: Entity): Entity[] {
    const out: Entity[] = [];
    for (const x of this.base.lower(e)) {
      for (const y of x.type === 'MESH' ? this.mesh.lower(x) : [x]) {
        if (NATIVE_TYPES.has(y.type)) out.push(y);
        else this.note(change(y.type, 'not-in-version', `left out (no DWG ${this.version} encoding)`));
      }
    }
    return out;
  }
}

/** What AcDb:AppInfo (R2010+) says about the writer. */
const APP_INFO = { name: 'xcad', version: '0.1.0', comment: 'DWG written by the xcad CAD engine from its drawing model.' };
const LAYOUT_BLOCK = /^[*$](model|paper)_space\d*$/i;

interface Entry<T> {
  name: string;
  handle: number;
  src?: T;
}

class Table<T> {
  readonly byName = new Map<string, Entry<T>>();
  constructor(private readonly next: () => number) {}
  get(name: string, src?: T): Entry<T> {
    const key = upper(name);
    let r = this.byName.get(key);
    if (!r) {
      r = { name, handle: this.next() };
      this.byName.set(key, r);
    }
    if (src && !r.src) r.src = src;
    return r;
  }
  find(name: string): Entry<T> | undefined {
    return this.byName.get(upper(name));
  }
  get all(): Entry<T>[] {
    return [...this.byName.values()];
  }
}

interface BlockPlan {
  name: string;
  record: number;
  blockEntity: number;
  endblk: number;
  source: Block;
  paper: boolean;
  /** Entity mode of its entities: 1 *Paper_Space, 2 *Model_Space, 0 any other block. */
  mode: number;
  layout: number;
  layoutSource?: Layout;
  layoutName?: string;
  entities: Placed[];
  inserts: number[];
}

class DwgWriter {
  private readonly year: number;
  private seed = 1;
  private readonly log = new SaveAsLog();
  /** Source entity handle → the handle of the entity written as itself for it (first one only). */
  private readonly placedBySource = new Map<string, number>();
  /** APPID records beside ACAD's, by upper-case name: the applications of the entities' extended data. */
  private readonly appids = new Map<string, { name: string; handle: number }>();
  /** XCLIPs: the INSERT, its extension dictionary, the ACAD_FILTER dictionary and the SPATIAL_FILTER. */
  private readonly clips: { insert: number; xdict: number; filters: number; filter: number; clip: BlockClip }[] = [];
  private readonly lowering: DwgLowering;
  private readonly objects = new Map<number, Uint8Array>();
  private readonly layers: Table<Layer>;
  private readonly ltypes: Table<Linetype>;
  private readonly styles: Table<TextStyle>;
  private readonly dimstyles: Table<Drawing['dimStyles'][string]>;
  private readonly blocks = new Map<string, BlockPlan>();
  private readonly classes: DwgClass[] = [];
  private readonly imageDefs = new Map<string, { handle: number; fileName: string; size: [number, number]; reactors: number[] }>();
  private imageDict = 0;
  private readonly text = (s: string): Uint8Array => encodeString(s, false);

  constructor(
    private readonly d: Drawing,
    private readonly version: DwgVersion,
    graphics?: GraphicsLowering,
  ) {
    this.year = Number(version);
    const next = (): number => this.handle();
    this.layers = new Table(next);
    this.ltypes = new Table(next);
    this.styles = new Table(next);
    this.dimstyles = new Table(next);
    this.lowering = new DwgLowering(d, version, (n) => this.note(n), graphics);
  }

  private handle(): number {
    return this.seed++;
  }

  private note(n: SaveAsNote): void {
    this.log.note(n);
  }

  private classType(dxfName: string): number {
    const c = this.classes.find((k) => k.dxfName === dxfName);
    if (!c) throw new Error(`class ${dxfName} was not declared`);
    return c.number;
  }

  private declareClass(dxfName: string, cppName: string, appName: string, proxyFlags: number, isEntity: boolean): void {
    if (this.classes.some((k) => k.dxfName === dxfName)) return;
    this.classes.push({ number: 500 + this.classes.length, dxfName, cppName, appName, proxyFlags, isEntity });
  }

  write(): WriteDwgResult {
    const d = this.d;
    const h = {
      blockControl: this.handle(),
      layerControl: this.handle(),
      styleControl: this.handle(),
      ltypeControl: this.handle(),
      viewControl: this.handle(),
      ucsControl: this.handle(),
      vportControl: this.handle(),
      appidControl: this.handle(),
      dimstyleControl: this.handle(),
      vxControl: this.handle(),
      named: this.handle(),
      groups: this.handle(),
      mlineStyles: this.handle(),
      mlineStandard: this.handle(),
      layouts: this.handle(),
      plotSettings: this.handle(),
      plotStyles: this.handle(),
      normal: this.handle(),
      acad: this.handle(),
      vport: this.handle(),
    };
    // The applications whose extended data the entities carry: an APPID record each.
    for (const app of xdataApps(d)) this.appids.set(upper(app), { name: app, handle: this.handle() });
    this.declareClass('ACDBDICTIONARYWDFLT', 'AcDbDictionaryWithDefault', 'ObjectDBX Classes', 0, false);
    // Fixed records first, as AutoCAD has them.
    this.layers.get('0', d.layers['0']);
    const byBlock = this.ltypes.get('ByBlock');
    const byLayer = this.ltypes.get('ByLayer');
    const continuous = this.ltypes.get('Continuous');
    this.styles.get('Standard');
    this.dimstyles.get('Standard');
    for (const l of Object.values(d.layers)) this.layers.get(l.name, l);
    for (const l of Object.values(d.linetypes)) if (!['BYBLOCK', 'BYLAYER'].includes(upper(l.name))) this.ltypes.get(l.name, l);
    for (const s of Object.values(d.textStyles)) if (s.name) this.styles.get(s.name, s);
    for (const s of Object.values(d.dimStyles)) if (s.name) this.dimstyles.get(s.name, s);
    for (const l of Object.values(d.layers))
      if (l.linetype && !['BYBLOCK', 'BYLAYER'].includes(upper(l.linetype))) this.ltypes.get(l.linetype);

    this.planBlocks();
    for (const b of this.blocks.values()) this.placeBlock(b);
    const ctx = this.entityContext();
    const tctx: TableContext = { year: this.year, text: this.text };

    // Entities (encoded first: they may still add table records, e.g. a text style only they name).
    for (const b of this.blocks.values()) {
      this.put(b.blockEntity, encodeBlockMarker(this.blockMarker(b, b.blockEntity), ctx, b.name));
      this.encodeList(b.entities, ctx);
      this.put(b.endblk, encodeBlockMarker(this.blockMarker(b, b.endblk), ctx, null));
    }

    // Tables.
    const blocks = [...this.blocks.values()];
    const model = blocks.find((b) => upper(b.name) === '*MODEL_SPACE') as BlockPlan;
    const paper = blocks.find((b) => upper(b.name) === '*PAPER_SPACE') as BlockPlan;
    const others = blocks.filter((b) => b !== model && b !== paper);
    this.put(
      h.blockControl,
      controlObject(
        tctx,
        OT.BLOCK_CONTROL,
        h.blockControl,
        others.map((b) => b.record),
        [model.record, paper.record],
      ),
    );
    for (const b of blocks) {
      this.put(
        b.record,
        blockHeader(tctx, {
          handle: b.record,
          control: h.blockControl,
          name: b.name,
          anonymous: b.mode === 0 && b.name.startsWith('*'),
          hasAttributes: b.source.entities.some((e) => e.type === 'ATTDEF'),
          basePoint: b.source.basePoint,
          blockEntity: b.blockEntity,
          endblk: b.endblk,
          entities: b.entities.map((p) => p.handle),
          inserts: b.inserts,
          layout: b.layout,
          ...(b.source.xrefPath ? { xrefPath: b.source.xrefPath } : {}),
        }),
      );
    }
    const layers = this.layers.all;
    this.put(
      h.layerControl,
      controlObject(
        tctx,
        OT.LAYER_CONTROL,
        h.layerControl,
        layers.map((l) => l.handle),
      ),
    );
    for (const l of layers) {
      const src: Layer = l.src ?? {
        name: l.name,
        color: { aci: 7 },
        linetype: 'Continuous',
        lineweight: -3,
        on: true,
        frozen: false,
        locked: false,
        plot: true,
      };
      const c = src.color;
      let aci = Math.abs(c.aci ?? 7) || 7;
      if (aci === 256) aci = 7;
      if (c.rgb !== undefined) {
        if (c.aci === undefined || c.aci === 0 || c.aci === 256) aci = nearestAci(c.rgb);
        if (this.year < 2004)
          this.note(change('LAYER', 'nearest-colour', 'changed to the nearest ACI colour (DWG 2000 has no true colours)', 'true colour'));
      }
      const lt = this.ltypeHandle(src.linetype || 'Continuous', continuous.handle);
      this.put(l.handle, layerRecord(tctx, l.handle, h.layerControl, src, lt, aci, this.year >= 2004 ? c.rgb : undefined));
    }
    const styles = this.styles.all;
    this.put(
      h.styleControl,
      controlObject(
        tctx,
        OT.STYLE_CONTROL,
        h.styleControl,
        styles.map((s) => s.handle),
      ),
    );
    for (const s of styles) {
      const src: TextStyle = s.src ?? {
        name: s.name,
        flags: 0,
        font: 'txt',
        bigFont: '',
        fixedHeight: 0,
        widthFactor: 1,
        oblique: 0,
        generation: 0,
      };
      const eed: Eed[] = [];
      if (src.fontFamily) {
        const str = eedString(src.fontFamily, tctx, CODEPAGE_ANSI_936);
        const flags = (src.fontFlags ?? 0) >>> 0;
        const long = Uint8Array.of(71, flags & 0xff, (flags >>> 8) & 0xff, (flags >>> 16) & 0xff, flags >>> 24);
        const data = new Uint8Array(str.length + long.length);
        data.set(str, 0);
        data.set(long, str.length);
        eed.push({ app: h.acad, data });
      }
      this.put(s.handle, styleRecord(tctx, s.handle, h.styleControl, { ...src, name: s.name }, eed));
    }
    const ltypes = this.ltypes.all.filter((l) => l !== byBlock && l !== byLayer);
    this.put(
      h.ltypeControl,
      controlObject(
        tctx,
        OT.LTYPE_CONTROL,
        h.ltypeControl,
        ltypes.map((l) => l.handle),
        [byBlock.handle, byLayer.handle],
      ),
    );
    const styleByHandle = (sh: string | undefined): number => {
      if (!sh) return 0;
      const st = Object.values(d.textStyles).find((s) => s.handle && upper(s.handle) === upper(sh));
      return st ? this.styles.get(st.name).handle : 0;
    };
    for (const l of this.ltypes.all) {
      const fixed = upper(l.name);
      const src: Linetype = l.src ?? {
        name: l.name,
        description: fixed === 'CONTINUOUS' ? 'Solid line' : '',
        totalLength: 0,
        elements: [],
      };
      if (src.elements.some((el) => el.kind & 6 && !styleByHandle(el.styleHandle)))
        this.note(change('LTYPE', 'plain-dashes', 'text or shape elements without their text style written as plain dashes'));
      this.put(l.handle, ltypeRecord(tctx, l.handle, h.ltypeControl, { ...src, name: l.name }, styleByHandle));
    }
    this.put(h.viewControl, controlObject(tctx, 60, h.viewControl, []));
    this.put(h.ucsControl, controlObject(tctx, 62, h.ucsControl, []));
    this.put(h.vportControl, controlObject(tctx, OT.VPORT_CONTROL, h.vportControl, [h.vport]));
    const [min, max] = extentsOf(d);
    const w = Math.max(max[0] - min[0], 1e-6),
      ht = Math.max(max[1] - min[1], 1e-6);
    this.put(
      h.vport,
      vportRecord(tctx, h.vport, h.vportControl, {
        center: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2],
        height: Math.max(ht, w / 1.5) * 1.05,
        aspect: 1.5,
      }),
    );
    const apps = [...this.appids.values()];
    this.put(h.appidControl, controlObject(tctx, OT.APPID_CONTROL, h.appidControl, [h.acad, ...apps.map((a) => a.handle)]));
    this.put(h.acad, appidRecord(tctx, h.acad, h.appidControl, 'ACAD'));
    for (const a of apps) this.put(a.handle, appidRecord(tctx, a.handle, h.appidControl, a.name));
    const dimstyles = this.dimstyles.all;
    this.put(
      h.dimstyleControl,
      controlObject(
        tctx,
        OT.DIMSTYLE_CONTROL,
        h.dimstyleControl,
        dimstyles.map((s) => s.handle),
      ),
    );
    const standardStyle = (this.styles.find('Standard') as Entry<TextStyle>).handle;
    for (const s of dimstyles) {
      const src = s.src ?? { name: s.name, vars: {} };
      const txsty = typeof src.vars[340] === 'string' ? styleByHandle(src.vars[340] as string) || standardStyle : standardStyle;
      // Leader and arrow blocks (341..344) and the dimension linetypes (345..347), by their new handles.
      const refs = (code: number): number => {
        const v = src.vars[code];
        if (typeof v !== 'string' || !v) return 0;
        if (code <= 344) {
          const name = d.blockRecords.find((r) => r.handle && upper(r.handle) === upper(v))?.name;
          return (name && this.blocks.get(upper(name))?.record) || 0;
        }
        const lt = Object.values(d.linetypes).find((l) => l.handle && upper(l.handle) === upper(v));
        return (lt && this.ltypes.find(lt.name)?.handle) || 0;
      };
      this.put(s.handle, dimstyleRecord(tctx, s.handle, h.dimstyleControl, { ...src, name: s.name }, txsty, refs));
    }
    // The viewport entity header control exists up to R2000 only.
    if (this.year < 2004) this.put(h.vxControl, controlObject(tctx, OT.VX_CONTROL, h.vxControl, []));

    // Objects: the named objects dictionary and what it owns.
    const rootEntries: [string, number][] = [
      ['ACAD_GROUP', h.groups],
      ['ACAD_LAYOUT', h.layouts],
      ['ACAD_MLINESTYLE', h.mlineStyles],
      ['ACAD_PLOTSETTINGS', h.plotSettings],
      ['ACAD_PLOTSTYLENAME', h.plotStyles],
    ];
    if (this.imageDict) rootEntries.push(['ACAD_IMAGE_DICT', this.imageDict]);
    // Whether wipeout frames show (the display draws them by it): kept when the source says.
    const wipeoutFrame = d.header.vars.$WIPEOUTFRAME;
    const wipeoutVars = typeof wipeoutFrame === 'number' ? this.handle() : 0;
    if (wipeoutVars) {
      this.declareClass('WIPEOUTVARIABLES', 'AcDbWipeoutVariables', 'WipeOut|AutoCAD Express Tool|expresstools@autodesk.com', 0, false);
      rootEntries.push(['ACAD_WIPEOUT_VARS', wipeoutVars]);
    }
    rootEntries.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    this.put(h.named, dictionary(tctx, h.named, 0, rootEntries, { hardOwner: false }));
    this.put(h.groups, dictionary(tctx, h.groups, h.named, []));
    this.put(h.mlineStyles, dictionary(tctx, h.mlineStyles, h.named, [['Standard', h.mlineStandard]]));
    this.put(h.mlineStandard, mlineStyle(tctx, h.mlineStandard, h.mlineStyles));
    this.put(h.plotSettings, dictionary(tctx, h.plotSettings, h.named, []));
    this.put(
      h.plotStyles,
      dictionary(tctx, h.plotStyles, h.named, [['Normal', h.normal]], {
        withDefault: { type: this.classType('ACDBDICTIONARYWDFLT'), entry: h.normal },
      }),
    );
    this.put(h.normal, placeholder(tctx, h.normal, h.plotStyles));
    for (const c of this.clips) {
      this.put(c.xdict, dictionary(tctx, c.xdict, c.insert, [['ACAD_FILTER', c.filters]], { hardOwner: true }));
      this.put(c.filters, dictionary(tctx, c.filters, c.xdict, [['SPATIAL', c.filter]], { hardOwner: true }));
      this.put(c.filter, spatialFilter(tctx, this.classType('SPATIAL_FILTER'), c.filter, c.filters, c.clip));
    }
    if (wipeoutVars)
      this.put(wipeoutVars, wipeoutVariables(tctx, this.classType('WIPEOUTVARIABLES'), wipeoutVars, h.named, wipeoutFrame as number));
    const spaces = blocks.filter((b) => b.layout);
    const layoutEntries: [string, number][] = spaces.map((b) => [b.layoutName as string, b.layout]);
    this.put(h.layouts, dictionary(tctx, h.layouts, h.named, layoutEntries));
    spaces.forEach((b, i) => {
      const viewports = b.entities.filter((p) => p.e.type === 'VIEWPORT').map((p) => p.handle);
      this.put(
        b.layout,
        layoutObject(tctx, {
          handle: b.layout,
          owner: h.layouts,
          name: b.layoutName as string,
          tabOrder: b.layoutSource?.tabOrder ?? i,
          model: b === model,
          block: b.record,
          viewport: viewports[0] ?? 0,
          viewports,
          ...(b.layoutSource ? { layout: b.layoutSource } : {}),
        }),
      );
    });
    if (this.imageDict) {
      const defs = [...this.imageDefs.values()];
      const names = new Set<string>();
      const entries: [string, number][] = defs.map((def, i) => {
        let n =
          def.fileName
            .split(/[\\/]/)
            .pop()
            ?.replace(/\.[^.]*$/, '') || `image${i + 1}`;
        for (let k = 2; names.has(upper(n)); k++) n = `${n}_${k}`;
        names.add(upper(n));
        return [n, def.handle];
      });
      this.put(this.imageDict, dictionary(tctx, this.imageDict, h.named, entries));
      for (const def of defs)
        this.put(def.handle, imageDef(tctx, this.classType('IMAGEDEF'), def.handle, this.imageDict, def.reactors, def.fileName, def.size));
    }

    // Header variables.
    const hv = headerStreams(this.year);
    const textStyle = (d.header.textStyle && this.styles.find(d.header.textStyle)) || (this.styles.find('Standard') as Entry<TextStyle>);
    const dimstyle = (d.header.dimstyle && this.dimstyles.find(d.header.dimstyle)) || (this.dimstyles.find('Standard') as Entry<unknown>);
    const handseed = this.seed;
    const handles: HeaderHandles = {
      handseed,
      clayer: (this.layers.find('0') as Entry<Layer>).handle,
      textstyle: textStyle.handle,
      celtype: byLayer.handle,
      dimstyle: dimstyle.handle,
      cmlstyle: h.mlineStandard,
      dimtxsty: standardStyle,
      blockControl: h.blockControl,
      layerControl: h.layerControl,
      styleControl: h.styleControl,
      ltypeControl: h.ltypeControl,
      viewControl: h.viewControl,
      ucsControl: h.ucsControl,
      vportControl: h.vportControl,
      appidControl: h.appidControl,
      dimstyleControl: h.dimstyleControl,
      vxControl: h.vxControl,
      groupDict: h.groups,
      mlinestyleDict: h.mlineStyles,
      namedObjects: h.named,
      layoutDict: h.layouts,
      plotSettingsDict: h.plotSettings,
      plotStyleDict: h.plotStyles,
      materialDict: 0,
      colorDict: 0,
      paperSpace: paper.record,
      modelSpace: model.record,
      byLayer: byLayer.handle,
      byBlock: byBlock.handle,
      continuous: continuous.handle,
    };
    writeHeaderVars(hv, d.header, handles, { year: this.year, text: this.text, extMin: min, extMax: max });

    const objects: EncodedObject[] = [...this.objects].sort((a, b) => a[0] - b[0]).map(([handle, bytes]) => ({ handle, bytes }));
    // Instances per class (R2004+ class records carry them).
    const placed = [...this.blocks.values()].flatMap((b) => b.entities);
    const instances: { [dxf: string]: number } = {
      ACDBDICTIONARYWDFLT: 1,
      IMAGE: placed.filter((p) => p.e.type === 'IMAGE').length,
      IMAGEDEF_REACTOR: placed.filter((p) => p.e.type === 'IMAGE').length,
      IMAGEDEF: this.imageDefs.size,
      WIPEOUT: placed.filter((p) => p.e.type === 'WIPEOUT').length,
      WIPEOUTVARIABLES: wipeoutVars ? 1 : 0,
      SPATIAL_FILTER: this.clips.length,
    };
    for (const c of this.classes) c.instances = instances[c.dxfName] ?? 0;
    const common = {
      signature: DWG_ACADVER[this.version],
      release: DWG_RELEASE_NUMBER[this.version],
      codePage: CODEPAGE_ANSI_936,
      measurement: d.header.measurement ?? (typeof d.header.vars.$MEASUREMENT === 'number' ? d.header.vars.$MEASUREMENT : 1),
      handseed,
      headerVars: hv.s ? streamedSection(hv.d, hv.s, hv.h) : hv.d.toBytes(),
      classes: this.classes,
      objects,
      text: this.text,
    };
    const bytes =
      this.year === 2007
        ? assemble2007({ ...common, year: this.year, appInfo: APP_INFO })
        : this.year >= 2004
          ? assemble2004({ ...common, year: this.year, appInfo: APP_INFO })
          : assemble2000({
              ...common,
              secondHeaderHandles: [
                handseed,
                h.blockControl,
                h.layerControl,
                h.styleControl,
                h.ltypeControl,
                h.viewControl,
                h.ucsControl,
                h.vportControl,
                h.appidControl,
                h.dimstyleControl,
                h.vxControl,
                h.named,
                h.mlineStyles,
                h.groups,
              ],
            });
    return { bytes, notes: this.log.notes, changes: this.log.changes };
  }

  private put(handle: number, bytes: Uint8Array): void {
    this.objects.set(handle, bytes);
  }

  private ltypeHandle(name: string, fallback: number): number {
    const key = upper(name);
    if (key === 'BYLAYER' || key === 'BYBLOCK') return fallback;
    return this.ltypes.get(name).handle;
  }

  private entityContext(): EntityContext {
    return {
      year: this.year,
      text: this.text,
      layer: (name) => this.layers.get(name || '0', this.d.layers[name || '0']).handle,
      linetype: (name) => {
        const key = upper(name);
        if (key === 'BYLAYER' || key === '') return { flags: 0, handle: 0 };
        if (key === 'BYBLOCK') return { flags: 1, handle: 0 };
        if (key === 'CONTINUOUS') return { flags: 2, handle: 0 };
        return { flags: 3, handle: this.ltypes.get(name, this.d.linetypes[name]).handle };
      },
      style: (name) => this.styles.get(name || 'Standard', this.d.textStyles[name || 'Standard']).handle,
      dimstyle: (name) => (this.dimstyles.find(name || 'Standard') ?? (this.dimstyles.find('Standard') as Entry<unknown>)).handle,
      note: (n) => this.note(n),
      placedHandle: (source) => this.placedBySource.get(upper(source)) ?? 0,
      classType: (dxf) => this.classType(dxf),
      eed: (e) => {
        const out: Eed[] = [];
        for (const x of e.xdata ?? []) {
          const app = this.appids.get(upper(x.app));
          const data = app
            ? eedItems(x.items, { year: this.year, text: this.text }, CODEPAGE_ANSI_936, {
                object: (source) => this.placedBySource.get(upper(source)) ?? 0,
                layer: (name) => this.layers.get(name || '0', this.d.layers[name || '0']).handle,
              })
            : null;
          if (app && data && data.length <= 0xffff) out.push({ app: app.handle, data });
          else
            this.note(
              change(
                e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type,
                'detail',
                'extended data referring to other objects left out',
              ),
            );
        }
        return out;
      },
    };
  }

  /** Model space, the paper layouts (the first is *Paper_Space), then the other blocks. */
  private planBlocks(): void {
    const d = this.d;
    const modelLayout = d.layouts.find((l) => l.isModel);
    const papers = d.layouts.filter((l) => !l.isModel);
    papers.sort((a, b) =>
      upper(a.blockName) === '*PAPER_SPACE' ? -1 : upper(b.blockName) === '*PAPER_SPACE' ? 1 : a.tabOrder - b.tabOrder,
    );
    const empty = (name: string): Block => ({
      name,
      basePoint: [0, 0, 0],
      flags: 0,
      anonymous: false,
      xref: false,
      layer: '0',
      entities: [],
    });
    const add = (name: string, source: Block, mode: number, layoutName?: string, layout?: Layout): void => {
      const plan: BlockPlan = {
        name,
        record: this.handle(),
        blockEntity: this.handle(),
        endblk: this.handle(),
        source,
        paper: mode === 1 || (layoutName !== undefined && mode === 0),
        mode,
        layout: layoutName !== undefined ? this.handle() : 0,
        entities: [],
        inserts: [],
      };
      if (layoutName !== undefined) plan.layoutName = layoutName;
      if (layout) plan.layoutSource = layout;
      this.blocks.set(upper(name), plan);
    };
    const used = new Set<string>();
    const uniqueName = (n: string): string => {
      let name = n;
      for (let k = 2; used.has(upper(name)); k++) name = `${n} (${k})`;
      used.add(upper(name));
      return name;
    };
    // Entities in their draw order (decision 0037): fresh handles rise in writing order.
    const model = inDrawOrder(d, d.modelSpace, recordHandleOf(d, '*Model_Space'));
    add('*Model_Space', { ...empty('*Model_Space'), entities: model }, 2, uniqueName(modelLayout?.name || 'Model'), modelLayout);
    if (papers.length === 0) add('*Paper_Space', empty('*Paper_Space'), 1, uniqueName('Layout1'));
    papers.forEach((l, i) => {
      const name = i === 0 ? '*Paper_Space' : `*Paper_Space${i - 1}`;
      add(name, { ...empty(name), entities: layoutEntitiesInOrder(d, l) }, i === 0 ? 1 : 0, uniqueName(l.name || `Layout${i + 1}`), l);
    });
    for (const b of Object.values(d.blocks)) {
      if (LAYOUT_BLOCK.test(b.name) || this.blocks.has(upper(b.name))) continue;
      add(b.name, { ...b, entities: inDrawOrder(d, b.entities, b.recordHandle) }, 0);
    }
  }

  /** Gives handles to a block's entities (lowered to what the release holds) and links them. */
  private placeBlock(b: BlockPlan): void {
    const out: Placed[] = [];
    for (const source of b.source.entities) {
      const lowered = this.lowering.lower(source);
      const only = lowered.length === 1 ? lowered[0] : undefined;
      const { pieces: placed, lost } = withXdata(source, lowered);
      if (lost)
        this.note(
          change(
            source.type === 'UNKNOWN' || source.type === 'ACIS' || source.type === 'UNDERLAY' ? source.dxfType : source.type,
            'detail',
            'extended data left out (the object was written as several others)',
          ),
        );
      for (const e of placed) {
        const p = this.place(e, b.record, b.mode);
        if (!p) continue;
        p.source = source;
        // An entity written as itself keeps its place for what refers to it (a viewport's clip boundary).
        if ((e === source || only === source) && source.handle && !this.placedBySource.has(upper(source.handle)))
          this.placedBySource.set(upper(source.handle), p.handle);
        out.push(p);
      }
    }
    link(out);
    b.entities = out;
  }

  private place(e: Entity, owner: number, mode: number): Placed | null {
    const p: Placed = { e, handle: 0, owner, mode, prev: 0, next: 0, subs: [], seqend: 0 };
    if (e.type === 'INSERT') {
      const target = this.blocks.get(upper(e.name));
      if (!target || LAYOUT_BLOCK.test(e.name)) {
        this.note(change('INSERT', 'broken-input', 'left out (its block is missing)'));
        for (let k = 0; k < e.attributes.length; k++)
          this.note(change('ATTRIB', 'broken-input', 'left out with its block reference (the block is missing)'));
        return null;
      }
      p.handle = this.handle();
      p.block = target.record;
      target.inserts.push(p.handle);
      // An XCLIP. An inverted one is written as the clip that draws the same: a frame around the
      // block's content bridged to the hole (readers of DWG take the hole's own record for nothing).
      const clip = e.clip && (e.clip.inverted ? invertedAsFrame(e.clip, target.source) : e.clip);
      if (clip) {
        this.declareClass('SPATIAL_FILTER', 'AcDbSpatialFilter', 'ObjectDBX Classes', 0, false);
        p.xdict = this.handle();
        this.clips.push({ insert: p.handle, xdict: p.xdict, filters: this.handle(), filter: this.handle(), clip });
      }
      if (e.attributes.length) {
        p.subs = e.attributes.map((a) => ({
          e: { ...a, type: 'ATTRIB' as const },
          handle: this.handle(),
          owner: p.handle,
          mode: 0,
          prev: 0,
          next: 0,
          subs: [],
          seqend: 0,
        }));
        link(p.subs);
        p.seqend = this.handle();
      }
      return p;
    }
    p.handle = this.handle();
    if (e.type === 'DIMENSION') p.block = this.blocks.get(upper(e.block))?.record ?? 0;
    if (e.type === 'POLYLINE') {
      const n = e.vertices.length + (e.kind === 'polyface' ? e.faces.length : 0);
      for (let i = 0; i < n; i++)
        p.subs.push({ e, handle: this.handle(), owner: p.handle, mode: 0, prev: 0, next: 0, subs: [], seqend: 0, kind: 'vertex' });
      link(p.subs);
      p.seqend = this.handle();
    }
    if (e.type === 'IMAGE') {
      this.declareClass('IMAGE', 'AcDbRasterImage', 'ISM', 127, true);
      this.declareClass('IMAGEDEF', 'AcDbRasterImageDef', 'ISM', 0, false);
      this.declareClass('IMAGEDEF_REACTOR', 'AcDbRasterImageDefReactor', 'ISM', 1, false);
      if (!this.imageDict) this.imageDict = this.handle();
      const key = e.imageDefHandle ?? `file:${e.fileName ?? ''}`;
      let def = this.imageDefs.get(key);
      if (!def) {
        const src = e.imageDefHandle ? this.d.imageDefs[e.imageDefHandle] : undefined;
        def = { handle: this.handle(), fileName: src?.fileName ?? e.fileName ?? '', size: src?.size ?? e.imageSize, reactors: [] };
        this.imageDefs.set(key, def);
      }
      p.imageDef = def.handle;
      p.imageReactor = this.handle();
      def.reactors.push(p.imageReactor);
    }
    if (e.type === 'WIPEOUT')
      this.declareClass('WIPEOUT', 'AcDbWipeout', 'WipeOut|AutoCAD Express Tool|expresstools@autodesk.com', 127, true);
    return p;
  }

  /** The BLOCK or ENDBLK entity of a block: on the block's layer, owned by its record. */
  private blockMarker(b: BlockPlan, handle: number): Placed {
    const e: Entity = {
      layer: b.source.layer || '0',
      color: { aci: 256 },
      linetype: 'BYLAYER',
      ltscale: 1,
      lineweight: -1,
      visible: true,
      extrusion: [0, 0, 1],
      paperSpace: b.paper,
      type: 'POINT',
      position: [0, 0, 0],
      angle: 0,
    };
    return { e, handle, owner: b.record, mode: 0, prev: 0, next: 0, subs: [], seqend: 0 };
  }

  private encodeList(list: Placed[], ctx: EntityContext): void {
    for (const p of list) {
      const source = p.source ?? p.e;
      // What the pieces of one source object report (a true colour) counts once, for that object.
      this.log.within(
        source,
        source.type === 'UNKNOWN' || source.type === 'ACIS' || source.type === 'UNDERLAY' ? source.dxfType : source.type,
        () => this.encodePlaced(p, ctx),
      );
    }
  }

  private encodePlaced(p: Placed, ctx: EntityContext): void {
    this.put(p.handle, encodeEntity(p, ctx));
    if (p.e.type === 'POLYLINE') {
      const pl = p.e as PolylineEntity;
      p.subs.forEach((s, i) => this.put(s.handle, encodeEntity(s, ctx, { pl, index: i })));
      this.put(
        p.seqend,
        encodeEntity({ e: p.e, handle: p.seqend, owner: p.handle, mode: 0, prev: 0, next: 0, subs: [], seqend: 0, kind: 'seqend' }, ctx),
      );
    } else if (p.subs.length) {
      for (const s of p.subs) this.put(s.handle, encodeEntity(s, ctx));
      this.put(
        p.seqend,
        encodeEntity({ e: p.e, handle: p.seqend, owner: p.handle, mode: 0, prev: 0, next: 0, subs: [], seqend: 0, kind: 'seqend' }, ctx),
      );
    }
    if (p.imageReactor)
      this.put(
        p.imageReactor,
        imageDefReactor({ year: this.year, text: this.text }, this.classType('IMAGEDEF_REACTOR'), p.imageReactor, p.handle),
      );
  }
}

function link(list: Placed[]): void {
  list.forEach((p, i) => {
    p.prev = list[i - 1]?.handle ?? 0;
    p.next = list[i + 1]?.handle ?? 0;
  });
}

/**
 * An inverted XCLIP as a plain one: a frame around the block's content (its key points and the
 * hole, with a margin) running one way, bridged to the hole running the other, so a nonzero fill
 * of the ring leaves the hole out. Null when the block has nothing to frame.
 */
function invertedAsFrame(clip: BlockClip, block: Block): BlockClip | null {
  const pts = [...clip.boundary, ...block.entities.flatMap((e) => entityKeyPoints(e))].filter(
    ([x, y]) => Number.isFinite(x) && Number.isFinite(y),
  );
  if (pts.length < 3) return null;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of pts) [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  const m = Math.max(x1 - x0, y1 - y0, 1e-6) * 0.1;
  [x0, y0, x1, y1] = [x0 - m, y0 - m, x1 + m, y1 + m];
  let area = 0;
  clip.boundary.forEach(([ax, ay], i) => {
    const [bx, by] = clip.boundary[(i + 1) % clip.boundary.length] as [number, number];
    area += ax * by - bx * ay;
  });
  // The frame counter-clockwise, the hole clockwise.
  const hole = area > 0 ? [...clip.boundary].reverse() : [...clip.boundary];
  const first = hole[0] as [number, number];
  const frame: [number, number][] = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ];
  return { boundary: [...frame, first, ...hole.slice(1), first], inverted: false };
}
