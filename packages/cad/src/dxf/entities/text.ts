/** TEXT, ATTRIB, ATTDEF (with R2018's embedded MTEXT of a multi-line attribute) and MTEXT. */
import type { Color, Entity, MTextEntity, TextEntity } from '../../model';
import type { Vec3 } from '../../geom/vector';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk, RAD2DEG } from './base';

export function text(r: DxfRecord, type: 'TEXT' | 'ATTRIB' | 'ATTDEF'): TextEntity {
  // ATTRIB/ATTDEF of R2018 may carry an embedded MTEXT after "101 Embedded Object": ignore it.
  const emb = r.indexOf(101);
  const saved = r.xdataStart;
  if (emb >= 0) r.xdataStart = emb;
  const e: TextEntity = mk(r, {
    type,
    text: r.str(1),
    insertion: r.pt(10),
    height: r.num(40, 1),
    rotation: r.num(50),
    widthFactor: r.num(41, 1) || 1,
    oblique: r.num(51),
    style: r.str(7, 'STANDARD'),
    halign: r.num(72),
    valign: r.num(type === 'TEXT' ? 73 : 74),
    generation: r.num(71),
  });
  if (type !== 'TEXT' && e.valign === 0 && !r.has(74)) e.valign = r.num(73);
  const align = r.optPt(11);
  if (align) e.alignPoint = align;
  if (type !== 'TEXT') {
    e.tag = r.str(2);
    e.attributeFlags = r.num(70);
    if (type === 'ATTDEF') e.prompt = r.str(3);
  }
  r.xdataStart = saved;
  if (emb >= 0 && type !== 'TEXT') {
    // A multi-line attribute (R2018): the embedded MTEXT is what AutoCAD shows.
    const g = embedded(r, emb);
    const body = g.texts.join('');
    if (body) {
      const m: MTextEntity = {
        ...e,
        type: 'MTEXT',
        text: body,
        insertion: g.pt(10) ?? e.insertion,
        height: g.num(40) || e.height,
        width: g.num(41) ?? 0,
        attachment: g.num(71) || 1,
        drawingDirection: g.num(72) || 1,
        rotation: e.rotation,
        style: e.style,
        lineSpacingFactor: g.num(44) || 1,
        lineSpacingStyle: g.num(73) || 1,
      };
      for (const k of [
        'tag',
        'prompt',
        'attributeFlags',
        'halign',
        'valign',
        'generation',
        'widthFactor',
        'oblique',
        'alignPoint',
      ] as const)
        delete (m as unknown as Record<string, unknown>)[k];
      const dir = g.pt(11);
      if (dir && (dir[0] || dir[1])) {
        m.direction = dir;
        m.rotation = Math.atan2(dir[1], dir[0]) * RAD2DEG;
      }
      e.mtext = m;
    }
  }
  return e;
}

/** The groups of an "101 Embedded Object" part (first value per code; text parts in order). */
function embedded(r: DxfRecord, from: number): { num(c: number): number | undefined; pt(c: number): Vec3 | undefined; texts: string[] } {
  const { codes, vals } = r;
  const first = new Map<number, number>();
  const texts: string[] = [];
  let last = '';
  for (let i = from + 1; i < r.length; i++) {
    const c = codes[i] as number;
    if (c === 1001) break;
    if (c === 3) texts.push(asStr(vals[i]));
    else if (c === 1) last = asStr(vals[i]);
    if (!first.has(c)) first.set(c, i);
  }
  if (last) texts.push(last);
  const num = (c: number): number | undefined => {
    const i = first.get(c);
    return i === undefined ? undefined : asNum(vals[i]);
  };
  const pt = (c: number): Vec3 | undefined => {
    const x = num(c);
    return x === undefined ? undefined : [x, num(c + 10) ?? 0, num(c + 20) ?? 0];
  };
  return { num, pt, texts };
}

export function mtext(r: DxfRecord): MTextEntity {
  const { codes, vals } = r;
  // R2018 appends an "101 Embedded Object" part (columns) that repeats group codes: read the main part before it.
  const emb = r.indexOf(101);
  const saved = r.xdataStart;
  if (emb >= 0) r.xdataStart = emb;
  let body = '';
  let last = '';
  const end = r.length;
  let colType = 0;
  let colCount = 0;
  let colWidth = 0;
  let gutter = 0;
  let autoHeight = false;
  const heights: number[] = [];
  let afterColCount = false;
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    if (c === 3) body += asStr(vals[i]);
    else if (c === 1) last = asStr(vals[i]);
    else if (c === 101) break;
    else if (c === 75) colType = asNum(vals[i]);
    else if (c === 76) {
      colCount = asNum(vals[i]);
      afterColCount = true;
    } else if (c === 48 && colType) colWidth = asNum(vals[i]);
    else if (c === 49) gutter = asNum(vals[i]);
    else if (c === 79) autoHeight = asNum(vals[i]) !== 0;
    else if (c === 50 && afterColCount) heights.push(asNum(vals[i]));
  }
  const e: MTextEntity = mk(r, {
    type: 'MTEXT',
    // DXF caret escapes: ^J line feed (a paragraph break), ^I tab, "^ " a caret; binary DXF can
    // hold the line feed itself.
    text: (body + last).replace(/\^([JI ])|\r?\n/g, (_, c?: string) => (c === 'I' ? '\t' : c === ' ' ? '^' : '\\P')),
    insertion: r.pt(10),
    height: r.num(40, 1),
    width: r.num(41),
    attachment: r.num(71, 1),
    drawingDirection: r.num(72, 1),
    rotation: r.num(50),
    style: r.str(7, 'STANDARD'),
    lineSpacingFactor: r.num(44, 1),
    lineSpacingStyle: r.num(73, 1),
  });
  const dir = r.optPt(11);
  if (dir && (dir[0] !== 0 || dir[1] !== 0)) {
    e.direction = dir;
    e.rotation = Math.atan2(dir[1], dir[0]) * RAD2DEG;
  }
  const bg = r.num(90);
  if (bg) {
    const color: Color = {};
    const aci = r.optNum(63);
    const rgb = r.optNum(421);
    if (aci !== undefined) color.aci = aci;
    if (rgb !== undefined) color.rgb = rgb & 0xffffff;
    e.background = { flags: bg, color, scale: r.num(45, 1.5) };
  }
  const dh = r.optNum(46);
  if (dh) e.definedHeight = dh;
  r.xdataStart = saved;
  if (emb >= 0) {
    const g = embedded(r, emb);
    const edh = g.num(41);
    if (edh && !e.definedHeight) e.definedHeight = edh;
    const type = g.num(71) ?? 0;
    if (type) {
      const hs: number[] = [];
      for (let i = emb + 1; i < r.length && codes[i] !== 1001; i++) if (codes[i] === 46) hs.push(asNum(vals[i]));
      e.columns = {
        type,
        count: g.num(72) ?? 0,
        width: g.num(44) ?? 0,
        gutter: g.num(45) ?? 0,
        autoHeight: (g.num(73) ?? 0) !== 0,
        heights: hs,
      };
    }
    if (!e.width) e.width = g.num(40) ?? 0;
  } else if (colType) e.columns = { type: colType, count: colCount, width: colWidth, gutter, autoHeight, heights };
  return e;
}

/** SHAPE (AcDbShape): insertion (10), size (40), name (2), rotation (50), width factor (41), oblique (51). */
export function shape(r: DxfRecord): Entity {
  return mk(r, {
    type: 'SHAPE',
    insertion: r.pt(10),
    size: r.num(40, 1),
    name: r.str(2),
    rotation: r.num(50),
    widthFactor: r.num(41, 1) || 1,
    oblique: r.num(51),
  });
}
