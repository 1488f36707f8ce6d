/** DXF (ASCII and binary) → Drawing. */
import { applyHeaderVars, emptyDrawing, finishDrawing } from '../drawing';
import { CadReadError } from '../errors';
import type {
  AcisEntity,
  Block,
  Color,
  MLineStyle,
  BlockRecord,
  Drawing,
  Entity,
  Header,
  HeaderValue,
  ImageDef,
  Layout,
  LinetypeElement,
  PlotSettings,
  PolylineEntity,
  InsertEntity,
  TextEntity,
  ViewportEntity,
} from '../model';
import { blockClip, IDENTITY_3X4 } from './clip';
import { encodingForCodePage, releaseName } from './codepage';
import { acdsAsmData } from './entities/acis';
import { addVertex } from './entities/curves';
import { buildEntity } from './entities/table';
import { asNum, asStr, DxfRecord } from './record';
import { AsciiSource, BinarySource, isBinaryDxf, type GroupSource } from './tokenizer';
import type { Vec3 } from '../geom/vector';

export interface ReadOptions {
  /** Force the text encoding (a TextDecoder label), ignoring $DWGCODEPAGE. */
  encoding?: string;
}

export interface ReadResult {
  drawing: Drawing;
  warnings: string[];
}

/** 'ascii' | 'binary' when the bytes look like DXF, else null. */
export function detectDxf(bytes: Uint8Array): 'ascii' | 'binary' | null {
  if (isBinaryDxf(bytes)) return 'binary';
  let p = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const n = Math.min(bytes.length, 1 << 16);
  // The first group must be "0 SECTION" (or a 999 comment).
  for (let groups = 0; groups < 8; groups++) {
    const line = (): string | null => {
      while (p < n && (bytes[p] === 32 || bytes[p] === 9 || bytes[p] === 10 || bytes[p] === 13)) p++;
      if (p >= n) return null;
      let e = p;
      while (e < n && bytes[e] !== 10 && bytes[e] !== 13) e++;
      if (e - p > 300) return null;
      let s = '';
      for (let i = p; i < e; i++) s += String.fromCharCode(bytes[i] as number);
      p = e;
      return s.trim();
    };
    const code = line();
    const value = line();
    if (code === null || value === null) return null;
    if (code === '999') continue;
    if (code === '0' && value.toUpperCase() === 'SECTION') return 'ascii';
    return null;
  }
  return null;
}

const upper = (s: string): string => s.toUpperCase();

export function readDxf(bytes: Uint8Array, options: ReadOptions = {}): ReadResult {
  if (bytes.length === 0 || bytes.every((b) => b === 32 || b === 9 || b === 10 || b === 13 || b === 0))
    throw new CadReadError('empty', 'The file is empty');
  const kind = detectDxf(bytes);
  if (!kind) throw new CadReadError('not-dxf', 'Not a DXF file: it does not start with a "0 SECTION" group or the binary DXF sentinel');
  const src: GroupSource = kind === 'binary' ? new BinarySource(bytes) : new AsciiSource(bytes);
  src.setEncoding(options.encoding ?? null);
  return new DxfReader(src, options).read();
}

interface LayoutObject {
  handle?: string;
  name: string;
  tabOrder: number;
  blockRecordHandle?: string;
  plot: PlotSettings;
  limMin?: Vec3;
  limMax?: Vec3;
  extMin?: Vec3;
  extMax?: Vec3;
  insertionBase?: Vec3;
}

class DxfReader {
  private readonly src: GroupSource;
  private readonly options: ReadOptions;
  private pushedBack = false;
  private eof = false;
  private sawEof = false;
  private sections = 0;
  private readonly warnings: string[] = [];
  private readonly rec = new DxfRecord();
  private readonly drawing: Drawing;
  private readonly paperEntities: Entity[] = [];
  private readonly layoutObjects: LayoutObject[] = [];
  private pendingSet: 'version' | 'codepage' | null = null;
  /** INSERTs with an extension dictionary (a possible XCLIP), and what resolves their clips. */
  private readonly xdictInserts: [InsertEntity, string][] = [];
  private readonly dictionaries = new Map<string, Map<string, string>>();
  private readonly spatialFilters = new Map<string, SpatialFilter>();
  private readonly invertedClips = new Map<string, [number, number][]>();
  /** R2013+: solids, regions and surfaces whose SAB is in the ACDSDATA section, and that section's data by handle. */
  private readonly sabless: AcisEntity[] = [];
  private readonly asmData = new Map<string, string>();

  constructor(src: GroupSource, options: ReadOptions) {
    this.src = src;
    this.options = options;
    const header: Header = { acadVersion: '', release: 'R12', encoding: options.encoding ?? 'auto', vars: {} };
    this.drawing = emptyDrawing(header);
  }

  private nextGroup(): boolean {
    if (this.pushedBack) {
      this.pushedBack = false;
      return true;
    }
    if (this.eof) return false;
    if (!this.src.next()) {
      this.eof = true;
      return false;
    }
    return true;
  }

  /** Reads the next record (a 0-group and its groups) into `this.rec`; false at the end. */
  private readRecord(): boolean {
    const src = this.src;
    const rec = this.rec;
    // Find the next 0-group.
    for (;;) {
      if (!this.nextGroup()) return false;
      if (src.code === 0) break;
    }
    rec.type = upper(asStr(src.value));
    rec.codes.length = 0;
    rec.vals.length = 0;
    rec.xdataStart = -1;
    rec.xdict = '';
    let skipDepth = 0;
    let inXdict = false;
    // XRECORDs name their sections with plain 102 groups (ACAD_INVERTEDCLIP_ROUNDTRIP, ...): kept.
    const keepMarkers = rec.type === 'XRECORD';
    while (this.nextGroup()) {
      const c = src.code;
      const v = src.value;
      if (c === 0) {
        this.pushedBack = true;
        break;
      }
      if (c === 102 && rec.xdataStart < 0) {
        const s = asStr(v);
        if (s.startsWith('{')) {
          skipDepth++;
          inXdict = upper(s) === '{ACAD_XDICTIONARY';
        } else if (s.startsWith('}') && skipDepth > 0) {
          skipDepth--;
          inXdict = false;
        } else if (keepMarkers && skipDepth === 0) {
          rec.codes.push(c);
          rec.vals.push(v);
        }
        continue;
      }
      if (skipDepth > 0) {
        if (inXdict && c === 360 && !rec.xdict) rec.xdict = asStr(v);
        continue;
      }
      if (c === 1001 && rec.xdataStart < 0) rec.xdataStart = rec.codes.length;
      if (this.pendingSet) this.applyEncoding(asStr(v));
      else if (c === 9 && (v === '$ACADVER' || v === '$DWGCODEPAGE')) this.pendingSet = v === '$ACADVER' ? 'version' : 'codepage';
      rec.codes.push(c);
      rec.vals.push(v);
    }
    if (rec.xdataStart < 0) rec.xdataStart = rec.codes.length;
    return true;
  }

  /** Switches string decoding as soon as $ACADVER / $DWGCODEPAGE are read. */
  private applyEncoding(value: string): void {
    const h = this.drawing.header;
    if (this.pendingSet === 'version') h.acadVersion = value;
    else h.codePage = value;
    this.pendingSet = null;
    if (this.options.encoding) return;
    let enc: string | null = null;
    if (h.acadVersion >= 'AC1021') enc = 'utf-8';
    else if (h.codePage) enc = encodingForCodePage(h.codePage);
    if (enc) {
      this.src.setEncoding(enc);
      h.encoding = enc;
    }
  }

  read(): ReadResult {
    let section = '';
    let table = '';
    let block: Block | null = null;
    let polyline: PolylineEntity | null = null;
    let insert: InsertEntity | null = null;
    const d = this.drawing;
    const r = this.rec;
    while (this.readRecord()) {
      const type = r.type;
      if (type === 'SECTION') {
        section = upper(r.str(2));
        this.sections++;
        polyline = null;
        insert = null;
        block = null;
        if (section === 'HEADER') this.readHeader();
        continue;
      }
      if (type === 'ENDSEC') {
        section = '';
        polyline = null;
        insert = null;
        continue;
      }
      if (type === 'EOF') {
        this.sawEof = true;
        break;
      }
      if (section === 'TABLES') {
        if (type === 'TABLE') table = upper(r.str(2));
        else if (type === 'ENDTAB') table = '';
        else this.readTableEntry(table || type);
        continue;
      }
      if (section === 'OBJECTS') {
        this.readObject();
        continue;
      }
      if (section === 'ACDSDATA') {
        const asm = type === 'ACDSRECORD' ? acdsAsmData(r) : null;
        if (asm) this.asmData.set(asm[0], asm[1]);
        continue;
      }
      if (section !== 'BLOCKS' && section !== 'ENTITIES') continue;
      if (section === 'BLOCKS' && type === 'BLOCK') {
        block = this.readBlock();
        polyline = null;
        insert = null;
        continue;
      }
      if (type === 'ENDBLK') {
        block = null;
        polyline = null;
        insert = null;
        continue;
      }
      // Entity sequences: POLYLINE + VERTEX... + SEQEND, INSERT + ATTRIB... + SEQEND.
      if (type === 'VERTEX') {
        if (polyline) addVertex(polyline, r);
        continue;
      }
      if (type === 'SEQEND') {
        polyline = null;
        insert = null;
        continue;
      }
      if (type === 'ATTRIB' && insert) {
        insert.attributes.push(buildEntity(r) as TextEntity);
        continue;
      }
      polyline = null;
      insert = null;
      const e = buildEntity(r);
      d.stats.entities++;
      if (e.type === 'UNKNOWN') d.stats.unknown[e.dxfType] = (d.stats.unknown[e.dxfType] ?? 0) + 1;
      else if (e.type === 'POLYLINE') polyline = e;
      else if (e.type === 'ACIS' && !e.sat && e.handle) this.sabless.push(e);
      else if (e.type === 'INSERT') {
        insert = e;
        if (r.xdict) this.xdictInserts.push([e, upper(r.xdict)]);
      }
      if (block) block.entities.push(e);
      else if (section === 'ENTITIES') (e.paperSpace ? this.paperEntities : d.modelSpace).push(e);
    }
    if (this.sections === 0) throw new CadReadError('corrupt', 'DXF has no readable SECTION');
    this.finish();
    return { drawing: d, warnings: this.warnings };
  }

  private readHeader(): void {
    const { codes, vals } = this.rec;
    const h = this.drawing.header;
    let name = '';
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i] as number;
      if (c === 9) {
        name = asStr(vals[i]);
        continue;
      }
      if (!name) continue;
      if (c >= 10 && c <= 18) {
        h.vars[name] = this.rec.ptAt(i);
        if (codes[i + 1] === c + 10) i++;
        if (codes[i + 1] === c + 20) i++;
      } else if (!(name in h.vars)) h.vars[name] = vals[i] as HeaderValue;
    }
    const v = h.vars;
    if (typeof v.$ACADVER === 'string') h.acadVersion = v.$ACADVER;
    h.release = releaseName(h.acadVersion);
    if (typeof v.$DWGCODEPAGE === 'string') h.codePage = v.$DWGCODEPAGE;
    applyHeaderVars(h);
  }

  private readTableEntry(table: string): void {
    const r = this.rec;
    const d = this.drawing;
    const handle = r.optStr(5) ?? r.optStr(105);
    const withHandle = <T extends object>(o: T): T => (handle !== undefined ? { ...o, handle } : o);
    switch (r.type) {
      case 'LAYER': {
        const name = r.str(2);
        const aci = r.num(62, 7);
        const flags = r.num(70);
        const color: { aci?: number; rgb?: number } = { aci: Math.abs(aci) || 7 };
        const rgb = r.optNum(420);
        if (rgb !== undefined) color.rgb = rgb & 0xffffff;
        d.layers[name] = withHandle({
          name,
          color,
          linetype: r.str(6, 'CONTINUOUS'),
          lineweight: r.num(370, -3),
          on: aci >= 0,
          frozen: (flags & 1) !== 0,
          locked: (flags & 4) !== 0,
          plot: r.num(290, 1) !== 0 && upper(name) !== 'DEFPOINTS',
        });
        break;
      }
      case 'LTYPE': {
        const name = r.str(2);
        const elements: LinetypeElement[] = [];
        let el: LinetypeElement | undefined;
        for (let i = 0; i < r.length; i++) {
          const c = r.codes[i];
          const v = r.vals[i];
          if (c === 49) {
            el = { length: asNum(v), kind: 0 };
            elements.push(el);
          } else if (!el) continue;
          else if (c === 74) el.kind = asNum(v);
          else if (c === 75) el.shapeNumber = asNum(v);
          else if (c === 340) el.styleHandle = asStr(v);
          else if (c === 9) el.text = asStr(v);
          else if (c === 46) el.scale = asNum(v);
          else if (c === 50) el.rotation = asNum(v);
          else if (c === 44) el.offset = [asNum(v), el.offset?.[1] ?? 0];
          else if (c === 45) el.offset = [el.offset?.[0] ?? 0, asNum(v)];
        }
        d.linetypes[name] = withHandle({ name, description: r.str(3), totalLength: r.num(40), elements });
        break;
      }
      case 'STYLE': {
        const name = r.str(2);
        const style = withHandle({
          name,
          flags: r.num(70),
          font: r.str(3),
          bigFont: r.str(4),
          fixedHeight: r.num(40),
          widthFactor: r.num(41, 1) || 1,
          oblique: r.num(50),
          generation: r.num(71),
        }) as Drawing['textStyles'][string];
        const acad = r.xdata('ACAD');
        const family = acad.find((g) => g.code === 1000);
        if (family) style.fontFamily = asStr(family.value);
        const flags = acad.find((g) => g.code === 1071);
        if (family && flags) style.fontFlags = asNum(flags.value);
        d.textStyles[name] = style;
        break;
      }
      case 'DIMSTYLE': {
        const name = r.str(2);
        const vars: Record<number, string | number | boolean> = {};
        for (let i = 0; i < r.length; i++) {
          const c = r.codes[i] as number;
          if (c === 2 || c === 5 || c === 105 || c === 100 || c === 330) continue;
          vars[c] = r.vals[i] as string | number | boolean;
        }
        d.dimStyles[name] = withHandle({ name, vars });
        break;
      }
      case 'BLOCK_RECORD': {
        const br: BlockRecord = withHandle({ name: r.str(2) });
        const lh = r.optStr(340);
        if (lh) br.layoutHandle = lh;
        const u = r.optNum(70);
        if (u !== undefined) br.insUnits = u;
        d.blockRecords.push(br);
        break;
      }
      default:
        void table;
    }
  }

  private readBlock(): Block {
    const r = this.rec;
    const flags = r.num(70);
    const name = r.str(2) || r.str(3);
    const b: Block = {
      name,
      basePoint: r.pt(10),
      flags,
      anonymous: (flags & 1) !== 0 || name.startsWith('*'),
      xref: (flags & 12) !== 0,
      layer: r.str(8, '0'),
      entities: [],
    };
    const h = r.optStr(5);
    if (h) b.handle = h;
    const owner = r.optStr(330);
    if (owner) b.recordHandle = owner;
    const path = r.optStr(1);
    if (path) b.xrefPath = path;
    this.drawing.blocks[name] = b;
    return b;
  }

  private readObject(): void {
    const r = this.rec;
    if (this.xdictInserts.length && this.readClipObject()) return;
    if (r.type === 'IMAGEDEF') {
      const handle = r.str(5);
      const def: ImageDef = { handle, fileName: r.str(1) };
      const size = r.optPt(10);
      if (size) def.size = [size[0], size[1]];
      this.drawing.imageDefs[handle] = def;
      return;
    }
    if (r.type === 'PDFDEFINITION' || r.type === 'DWFDEFINITION' || r.type === 'DGNDEFINITION') {
      const handle = r.str(5);
      this.drawing.imageDefs[handle] = { handle, fileName: r.str(1), page: r.str(2) };
      return;
    }
    if (r.type === 'SORTENTSTABLE') {
      // Draw order of one space or block: entity handle (331) -> sort handle (5), in pairs.
      // The block record is the 330 after the subclass marker (the first 330 is the owning dictionary).
      const sub = r.indexOf(100);
      const at = r.indexOf(330, sub >= 0 ? sub : 0);
      const owner = at >= 0 ? asStr(r.vals[at]).toUpperCase() : '';
      if (!owner) return;
      const map: Record<string, string> = (this.drawing.drawOrder ??= {})[owner] ?? {};
      for (let i = r.indexOf(331); i >= 0; i = r.indexOf(331, i + 1)) {
        if (r.codes[i + 1] === 5) map[asStr(r.vals[i]).toUpperCase()] = asStr(r.vals[i + 1]).toUpperCase();
      }
      this.drawing.drawOrder[owner] = map;
      return;
    }
    if (r.type === 'MLINESTYLE') {
      const name = r.str(2, 'STANDARD');
      const elements: MLineStyle['elements'] = [];
      for (let i = r.indexOf(49); i >= 0; i = r.indexOf(49, i + 1)) {
        const color: Color = { aci: 256 };
        let linetype = 'BYLAYER';
        for (let k = i + 1; k < r.length && r.codes[k] !== 49; k++) {
          if (r.codes[k] === 62) color.aci = asNum(r.vals[k]);
          else if (r.codes[k] === 420) color.rgb = asNum(r.vals[k]) & 0xffffff;
          else if (r.codes[k] === 6) linetype = asStr(r.vals[k]);
        }
        elements.push({ offset: asNum(r.vals[i]), color, linetype });
      }
      const style: MLineStyle = { name, flags: r.num(70), elements };
      const h = r.optStr(5);
      if (h) style.handle = h;
      (this.drawing.mlineStyles ??= {})[name.toUpperCase()] = style;
      return;
    }
    if (r.type === 'WIPEOUTVARIABLES') {
      // Whether wipeout frames are shown (70: 0 off, 1 on): kept as a pseudo header variable.
      this.drawing.header.vars['$WIPEOUTFRAME'] = r.num(70);
      return;
    }
    if (r.type !== 'LAYOUT') return;
    const plot: PlotSettings = {};
    const lo: LayoutObject = { name: '', tabOrder: 0, plot };
    const h = r.optStr(5);
    if (h) lo.handle = h;
    let sub = '';
    const margins: [number, number, number, number] = [0, 0, 0, 0];
    let hasMargins = false;
    for (let i = 0; i < r.length; i++) {
      const c = r.codes[i] as number;
      const v = r.vals[i];
      if (c === 100) {
        sub = asStr(v);
        continue;
      }
      if (sub === 'AcDbPlotSettings') {
        if (c === 1) plot.pageSetupName = asStr(v);
        else if (c === 2) plot.printer = asStr(v);
        else if (c === 4) plot.paperName = asStr(v);
        else if (c === 7) plot.styleSheet = asStr(v);
        else if (c >= 40 && c <= 43) {
          margins[c - 40] = asNum(v);
          hasMargins = true;
        } else if (c === 44) plot.paperWidth = asNum(v);
        else if (c === 45) plot.paperHeight = asNum(v);
        else if (c === 46) plot.plotOrigin = [asNum(v), plot.plotOrigin?.[1] ?? 0];
        else if (c === 47) plot.plotOrigin = [plot.plotOrigin?.[0] ?? 0, asNum(v)];
        else if (c === 72) plot.paperUnits = asNum(v);
        else if (c === 73) plot.rotation = asNum(v);
        else if (c === 74) plot.plotType = asNum(v);
        else if (c === 142) plot.customScale = [asNum(v), plot.customScale?.[1] ?? 1];
        else if (c === 143) plot.customScale = [plot.customScale?.[0] ?? 1, asNum(v)];
      } else if (sub === 'AcDbLayout') {
        if (c === 1) lo.name = asStr(v);
        else if (c === 71) lo.tabOrder = asNum(v);
        else if (c === 330) lo.blockRecordHandle = asStr(v);
        else if (c === 10) lo.limMin = r.ptAt(i);
        else if (c === 11) lo.limMax = r.ptAt(i);
        else if (c === 12) lo.insertionBase = r.ptAt(i);
        else if (c === 14) lo.extMin = r.ptAt(i);
        else if (c === 15) lo.extMax = r.ptAt(i);
      }
    }
    if (hasMargins) plot.margins = margins;
    this.layoutObjects.push(lo);
  }

  /**
   * The objects an XCLIP is made of (read only when some INSERT has an extension dictionary):
   * DICTIONARY entries, SPATIAL_FILTER and the XRECORD of an inverted clip. True when consumed.
   */
  private readClipObject(): boolean {
    const r = this.rec;
    if (r.type !== 'DICTIONARY' && r.type !== 'SPATIAL_FILTER' && r.type !== 'XRECORD') return false;
    const handle = upper(r.str(5));
    if (!handle) return false;
    if (r.type === 'DICTIONARY') {
      const entries = new Map<string, string>();
      for (let i = r.indexOf(3); i >= 0; i = r.indexOf(3, i + 1)) {
        const c = r.codes[i + 1];
        if (c === 350 || c === 360) entries.set(upper(asStr(r.vals[i])), upper(asStr(r.vals[i + 1])));
      }
      this.dictionaries.set(handle, entries);
      return true;
    }
    if (r.type === 'SPATIAL_FILTER') {
      const f = readSpatialFilter(r);
      if (f) this.spatialFilters.set(handle, f);
      return true;
    }
    if (r.type === 'XRECORD') {
      // ACAD_XREC_ROUNDTRIP of an inverted clip: the original (hole) boundary after its 102 marker.
      let inHole = false;
      const pts: [number, number][] = [];
      for (let i = 0; i < r.length; i++) {
        const c = r.codes[i];
        if (c === 102) inHole = upper(asStr(r.vals[i])) === 'ACAD_INVERTEDCLIP_ROUNDTRIP';
        else if (inHole && c === 10) {
          const p = r.ptAt(i);
          pts.push([p[0], p[1]]);
        }
      }
      if (pts.length >= 2) this.invertedClips.set(handle, pts);
      return true;
    }
    return false;
  }

  /** Each INSERT with an enabled SPATIAL_FILTER gets its clip boundary in block coordinates. */
  private resolveClips(): void {
    for (const [insert, xdict] of this.xdictInserts) {
      const filterDict = this.dictionaries.get(this.dictionaries.get(xdict)?.get('ACAD_FILTER') ?? '');
      const f = this.spatialFilters.get(filterDict?.get('SPATIAL') ?? '');
      if (!f || !f.enabled) continue;
      const roundtrip = this.dictionaries.get(f.xdict)?.get('ACAD_XREC_ROUNDTRIP');
      const hole = roundtrip ? this.invertedClips.get(roundtrip) : undefined;
      const clip = blockClip(hole ?? f.points, f.inverse, !!hole);
      if (clip) insert.clip = clip;
    }
  }

  private finish(): void {
    const d = this.drawing;
    if (this.xdictInserts.length) this.resolveClips();
    for (const e of this.sabless) {
      const sab = this.asmData.get(upper(e.handle ?? ''));
      if (sab) e.sab = sab;
    }
    const h = d.header;
    h.release = releaseName(h.acadVersion);
    if (h.encoding === 'auto' && !this.options.encoding) h.encoding = h.acadVersion >= 'AC1021' ? 'utf-8' : 'windows-1252';
    // From R2000 a viewport is off when flag 0x20000 says so; status 68 = 0 is also written for the
    // viewports of every layout that is not the current one, which still plot.
    if (h.acadVersion >= 'AC1015') {
      const fix = (es: Entity[]): void => {
        for (const e of es) if (e.type === 'VIEWPORT') e.on = !(e.flags & 0x20000);
      };
      fix(this.paperEntities);
      for (const b of Object.values(d.blocks)) fix(b.entities);
    }
    const blocksUpper = new Map<string, Block>();
    for (const b of Object.values(d.blocks)) blocksUpper.set(upper(b.name), b);
    const recordName = new Map<string, string>();
    for (const br of d.blockRecords) if (br.handle) recordName.set(upper(br.handle), br.name);

    const entitiesFor = (blockName: string): Entity[] => {
      const b = blocksUpper.get(upper(blockName));
      if (upper(blockName) === '*PAPER_SPACE') return b && b.entities.length ? [...this.paperEntities, ...b.entities] : this.paperEntities;
      return b?.entities ?? [];
    };
    const viewportsOf = (es: Entity[]): ViewportEntity[] => es.filter((e): e is ViewportEntity => e.type === 'VIEWPORT');

    for (const lo of this.layoutObjects) {
      let blockName = lo.blockRecordHandle ? recordName.get(upper(lo.blockRecordHandle)) : undefined;
      if (!blockName && lo.handle)
        blockName = d.blockRecords.find((br) => br.layoutHandle && upper(br.layoutHandle) === upper(lo.handle ?? ''))?.name;
      if (!blockName) blockName = upper(lo.name) === 'MODEL' ? '*Model_Space' : '';
      const isModel = upper(blockName) === '*MODEL_SPACE';
      const layout: Layout = { name: lo.name, tabOrder: lo.tabOrder, blockName, isModel, viewports: [], plot: lo.plot };
      if (lo.handle) layout.handle = lo.handle;
      if (lo.blockRecordHandle) layout.blockRecordHandle = lo.blockRecordHandle;
      for (const k of ['limMin', 'limMax', 'extMin', 'extMax', 'insertionBase'] as const) {
        const p = lo[k];
        if (p) layout[k] = p;
      }
      if (!isModel) {
        layout.entities = blockName ? entitiesFor(blockName) : [];
        layout.viewports = viewportsOf(layout.entities);
      }
      d.layouts.push(layout);
    }
    if (!d.layouts.some((l) => l.isModel)) {
      d.layouts.push({ name: 'Model', tabOrder: 0, blockName: '*Model_Space', isModel: true, viewports: [] });
    }
    if (!d.layouts.some((l) => upper(l.blockName) === '*PAPER_SPACE')) {
      const es = entitiesFor('*Paper_Space');
      if (es.length) {
        d.layouts.push({
          name: 'Layout1',
          tabOrder: 1,
          blockName: '*Paper_Space',
          isModel: false,
          entities: es,
          viewports: viewportsOf(es),
        });
      }
    }
    d.layouts.sort((a, b) => (a.isModel === b.isModel ? a.tabOrder - b.tabOrder : a.isModel ? -1 : 1));

    finishDrawing(d, this.paperEntities, this.warnings);
    if (this.src.badLines) this.warnings.push(`${this.src.badLines} malformed lines skipped`);
    if (this.src.badNumbers) this.warnings.push(`${this.src.badNumbers} out-of-range numbers read as 0`);
    if (this.src.truncated) this.warnings.push('The file is truncated');
    else if (!this.sawEof) this.warnings.push('The file has no EOF marker');
  }
}

interface SpatialFilter {
  /** Boundary points (2 = the corners of a rectangle) in the boundary's coordinates. */
  points: [number, number][];
  /** The inverse of the INSERT's transform when the clip was made, 3×4 row-major: boundary → block coordinates. */
  inverse: readonly number[];
  /** 71: clipping on (XCLIP OFF writes 0: the whole block is shown). */
  enabled: boolean;
  /** The filter's own extension dictionary (ACAD_XREC_ROUNDTRIP of an inverted clip). */
  xdict: string;
}

/** A SPATIAL_FILTER object: boundary (10 × group 70), flags, then two 3×4 matrices in twelve 40 groups each. */
function readSpatialFilter(r: DxfRecord): SpatialFilter | null {
  let sub = r.indexOf(100);
  for (let i = sub; i >= 0; i = r.indexOf(100, i + 1)) if (asStr(r.vals[i]) === 'AcDbSpatialFilter') sub = i;
  if (sub < 0) return null;
  const points: [number, number][] = [];
  const matrix: number[] = [];
  let enabled = true;
  for (let i = sub + 1; i < r.length; i++) {
    const c = r.codes[i];
    if (c === 10) {
      const p = r.ptAt(i);
      points.push([p[0], p[1]]);
    } else if (c === 71) enabled = asNum(r.vals[i], 1) !== 0;
    else if (c === 40) matrix.push(asNum(r.vals[i]));
  }
  // The front clip distance (40, when 72 is set) comes before the matrices: the last 24 values are theirs.
  const inverse = matrix.length >= 24 ? matrix.slice(matrix.length - 24, matrix.length - 12) : IDENTITY_3X4;
  if (!inverse.every(Number.isFinite)) return null;
  return { points, inverse, enabled, xdict: upper(r.xdict) };
}
