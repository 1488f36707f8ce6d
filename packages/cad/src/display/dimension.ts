/**
 * DIMENSION: drawn from its anonymous block (what CAD programs save: lines, arrows, MTEXT already
 * laid out). The block's entities are in WCS, inserted at the origin or at the clone insertion
 * point (group 12, OCS). When the block is missing (some writers omit it) the dimension is
 * synthesised from its definition points and dimension style: extension lines, dimension line or
 * arc, arrowheads and the measured text (through a virtual MTEXT, so the text module sets it).
 *
 * Also home of the helpers the other annotation handlers share: dimension-style variables,
 * arrowheads and virtual text entities.
 */
import type { Color, DimStyle, DimensionEntity, Drawing, EntityBase, MTextEntity } from '../model';
import type { DrawContext, EntityHandler } from './context';
import { arcPoints } from './curves';
import { isMetric } from '../geom/hatch-patterns';
import { apply3, isDefaultExtrusion, multiply, ocsToWcs, rotationZ, scaling, translation, type Mat } from '../geom/matrix';
import type { Vec3 } from '../geom/vector';

const DEG = Math.PI / 180;
type P2 = [number, number];

export const drawDimension: EntityHandler<DimensionEntity> = (e, ctx) => {
  const block = e.block ? findBlock(ctx.drawing, e.block) : undefined;
  if (block && block.entities.length) {
    const p12 = e.defPoints.p12;
    let m = ctx.matrix;
    if (p12 && (p12[0] || p12[1] || p12[2])) {
      const w = isDefaultExtrusion(e.extrusion) ? p12 : apply3(ocsToWcs(e.extrusion), p12[0], p12[1], p12[2]);
      m = multiply(m, translation(w[0], w[1], w[2]));
    }
    ctx.drawBlock(block.name, m, e);
    return;
  }
  synthesizeDimension(e, ctx);
};

// ---- lookups ----------------------------------------------------------------------------------

function findBlock(d: Drawing, name: string): Drawing['blocks'][string] | undefined {
  const b = d.blocks[name];
  if (b) return b;
  const key = name.toUpperCase();
  return Object.values(d.blocks).find((x) => x.name.toUpperCase() === key);
}

function findDimStyle(d: Drawing, name: string | undefined): DimStyle | undefined {
  const n = name || 'STANDARD';
  const s = d.dimStyles[n];
  if (s) return s;
  const key = n.toUpperCase();
  const all = Object.values(d.dimStyles);
  return all.find((x) => x.name.toUpperCase() === key) ?? (d.header.dimstyle ? d.dimStyles[d.header.dimstyle] : undefined);
}

/** Dimension variables by DXF group code: the style's value, else the header's ($NAME), else the default. */
export interface DimVars {
  num(code: number): number;
  str(code: number): string;
}

interface VarDef {
  header: string;
  imperial: number | string;
  metric: number | string;
}

const DIMVARS: Record<number, VarDef> = {
  3: { header: '$DIMPOST', imperial: '', metric: '' },
  40: { header: '$DIMSCALE', imperial: 1, metric: 1 },
  41: { header: '$DIMASZ', imperial: 0.18, metric: 2.5 },
  42: { header: '$DIMEXO', imperial: 0.0625, metric: 0.625 },
  44: { header: '$DIMEXE', imperial: 0.18, metric: 1.25 },
  45: { header: '$DIMRND', imperial: 0, metric: 0 },
  46: { header: '$DIMDLE', imperial: 0, metric: 0 },
  73: { header: '$DIMTIH', imperial: 1, metric: 0 },
  74: { header: '$DIMTOH', imperial: 1, metric: 0 },
  77: { header: '$DIMTAD', imperial: 0, metric: 1 },
  78: { header: '$DIMZIN', imperial: 0, metric: 8 },
  140: { header: '$DIMTXT', imperial: 0.18, metric: 2.5 },
  142: { header: '$DIMTSZ', imperial: 0, metric: 0 },
  144: { header: '$DIMLFAC', imperial: 1, metric: 1 },
  147: { header: '$DIMGAP', imperial: 0.09, metric: 0.625 },
  176: { header: '$DIMCLRD', imperial: 0, metric: 0 },
  177: { header: '$DIMCLRE', imperial: 0, metric: 0 },
  178: { header: '$DIMCLRT', imperial: 0, metric: 0 },
  179: { header: '$DIMADEC', imperial: 0, metric: 0 },
  271: { header: '$DIMDEC', imperial: 4, metric: 2 },
  277: { header: '$DIMLUNIT', imperial: 2, metric: 2 },
  278: { header: '$DIMDSEP', imperial: 46, metric: 44 },
  340: { header: '$DIMTXSTY', imperial: '', metric: '' },
  341: { header: '$DIMLDRBLK', imperial: '', metric: '' },
  342: { header: '$DIMBLK', imperial: '', metric: '' },
  343: { header: '$DIMBLK1', imperial: '', metric: '' },
  344: { header: '$DIMBLK2', imperial: '', metric: '' },
};

export function dimVars(d: Drawing, styleName: string | undefined): DimVars {
  const ds = findDimStyle(d, styleName);
  const metric = isMetric(d);
  const raw = (code: number): string | number | boolean | undefined => {
    const v = ds?.vars[code];
    if (v !== undefined && v !== '') return v;
    const def = DIMVARS[code];
    // A DIMSTYLE entry leaves out the values that are at their defaults; the header's $DIM*
    // variables (the current style's settings) apply only when the style itself is unknown.
    const h = def && !ds ? d.header.vars[def.header] : undefined;
    if (typeof h === 'string' || typeof h === 'number' || typeof h === 'boolean') return h;
    return def ? (metric ? def.metric : def.imperial) : undefined;
  };
  return {
    num(code) {
      const v = raw(code);
      if (typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      const n = typeof v === 'string' ? Number(v) : NaN;
      if (Number.isFinite(n) && v !== '') return n;
      const def = DIMVARS[code];
      const dv = def ? (metric ? def.metric : def.imperial) : 0;
      return typeof dv === 'number' ? dv : 0;
    },
    str(code) {
      const v = raw(code);
      return v === undefined ? '' : String(v);
    },
  };
}

/** DIMSCALE, with 0 (= fit to the paper-space viewport) taken as 1. */
export function dimScale(v: DimVars): number {
  const s = v.num(40);
  return s > 0 && Number.isFinite(s) ? s : 1;
}

/** The text style named by a handle (DIMTXSTY), or a style name as given; 'STANDARD' when unknown. */
export function textStyleName(d: Drawing, handleOrName: string): string {
  if (handleOrName) {
    const key = handleOrName.toUpperCase();
    for (const s of Object.values(d.textStyles)) if (s.handle && s.handle.toUpperCase() === key) return s.name;
    for (const s of Object.values(d.textStyles)) if (s.name.toUpperCase() === key) return s.name;
  }
  for (const s of Object.values(d.textStyles)) if (s.name.toUpperCase() === 'STANDARD') return s.name;
  return 'STANDARD';
}

/** The block-record name of a handle (arrow blocks, MULTILEADER block content). */
export function blockRecordName(d: Drawing, handle: string | undefined): string | undefined {
  if (!handle) return undefined;
  const key = handle.toUpperCase();
  return d.blockRecords.find((r) => r.handle && r.handle.toUpperCase() === key)?.name;
}

// ---- virtual entities --------------------------------------------------------------------------

/** The common properties of `e` for an entity made up to draw part of it. */
export function baseFrom(e: EntityBase, color?: Color): EntityBase {
  return {
    layer: e.layer,
    color: color ?? e.color,
    linetype: 'CONTINUOUS',
    ltscale: 1,
    lineweight: e.lineweight,
    visible: true,
    extrusion: e.extrusion,
    paperSpace: e.paperSpace,
  };
}

export interface VirtualText {
  text: string;
  /** In the OCS of `owner`. */
  insertion: Vec3;
  height: number;
  /** Degrees. */
  rotation: number;
  /** MTEXT attachment 1..9. */
  attachment: number;
  style: string;
  width?: number;
  color?: Color;
}

export function virtualMText(owner: EntityBase, t: VirtualText): MTextEntity {
  return {
    ...baseFrom(owner, t.color),
    type: 'MTEXT',
    text: t.text,
    insertion: t.insertion,
    height: t.height,
    width: t.width ?? 0,
    attachment: t.attachment,
    drawingDirection: 1,
    rotation: t.rotation,
    style: t.style,
    lineSpacingFactor: 1,
    lineSpacingStyle: 1,
  };
}

// ---- arrowheads ---------------------------------------------------------------------------------

type ArrowKind = 'closed-filled' | 'closed' | 'open' | 'open30' | 'open90' | 'tick' | 'dot' | 'dot-blank' | 'none';

const ARROW_NAMES: Record<string, ArrowKind> = {
  '': 'closed-filled',
  _CLOSEDFILLED: 'closed-filled',
  _CLOSED: 'closed',
  _CLOSEDBLANK: 'closed',
  _OPEN: 'open',
  _OPEN30: 'open30',
  _OPEN90: 'open90',
  _ARCHTICK: 'tick',
  _OBLIQUE: 'tick',
  _DOT: 'dot',
  _DOTSMALL: 'dot',
  _SMALL: 'dot',
  _DOTBLANK: 'dot-blank',
  _ORIGIN: 'dot-blank',
  _ORIGIN2: 'dot-blank',
  _NONE: 'none',
  _INTEGRAL: 'none',
};

/** An arrowhead: a built-in shape, or a user block drawn at the tip. */
export interface Arrow {
  kind: ArrowKind;
  block?: string;
}

/** The arrow a DIMBLK-like variable (handle, or name in R12 files) asks for. */
export function arrowOf(d: Drawing, ref: string): Arrow {
  const name = (blockRecordName(d, ref) ?? ref).trim();
  const key = name.toUpperCase();
  const builtin = ARROW_NAMES[key] ?? ARROW_NAMES[`_${key}`];
  if (builtin) return { kind: builtin };
  if (findBlock(d, name)?.entities.length) return { kind: 'closed-filled', block: findBlock(d, name)!.name };
  return { kind: 'closed-filled' };
}

/**
 * Draws an arrowhead of `size` with its tip at `tip`, pointing along the unit vector `dir` (from
 * the line towards the tip), in the coordinate system of `m`.
 */
export function drawArrow(ctx: DrawContext, owner: EntityBase, style: number, m: Mat, tip: P2, dir: P2, size: number, arrow: Arrow): void {
  if (!(size > 0) || arrow.kind === 'none') return;
  const [dx, dy] = dir;
  const px = -dy,
    py = dx;
  const [x, y] = tip;
  if (arrow.block) {
    // Arrow blocks are drawn unit size with the tip at the origin, pointing along +X.
    const bm = multiply(m, multiply(translation(x, y, 0), multiply(rotationZ(Math.atan2(dy, dx)), scaling(size, size, size))));
    ctx.drawBlock(arrow.block, bm, owner);
    return;
  }
  const back = (len: number, half: number, side: number): P2 => [x - dx * len + px * half * side, y - dy * len + py * half * side];
  switch (arrow.kind) {
    case 'closed-filled': {
      const a = back(size, size / 6, 1),
        b = back(size, size / 6, -1);
      ctx.fill(style, m, [[x, y, a[0], a[1], b[0], b[1]]]);
      break;
    }
    case 'closed': {
      const a = back(size, size / 6, 1),
        b = back(size, size / 6, -1);
      ctx.stroke(style, m, [x, y, a[0], a[1], b[0], b[1]], true);
      break;
    }
    case 'open':
    case 'open30':
    case 'open90': {
      const half = arrow.kind === 'open90' ? size : arrow.kind === 'open30' ? size * Math.tan(15 * DEG) : size / 6;
      const len = arrow.kind === 'open90' ? size : size;
      const a = back(len, half, 1),
        b = back(len, half, -1);
      ctx.stroke(style, m, [a[0], a[1], x, y, b[0], b[1]], false);
      break;
    }
    case 'tick': {
      // An oblique stroke at 45° across the line.
      const h = size / 2;
      const ux = (dx + px) * Math.SQRT1_2,
        uy = (dy + py) * Math.SQRT1_2;
      ctx.stroke(style, m, [x - ux * h, y - uy * h, x + ux * h, y + uy * h], false);
      break;
    }
    case 'dot':
    case 'dot-blank': {
      const r = size / 4;
      const pts = arcPoints(x, y, r, 0, Math.PI * 2, ctx.arcSegments(r, Math.PI * 2, m));
      if (arrow.kind === 'dot') ctx.fill(style, m, [pts.slice(0, -2)]);
      else ctx.stroke(style, m, pts, false);
      break;
    }
    default:
      break;
  }
}

// ---- measurement text ---------------------------------------------------------------------------

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** A length formatted as the dimension style says (DIMLUNIT, DIMDEC, DIMRND, DIMZIN, DIMDSEP, DIMPOST). */
export function formatLength(value: number, v: DimVars): string {
  let x = value * (v.num(144) || 1);
  const rnd = v.num(45);
  if (rnd > 0) x = Math.round(x / rnd) * rnd;
  const dec = Math.max(0, Math.min(8, Math.round(v.num(271))));
  const unit = Math.round(v.num(277));
  const zin = Math.round(v.num(78));
  let s: string;
  if (unit === 1) s = x.toExponential(dec).replace('e+', 'E+').replace('e-', 'E-');
  else if (unit === 4 || unit === 5) s = fractional(x, dec, unit === 4);
  else if (unit === 3) {
    const ft = Math.trunc(x / 12);
    s = `${ft}'-${decimal(Math.abs(x - ft * 12), dec, zin)}"`;
  } else s = decimal(x, dec, zin);
  const sepCode = v.str(278);
  const sep = /^\d+$/.test(sepCode) ? String.fromCharCode(Number(sepCode)) : sepCode || '.';
  if (sep !== '.' && unit !== 4 && unit !== 5) s = s.replace('.', sep);
  return applyPost(s, v.str(3));
}

function decimal(x: number, dec: number, zin: number): string {
  let s = Math.abs(x) < 0.5 * 10 ** -dec ? (0).toFixed(dec) : x.toFixed(dec);
  if (zin & 8 && s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (zin & 4) s = s.replace(/^(-?)0\./, '$1.');
  return s;
}

function fractional(x: number, dec: number, architectural: boolean): string {
  const den = 2 ** Math.max(0, dec);
  const sign = x < 0 ? '-' : '';
  let a = Math.abs(x);
  let feet = 0;
  if (architectural) {
    feet = Math.floor(a / 12);
    a -= feet * 12;
  }
  let whole = Math.floor(a);
  let num = Math.round((a - whole) * den);
  if (num === den) {
    whole++;
    num = 0;
  }
  const g = num ? gcd(num, den) : 1;
  const frac = num ? `${num / g}/${den / g}` : '';
  const inches = whole && frac ? `${whole} ${frac}` : frac || `${whole}`;
  return architectural ? `${sign}${feet ? `${feet}'-` : ''}${inches}"` : `${sign}${inches}`;
}

function applyPost(s: string, post: string): string {
  if (!post) return s;
  return post.includes('<>') ? post.replace('<>', s) : s + post;
}

/** The text a dimension shows: the user text with `<>` replaced, or the measurement; '' when suppressed. */
function dimensionText(userText: string, measured: string): string {
  if (userText === ' ') return '';
  if (!userText) return measured;
  return userText.replace(/<>/g, measured);
}

// ---- synthesis ----------------------------------------------------------------------------------

interface Geo {
  ctx: DrawContext;
  e: DimensionEntity;
  v: DimVars;
  m: Mat;
  z: number;
  scale: number;
  dimStyle: number;
  extStyle: number;
  textColor: Color | undefined;
  arrow1: Arrow;
  arrow2: Arrow;
  tick: number;
}

function styleFor(ctx: DrawContext, e: EntityBase, aci: number): number {
  return aci > 0 && aci <= 256 ? ctx.styleWith(e, { aci }) : ctx.style(e);
}

/** WCS → the OCS of an extrusion direction. */
export function wcsToOcs(extrusion: Vec3, p: Vec3): Vec3 {
  if (isDefaultExtrusion(extrusion)) return p;
  const o = ocsToWcs(extrusion);
  // The OCS matrix is orthonormal: its inverse is its transpose.
  return [
    (o[0] as number) * p[0] + (o[4] as number) * p[1] + (o[8] as number) * p[2],
    (o[1] as number) * p[0] + (o[5] as number) * p[1] + (o[9] as number) * p[2],
    (o[2] as number) * p[0] + (o[6] as number) * p[1] + (o[10] as number) * p[2],
  ];
}

function toOcs(e: DimensionEntity, p: Vec3): Vec3 {
  return wcsToOcs(e.extrusion, p);
}

const sub = (a: P2, b: P2): P2 => [a[0] - b[0], a[1] - b[1]];
const add = (a: P2, b: P2): P2 => [a[0] + b[0], a[1] + b[1]];
const mul = (a: P2, s: number): P2 => [a[0] * s, a[1] * s];
const dot = (a: P2, b: P2): number => a[0] * b[0] + a[1] * b[1];
const len = (a: P2): number => Math.hypot(a[0], a[1]);
const unit = (a: P2): P2 => {
  const l = len(a);
  return l > 0 ? [a[0] / l, a[1] / l] : [1, 0];
};
const xy = (p: Vec3): P2 => [p[0], p[1]];

/** A reading angle in degrees: text never upside down. */
function readable(deg: number): number {
  let a = ((deg % 360) + 360) % 360;
  if (a > 90.001 && a <= 270.001) a -= 180;
  return a;
}

function synthesizeDimension(e: DimensionEntity, ctx: DrawContext): void {
  const v = dimVars(ctx.drawing, e.style);
  const d = ctx.drawing;
  const defOcs = toOcs(e, e.defPoint);
  const m = ctx.ocs(e, defOcs[2]);
  const blk = v.str(342);
  const tick = v.num(142);
  // Ticks (DIMTSZ > 0) replace arrows; DIMSAH picks separate first/second arrow blocks.
  const separate = v.num(173) > 0;
  const arrow1: Arrow = tick > 0 ? { kind: 'tick' } : arrowOf(d, (separate && v.str(343)) || blk);
  const arrow2: Arrow = tick > 0 ? { kind: 'tick' } : arrowOf(d, (separate && v.str(344)) || blk);
  const g: Geo = {
    ctx,
    e,
    v,
    m,
    z: defOcs[2],
    scale: dimScale(v),
    dimStyle: styleFor(ctx, e, v.num(176)),
    extStyle: styleFor(ctx, e, v.num(177)),
    textColor: v.num(178) > 0 ? { aci: v.num(178) } : undefined,
    arrow1,
    arrow2,
    tick,
  };
  switch (e.dimType) {
    case 0:
    case 1:
      linear(g);
      break;
    case 2:
    case 5:
      angular(g);
      break;
    case 3:
      diametric(g, true);
      break;
    case 4:
      diametric(g, false);
      break;
    case 6:
      ordinate(g);
      break;
    default:
      break;
  }
}

function arrowSize(g: Geo): number {
  return (g.tick > 0 ? g.tick : g.v.num(41)) * g.scale;
}

function textHeight(g: Geo): number {
  return g.v.num(140) * g.scale;
}

function emitText(g: Geo, text: string, at: P2, rotationDeg: number): void {
  if (!text) return;
  g.ctx.drawEntity(
    virtualMText(g.e, {
      text,
      insertion: [at[0], at[1], g.z],
      height: textHeight(g),
      rotation: rotationDeg,
      attachment: 5,
      style: textStyleName(g.ctx.drawing, g.v.str(340)),
      ...(g.textColor ? { color: g.textColor } : {}),
    }),
  );
}

/** Width of `text` set at the dimension text height (for breaking the dimension line). */
function textWidth(g: Geo, text: string): number {
  const style = g.ctx.drawing.textStyles[textStyleName(g.ctx.drawing, g.v.str(340))];
  const plain = text.replace(/\\[A-Za-z][^;\\]*;/g, '').replace(/[{}]/g, '');
  const font = g.ctx.fonts.resolve(style, plain);
  return font.measure(plain) * (textHeight(g) / (font.capHeight || 0.72)) * (style?.widthFactor || 1);
}

/** Is the text midpoint stored (writers that omit it leave 0,0,0)? */
function hasTextPoint(e: DimensionEntity): boolean {
  const t = e.textMidpoint;
  return t[0] !== 0 || t[1] !== 0 || t[2] !== 0;
}

function stroke(g: Geo, style: number, pts: number[]): void {
  g.ctx.stroke(style, g.m, pts, false);
}

function linear(g: Geo): void {
  const { e, v } = g;
  const p13 = e.defPoints.p13,
    p14 = e.defPoints.p14;
  if (!p13 || !p14) return;
  const a = xy(toOcs(e, p13)),
    b = xy(toOcs(e, p14)),
    p = xy(toOcs(e, e.defPoint));
  const dir: P2 = e.dimType === 1 ? unit(sub(b, a)) : [Math.cos(e.angle * DEG), Math.sin(e.angle * DEG)];
  if (e.dimType === 1 && len(sub(b, a)) === 0) return;
  const d1 = add(p, mul(dir, dot(sub(a, p), dir)));
  const d2 = add(p, mul(dir, dot(sub(b, p), dir)));
  const measured = Math.abs(dot(sub(b, a), dir));
  const exo = v.num(42) * g.scale,
    exe = v.num(44) * g.scale;
  // Extension lines: from just off the feature to just past the dimension line.
  for (const [o, dd] of [
    [a, d1],
    [b, d2],
  ] as const) {
    const w = sub(dd, o);
    const l = len(w);
    if (l <= exo) continue;
    const u = mul(w, 1 / l);
    stroke(g, g.extStyle, [o[0] + u[0] * exo, o[1] + u[1] * exo, dd[0] + u[0] * exe, dd[1] + u[1] * exe]);
  }
  const asz = arrowSize(g);
  const span = len(sub(d2, d1));
  const along = span > 0 ? unit(sub(d2, d1)) : dir;
  const inside = g.tick > 0 || span >= asz * 2.5;
  let s1 = d1,
    s2 = d2;
  if (g.tick > 0) {
    const dle = v.num(46) * g.scale;
    s1 = sub(d1, mul(along, dle));
    s2 = add(d2, mul(along, dle));
  } else if (!inside) {
    s1 = sub(d1, mul(along, asz * 2));
    s2 = add(d2, mul(along, asz * 2));
  }
  const text = dimensionText(e.text, formatLength(measured, v));
  // Text position: the stored midpoint, else centred above (DIMTAD) or on the dimension line.
  const lineDeg = Math.atan2(along[1], along[0]) / DEG;
  const upDeg = readable(lineDeg) * DEG;
  const up: P2 = [-Math.sin(upDeg), Math.cos(upDeg)];
  const mid = mul(add(d1, d2), 0.5);
  const tad = v.num(77);
  const at: P2 = hasTextPoint(e) ? xy(e.textMidpoint) : tad ? add(mid, mul(up, textHeight(g) / 2 + v.num(147) * g.scale)) : mid;
  const rot = e.textRotation ? e.textRotation : v.num(73) > 0 ? 0 : readable(lineDeg);
  // Break the dimension line around text set on it.
  const rel = sub(at, s1);
  const offLine = Math.abs(dot(rel, [-along[1], along[0]]));
  const tpos = dot(rel, along);
  const total = len(sub(s2, s1));
  if (text && offLine < textHeight(g) * 0.5 && tpos > 0 && tpos < total) {
    const hw =
      (Math.abs(Math.cos((rot - lineDeg) * DEG)) * textWidth(g, text)) / 2 +
      v.num(147) * g.scale +
      (textHeight(g) * Math.abs(Math.sin((rot - lineDeg) * DEG))) / 2;
    const c1 = add(s1, mul(along, Math.max(0, tpos - hw))),
      c2 = add(s1, mul(along, Math.min(total, tpos + hw)));
    if (tpos - hw > 0) stroke(g, g.dimStyle, [s1[0], s1[1], c1[0], c1[1]]);
    if (tpos + hw < total) stroke(g, g.dimStyle, [c2[0], c2[1], s2[0], s2[1]]);
  } else stroke(g, g.dimStyle, [s1[0], s1[1], s2[0], s2[1]]);
  const out1: P2 = inside ? mul(along, -1) : along,
    out2: P2 = inside ? along : mul(along, -1);
  drawArrow(g.ctx, e, g.dimStyle, g.m, d1, out1, asz, g.arrow1);
  drawArrow(g.ctx, e, g.dimStyle, g.m, d2, out2, asz, g.arrow2);
  emitText(g, text, at, rot);
}

function diametric(g: Geo, diameter: boolean): void {
  const { e, v } = g;
  const p15 = e.defPoints.p15;
  if (!p15) return;
  const a = xy(toOcs(e, e.defPoint)),
    b = xy(toOcs(e, p15));
  const value = len(sub(b, a));
  if (!(value > 0)) return;
  const prefix = diameter ? '\u00d8' : 'R';
  const measured = formatLength(value, v);
  const text = dimensionText(e.text, `${prefix}${measured}`);
  const center = diameter ? mul(add(a, b), 0.5) : a;
  const r = diameter ? value / 2 : value;
  const tp: P2 = hasTextPoint(e) ? xy(e.textMidpoint) : add(b, mul(unit(sub(b, center)), arrowSize(g) * 2 + textHeight(g)));
  const asz = arrowSize(g);
  const outward = unit(sub(b, center));
  const textOutside = len(sub(tp, center)) > r;
  if (diameter) {
    stroke(g, g.dimStyle, [a[0], a[1], b[0], b[1]]);
    drawArrow(g.ctx, e, g.dimStyle, g.m, b, outward, asz, g.arrow2);
    drawArrow(g.ctx, e, g.dimStyle, g.m, a, mul(outward, -1), asz, g.arrow1);
  } else if (textOutside) {
    stroke(g, g.dimStyle, [b[0], b[1], tp[0], tp[1]]);
    drawArrow(g.ctx, e, g.dimStyle, g.m, b, mul(unit(sub(tp, b)), -1), asz, g.arrow2);
  } else {
    stroke(g, g.dimStyle, [center[0], center[1], b[0], b[1]]);
    drawArrow(g.ctx, e, g.dimStyle, g.m, b, outward, asz, g.arrow2);
  }
  if (diameter && textOutside) {
    const near = len(sub(tp, a)) < len(sub(tp, b)) ? a : b;
    stroke(g, g.dimStyle, [near[0], near[1], tp[0], tp[1]]);
  }
  const lineDeg = Math.atan2(outward[1], outward[0]) / DEG;
  const rot = e.textRotation ? e.textRotation : v.num(textOutside ? 74 : 73) > 0 ? 0 : readable(lineDeg);
  emitText(g, text, tp, rot);
}

function lineIntersection(p: P2, r: P2, q: P2, s: P2): P2 | null {
  const den = r[0] * s[1] - r[1] * s[0];
  if (Math.abs(den) < 1e-12) return null;
  const t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / den;
  return [p[0] + r[0] * t, p[1] + r[1] * t];
}

function angular(g: Geo): void {
  const { e, v } = g;
  const { p13, p14, p15, p16 } = e.defPoints;
  // Two legs from the vertex; the arc spans counter-clockwise between their directions, on the
  // side that holds the arc location point.
  let vertex: P2 | null;
  let legs: [P2, P2][];
  let arcPt: P2;
  if (e.dimType === 5) {
    if (!p13 || !p14 || !p15) return;
    vertex = xy(toOcs(e, p15));
    legs = [
      [vertex, xy(toOcs(e, p13))],
      [vertex, xy(toOcs(e, p14))],
    ];
    arcPt = xy(toOcs(e, e.defPoint));
  } else {
    if (!p13 || !p14 || !p15) return;
    const a = xy(toOcs(e, p13)),
      b = xy(toOcs(e, p14)),
      c = xy(toOcs(e, p15)),
      d = xy(toOcs(e, e.defPoint));
    vertex = lineIntersection(a, sub(b, a), c, sub(d, c));
    if (!vertex) return;
    legs = [
      [a, b],
      [c, d],
    ];
    arcPt = p16 ? xy(p16) : hasTextPoint(e) ? xy(e.textMidpoint) : mul(add(b, d), 0.5);
  }
  const v0 = vertex;
  const R = len(sub(arcPt, v0));
  if (!(R > 0)) return;
  const TAU = 2 * Math.PI;
  const norm = (x: number): number => ((x % TAU) + TAU) % TAU;
  const rayOf = ([p, q]: [P2, P2]): number => {
    const far = len(sub(p, v0)) > len(sub(q, v0)) ? p : q;
    return norm(Math.atan2(far[1] - v0[1], far[0] - v0[0]));
  };
  const r1 = rayOf(legs[0]!),
    r2 = rayOf(legs[1]!);
  const ap = norm(Math.atan2(arcPt[1] - v0[1], arcPt[0] - v0[0]));
  const inSweep = (from: number, to: number): boolean => norm(ap - from) <= norm(to - from);
  const [start, end] = inSweep(r1, r2) ? [r1, r1 + norm(r2 - r1)] : [r2, r2 + norm(r1 - r2)];
  const feet: P2[] = legs.flat();
  const sweep = end - start;
  if (!(sweep > 0)) return;
  const pts = arcPoints(v0[0], v0[1], R, start, sweep, g.ctx.arcSegments(R, sweep, g.m));
  stroke(g, g.dimStyle, pts);
  const asz = arrowSize(g);
  const pa: P2 = [v0[0] + R * Math.cos(start), v0[1] + R * Math.sin(start)];
  const pb: P2 = [v0[0] + R * Math.cos(end), v0[1] + R * Math.sin(end)];
  drawArrow(g.ctx, e, g.dimStyle, g.m, pa, [Math.sin(start), -Math.cos(start)], asz, g.arrow1);
  drawArrow(g.ctx, e, g.dimStyle, g.m, pb, [-Math.sin(end), Math.cos(end)], asz, g.arrow2);
  // Extension lines from the nearest definition point on each ray out to the arc.
  const exo = v.num(42) * g.scale,
    exe = v.num(44) * g.scale;
  for (const [ang, p] of [
    [start, pa],
    [end, pb],
  ] as const) {
    const u: P2 = [Math.cos(ang), Math.sin(ang)];
    let far = 0;
    for (const f of feet) {
      const w = sub(f, v0);
      if (Math.abs(w[0] * u[1] - w[1] * u[0]) < 1e-9 * (len(w) + 1) && dot(w, u) > far) far = dot(w, u);
    }
    if (R - far > exo) {
      const s = add(v0, mul(u, far + exo));
      const t = add(p, mul(u, exe));
      stroke(g, g.extStyle, [s[0], s[1], t[0], t[1]]);
    }
  }
  const dec = Math.max(0, Math.min(8, Math.round(v.num(179))));
  const unitAng = Math.round(v.num(275));
  let value = (sweep / DEG).toFixed(dec);
  if (unitAng === 3) value = sweep.toFixed(dec) + 'r';
  else if (unitAng === 2) value = ((sweep / DEG) * (400 / 360)).toFixed(dec) + 'g';
  else value += '\u00b0';
  const sep = v.str(278);
  if (/^\d+$/.test(sep) && Number(sep) !== 46) value = value.replace('.', String.fromCharCode(Number(sep)));
  const text = dimensionText(e.text, value);
  const midA = start + sweep / 2;
  const tp: P2 = hasTextPoint(e)
    ? xy(e.textMidpoint)
    : add(v0, mul([Math.cos(midA), Math.sin(midA)], R + textHeight(g) / 2 + v.num(147) * g.scale));
  const rot = e.textRotation ? e.textRotation : v.num(73) > 0 ? 0 : readable(midA / DEG - 90);
  emitText(g, text, tp, rot);
}

function ordinate(g: Geo): void {
  const { e, v } = g;
  const { p13, p14 } = e.defPoints;
  if (!p13 || !p14) return;
  const origin = xy(toOcs(e, e.defPoint)),
    feat = xy(toOcs(e, p13)),
    end = xy(toOcs(e, p14));
  const xType = (e.flags & 64) !== 0;
  const value = Math.abs(xType ? feat[0] - origin[0] : feat[1] - origin[1]);
  const exo = v.num(42) * g.scale;
  // The leader runs along the measured axis, with a jog when the end is offset.
  const axis: P2 = xType ? [0, Math.sign(end[1] - feat[1]) || 1] : [Math.sign(end[0] - feat[0]) || 1, 0];
  const start = add(feat, mul(axis, exo));
  const pts = [start[0], start[1]];
  const along = xType ? end[1] - feat[1] : end[0] - feat[0];
  const across = xType ? end[0] - feat[0] : end[1] - feat[1];
  if (Math.abs(across) > 1e-9) {
    const jog = Math.abs(along) * 0.6;
    const k1 = add(feat, mul(axis, jog * 0.5)),
      k2 = xType ? ([end[0], feat[1] + axis[1] * jog] as P2) : ([feat[0] + axis[0] * jog, end[1]] as P2);
    pts.push(k1[0], k1[1], k2[0], k2[1]);
  }
  pts.push(end[0], end[1]);
  stroke(g, g.extStyle, pts);
  const text = dimensionText(e.text, formatLength(value, v));
  const tp: P2 = hasTextPoint(e) ? xy(e.textMidpoint) : add(end, mul(axis, textWidth(g, text) / 2 + v.num(147) * g.scale));
  const rot = e.textRotation ? e.textRotation : xType && !(v.num(74) > 0) ? 90 : 0;
  emitText(g, text, tp, rot);
}
