/** DWG bytes → the @xcad/cad drawing model, in-process, through LibreDWG (WebAssembly). */
import type { CadReadErrorReason } from '@xcad/cad/errors';
import { blockClip, type ReadResult } from '@xcad/cad/dxf';
import type {
  Block,
  BlockRecord,
  InsertEntity,
  Color,
  DimStyle,
  Drawing,
  Entity,
  Header,
  ImageDef,
  Layer,
  Layout,
  Linetype,
  LinetypeElement,
  MLineStyle,
  PlotSettings,
  TextEntity,
  TextStyle,
  ViewportEntity,
} from '@xcad/cad/model';
import { Access, hex, pt, RAD2DEG } from './access';
import { modelColor } from './entities/colors';
import type { Names, Owner } from './entities/context';
import { eedItem, EntityReader } from './entities/reader';
import { applyHeaderVars, emptyDrawing, finishDrawing } from '@xcad/cad/drawing';
import { codePageEncoding, codePageName, decoderFor, releaseName, type Decoder } from './text';
import { ERR_CRITICAL, lineweight, SUPERTYPE_ENTITY, T } from './types';
import { dwgSignature, isSupportedSignature } from './version';
import { isWasmTrap, loadWasm, type DwgColor, type DwgPoint, type Wasm } from './wasm';

/**
 * Thrown when the bytes cannot be read as a drawing. Same name and fields as @xcad/cad's
 * CadReadError; this package imports only types from the engine (docs/decisions/0016).
 */
/** The definition objects of underlays (their file and page). */
const UNDERLAY_DEFINITIONS = new Set(['PDFDEFINITION', 'DWFDEFINITION', 'DGNDEFINITION']);

export class DwgReadError extends Error {
  readonly reason: CadReadErrorReason;
  constructor(reason: CadReadErrorReason, message: string) {
    super(message);
    this.name = 'CadReadError';
    this.reason = reason;
  }
}

export interface DwgReadOptions {
  /** Receives LibreDWG's own diagnostic output (default: dropped). */
  log?: (line: string) => void;
}

const ERRORS: [number, string][] = [
  [8192, 'out of memory'],
  [4096, 'I/O error'],
  [2048, 'not a valid DWG'],
  [1024, 'internal decoder error'],
  [512, 'a page is missing'],
  [256, 'a section is missing'],
  [128, 'the class table is missing'],
];

function criticalReason(code: number): string {
  return ERRORS.filter(([bit]) => code & bit)
    .map(([, text]) => text)
    .join(', ');
}

const upper = (s: string): string => s.toUpperCase();
const isModelName = (name: string): boolean => upper(name) === '*MODEL_SPACE';
const isPaperName = (name: string): boolean => upper(name).startsWith('*PAPER_SPACE');

interface BlockHeader {
  obj: number;
  tio: number;
  handle: number;
  name: string;
  record: BlockRecord;
  block: Block;
  /** Handle of the BLOCK entity's layer (0 = layer '0'). */
  layerHandle: number;
}

export async function readDwgBytes(bytes: Uint8Array, options: DwgReadOptions = {}): Promise<ReadResult> {
  if (bytes.length === 0) throw new DwgReadError('empty', 'The file is empty');
  const signature = dwgSignature(bytes);
  if (!signature) throw new DwgReadError('corrupt', 'Not a DWG file: it does not start with an AutoCAD version signature (AC10xx)');
  if (!isSupportedSignature(signature)) throw new DwgReadError('unsupported', `Unsupported DWG version ${signature}`);
  let w: Wasm;
  try {
    w = await loadWasm(options.log);
  } catch (e) {
    throw new DwgReadError('unsupported', `The DWG decoder could not start: ${(e as Error).message}`);
  }
  let dwg = 0;
  let error = 0;
  try {
    w.FS.writeFile('/in.dwg', bytes);
    const r = w.dwg_read_file('/in.dwg');
    w.FS.unlink('/in.dwg');
    dwg = r.data;
    error = r.error;
  } catch (e) {
    throw new DwgReadError('corrupt', `DWG ${signature} is damaged: the decoder failed (${(e as Error).message})`);
  }
  if (!dwg || error >= ERR_CRITICAL) {
    throw new DwgReadError('corrupt', `DWG ${signature} is damaged: ${criticalReason(error) || 'the decoder returned nothing'}`);
  }
  // The instance (and its heap) is dropped afterwards: nothing is reused for another file.
  try {
    return new DwgConverter(w, dwg, signature, error).convert();
  } catch (e) {
    if (e instanceof DwgReadError) throw e;
    throw new DwgReadError('corrupt', `DWG ${signature} is damaged: the decoder failed while reading objects (${(e as Error).message})`);
  }
}

// ---------------------------------------------------------------------------------------------

/** Header variables copied into `header.vars` ($NAME), by kind. */
const HEADER_NUMBERS = [
  'ACADMAINTVER',
  'DIMADEC',
  'DIMALT',
  'DIMALTD',
  'DIMALTF',
  'DIMALTRND',
  'DIMALTTD',
  'DIMALTTZ',
  'DIMALTU',
  'DIMALTZ',
  'DIMATFIT',
  'DIMAUNIT',
  'DIMAZIN',
  'DIMDLE',
  'DIMDSEP',
  'DIMFRAC',
  'DIMJUST',
  'DIMLIM',
  'DIMLUNIT',
  'DIMRND',
  'DIMSAH',
  'DIMSD1',
  'DIMSD2',
  'DIMSE1',
  'DIMSE2',
  'DIMSOXD',
  'DIMTDEC',
  'DIMTIX',
  'DIMTM',
  'DIMTMOVE',
  'DIMTOFL',
  'DIMTOL',
  'DIMTOLJ',
  'DIMTP',
  'DIMTVP',
  'DIMTZIN',
  'DIMUPT',
  'DIMFXL',
  'DIMJOGANG',
  'DIMTFILL',
  'DIMARCSYM',
  'DIMLWD',
  'DIMLWE',
  'CHAMFERA',
  'CHAMFERB',
  'CHAMFERC',
  'CHAMFERD',
  'FILLETRAD',
  'CMLSCALE',
  'CMLJUST',
  'INSUNITS',
  'MEASUREMENT',
  'LTSCALE',
  'PSLTSCALE',
  'CELTSCALE',
  'PDMODE',
  'PDSIZE',
  'TEXTSIZE',
  'TRACEWID',
  'DIMSCALE',
  'DIMASZ',
  'DIMTXT',
  'DIMGAP',
  'DIMEXO',
  'DIMEXE',
  'DIMDLI',
  'DIMTSZ',
  'DIMCEN',
  'DIMTAD',
  'DIMTIH',
  'DIMTOH',
  'DIMDEC',
  'DIMLFAC',
  'DIMZIN',
  'DIMTFAC',
  'ANGDIR',
  'AUNITS',
  'AUPREC',
  'LUNITS',
  'LUPREC',
  'TILEMODE',
  'MIRRTEXT',
  'FILLMODE',
  'QTEXTMODE',
  'ATTMODE',
  'PLINEGEN',
  'PLINEWID',
  'SPLINESEGS',
  'ELEVATION',
  'THICKNESS',
  'MAXACTVP',
  'LIMCHECK',
  'ORTHOMODE',
  'REGENMODE',
  'USRTIMER',
  'SURFU',
  'SURFV',
  'SPLFRAME',
  'SPLINETYPE',
  'PELEVATION',
  'PSVPSCALE',
  'TEXTQLTY',
  'DIMASO',
  'DIMSHO',
  'CELWEIGHT',
  'ENDCAPS',
  'JOINSTYLE',
  'LWDISPLAY',
  'XEDIT',
  'EXTNAMES',
  'PSTYLEMODE',
  'OLESTARTUP',
  'CEPSNTYPE',
  'INDEXCTL',
  'HIDETEXT',
  'XCLIPFRAME',
  'HALOGAP',
  'OBSCOLOR',
  'OBSLTYPE',
  'INTERSECTIONDISPLAY',
  'INTERSECTIONCOLOR',
  'DIMASSOC',
  'SORTENTS',
  'PUCSORTHOVIEW',
  'UCSORTHOVIEW',
  'PROXYGRAPHICS',
  'VISRETAIN',
  'DISPSILH',
  'SKPOLY',
  'TREEDEPTH',
  'ISOLINES',
  'FACETRES',
];
const HEADER_ANGLES = ['ANGBASE'];
/** Colour variables: stored as the ACI number, as DXF writes them. */
const HEADER_COLORS = ['CECOLOR', 'DIMCLRD', 'DIMCLRE', 'DIMCLRT'];
const HEADER_POINTS = [
  'EXTMIN',
  'EXTMAX',
  'LIMMIN',
  'LIMMAX',
  'INSBASE',
  'PEXTMIN',
  'PEXTMAX',
  'PLIMMIN',
  'PLIMMAX',
  'PINSBASE',
  'UCSORG',
  'UCSXDIR',
  'UCSYDIR',
  'PUCSORG',
  'PUCSXDIR',
  'PUCSYDIR',
];
const HEADER_STRINGS = [
  'DIMPOST',
  'DIMAPOST',
  'DIMBLK_T',
  'DIMBLK1_T',
  'DIMBLK2_T',
  'MENU',
  'PROJECTNAME',
  'HYPERLINKBASE',
  'STYLESHEET',
  'FINGERPRINTGUID',
  'VERSIONGUID',
];
const HEADER_TABLE_REFS: [string, 'layers' | 'ltypes' | 'styles' | 'dimstyles' | 'blocks' | 'mlineStyles'][] = [
  ['CLAYER', 'layers'],
  ['TEXTSTYLE', 'styles'],
  ['DIMSTYLE', 'dimstyles'],
  ['DIMTXSTY', 'styles'],
  ['CELTYPE', 'ltypes'],
  ['DIMBLK', 'blocks'],
  ['DIMBLK1', 'blocks'],
  ['DIMBLK2', 'blocks'],
  ['DIMLDRBLK', 'blocks'],
  ['CMLSTYLE', 'mlineStyles'],
];

/** DIMSTYLE fields → DXF group codes (the DXF reader stores DIMSTYLE variables by group code). */
type DimKind = 'd' | 'b' | 'bs' | 'bsd' | 't' | 'h' | 'cmc';
const DIMSTYLE_FIELDS: [number, string, DimKind][] = [
  [3, 'DIMPOST', 't'],
  [4, 'DIMAPOST', 't'],
  [6, 'DIMBLK1_T', 't'],
  [7, 'DIMBLK2_T', 't'],
  [40, 'DIMSCALE', 'd'],
  [41, 'DIMASZ', 'd'],
  [42, 'DIMEXO', 'd'],
  [43, 'DIMDLI', 'd'],
  [44, 'DIMEXE', 'd'],
  [45, 'DIMRND', 'd'],
  [46, 'DIMDLE', 'd'],
  [47, 'DIMTP', 'd'],
  [48, 'DIMTM', 'd'],
  [49, 'DIMFXL', 'd'],
  [50, 'DIMJOGANG', 'd'],
  [69, 'DIMTFILL', 'bs'],
  [71, 'DIMTOL', 'b'],
  [72, 'DIMLIM', 'b'],
  [73, 'DIMTIH', 'b'],
  [74, 'DIMTOH', 'b'],
  [75, 'DIMSE1', 'b'],
  [76, 'DIMSE2', 'b'],
  [77, 'DIMTAD', 'bs'],
  [78, 'DIMZIN', 'bs'],
  [79, 'DIMAZIN', 'bs'],
  [90, 'DIMARCSYM', 'bs'],
  [140, 'DIMTXT', 'd'],
  [141, 'DIMCEN', 'd'],
  [142, 'DIMTSZ', 'd'],
  [143, 'DIMALTF', 'd'],
  [144, 'DIMLFAC', 'd'],
  [145, 'DIMTVP', 'd'],
  [146, 'DIMTFAC', 'd'],
  [147, 'DIMGAP', 'd'],
  [148, 'DIMALTRND', 'd'],
  [170, 'DIMALT', 'b'],
  [171, 'DIMALTD', 'bs'],
  [172, 'DIMTOFL', 'b'],
  [173, 'DIMSAH', 'b'],
  [174, 'DIMTIX', 'b'],
  [175, 'DIMSOXD', 'b'],
  [176, 'DIMCLRD', 'cmc'],
  [177, 'DIMCLRE', 'cmc'],
  [178, 'DIMCLRT', 'cmc'],
  [179, 'DIMADEC', 'bs'],
  [271, 'DIMDEC', 'bs'],
  [272, 'DIMTDEC', 'bs'],
  [273, 'DIMALTU', 'bs'],
  [274, 'DIMALTTD', 'bs'],
  [275, 'DIMAUNIT', 'bs'],
  [276, 'DIMFRAC', 'bs'],
  [277, 'DIMLUNIT', 'bs'],
  [278, 'DIMDSEP', 'bs'],
  [279, 'DIMTMOVE', 'bs'],
  [280, 'DIMJUST', 'bs'],
  [281, 'DIMSD1', 'b'],
  [282, 'DIMSD2', 'b'],
  [283, 'DIMTOLJ', 'bs'],
  [284, 'DIMTZIN', 'bs'],
  [285, 'DIMALTZ', 'bs'],
  [286, 'DIMALTTZ', 'bs'],
  [288, 'DIMUPT', 'b'],
  [289, 'DIMATFIT', 'bs'],
  [290, 'DIMFXLON', 'b'],
  [294, 'DIMTXTDIRECTION', 'b'],
  [340, 'DIMTXSTY', 'h'],
  [341, 'DIMLDRBLK', 'h'],
  [342, 'DIMBLK', 'h'],
  [343, 'DIMBLK1', 'h'],
  [344, 'DIMBLK2', 'h'],
  [345, 'DIMLTYPE', 'h'],
  [346, 'DIMLTEX1', 'h'],
  [347, 'DIMLTEX2', 'h'],
  [371, 'DIMLWD', 'bsd'],
  [372, 'DIMLWE', 'bsd'],
];

class DwgConverter {
  private readonly a: Access;
  private readonly warnings: string[] = [];
  private readonly drawing: Drawing;
  private readonly names: Names = {
    layers: new Map(),
    ltypes: new Map(),
    styles: new Map(),
    dimstyles: new Map(),
    blocks: new Map(),
    mlineStyles: new Map(),
    appids: new Map(),
    unicodeEed: false,
    byBlock: 'BYBLOCK',
    continuous: 'CONTINUOUS',
    r2000: false,
    r2010: false,
    preR13: false,
  };
  /** Layer → its linetype's handle, resolved once every linetype is known. */
  private readonly layerLinetypes = new Map<Layer, number>();
  private readonly headers: BlockHeader[] = [];
  private readonly headerByTio = new Map<number, BlockHeader>();
  private readonly layoutObjs: { obj: number; tio: number }[] = [];
  private readonly entityObjs: number[] = [];
  private readonly visited = new Set<number>();
  private paperEntities: Entity[] = [];
  private readonly unicode: boolean;
  /** Handle of the ACAD application id (its extended data names TrueType families). */
  private acadAppId = 0x12;
  private readonly styleObjs = new Map<TextStyle, number>();
  /** XCLIP: dictionaries naming ACAD_FILTER or SPATIAL entries, SPATIAL_FILTER objects, INSERTs with an extension dictionary. */
  private readonly clipDictionaries = new Map<number, Map<string, number>>();
  private readonly spatialFilters = new Map<number, { points: [number, number][]; inverse: number[]; enabled: boolean }>();
  private xdictInserts: [InsertEntity, number][] = [];
  private unstyledAttribs: [InsertEntity, TextEntity][] = [];

  constructor(
    private readonly w: Wasm,
    private readonly dwg: number,
    private readonly signature: string,
    readError: number,
  ) {
    const cp = safe(() => w.dwg_get_codepage(dwg), 255);
    this.unicode = signature >= 'AC1021' && /^AC\d{4}$/.test(signature);
    this.names.unicodeEed = this.unicode;
    const encoding = this.unicode ? 'utf-16le' : codePageEncoding(cp);
    this.a = new Access(w, dwg, this.unicode, decoderFor(encoding));
    this.names.r2000 = /^AC\d{4}$/.test(signature) && signature >= 'AC1015';
    this.names.preR13 = !/^AC\d{4}$/.test(signature) || signature < 'AC1012';
    this.names.r2010 = /^AC\d{4}$/.test(signature) && signature >= 'AC1024';
    const header: Header = { acadVersion: signature, release: releaseName(signature), encoding, vars: { $ACADVER: signature } };
    const cpName = codePageName(cp);
    if (cpName) {
      header.codePage = cpName;
      header.vars.$DWGCODEPAGE = cpName;
    }
    this.drawing = emptyDrawing(header);
    if (readError) this.warnings.push(`LibreDWG reported recoverable problems while decoding (code ${readError})`);
  }

  convert(): ReadResult {
    this.scanObjects();
    this.readHeader();
    for (const [layer, h] of this.layerLinetypes) layer.linetype = this.names.ltypes.get(h) ?? layer.linetype;
    for (const [style, tio] of this.styleObjs) {
      const font = this.acadFont(tio);
      if (font) {
        style.fontFamily = font.family;
        if (font.flags !== undefined) style.fontFlags = font.flags;
      }
    }
    for (const name of this.names.ltypes.values()) {
      if (upper(name) === 'BYBLOCK') this.names.byBlock = name;
      else if (upper(name) === 'CONTINUOUS') this.names.continuous = name;
    }
    this.readEntities();
    this.finish();
    return { drawing: this.drawing, warnings: this.warnings };
  }

  private handleOf(obj: number): number {
    return Number(this.w.dwg_obj_get_handle_value(obj));
  }

  // -- objects: tables, blocks, layouts ----------------------------------------------------------

  private scanObjects(): void {
    const w = this.w;
    const a = this.a;
    const n = w.dwg_get_num_objects(this.dwg);
    const d = this.drawing;
    for (let i = 0; i < n; i++) {
      const obj = w.dwg_get_object(this.dwg, i);
      if (!obj) continue;
      const type = w.dwg_object_get_fixedtype(obj);
      if (w.dwg_object_get_supertype(obj) === SUPERTYPE_ENTITY) {
        this.entityObjs.push(obj);
        continue;
      }
      if (type === T.APPID) {
        const tio = w.dwg_object_to_object_tio(obj);
        const name = tio ? a.str(tio, type, 'name') : '';
        if (name) this.names.appids.set(this.handleOf(obj), name);
        if (upper(name) === 'ACAD') this.acadAppId = this.handleOf(obj);
        continue;
      }
      if (
        type !== T.LAYER &&
        type !== T.LTYPE &&
        type !== T.STYLE &&
        type !== T.DIMSTYLE &&
        type !== T.BLOCK_HEADER &&
        type !== T.LAYOUT &&
        type !== T.MLINESTYLE &&
        type !== T.DICTIONARY &&
        type < 500
      )
        continue;
      let dxfName = '';
      if (type >= 500) {
        dxfName = safe(() => w.dwg_object_get_dxfname(obj), '');
        if (
          dxfName !== 'IMAGEDEF' &&
          dxfName !== 'SORTENTSTABLE' &&
          dxfName !== 'WIPEOUTVARIABLES' &&
          dxfName !== 'SPATIAL_FILTER' &&
          !UNDERLAY_DEFINITIONS.has(dxfName)
        )
          continue;
      }
      const tio = w.dwg_object_to_object_tio(obj);
      if (!tio) continue;
      const handle = this.handleOf(obj);
      try {
        switch (type) {
          case T.LAYER: {
            const layer = this.layer(tio, handle);
            d.layers[layer.name] = layer;
            this.names.layers.set(handle, layer.name);
            break;
          }
          case T.LTYPE: {
            const lt = this.linetype(tio, handle);
            d.linetypes[lt.name] = lt;
            this.names.ltypes.set(handle, lt.name);
            break;
          }
          case T.STYLE: {
            const st = this.textStyle(tio, handle);
            this.styleObjs.set(st, tio);
            d.textStyles[st.name] = st;
            this.names.styles.set(handle, st.name);
            break;
          }
          case T.DIMSTYLE: {
            const ds = this.dimStyle(tio, handle);
            d.dimStyles[ds.name] = ds;
            this.names.dimstyles.set(handle, ds.name);
            break;
          }
          case T.BLOCK_HEADER:
            this.blockHeader(obj, tio, handle);
            break;
          case T.LAYOUT:
            this.layoutObjs.push({ obj, tio });
            break;
          case T.MLINESTYLE:
            this.mlineStyle(tio, handle);
            break;
          case T.DICTIONARY:
            this.clipDictionary(tio, handle);
            break;
          default: {
            if (dxfName === 'SPATIAL_FILTER') {
              this.spatialFilter(tio, type, handle);
              break;
            }
            if (dxfName === 'SORTENTSTABLE') {
              this.sortEntsTable(tio, type);
              break;
            }
            if (dxfName === 'WIPEOUTVARIABLES') {
              // Whether wipeout frames show (0 off, 1 on, 2 on but not plotted), as the DXF reader keeps it.
              d.header.vars.$WIPEOUTFRAME = a.u16(tio, type, 'display_frame');
              break;
            }
            if (UNDERLAY_DEFINITIONS.has(dxfName)) {
              // A PDF / DWF / DGN underlay's file and page, kept with the image definitions.
              d.imageDefs[hex(handle)] = { handle: hex(handle), fileName: a.str(tio, type, 'filename'), page: a.str(tio, type, 'name') };
              break;
            }
            const size = a.p2(tio, type, 'image_size');
            const def: ImageDef = { handle: hex(handle), fileName: a.str(tio, type, 'file_path') };
            if (size[0] || size[1]) def.size = size;
            d.imageDefs[def.handle] = def;
          }
        }
      } catch (e) {
        if (isWasmTrap(e)) throw e;
        this.warnings.push(`Object ${hex(handle)} skipped: ${(e as Error).message}`);
      }
    }
  }

  private layer(tio: number, handle: number): Layer {
    const a = this.a;
    const type = T.LAYER;
    const name = a.str(tio, type, 'name') || '0';
    const flag = a.u16(tio, type, 'flag');
    const r2000 = this.names.r2000;
    const color = a.color(tio, 'color');
    const index = color?.index ?? 7;
    const c = modelColor(color, true);
    if (c.aci === undefined || c.aci === 0 || c.aci === 256) c.aci = c.rgb === undefined ? 7 : c.aci;
    if (c.aci === undefined) delete c.aci;
    let on = index >= 0;
    if (a.off(tio, type, 'off') >= 0) on = on && a.u8(tio, type, 'off') === 0;
    else if (a.off(tio, type, 'on') >= 0) on = on && a.u8(tio, type, 'on') !== 0;
    const layer: Layer = {
      name,
      handle: hex(handle),
      color: c,
      linetype: 'CONTINUOUS',
      lineweight: this.names.r2000 ? lineweight(a.u8(tio, type, 'linewt', 31)) : -3,
      on,
      frozen: (flag & 1) !== 0 || (r2000 && a.u8(tio, type, 'frozen') !== 0),
      locked: (flag & 4) !== 0 || (r2000 && a.u8(tio, type, 'locked') !== 0),
      // Layers have a plot flag since R2000.
      plot: (!r2000 || a.off(tio, type, 'plotflag') < 0 || a.u8(tio, type, 'plotflag') !== 0) && upper(name) !== 'DEFPOINTS',
    };
    this.layerLinetypes.set(layer, a.refHandle(a.ptr(tio, type, 'ltype')));
    return layer;
  }

  private linetype(tio: number, handle: number): Linetype {
    const a = this.a;
    const type = T.LTYPE;
    const elements: LinetypeElement[] = [];
    const n = a.off(tio, type, 'numdashes') >= 0 ? a.u8(tio, type, 'numdashes') : a.u8(tio, type, 'num_dashes');
    const dashes = a.ptr(tio, type, 'dashes');
    const size = a.subSize('LTYPE_dash');
    const o = (f: string): number => a.subOff('LTYPE_dash', f);
    if (dashes && size > 0) {
      for (let i = 0; i < n; i++) {
        const p = dashes + i * size;
        const kind = a.u16At(p + o('shape_flag'));
        const el: LinetypeElement = { length: a.f64At(p + o('length')), kind };
        if (kind & 6) {
          const shape = a.u16At(p + o('complex_shapecode'));
          el.shapeNumber = kind & 4 ? shape : 0;
          const style = a.refHandle(a.u32At(p + o('style')));
          if (style) el.styleHandle = hex(style);
          if (kind & 2) el.text = a.strAt(a.u32At(p + o('text')));
          el.scale = a.f64At(p + o('scale'));
          el.rotation = a.f64At(p + o('rotation')) * RAD2DEG;
          el.offset = [a.f64At(p + o('x_offset')), a.f64At(p + o('y_offset'))];
        }
        elements.push(el);
      }
    } else {
      const r11 = a.ptr(tio, type, 'dashes_r11');
      if (r11) for (let i = 0; i < Math.min(n, 12); i++) elements.push({ length: a.f64At(r11 + 8 * i), kind: 0 });
    }
    return {
      name: a.str(tio, type, 'name'),
      handle: hex(handle),
      description: a.str(tio, type, 'description'),
      totalLength: a.d(tio, type, 'pattern_len'),
      elements,
    };
  }

  private textStyle(tio: number, handle: number): TextStyle {
    const a = this.a;
    const type = T.STYLE;
    return {
      name: a.str(tio, type, 'name'),
      handle: hex(handle),
      flags: a.u8(tio, type, 'flag') & ~64,
      font: a.str(tio, type, 'font_file'),
      bigFont: a.str(tio, type, 'bigfont_file'),
      fixedHeight: a.d(tio, type, 'text_size'),
      widthFactor: a.d(tio, type, 'width_factor', 1) || 1,
      oblique: a.d(tio, type, 'oblique_angle') * RAD2DEG,
      generation: a.u8(tio, type, 'generation'),
    };
  }

  private dimStyle(tio: number, handle: number): DimStyle {
    const a = this.a;
    const type = T.DIMSTYLE;
    // Bit 64 ('referenced') is bookkeeping DXF writers drop.
    const vars: Record<number, string | number | boolean> = { 70: a.u8(tio, type, 'flag') & ~64 };
    for (const [code, field, kind] of DIMSTYLE_FIELDS) {
      if (a.off(tio, type, field) < 0) continue;
      switch (kind) {
        case 'd':
          vars[code] = a.d(tio, type, field);
          break;
        case 'b':
          vars[code] = a.u8(tio, type, field);
          break;
        case 'bs':
          vars[code] = a.u16(tio, type, field);
          break;
        case 'bsd':
          vars[code] = a.i16(tio, type, field);
          break;
        case 't': {
          const s = a.str(tio, type, field);
          if (s) vars[code] = s;
          break;
        }
        case 'h': {
          const h = a.refHandle(a.ptr(tio, type, field));
          if (h) vars[code] = hex(h);
          break;
        }
        case 'cmc': {
          const c = modelColor(a.color(tio, field));
          vars[code] = c.aci ?? 0;
          break;
        }
      }
    }
    return { name: a.str(tio, type, 'name'), handle: hex(handle), vars };
  }

  private blockHeader(obj: number, tio: number, handle: number): void {
    const a = this.a;
    const w = this.w;
    const type = T.BLOCK_HEADER;
    let name = a.str(tio, type, 'name');
    // R13-R2000 keep only '*D', '*U', ... in the record: the BLOCK entity has the full name.
    const blockRef = a.ptr(tio, type, 'block_entity');
    const blockObj = blockRef ? safe(() => w.dwg_ref_get_object(blockRef), 0) : 0;
    let blockTio = 0;
    if (blockObj && w.dwg_object_get_fixedtype(blockObj) === T.BLOCK) {
      blockTio = w.dwg_object_to_entity_tio(blockObj);
      const full = blockTio ? a.str(blockTio, T.BLOCK, 'name') : '';
      if (full && (!name || (name.startsWith('*') && full.startsWith(name)))) name = full;
    }
    if (!name) name = `*BLOCK_${hex(handle)}`;
    const raw = a.u8(tio, type, 'flag');
    const bit = (field: string, value: number, rawBit: number): number =>
      a.off(tio, type, field) >= 0 ? (a.u8(tio, type, field) ? value : 0) : raw & rawBit;
    // DXF 70: 1 anonymous, 2 has attributes, 4 xref, 8 overlay, 16 external, 32 resolved.
    const flags = bit('anonymous', 1, 1) | bit('hasattrs', 2, 2) | bit('blkisxref', 4, 4) | bit('xrefoverlaid', 8, 8) | (raw & 48);
    const anonymous = (flags & 1) !== 0 || name.startsWith('*');
    const xref = (flags & 12) !== 0;
    const record: BlockRecord = { name, handle: hex(handle) };
    const layout = a.refHandle(a.ptr(tio, type, 'layout'));
    if (layout) record.layoutHandle = hex(layout);
    const units = a.u16(tio, type, 'insert_units');
    if (a.off(tio, type, 'insert_units') >= 0) record.insUnits = units;
    const block: Block = {
      name,
      recordHandle: hex(handle),
      basePoint: a.p3(tio, type, 'base_pt'),
      flags,
      anonymous,
      xref,
      layer: '0',
      entities: [],
    };
    if (blockObj) block.handle = hex(this.handleOf(blockObj));
    const layerHandle = blockTio ? a.refHandle(a.common<number>(blockTio, 'layer') ?? 0) : 0;
    const path = a.str(tio, type, 'xref_pname');
    if (path) block.xrefPath = path;
    this.names.blocks.set(handle, name);
    const bh: BlockHeader = { obj, tio, handle, name, record, block, layerHandle };
    this.headers.push(bh);
    this.headerByTio.set(tio, bh);
  }

  /** MLINESTYLE: its element lines (offset, colour, linetype), by upper-case name as DXF keys them. */
  private mlineStyle(tio: number, handle: number): void {
    const a = this.a;
    const type = T.MLINESTYLE;
    const name = a.str(tio, type, 'name') || 'STANDARD';
    const n = a.u8(tio, type, 'num_lines');
    const lines = a.ptr(tio, type, 'lines');
    const size = a.subSize('MLINESTYLE_line');
    const elements: MLineStyle['elements'] = [];
    if (lines && size > 0)
      for (let i = 0; i < n; i++) {
        const p = lines + i * size;
        let color: Color = { aci: 256 };
        try {
          const c = this.w.dwg_dynapi_subclass_value(p, 'MLINESTYLE_line', 'color');
          if (c.success) color = modelColor(c.data as DwgColor);
        } catch (e) {
          if (isWasmTrap(e)) throw e;
        }
        elements.push({ offset: a.f64At(p + a.subOff('MLINESTYLE_line', 'offset')), color, linetype: 'BYLAYER' });
      }
    (this.drawing.mlineStyles ??= {})[name.toUpperCase()] = { name, handle: hex(handle), flags: a.u16(tio, type, 'flag'), elements };
    this.names.mlineStyles.set(handle, name);
  }

  /** SORTENTSTABLE: draw order of a block's entities (entity handle -> sort handle), as DXF has it. */
  /** A dictionary with an ACAD_FILTER or SPATIAL entry (the way from an INSERT to its XCLIP). */
  private clipDictionary(tio: number, handle: number): void {
    const a = this.a;
    const type = T.DICTIONARY;
    const n = a.u32(tio, type, 'numitems');
    const texts = a.ptr(tio, type, 'texts');
    const items = a.ptr(tio, type, 'itemhandles');
    if (!texts || !items || !n || n > 1_000_000) return;
    let entries: Map<string, number> | undefined;
    for (let i = 0; i < n; i++) {
      const name = upper(a.strAt(a.u32At(texts + 4 * i)));
      if (name !== 'ACAD_FILTER' && name !== 'SPATIAL') continue;
      const target = a.refHandle(a.u32At(items + 4 * i));
      if (target) (entries ??= new Map()).set(name, target);
    }
    if (entries) this.clipDictionaries.set(handle, entries);
  }

  /** An XCLIP boundary: its points, the inverse insert matrix (12 doubles, 3×4 row-major), on/off. */
  private spatialFilter(tio: number, type: number, handle: number): void {
    const a = this.a;
    const n = a.u16(tio, type, 'num_clip_verts');
    const verts = a.ptr(tio, type, 'clip_verts');
    const inv = a.ptr(tio, type, 'inverse_transform');
    if (!verts || n < 2 || n > 100_000) return;
    const points: [number, number][] = [];
    for (let i = 0; i < n; i++) points.push(a.p2At(verts + 16 * i));
    const inverse = inv ? a.doublesAt(inv, 12) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0];
    this.spatialFilters.set(handle, { points, inverse, enabled: a.u16(tio, type, 'display_boundary_on', 1) !== 0 });
  }

  private sortEntsTable(tio: number, type: number): void {
    const a = this.a;
    const owner = a.refHandle(a.ptr(tio, type, 'block_owner'));
    if (!owner) return;
    const n = a.u32(tio, type, 'num_ents');
    const ents = a.ptr(tio, type, 'ents');
    const sorts = a.ptr(tio, type, 'sort_ents');
    const map: Record<string, string> = {};
    if (ents && sorts && n < 10_000_000)
      for (let i = 0; i < n; i++) {
        const entity = a.refHandle(a.u32At(ents + 4 * i));
        const sort = a.refHandle(a.u32At(sorts + 4 * i));
        if (entity && sort) map[hex(entity)] = hex(sort);
      }
    (this.drawing.drawOrder ??= {})[hex(owner)] = map;
  }

  /**
   * The first string of the object's ACAD extended data (a text style's TrueType family) and the
   * 1071 after it (the font's flags: bold, italic, character set, pitch). LibreDWG
   * keeps one 40-byte Dwg_Eed per item: the application handle at +16, the data at +32 (code byte,
   * length, code page, then the 8-bit or UTF-16 characters from +5).
   */
  private acadFont(tio: number): { family: string; flags?: number } | undefined {
    const a = this.a;
    const n = a.common<number>(tio, 'num_eed') ?? 0;
    const eed = a.common<number>(tio, 'eed') ?? 0;
    if (!eed || n <= 0 || n > 1000) return undefined;
    let app = 0;
    let family: string | undefined;
    for (let i = 0; i < n; i++) {
      const e = eed + 40 * i;
      const h = a.u32At(e + 16);
      if (h) app = h;
      if (app !== this.acadAppId) continue;
      const data = a.u32At(e + 32);
      const item = data ? eedItem(a, data, this.unicode, this.names.layers) : null;
      if (!item) continue;
      // The 1071 after the family: the font's flags.
      if (family !== undefined) return item.code === 1071 ? { family, flags: item.value as number } : { family };
      if (item.code !== 1000 || typeof item.value !== 'string' || !item.value) continue;
      // eslint-disable-next-line no-control-regex
      if (/[\u0000-\u001f\ufffd]/.test(item.value)) return undefined;
      family = item.value;
    }
    return family === undefined ? undefined : { family };
  }

  // -- header ------------------------------------------------------------------------------------

  private readHeader(): void {
    const a = this.a;
    const h = this.drawing.header;
    const v = h.vars;
    for (const name of HEADER_NUMBERS) {
      const x = a.header<unknown>(name);
      if (typeof x === 'number' && Number.isFinite(x)) v[`$${name}`] = x;
      else if (typeof x === 'bigint') v[`$${name}`] = Number(x);
    }
    for (const name of HEADER_ANGLES) {
      const x = a.header<unknown>(name);
      if (typeof x === 'number' && Number.isFinite(x)) v[`$${name}`] = x * RAD2DEG;
    }
    for (const name of HEADER_COLORS) {
      const x = a.header<DwgColor>(name);
      if (x && typeof x === 'object' && typeof x.index === 'number') v[`$${name}`] = modelColor(x).aci ?? 256;
    }
    for (const name of HEADER_POINTS) {
      const x = a.header<DwgPoint>(name);
      if (x && typeof x === 'object' && typeof x.x === 'number') v[`$${name}`] = pt(x);
    }
    for (const name of HEADER_STRINGS) {
      try {
        const r = this.w.dwg_dynapi_header_value(this.dwg, name);
        if (!r.success) continue;
        let s = typeof r.data === 'string' ? r.data : '';
        if (r.bin && !this.unicode) s = a.decoder.decode(r.bin);
        if (s) v[`$${name.replace(/_T$/, '')}`] = s;
      } catch {
        // not in this release
      }
    }
    for (const [name, table] of HEADER_TABLE_REFS) {
      const ref = a.header<number>(name);
      const target = ref ? this.names[table].get(a.refHandle(ref)) : undefined;
      if (target) v[`$${name}`] = target;
    }
    applyHeaderVars(h);
    if (typeof v.$CELWEIGHT === 'number') v.$CELWEIGHT = celweight(v.$CELWEIGHT);
  }

  // -- entities ----------------------------------------------------------------------------------

  private readEntities(): void {
    const w = this.w;
    this.nameBlocksFromBlockEntities();
    const position = new Map<number, number>();
    this.entityObjs.forEach((obj, i) => position.set(obj, i));
    const between = (first: number, last: number): number[] => {
      const i = position.get(first);
      const j = position.get(last);
      return i === undefined || j === undefined || j < i || j - i > 10_000_000 ? [] : this.entityObjs.slice(i, j + 1);
    };
    const reader = new EntityReader(this.a, this.names, between);
    const push = (e: Entity | null, bh: BlockHeader | null): void => {
      if (!e) return;
      this.drawing.stats.entities++;
      if (!bh) {
        this.drawing.modelSpace.push(e);
        return;
      }
      const name = bh.name;
      if (isModelName(name)) this.drawing.modelSpace.push(e);
      else if (upper(name) === '*PAPER_SPACE') this.paperEntities.push(e);
      else bh.block.entities.push(e);
    };
    const ownerOf = (bh: BlockHeader | null): Owner => {
      if (!bh) return { handle: '', paperSpace: false };
      return { handle: bh.record.handle ?? '', paperSpace: isPaperName(bh.name) };
    };
    const model = this.headers.find((bh) => isModelName(bh.name)) ?? null;
    const paper = this.headers.find((bh) => upper(bh.name) === '*PAPER_SPACE') ?? null;
    const paperOwner: Owner = paper ? ownerOf(paper) : { handle: '', paperSpace: true };
    // R12 and before keep paper-space entities with the model's: entity mode 1 marks them.
    const inPaper = (obj: number): boolean => {
      if (!this.names.preR13) return false;
      const etio = w.dwg_object_to_entity_tio(obj);
      return !!etio && this.a.common<number>(etio, 'entmode') === 1;
    };
    const pushPaper = (obj: number): void => {
      const e = reader.read(obj, paperOwner);
      if (!e) return;
      if (paper) push(e, paper);
      else {
        this.drawing.stats.entities++;
        this.paperEntities.push(e);
      }
    };
    // 1. Each block's own chain of entities, in drawing order.
    for (const bh of this.headers) {
      const owner = ownerOf(bh);
      let guard = 0;
      for (let cur = safe(() => w.get_first_owned_entity(bh.obj), 0); cur; cur = safe(() => w.get_next_owned_entity(bh.obj, cur), 0)) {
        if (this.visited.has(cur) || ++guard > 50_000_000) break;
        this.visited.add(cur);
        if (bh === model && inPaper(cur)) pushPaper(cur);
        else push(reader.read(cur, owner), bh);
      }
    }
    // 2. Entities the chains missed (LibreDWG issue 1199; pre-R13 files): by their owner handle,
    // else by their space (entity mode 1 = paper, 2 = model).
    for (const obj of this.entityObjs) {
      if (this.visited.has(obj)) continue;
      const type = w.dwg_object_get_fixedtype(obj);
      if (
        type === T.BLOCK ||
        type === T.ENDBLK ||
        type === T.SEQEND ||
        type === T.ATTRIB ||
        (type >= T.VERTEX_2D && type <= T.VERTEX_PFACE_FACE)
      )
        continue;
      this.visited.add(obj);
      const etio = w.dwg_object_to_entity_tio(obj);
      const ownerTio = etio ? safe(() => w.dwg_entity_owner(etio), 0) : 0;
      const owned = ownerTio ? this.headerByTio.get(ownerTio) : undefined;
      if ((!owned || owned === model) && (inPaper(obj) || (!owned && etio && this.a.common<number>(etio, 'entmode') === 1))) {
        pushPaper(obj);
        continue;
      }
      const bh = owned || model;
      push(reader.read(obj, ownerOf(bh)), bh);
    }
    this.xdictInserts = reader.xdictInserts;
    this.unstyledAttribs = reader.unstyledAttribs;
    for (const [t, n] of reader.unknown) this.drawing.stats.unknown[t] = n;
    this.warnings.push(...reader.warnings.slice(0, 50));
    if (reader.warnings.length > 50) this.warnings.push(`${reader.warnings.length - 50} more entities had problems`);
  }

  /**
   * R12 and before: the block table keeps '*D' or nothing for anonymous blocks and LibreDWG
   * links no BLOCK entity to it; the BLOCK entities (owned by their block) have the full names.
   */
  private nameBlocksFromBlockEntities(): void {
    if (!this.names.preR13) return;
    const w = this.w;
    const used = new Set(this.headers.map((bh) => bh.name));
    for (const obj of this.entityObjs) {
      if (w.dwg_object_get_fixedtype(obj) !== T.BLOCK) continue;
      const tio = w.dwg_object_to_entity_tio(obj);
      const bh = tio ? this.headerByTio.get(safe(() => w.dwg_entity_owner(tio), 0)) : undefined;
      const full = tio ? this.a.str(tio, T.BLOCK, 'name') : '';
      if (!bh || !full || full === bh.name || used.has(full)) continue;
      if (bh.name && !(bh.name.startsWith('*') && full.startsWith(bh.name))) continue;
      used.add(full);
      bh.name = full;
      bh.record.name = full;
      bh.block.name = full;
      bh.block.anonymous = true;
      bh.block.flags |= 1;
      this.names.blocks.set(bh.handle, full);
    }
  }

  // -- layouts and the rest ----------------------------------------------------------------------

  private finish(): void {
    const d = this.drawing;
    const a = this.a;
    // R1.x drawings have no layer table: everything is on layer 0.
    if (!Object.keys(d.layers).length)
      d.layers['0'] = {
        name: '0',
        color: { aci: 7 },
        linetype: 'CONTINUOUS',
        lineweight: -3,
        on: true,
        frozen: false,
        locked: false,
        plot: true,
      };
    for (const bh of this.headers) {
      bh.block.layer = this.names.layers.get(bh.layerHandle) ?? '0';
      d.blockRecords.push(bh.record);
      d.blocks[bh.name] = bh.block;
    }
    const headerByHandle = new Map<number, BlockHeader>();
    for (const bh of this.headers) headerByHandle.set(bh.handle, bh);
    const paper = this.paperEntities;
    const entitiesOf = (bh: BlockHeader | undefined): Entity[] =>
      bh && upper(bh.name) === '*PAPER_SPACE' ? paper : (bh?.block.entities ?? []);
    const viewportsOf = (es: Entity[]): ViewportEntity[] => es.filter((e): e is ViewportEntity => e.type === 'VIEWPORT');

    for (const { obj, tio } of this.layoutObjs) {
      const type = T.LAYOUT;
      const bhHandle = a.refHandle(a.ptr(tio, type, 'block_header'));
      const bh = headerByHandle.get(bhHandle);
      const name = a.str(tio, type, 'layout_name');
      const blockName = bh?.name ?? (upper(name) === 'MODEL' ? '*Model_Space' : '');
      const isModel = isModelName(blockName);
      const lim0 = a.p2(tio, type, 'LIMMIN');
      const lim1 = a.p2(tio, type, 'LIMMAX');
      const layout: Layout = {
        name,
        tabOrder: a.u16(tio, type, 'tab_order'),
        blockName,
        isModel,
        limMin: [lim0[0], lim0[1], 0],
        limMax: [lim1[0], lim1[1], 0],
        extMin: a.p3(tio, type, 'EXTMIN'),
        extMax: a.p3(tio, type, 'EXTMAX'),
        insertionBase: a.p3(tio, type, 'INSBASE'),
        plot: this.plotSettings(tio),
        viewports: [],
        handle: hex(this.handleOf(obj)),
      };
      if (bh) layout.blockRecordHandle = hex(bh.handle);
      if (!isModel) {
        layout.entities = entitiesOf(bh);
        layout.viewports = viewportsOf(layout.entities);
      }
      d.layouts.push(layout);
    }
    if (!d.layouts.some((l) => l.isModel)) {
      d.layouts.push({
        name: 'Model',
        tabOrder: 0,
        blockName: this.headers.find((b) => isModelName(b.name))?.name ?? '*Model_Space',
        isModel: true,
        viewports: [],
      });
    }
    if (!d.layouts.some((l) => upper(l.blockName) === '*PAPER_SPACE') && paper.length) {
      const bh = this.headers.find((b) => upper(b.name) === '*PAPER_SPACE');
      d.layouts.push({
        name: 'Layout1',
        tabOrder: 1,
        blockName: bh?.name ?? '*Paper_Space',
        isModel: false,
        entities: paper,
        viewports: viewportsOf(paper),
      });
    }
    d.layouts.sort((x, y) => (x.isModel === y.isModel ? x.tabOrder - y.tabOrder : x.isModel ? -1 : 1));
    // Viewport ids: 1 is the layout's overall paper-space view, then in drawing order.
    for (const l of d.layouts)
      l.viewports.forEach((vp, i) => {
        if (vp.id === 0) vp.id = i + 1;
        if (vp.on) vp.status = i + 1;
      });

    // ATTRIBs without their style reference take their ATTDEF's style (an ATTRIB is made from its
    // ATTDEF, style included): LibreDWG 0.13 leaves the reference out of every R2010+ ATTRIB.
    for (const [insert, attrib] of this.unstyledAttribs) {
      const def = d.blocks[insert.name]?.entities.find(
        (x): x is TextEntity => x.type === 'ATTDEF' && (x.tag ?? '').toUpperCase() === (attrib.tag ?? '').toUpperCase(),
      );
      if (def) attrib.style = def.style;
    }

    // XCLIP: extension dictionary → ACAD_FILTER → SPATIAL → SPATIAL_FILTER (inverted clips, kept in
    // an XRECORD, are not read from DWG: such a reference is drawn whole).
    for (const [insert, xdict] of this.xdictInserts) {
      const filterDict = this.clipDictionaries.get(this.clipDictionaries.get(xdict)?.get('ACAD_FILTER') ?? 0);
      const f = this.spatialFilters.get(filterDict?.get('SPATIAL') ?? 0);
      const clip = f && f.enabled ? blockClip(f.points, f.inverse, false) : undefined;
      if (clip) insert.clip = clip;
    }

    finishDrawing(d, paper, this.warnings);
  }

  private plotSettings(tio: number): PlotSettings {
    const w = this.w;
    const a = this.a;
    const o = a.off(tio, T.LAYOUT, 'plotsettings');
    const plot: PlotSettings = {};
    if (o < 0) return plot;
    const ps = tio + o;
    const get = (field: string): unknown => {
      try {
        const r = w.dwg_dynapi_subclass_value(ps, 'Dwg_Object_PLOTSETTINGS', field);
        return r.success ? r.data : undefined;
      } catch {
        return undefined;
      }
    };
    const str = (field: string): string | undefined => {
      const s = get(field);
      if (typeof s !== 'string') return undefined;
      // LibreDWG decodes these as UTF-16 even in 8-bit files: undo it for pre-R2007 drawings.
      const t = this.unicode ? s : reinterpretUtf16(s, a.decoder);
      // eslint-disable-next-line no-control-regex
      return /[\u0000-\u001f\ufffd]/.test(t) ? undefined : t;
    };
    const num = (field: string): number | undefined => {
      const n = get(field);
      return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
    };
    const xy = (field: string): [number, number] | undefined => {
      const p = get(field) as DwgPoint | undefined;
      return p && typeof p.x === 'number' ? [p.x, p.y] : undefined;
    };
    const setIf = <K extends keyof PlotSettings>(k: K, v: PlotSettings[K] | undefined): void => {
      if (v !== undefined) plot[k] = v;
    };
    // LibreDWG's names are shifted against DXF: its printer_cfg_file is DXF 1 (page setup name),
    // paper_size is DXF 2 (printer), canonical_media_name is DXF 4 (paper size).
    setIf('pageSetupName', str('printer_cfg_file'));
    setIf('printer', str('paper_size'));
    setIf('paperName', str('canonical_media_name'));
    setIf('styleSheet', str('stylesheet'));
    setIf('paperWidth', num('paper_width'));
    setIf('paperHeight', num('paper_height'));
    const m = [num('left_margin'), num('bottom_margin'), num('right_margin'), num('top_margin')];
    if (m.every((x) => x !== undefined)) plot.margins = m as [number, number, number, number];
    setIf('plotOrigin', xy('plot_origin'));
    setIf('rotation', num('plot_rotation_mode'));
    setIf('paperUnits', num('plot_paper_unit'));
    setIf('plotType', num('plot_type'));
    const pu = num('paper_units');
    const du = num('drawing_units');
    if (pu !== undefined && du !== undefined) plot.customScale = [pu, du];
    return plot;
  }
}

/** A string LibreDWG read as UTF-16 from 8-bit bytes → the bytes again, decoded with the code page. */
function reinterpretUtf16(s: string, decoder: Decoder): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const lo = c & 0xff;
    const hi = c >> 8;
    if (lo === 0) break;
    bytes.push(lo);
    if (hi === 0) break;
    bytes.push(hi);
  }
  return decoder.decode(new Uint8Array(bytes));
}

/** $CELWEIGHT as stored (lineweight index or value) → 1/100 mm. */
function celweight(v: number): number {
  if (v === 29 || v === -1) return -1;
  if (v === 30 || v === -2) return -2;
  if (v === 31 || v === -3) return -3;
  return v >= 0 && v < 29 ? lineweight(v) : v;
}

function safe<R>(f: () => R, fallback: R): R {
  try {
    return f();
  } catch (e) {
    if (isWasmTrap(e)) throw e;
    return fallback;
  }
}
