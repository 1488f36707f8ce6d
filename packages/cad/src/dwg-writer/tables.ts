/**
 * Non-graphical objects: the control objects and their records (BLOCK_HEADER, LAYER, STYLE,
 * LTYPE, VPORT, APPID, DIMSTYLE), dictionaries, LAYOUT, MLINESTYLE, the plot-style placeholder and
 * IMAGEDEF, encoded as R2000 to R2018 store them (strings in the string stream from R2007, the
 * fields each release added in its place).
 */
import type { BlockClip, DimStyle, Layer, Layout, Linetype, TextStyle } from '../model';
import { Ref } from './bits';
import { lineweightIndex, OT } from './constants';
import { type Eed, ObjWriter, objectCommon, tableRecordStart, type WriteContext } from './object';
import type { Vec3 } from '../geom/vector';

export type TableContext = WriteContext;

/** CMC of R2004+: index 0, the colour method and value in the RGB word, no names. */
function cmcAci(o: ObjWriter, aci: number): void {
  const rgb = aci === 256 ? 0xc0000000 : aci === 0 ? 0xc1000000 : (0xc3000000 | (aci & 0xff)) >>> 0;
  o.d.bs(0).bl(rgb).rc(0);
}

/** A control object: its entries (soft owner) and the fixed records after them (hard owner). */
export function controlObject(ctx: TableContext, type: number, handle: number, entries: number[], extra: number[] = []): Uint8Array {
  const o = new ObjWriter(type, handle, ctx);
  objectCommon(o, 0);
  o.d.bl(entries.length);
  if (type === OT.DIMSTYLE_CONTROL) o.d.rc(0);
  for (const e of entries) o.ref(Ref.SoftOwner, e);
  for (const e of extra) o.ref(Ref.HardOwner, e);
  return o.finish();
}

export interface BlockHeaderData {
  handle: number;
  control: number;
  name: string;
  anonymous: boolean;
  hasAttributes: boolean;
  basePoint: Vec3;
  blockEntity: number;
  endblk: number;
  entities: number[];
  inserts: number[];
  layout: number;
  xrefPath?: string;
}

export function blockHeader(ctx: TableContext, b: BlockHeaderData): Uint8Array {
  const o = new ObjWriter(OT.BLOCK_HEADER, b.handle, ctx);
  objectCommon(o, b.control);
  // Anonymous blocks keep only '*' and their type letter in the record; the BLOCK entity has the full name.
  tableRecordStart(o, b.anonymous && ctx.year < 2004 ? b.name.slice(0, 2) : b.name);
  o.d.b(b.anonymous).b(b.hasAttributes).b(0).b(0).b(0);
  if (ctx.year >= 2004) o.d.bl(b.entities.length);
  o.d.bd3(b.basePoint);
  o.t(b.xrefPath ?? '');
  for (let i = 0; i < b.inserts.length; i++) o.d.rc(1);
  o.d.rc(0);
  o.t('');
  o.d.bl(0); // no preview
  if (ctx.year >= 2007) o.d.bs(0).b(1).rc(0); // insert units, explodable, scaling
  o.ref(Ref.HardPointer, 0);
  o.ref(Ref.HardOwner, b.blockEntity);
  if (ctx.year < 2004) {
    o.ref(Ref.SoftPointer, b.entities[0] ?? 0);
    o.ref(Ref.SoftPointer, b.entities[b.entities.length - 1] ?? 0);
  } else for (const e of b.entities) o.ref(Ref.HardOwner, e);
  o.ref(Ref.HardOwner, b.endblk);
  for (const i of b.inserts) o.ref(Ref.SoftPointer, i);
  o.ref(Ref.HardPointer, b.layout);
  return o.finish();
}

export function layerRecord(
  ctx: TableContext,
  handle: number,
  control: number,
  l: Layer,
  ltype: number,
  aci: number,
  rgb: number | undefined,
): Uint8Array {
  const o = new ObjWriter(OT.LAYER, handle, ctx);
  objectCommon(o, control);
  tableRecordStart(o, l.name);
  const lw = lineweightIndex(l.lineweight);
  o.d.bs((l.frozen ? 1 : 0) | (l.on ? 0 : 2) | (l.locked ? 8 : 0) | (l.plot ? 16 : 0) | (lw << 5));
  if (ctx.year >= 2004) {
    o.d.bs(0);
    o.d.bl(rgb !== undefined ? (0xc2000000 | rgb) >>> 0 : (0xc3000000 | (aci & 0xff)) >>> 0);
    o.d.rc(0);
  } else o.d.bs(aci);
  o.ref(Ref.HardPointer, 0); // xref block
  o.ref(Ref.HardPointer, 0); // plot style
  if (ctx.year >= 2007) o.ref(Ref.HardPointer, 0); // material
  o.ref(Ref.HardPointer, ltype);
  if (ctx.year >= 2013) o.ref(Ref.HardPointer, 0); // AutoCAD 2013+ writes one more, always null
  return o.finish();
}

export function styleRecord(ctx: TableContext, handle: number, control: number, s: TextStyle, eed: Eed[]): Uint8Array {
  const o = new ObjWriter(OT.STYLE, handle, ctx, eed);
  objectCommon(o, control);
  tableRecordStart(o, s.name);
  o.d.b((s.flags & 1) !== 0).b((s.flags & 4) !== 0);
  o.d
    .bd(s.fixedHeight || 0)
    .bd(s.widthFactor || 1)
    .bd(((s.oblique || 0) * Math.PI) / 180)
    .rc(s.generation & 0xff)
    .bd(2.5);
  // A TrueType style without a font file keeps the file empty (its family is in the ACAD EED).
  o.t(s.font || (s.fontFamily ? '' : 'txt')).t(s.bigFont || '');
  o.ref(Ref.HardPointer, 0);
  return o.finish();
}

export function ltypeRecord(
  ctx: TableContext,
  handle: number,
  control: number,
  lt: Linetype,
  styleOf: (styleHandle: string | undefined) => number,
): Uint8Array {
  const o = new ObjWriter(OT.LTYPE, handle, ctx);
  objectCommon(o, control);
  tableRecordStart(o, lt.name);
  const els = lt.elements.slice(0, 255);
  const total = lt.totalLength || els.reduce((t, e) => t + Math.abs(e.length), 0);
  o.t(lt.description);
  o.d.bd(total).rc(65).rc(els.length);
  // Text of complex dashes goes to the string area (256 bytes of the code page before R2007, 512
  // bytes of UTF-16 from R2007, and then only when some dash has text); each dash points into it.
  const unicode = ctx.year >= 2007;
  const area = new Uint8Array(unicode ? 512 : 256);
  let at = 0;
  let hasText = false;
  const styles: number[] = [];
  for (const el of els) {
    const style = el.kind & 6 ? styleOf(el.styleHandle) : 0;
    const complex = style !== 0;
    let shape = complex ? (el.shapeNumber ?? 0) : 0;
    if (complex && el.kind & 2) {
      hasText = true;
      const t = unicode ? utf16(el.text ?? '') : ctx.text(el.text ?? '');
      const nul = unicode ? 2 : 1;
      if (at + t.length + nul <= area.length) {
        shape = at;
        area.set(t, at);
        at += t.length + nul;
      }
    }
    o.d
      .bd(el.length)
      .bs(shape)
      .rd(complex ? (el.offset?.[0] ?? 0) : 0)
      .rd(complex ? (el.offset?.[1] ?? 0) : 0);
    o.d
      .bd(complex ? (el.scale ?? 1) : 1)
      .bd(complex ? ((el.rotation ?? 0) * Math.PI) / 180 : 0)
      .bs(complex ? el.kind & 6 : 0);
    styles.push(style);
  }
  if (!unicode || hasText) o.d.bytes(area);
  o.ref(Ref.HardPointer, 0);
  for (const s of styles) o.ref(Ref.HardPointer, s);
  return o.finish();
}

export function appidRecord(ctx: TableContext, handle: number, control: number, name: string): Uint8Array {
  const o = new ObjWriter(OT.APPID, handle, ctx);
  objectCommon(o, control);
  tableRecordStart(o, name);
  o.d.rc(0);
  o.ref(Ref.HardPointer, 0);
  return o.finish();
}

export interface VportView {
  center: [number, number];
  height: number;
  aspect: number;
}

export function vportRecord(ctx: TableContext, handle: number, control: number, view: VportView): Uint8Array {
  const o = new ObjWriter(OT.VPORT, handle, ctx);
  objectCommon(o, control);
  tableRecordStart(o, '*ACTIVE');
  o.d
    .bd(view.height)
    .bd(view.height * view.aspect)
    .rd2(view.center)
    .bd3([0, 0, 0])
    .bd3([0, 0, 1])
    .bd(0)
    .bd(50)
    .bd(0)
    .bd(0);
  o.d.b(0).b(0).b(0).b(0); // view mode bits
  o.d.rc(0); // render mode
  if (ctx.year >= 2007) {
    o.d.b(1).rc(1).bd(0).bd(0); // default lighting on, one distant light, brightness, contrast
    cmcAci(o, 250); // ambient colour
  }
  o.d.rd2([0, 0]).rd2([1, 1]).b(0).bs(1000).b(1).b(1).b(0).b(0).rd2([10, 10]).b(0).b(0).bs(0).bd(0).rd2([0, 0]).rd2([10, 10]);
  o.d.b(0).b(1).bd3([0, 0, 0]).bd3([1, 0, 0]).bd3([0, 1, 0]).bd(0).bs(0);
  if (ctx.year >= 2007) o.d.bs(7).bs(5);
  o.ref(Ref.HardPointer, 0);
  if (ctx.year >= 2007) o.ref(Ref.SoftPointer, 0).ref(Ref.HardPointer, 0).ref(Ref.HardOwner, 0);
  o.ref(Ref.HardPointer, 0).ref(Ref.HardPointer, 0);
  return o.finish();
}

/**
 * DIMSTYLE: the variables by their DXF group codes (the reader's model), defaults otherwise;
 * `refs` the new handles of what groups 341..347 name (leader, arrow blocks, linetypes), 0 none.
 */
export function dimstyleRecord(
  ctx: TableContext,
  handle: number,
  control: number,
  s: DimStyle,
  textStyle: number,
  refs: (code: number) => number = () => 0,
): Uint8Array {
  const o = new ObjWriter(OT.DIMSTYLE, handle, ctx);
  objectCommon(o, control);
  tableRecordStart(o, s.name);
  const v = s.vars;
  const n = (code: number, def: number): number => {
    const x = v[code];
    return typeof x === 'number' && Number.isFinite(x) ? x : typeof x === 'boolean' ? (x ? 1 : 0) : def;
  };
  const t = (code: number): string => (typeof v[code] === 'string' ? (v[code] as string) : '');
  o.t(t(3)).t(t(4));
  o.d.bd(n(40, 1)).bd(n(41, 2.5)).bd(n(42, 0.625)).bd(n(43, 3.75)).bd(n(44, 1.25)).bd(n(45, 0)).bd(n(46, 0)).bd(n(47, 0)).bd(n(48, 0));
  if (ctx.year >= 2007) {
    o.d
      .bd(n(49, 1))
      .bd(n(50, Math.PI / 4))
      .bs(n(69, 0));
    cmcAci(o, 0); // DIMTFILLCLR ByBlock
  }
  o.d.b(n(71, 0)).b(n(72, 0)).b(n(73, 0)).b(n(74, 0)).b(n(75, 0)).b(n(76, 0));
  o.d.bs(n(77, 1)).bs(n(78, 8)).bs(n(79, 0));
  if (ctx.year >= 2007) o.d.bs(n(90, 0));
  o.d
    .bd(n(140, 2.5))
    .bd(n(141, 2.5))
    .bd(n(142, 0))
    .bd(n(143, 0.03937007874))
    .bd(n(144, 1))
    .bd(n(145, 0))
    .bd(n(146, 1))
    .bd(n(147, 0.625))
    .bd(n(148, 0));
  o.d.b(n(170, 0)).bs(n(171, 3)).b(n(172, 1)).b(n(173, 0)).b(n(174, 0)).b(n(175, 0));
  const color = (code: number): void => {
    const c = n(code, 0);
    if (ctx.year >= 2004) cmcAci(o, c);
    else o.d.bs(c);
  };
  color(176);
  color(177);
  color(178);
  o.d.bs(n(179, 0)).bs(n(271, 2)).bs(n(272, 2)).bs(n(273, 2)).bs(n(274, 3)).bs(n(275, 0)).bs(n(276, 0)).bs(n(277, 2)).bs(n(278, 46));
  o.d
    .bs(n(279, 0))
    .bs(n(280, 0))
    .b(n(281, 0))
    .b(n(282, 0))
    .bs(n(283, 0))
    .bs(n(284, 8))
    .bs(n(285, 0))
    .bs(n(286, 0))
    .b(n(288, 0))
    .bs(n(289, 3));
  if (ctx.year >= 2007) o.d.b(n(290, 0));
  if (ctx.year >= 2010) {
    // DIMTXTDIRECTION, then the sub-unit factors and suffixes (AutoCAD's 100 and none).
    o.d.b(n(294, 0)).bd(100);
    o.t('');
    o.d.bd(100);
    o.t('');
  }
  o.d.bs(n(371, -2)).bs(n(372, -2));
  o.d.b(0);
  o.ref(Ref.HardPointer, 0); // xref block
  o.ref(Ref.HardPointer, textStyle);
  for (const code of [341, 342, 343, 344]) o.ref(Ref.HardPointer, refs(code));
  if (ctx.year >= 2007) for (const code of [345, 346, 347]) o.ref(Ref.HardPointer, refs(code));
  return o.finish();
}

/** DICTIONARY (or ACDBDICTIONARYWDFLT when `defaultEntry` is given, with its class type). */
export function dictionary(
  ctx: TableContext,
  handle: number,
  owner: number,
  entries: [string, number][],
  options: { hardOwner?: boolean; withDefault?: { type: number; entry: number }; reactors?: number[] } = {},
): Uint8Array {
  const o = new ObjWriter(options.withDefault ? options.withDefault.type : OT.DICTIONARY, handle, ctx);
  objectCommon(o, owner, options.reactors ?? (owner ? [owner] : []));
  o.d
    .bl(entries.length)
    .bs(1)
    .rc(options.hardOwner ? 1 : 0);
  for (const [name, h] of entries) {
    o.t(name);
    o.ref(Ref.SoftOwner, h);
  }
  if (options.withDefault) o.ref(Ref.HardPointer, options.withDefault.entry);
  return o.finish();
}

/** ACDBPLACEHOLDER: an object with nothing in it (the "Normal" plot style). */
export function placeholder(ctx: TableContext, handle: number, owner: number): Uint8Array {
  const o = new ObjWriter(OT.PLACEHOLDER, handle, ctx);
  objectCommon(o, owner, [owner]);
  return o.finish();
}

export function mlineStyle(ctx: TableContext, handle: number, owner: number): Uint8Array {
  const o = new ObjWriter(OT.MLINESTYLE, handle, ctx);
  objectCommon(o, owner, [owner]);
  o.t('Standard').t('');
  o.d.bs(0);
  const color = (aci: number): void => {
    if (ctx.year >= 2004) cmcAci(o, aci);
    else o.d.bs(aci);
  };
  color(256);
  o.d
    .bd(Math.PI / 2)
    .bd(Math.PI / 2)
    .rc(2);
  for (const offset of [0.5, -0.5]) {
    o.d.bd(offset);
    color(256);
    if (ctx.year >= 2018) o.ref(Ref.HardPointer, 0);
    else o.d.bs(0);
  }
  return o.finish();
}

export interface LayoutData {
  handle: number;
  owner: number;
  name: string;
  tabOrder: number;
  model: boolean;
  block: number;
  viewport: number;
  viewports: number[];
  layout?: Layout;
}

export function layoutObject(ctx: TableContext, d: LayoutData): Uint8Array {
  const o = new ObjWriter(OT.LAYOUT, d.handle, ctx);
  objectCommon(o, d.owner, [d.owner]);
  const l = d.layout;
  const p = l?.plot ?? {};
  const m = p.margins ?? [0, 0, 0, 0];
  o.t(p.pageSetupName ?? '').t(p.printer ?? 'none_device');
  o.d.bs(d.model ? 1712 : 688);
  o.d
    .bd(m[0])
    .bd(m[1])
    .bd(m[2])
    .bd(m[3])
    .bd(p.paperWidth ?? 0)
    .bd(p.paperHeight ?? 0);
  o.t(p.paperName ?? '');
  o.d
    .bd(p.plotOrigin?.[0] ?? 0)
    .bd(p.plotOrigin?.[1] ?? 0)
    .bs(p.paperUnits ?? 1)
    .bs(p.rotation ?? 0)
    .bs(p.plotType ?? 5);
  o.d.bd(0).bd(0).bd(0).bd(0);
  if (ctx.year < 2004) o.t(''); // plot view name
  o.d.bd(p.customScale?.[0] ?? 1).bd(p.customScale?.[1] ?? 1);
  o.t(p.styleSheet ?? '');
  o.d.bs(0).bd(1).bd(0).bd(0);
  if (ctx.year >= 2004) o.d.bs(0).bs(2).bs(300);
  o.t(d.name);
  o.d.bs(d.model ? 0 : Math.max(1, d.tabOrder)).bs(1);
  o.d
    .bd3([0, 0, 0])
    .rd2(l?.limMin ?? [0, 0, 0])
    .rd2(l?.limMax ?? [420, 297, 0])
    .bd3(l?.insertionBase ?? [0, 0, 0]);
  o.d.bd3([1, 0, 0]).bd3([0, 1, 0]).bd(0).bs(0);
  o.d.bd3(l?.extMin ?? [1e20, 1e20, 1e20]).bd3(l?.extMax ?? [-1e20, -1e20, -1e20]);
  if (ctx.year >= 2004) o.d.bl(d.viewports.length);
  if (ctx.year >= 2004) o.ref(Ref.HardPointer, 0);
  if (ctx.year >= 2007) o.ref(Ref.SoftPointer, 0);
  o.ref(Ref.SoftPointer, d.block);
  o.ref(Ref.SoftPointer, d.viewport);
  o.ref(Ref.HardPointer, 0).ref(Ref.HardPointer, 0);
  if (ctx.year >= 2004) for (const v of d.viewports) o.ref(Ref.SoftPointer, v);
  return o.finish();
}

export function imageDef(
  ctx: TableContext,
  type: number,
  handle: number,
  owner: number,
  reactors: number[],
  fileName: string,
  size: [number, number],
): Uint8Array {
  const o = new ObjWriter(type, handle, ctx);
  objectCommon(o, owner, [owner, ...reactors]);
  o.d.bl(0).rd2(size);
  o.t(fileName);
  o.d.b(1).rc(0).rd2([1, 1]);
  return o.finish();
}

/**
 * SPATIAL_FILTER (an XCLIP, under the INSERT's extension dictionary → ACAD_FILTER → SPATIAL): the
 * boundary in block coordinates, both matrices (3×4, row by row as in DXF) the identity.
 */
export function spatialFilter(ctx: TableContext, type: number, handle: number, owner: number, clip: BlockClip): Uint8Array {
  const o = new ObjWriter(type, handle, ctx);
  objectCommon(o, owner, [owner]);
  o.d.bs(clip.boundary.length);
  for (const p of clip.boundary) o.d.rd2(p);
  o.d.bd3([0, 0, 1]).bd3([0, 0, 0]); // normal (a full 3BD here, not the bit-coded extrusion) and origin
  o.d.bs(1).bs(0).bs(0);
  for (let k = 0; k < 2; k++) for (const v of [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]) o.d.bd(v);
  return o.finish();
}

/** WIPEOUTVARIABLES (named ACAD_WIPEOUT_VARS): whether wipeout frames show, 0 off, 1 on, 2 shown but not plotted. */
export function wipeoutVariables(ctx: TableContext, type: number, handle: number, owner: number, frame: number): Uint8Array {
  const o = new ObjWriter(type, handle, ctx);
  objectCommon(o, owner, [owner]);
  o.d.bs(frame);
  return o.finish();
}

export function imageDefReactor(ctx: TableContext, type: number, handle: number, owner: number): Uint8Array {
  const o = new ObjWriter(type, handle, ctx);
  objectCommon(o, owner, [owner]);
  o.d.bl(2);
  return o.finish();
}

/** UTF-16LE bytes of a string (the R2007+ linetype string area). */
function utf16(s: string): Uint8Array {
  const out = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out[i * 2] = c & 0xff;
    out[i * 2 + 1] = c >> 8;
  }
  return out;
}
