/**
 * LEADER (straight or spline path through its WCS vertices, arrowhead at the first vertex sized by
 * its dimension style, the hook line extended under its MTEXT) and MULTILEADER (leader lines with
 * their landing and arrowheads, the MTEXT content at its stored location with its defined width,
 * alignment, style, colour and frame, or the block content with its attribute values).
 */
import type { Color, Drawing, EntityBase, InsertEntity, LeaderEntity, MLeaderEntity, MTextEntity, TextEntity } from '../model';
import { drawMText } from './text';
import type { DrawContext, EntityHandler } from './context';
import { fitPointCurve } from '../geom/spline';
import {
  arrowOf,
  baseFrom,
  blockRecordName,
  dimScale,
  dimVars,
  drawArrow,
  textStyleName,
  virtualMText,
  wcsToOcs,
  type Arrow,
  type DimVars,
} from './dimension';
import {
  affineInvert,
  affineMultiply,
  apply,
  isDefaultExtrusion,
  multiply,
  textMatrix,
  translation,
  type Affine2D,
  type Mat,
} from '../geom/matrix';
import type { Vec3 } from '../geom/vector';

// ---- LEADER -----------------------------------------------------------------------------------

export const drawLeader: EntityHandler<LeaderEntity> = (e, ctx) => {
  const pts = dedupe(e.vertices);
  if (pts.length < 2) return;
  const v = withOverrides(dimVars(ctx.drawing, e.style), e.dimOverrides);
  const clrd = v.num(176);
  const byBlock = clrd === 0 && e.blockColor !== undefined && e.blockColor > 0 && e.blockColor < 256 ? e.blockColor : 0;
  const aci = byBlock || clrd;
  const style = aci > 0 && aci <= 256 ? ctx.styleWith(e, { aci }) : ctx.style(e);
  const dashes = ctx.dashes(e);
  // The hook line runs on under an MTEXT placed above it (DIMTAD), across the text and its gap.
  const width = e.textWidth ?? 0;
  if ((e.annotationType ?? 3) === 0 && (e.hookline ?? true) && v.num(77) !== 0 && width > 0) {
    const h = unit(e.horizontalDirection ?? [1, 0, 0]) ?? [1, 0, 0];
    const len = (Math.abs(v.num(147)) * dimScale(v) + width) * ((e.hooklineDirection ?? 1) === 1 ? -1 : 1);
    const last = pts[pts.length - 1]!;
    pts.push([last[0] + h[0] * len, last[1] + h[1] * len, last[2] + h[2] * len]);
  }
  strokePath(ctx, style, pts, e.pathType === 1, dashes);
  if (!e.arrowhead) return;
  const size = v.num(41) * dimScale(v);
  const first = pts[0]!,
    second = pts[1]!;
  // No room for an arrowhead on a very short first segment.
  if (dist(first, second) < size) return;
  arrowAt(ctx, e, style, first, second, size, arrowOf(ctx.drawing, v.str(341)));
};

/** Dimension variables with the entity's own DSTYLE overrides on top. */
function withOverrides(v: DimVars, o: Record<number, number | string> | undefined): DimVars {
  if (!o) return v;
  return {
    num(code) {
      const x = o[code];
      if (typeof x === 'number') return x;
      const n = typeof x === 'string' && x !== '' ? Number(x) : NaN;
      return Number.isFinite(n) ? n : v.num(code);
    },
    str(code) {
      const x = o[code];
      return x === undefined ? v.str(code) : String(x);
    },
  };
}

// ---- MULTILEADER ------------------------------------------------------------------------------

export const drawMLeader: EntityHandler<MLeaderEntity> = (e, ctx) => {
  const scale = e.contentScale ?? 1;
  // A zero content scale shrinks the whole annotation to nothing.
  if (!(Math.abs(scale) > 1e-9)) return;
  const d = ctx.drawing;
  const textHeight = e.textHeight && e.textHeight > 0 ? e.textHeight : 0;
  const arrowSize = e.arrowSize && e.arrowSize > 0 ? e.arrowSize : textHeight || 1;
  const lineOwner = leaderOwner(e, d);
  const lineStyle = ctx.style(lineOwner);
  const dashes = ctx.dashes(lineOwner);

  // Content: the MTEXT when there is one, else the block.
  const text = e.text && e.textPosition ? drawContentText(e, ctx, scale) : undefined;
  if (!text) drawContentBlock(e, ctx);

  const type = e.leaderType ?? 1;
  if (type === 0) return;
  const hasDogleg = e.hasDogleg ?? true;
  for (const l of e.leaders) {
    const horizontal = (l.attachmentDirection ?? e.textAttachmentDirection ?? 0) === 0;
    const dogleg = doglegOf(l);
    for (const line of l.lines) {
      const verts = [...line.vertices];
      if (l.lastPoint) {
        if (horizontal) {
          // Splines have no dogleg: they run on to the connection point.
          if (hasDogleg && type !== 2) verts.push(l.lastPoint);
          verts.push(add(l.lastPoint, dogleg));
        } else verts.push(l.lastPoint);
      }
      const pts = dedupe(verts);
      if (pts.length < 2) continue;
      const owner = line.color ? { ...lineOwner, color: line.color } : lineOwner;
      const style = line.color ? ctx.style(owner) : lineStyle;
      const handle = e.arrowHeads?.find((a) => a.index === (line.index ?? 0))?.handle ?? e.arrowHandle ?? '';
      const arrow = arrowOf(d, handle === '0' ? '' : handle);
      arrowAt(ctx, owner, style, pts[0]!, pts[1]!, arrowSize, arrow);
      // The line starts at the base of a hollow arrowhead.
      if (arrow.kind === 'closed' && !arrow.block && dist(pts[0]!, pts[1]!) > arrowSize) {
        const u = unit(sub(pts[1]!, pts[0]!))!;
        pts[0] = add(pts[0]!, [u[0] * arrowSize, u[1] * arrowSize, u[2] * arrowSize]);
      }
      strokePath(ctx, style, pts, type === 2, dashes);
    }
    if (text && l.lastPoint) drawTextLines(e, ctx, text, l, horizontal, add(l.lastPoint, dogleg), lineStyle);
  }
};

/** The leader lines' owner: their colour, linetype and lineweight (ByBlock = the MULTILEADER's own). */
function leaderOwner(e: MLeaderEntity, d: Drawing): EntityBase {
  let linetype = e.linetype;
  if (e.leaderLinetypeHandle) {
    const key = e.leaderLinetypeHandle.toUpperCase();
    const lt = Object.values(d.linetypes).find((t) => t.handle && t.handle.toUpperCase() === key);
    if (lt && lt.name.toUpperCase() !== 'BYBLOCK') linetype = lt.name;
  }
  const lw = e.leaderLineweight;
  return {
    ...baseFrom(e, partColor(e, e.leaderColor)),
    linetype,
    ltscale: e.ltscale,
    lineweight: lw === undefined || lw === -2 ? e.lineweight : lw,
  };
}

/** A part's colour: ByBlock (and unset) means the colour of the MULTILEADER itself. */
function partColor(e: MLeaderEntity, c: Color | undefined): Color {
  if (!c || (c.aci === 0 && c.rgb === undefined)) return e.color;
  return c;
}

function doglegOf(l: MLeaderEntity['leaders'][number]): Vec3 {
  const len = l.doglegLength || 0;
  const u = (l.doglegVector && unit(l.doglegVector)) ?? [1, 0, 0];
  return [u[0] * len, u[1] * len, u[2] * len];
}

/** The MTEXT content as drawn: its text space (→ world) and its box there. */
interface TextBox {
  frame: Affine2D;
  inverse: Affine2D;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

function drawContentText(e: MLeaderEntity, ctx: DrawContext, scale: number): TextBox | undefined {
  const d = ctx.drawing;
  const pos = e.textPosition!;
  const normal: Vec3 = e.textNormal && unit(e.textNormal) ? e.textNormal : [0, 0, 1];
  const align = clampInt(e.textAlignment || e.textAttachmentPoint || 1, 1, 3);
  const height = e.textHeight && e.textHeight > 0 ? e.textHeight : 0;
  // Top to bottom flow: AutoCAD sets the paragraphs side by side on the line through the location.
  const vertical = e.textFlow === 3;
  const content = vertical ? e.text!.replace(/\\P/g, ' ') : e.text!;
  const width = !vertical && e.textWidth && e.textWidth > 0 ? e.textWidth * scale : 0;
  const dir = e.textDirection && unit(e.textDirection) ? e.textDirection : undefined;
  const mtext: MTextEntity = {
    ...virtualMText(e, {
      text: content,
      insertion: pos,
      height,
      rotation: 0,
      attachment: vertical ? 6 + align : align,
      style: textStyleName(d, e.textStyleHandle ?? ''),
      width,
      color: partColor(e, e.textColor),
    }),
    extrusion: normal,
    lineSpacingFactor: e.textLineSpacingFactor && e.textLineSpacingFactor > 0 ? e.textLineSpacingFactor : 1,
    lineSpacingStyle: e.textLineSpacingStyle === 2 ? 2 : 1,
  };
  if (dir) mtext.direction = dir;
  const bg = e.textBackground;
  if (bg) mtext.background = { flags: bg.useWindowColor ? 3 : 1, color: bg.color ?? { aci: 256 }, scale: bg.scale };

  // The text space drawMText uses (insertion and direction are WCS, turned into the text's OCS).
  const ocsDefault = isDefaultExtrusion(normal);
  const ins = ocsDefault ? pos : wcsToOcs(normal, pos);
  const wdir: Vec3 = dir ?? [1, 0, 0];
  const od = ocsDefault ? wdir : wcsToOcs(normal, wdir);
  const rotation = Math.hypot(od[0], od[1]) > 1e-12 ? Math.atan2(od[1], od[0]) : 0;
  const frame = textMatrix(ctx.ocs(mtext, ins[2]), ins[0], ins[1], rotation);
  const inverse = affineInvert(frame);

  // Draw through a context that records where the glyphs land (in text space); a context that
  // keeps the MTEXT as an entity gets only the measurement.
  const kept = ctx.keepEntity?.(mtext) === true;
  const box = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
  const cap = mtext.height > 0 ? mtext.height : 0;
  const take = (x: number, y: number, top: number): void => {
    box.minX = Math.min(box.minX, x);
    box.maxX = Math.max(box.maxX, x);
    box.minY = Math.min(box.minY, y);
    box.maxY = Math.max(box.maxY, top);
  };
  const probe: DrawContext = {
    drawing: ctx.drawing,
    matrix: ctx.matrix,
    paperSpace: ctx.paperSpace,
    fonts: ctx.fonts,
    ocs: (en, el) => ctx.ocs(en, el),
    style: (en) => ctx.style(en),
    styleWith: (en, c) => ctx.styleWith(en, c),
    dashes: (en) => ctx.dashes(en),
    tolerance: (m) => ctx.tolerance(m),
    arcSegments: (r, s, m) => ctx.arcSegments(r, s, m),
    stroke: (style, m, xy, closed, options) => {
      for (let i = 0; i + 1 < xy.length; i += 2) {
        const [wx, wy] = apply(m, xy[i] as number, xy[i + 1] as number);
        const [x, y] = at(inverse, wx, wy);
        take(x, y, y);
      }
      if (!kept) ctx.stroke(style, m, xy, closed, options);
    },
    stroke3: (style, m, xyz, closed, options) => {
      if (!kept) ctx.stroke3(style, m, xyz, closed, options);
    },
    fill: (style, m, rings, options) => {
      if (!kept) ctx.fill(style, m, rings, options);
    },
    text: (t, font) => {
      if (t.text.trim()) {
        const a = affineMultiply(inverse, t.matrix);
        const x0 = a[4],
          y0 = a[5];
        const x1 = a[0] * t.width + a[4],
          y1 = a[1] * t.width + a[5];
        take(x0, y0, y0 + cap);
        take(x1, y1, y1 + cap);
      }
      if (!kept) ctx.text(t, font);
    },
    drawBlock: (name, m, owner) => {
      if (!kept) ctx.drawBlock(name, m, owner);
    },
    drawEntity: (en) => {
      if (!kept) ctx.drawEntity(en);
    },
    warn: (w) => ctx.warn(w),
  };
  drawMText(mtext, probe);
  if (!(box.maxX >= box.minX)) return undefined;
  const result: TextBox = { frame, inverse, ...box };

  if (e.textFrame) {
    const gap = Math.abs(e.landingGap ?? 0);
    let x0 = box.minX - gap,
      x1 = box.maxX + gap;
    let y0 = box.minY - gap,
      y1 = box.maxY + gap;
    // Side-by-side paragraphs (top-to-bottom flow): AutoCAD hangs the frame from the line through
    // the location, as deep as the text or the defined width, whichever is more.
    if (vertical) {
      y1 = gap;
      y0 = -Math.max(box.maxY - box.minY, (e.textWidth ?? 0) * scale) - gap;
    }
    // The frame reaches the content base point, where the landing ends.
    if (e.contentBase) {
      const [bx] = toText(ctx, inverse, e.contentBase);
      const reach = Math.max(2 * gap, 2 * cap);
      if (bx < x0 && x0 - bx <= reach) x0 = bx;
      else if (bx > x1 && bx - x1 <= reach) x1 = bx;
    }
    ctx.stroke(ctx.style(mtext), affineToMat(frame), [x0, y0, x1, y0, x1, y1, x0, y1], true);
  }
  return result;
}

/**
 * The lines some text attachments add: an underline from the connection point across the text
 * (horizontal attachment 5, 6, 8), or a line over/under the text centred on the leader's end
 * (vertical attachment 10).
 */
function drawTextLines(
  e: MLeaderEntity,
  ctx: DrawContext,
  t: TextBox,
  l: MLeaderEntity['leaders'][number],
  horizontal: boolean,
  connection: Vec3,
  style: number,
): void {
  const width = t.maxX - t.minX;
  if (!(width > 0)) return;
  const m = affineToMat(t.frame);
  if (horizontal) {
    const [cx, cy] = toText(ctx, t.inverse, connection);
    const left = cx < 0;
    const kind = left ? e.textLeftAttachment : e.textRightAttachment;
    if (kind !== 5 && kind !== 6 && kind !== 8) return;
    const len = width + Math.abs(e.landingGap ?? 0);
    ctx.stroke(style, m, [cx, cy, cx + (left ? len : -len), cy], false);
    return;
  }
  const [cx, cy] = toText(ctx, t.inverse, l.lastPoint!);
  const bottom = cy < 0;
  if ((bottom ? e.textBottomAttachment : e.textTopAttachment) !== 10) return;
  ctx.stroke(style, m, [cx - width / 2, cy, cx + width / 2, cy], false);
}

/** Block content: a block reference at its position, scale and rotation, with its attribute values. */
function drawContentBlock(e: MLeaderEntity, ctx: DrawContext): void {
  const d = ctx.drawing;
  const name = blockRecordName(d, e.blockHandle);
  if (!name || !e.blockPosition) return;
  const normal: Vec3 = e.blockNormal && unit(e.blockNormal) ? e.blockNormal : [0, 0, 1];
  const scale: Vec3 = e.blockScale && e.blockScale[0] && e.blockScale[1] ? e.blockScale : [1, 1, 1];
  const rotation = e.blockRotation ?? 0;
  const insertion = wcsToOcs(normal, e.blockPosition);
  const base: EntityBase = { ...baseFrom(e, partColor(e, e.blockColor)), linetype: e.linetype, ltscale: e.ltscale, extrusion: normal };
  const insert: InsertEntity = {
    ...base,
    type: 'INSERT',
    name,
    insertion,
    scale,
    rotation,
    columnCount: 1,
    rowCount: 1,
    columnSpacing: 0,
    rowSpacing: 0,
    attributes: blockAttributes(e, d, name, base, insertion, scale, rotation),
  };
  ctx.drawEntity(insert);
}

/** ATTRIBs for the block content: each value placed where its ATTDEF sits in the block, transformed like the block. */
function blockAttributes(
  e: MLeaderEntity,
  d: Drawing,
  name: string,
  base: EntityBase,
  insertion: Vec3,
  scale: Vec3,
  rotationDeg: number,
): TextEntity[] {
  const values = e.blockAttributes;
  const block = d.blocks[name] ?? Object.values(d.blocks).find((b) => b.name.toUpperCase() === name.toUpperCase());
  if (!values?.length || !block) return [];
  const defs = new Map<string, TextEntity>();
  for (const en of block.entities) if (en.type === 'ATTDEF' && en.handle) defs.set(en.handle.toUpperCase(), en);
  const r = (rotationDeg * Math.PI) / 180;
  const c = Math.cos(r),
    s = Math.sin(r);
  const bp = block.basePoint;
  const place = (p: Vec3): Vec3 => {
    const x = (p[0] - bp[0]) * scale[0],
      y = (p[1] - bp[1]) * scale[1];
    return [insertion[0] + c * x - s * y, insertion[1] + s * x + c * y, insertion[2] + (p[2] - bp[2]) * (scale[2] || 1)];
  };
  const out: TextEntity[] = [];
  for (const v of values) {
    const def = defs.get(v.handle.toUpperCase());
    if (!def) continue;
    const { mtext: _mtext, ...rest } = def;
    const sy = Math.abs(scale[1]) || 1;
    const a: TextEntity = {
      ...rest,
      type: 'ATTRIB',
      text: v.text,
      insertion: place(def.insertion),
      height: def.height * sy,
      rotation: def.rotation + rotationDeg,
      widthFactor: (def.widthFactor || 1) * (Math.abs(scale[0]) / sy || 1),
      extrusion: base.extrusion,
    };
    if (def.alignPoint) a.alignPoint = place(def.alignPoint);
    out.push(a);
  }
  return out;
}

// ---- shared -----------------------------------------------------------------------------------

function strokePath(ctx: DrawContext, style: number, pts: Vec3[], spline: boolean, dashes: ReturnType<DrawContext['dashes']>): void {
  if (spline && pts.length > 2) {
    const tol = Math.max(ctx.tolerance(ctx.matrix), 1e-12);
    let len = 0;
    for (let i = 1; i < pts.length; i++) len += dist(pts[i]!, pts[i - 1]!);
    const perSpan = Math.max(4, Math.min(64, Math.ceil(Math.sqrt(len / (pts.length - 1) / tol))));
    ctx.stroke3(style, ctx.matrix, fitPointCurve(pts, perSpan, false), false, { dashes });
  } else ctx.stroke3(style, ctx.matrix, pts.flat(), false, { dashes });
}

/** A WCS point → the text space of a TextBox (through the current block transform). */
function toText(ctx: DrawContext, inverse: Affine2D, p: Vec3): [number, number] {
  const [wx, wy] = apply(ctx.matrix, p[0], p[1], p[2]);
  return at(inverse, wx, wy);
}

function at(a: Affine2D, x: number, y: number): [number, number] {
  return [a[0] * x + a[2] * y + a[4], a[1] * x + a[3] * y + a[5]];
}

/** 2D affine → the 3D matrix ctx.stroke takes (z ignored). */
function affineToMat(a: Affine2D): Mat {
  return [a[0], a[2], 0, a[4], a[1], a[3], 0, a[5], 0, 0, 1, 0];
}

function clampInt(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.round(v)));
}

function dist(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function unit(v: Vec3): Vec3 | undefined {
  const n = Math.hypot(v[0], v[1], v[2]);
  return n > 1e-12 && Number.isFinite(n) ? [v[0] / n, v[1] / n, v[2] / n] : undefined;
}

function dedupe(pts: Vec3[]): Vec3[] {
  const out: Vec3[] = [];
  for (const p of pts) {
    if (!p.every(Number.isFinite)) continue;
    const q = out[out.length - 1];
    if (q && dist(p, q) === 0) continue;
    out.push(p);
  }
  return out;
}

/** An arrowhead at `tip` pointing away from `from` (both WCS), in the plane z = tip's z. */
function arrowAt(ctx: DrawContext, owner: EntityBase, style: number, tip: Vec3, from: Vec3, size: number, arrow: Arrow): void {
  const dx = tip[0] - from[0],
    dy = tip[1] - from[1];
  const l = Math.hypot(dx, dy);
  if (!(l > 0)) return;
  const m: Mat = tip[2] ? multiply(ctx.matrix, translation(0, 0, tip[2])) : ctx.matrix;
  drawArrow(ctx, owner, style, m, [tip[0], tip[1]], [dx / l, dy / l], size, arrow);
}
