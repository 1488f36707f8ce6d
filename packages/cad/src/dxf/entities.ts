/** DXF entity records → model entities. */
import type {
  MLineVertex,
  Color,
  Entity,
  EntityBase,
  HatchEdge,
  HatchEntity,
  HatchPath,
  LwVertex,
  MLeaderEntity,
  MTextEntity,
  PolylineEntity,
  PolylineVertex,
  SplineEntity,
  TextEntity,
} from '../model';
import { asNum, asStr, type DxfRecord } from './record';
import type { Vec3 } from '../geom/vector';

const RAD2DEG = 180 / Math.PI;

type Own<E> = E extends Entity ? Omit<E, keyof EntityBase> : never;

/** Entity = common fields + own fields (Object.assign: much faster than a spread in V8). */
function mk<F extends Own<Entity>>(r: DxfRecord, fields: F): EntityBase & F {
  return Object.assign(baseOf(r), fields);
}

function baseOf(r: DxfRecord): EntityBase {
  // Every key is present (optional ones as undefined) so that all bases share one hidden class:
  // spreading them into the entity literals stays on V8's fast path.
  const base: EntityBase = {
    handle: undefined,
    layer: '0',
    color: { aci: undefined, rgb: undefined },
    linetype: 'BYLAYER',
    ltscale: 1,
    lineweight: -1,
    visible: true,
    extrusion: [0, 0, 1],
    thickness: undefined,
    owner: undefined,
    paperSpace: false,
    transparency: undefined,
  };
  const { codes, vals } = r;
  const end = r.length;
  let inEntity = true;
  let seen210 = false;
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    const v = vals[i];
    if (c === 100) {
      inEntity = asStr(v) === 'AcDbEntity';
      continue;
    }
    if (c === 210 && !seen210) {
      seen210 = true;
      const p = r.ptAt(i, 1);
      if (p[0] !== 0 || p[1] !== 0 || p[2] !== 0) base.extrusion = p;
      continue;
    }
    if (c === 39 && base.thickness === undefined) {
      base.thickness = asNum(v);
      continue;
    }
    if (!inEntity) continue;
    switch (c) {
      case 5:
        if (base.handle === undefined) base.handle = asStr(v);
        break;
      case 8:
        base.layer = asStr(v);
        break;
      case 62:
        if (base.color.aci === undefined) base.color.aci = asNum(v);
        break;
      case 420:
        if (base.color.rgb === undefined) base.color.rgb = asNum(v) & 0xffffff;
        break;
      case 6:
        base.linetype = asStr(v);
        break;
      case 48:
        base.ltscale = asNum(v, 1);
        break;
      case 370:
        base.lineweight = asNum(v, -1);
        break;
      case 60:
        base.visible = asNum(v) === 0;
        break;
      case 67:
        base.paperSpace = asNum(v) === 1;
        break;
      case 330:
        if (base.owner === undefined) base.owner = asStr(v);
        break;
      case 440:
        base.transparency = asNum(v);
        break;
    }
  }
  if (base.color.aci === undefined && base.color.rgb === undefined) base.color.aci = 256;
  return base;
}

function text(r: DxfRecord, type: 'TEXT' | 'ATTRIB' | 'ATTDEF'): TextEntity {
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
      for (const k of ['tag', 'prompt', 'attributeFlags', 'halign', 'valign', 'generation', 'widthFactor', 'oblique', 'alignPoint'] as const) delete (m as unknown as Record<string, unknown>)[k];
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

function mtext(r: DxfRecord): MTextEntity {
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
      e.columns = { type, count: g.num(72) ?? 0, width: g.num(44) ?? 0, gutter: g.num(45) ?? 0, autoHeight: (g.num(73) ?? 0) !== 0, heights: hs };
    }
    if (!e.width) e.width = g.num(40) ?? 0;
  } else if (colType) e.columns = { type: colType, count: colCount, width: colWidth, gutter, autoHeight, heights };
  return e;
}

function lwpolyline(r: DxfRecord): Entity {
  const vertices: LwVertex[] = [];
  const { codes, vals } = r;
  const end = r.length;
  let cur: LwVertex | undefined;
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    const v = vals[i];
    if (c === 10) {
      cur = { x: asNum(v), y: 0, bulge: 0, startWidth: 0, endWidth: 0 };
      vertices.push(cur);
    } else if (!cur) continue;
    else if (c === 20) cur.y = asNum(v);
    else if (c === 42) cur.bulge = asNum(v);
    else if (c === 40) cur.startWidth = asNum(v);
    else if (c === 41) cur.endWidth = asNum(v);
  }
  const flags = r.num(70);
  return mk(r, {
    type: 'LWPOLYLINE',
    vertices,
    closed: (flags & 1) !== 0,
    plinegen: (flags & 128) !== 0,
    constantWidth: r.num(43),
    elevation: r.num(38),
  });
}

export function polyline(r: DxfRecord): PolylineEntity {
  const flags = r.num(70);
  const kind = flags & 64 ? 'polyface' : flags & 16 ? 'mesh' : flags & 8 ? '3d' : '2d';
  return mk(r, {
    type: 'POLYLINE',
    kind,
    flags,
    closed: (flags & 1) !== 0,
    elevation: r.pt(10)[2],
    defaultStartWidth: r.num(40),
    defaultEndWidth: r.num(41),
    m: r.num(71),
    n: r.num(72),
    meshClosedN: (flags & 32) !== 0,
    vertices: [],
    faces: [],
  });
}

/** Adds a VERTEX record to its POLYLINE. */
export function addVertex(pl: PolylineEntity, r: DxfRecord): void {
  const flags = r.num(70);
  if (pl.kind === 'polyface' && flags & 128 && !(flags & 64)) {
    const face: number[] = [];
    for (const c of [71, 72, 73, 74]) {
      const idx = r.num(c);
      if (idx !== 0) face.push(idx);
    }
    pl.faces.push(face);
    return;
  }
  const v: PolylineVertex = {
    position: r.pt(10),
    bulge: r.num(42),
    startWidth: r.num(40, pl.defaultStartWidth),
    endWidth: r.num(41, pl.defaultEndWidth),
    flags,
  };
  pl.vertices.push(v);
}

function spline(r: DxfRecord): SplineEntity {
  const knots: number[] = [];
  const weights: number[] = [];
  const controlPoints: Vec3[] = [];
  const fitPoints: Vec3[] = [];
  const { codes, vals } = r;
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (c === 40) knots.push(asNum(vals[i]));
    else if (c === 41) weights.push(asNum(vals[i]));
    else if (c === 10) controlPoints.push(r.ptAt(i));
    else if (c === 11) fitPoints.push(r.ptAt(i));
  }
  const flags = r.num(70);
  const e: SplineEntity = mk(r, {
    type: 'SPLINE',
    degree: r.num(71, 3),
    flags,
    closed: (flags & 1) !== 0,
    periodic: (flags & 2) !== 0,
    rational: (flags & 4) !== 0,
    knots,
    weights: weights.every((w) => w === 1) ? [] : weights,
    controlPoints,
    fitPoints,
  });
  const st = r.optPt(12);
  const et = r.optPt(13);
  if (st) e.startTangent = st;
  if (et) e.endTangent = et;
  return e;
}

function hatch(r: DxfRecord): HatchEntity {
  const { codes, vals } = r;
  const end = r.length;
  let i = 0;
  const n = (k: number): number => asNum(vals[k]);
  const xy = (k: number): [number, number] => [asNum(vals[k]), codes[k + 1] === (codes[k] as number) + 10 ? asNum(vals[k + 1]) : 0];
  // Skip to the path count.
  const paths: HatchPath[] = [];
  const pc = r.indexOf(91);
  const e: HatchEntity = mk(r, {
    type: 'HATCH',
    pattern: r.str(2),
    solid: r.num(70) === 1,
    associative: r.num(71) === 1,
    elevation: r.pt(10)[2],
    paths,
    style: 0,
    patternType: 1,
    patternAngle: 0,
    patternScale: 1,
    patternDouble: false,
    patternLines: [],
  });
  if (pc < 0) return e;
  const pathCount = n(pc);
  i = pc + 1;
  const at = (code: number): boolean => i < end && codes[i] === code;
  for (let p = 0; p < pathCount && i < end; p++) {
    while (i < end && codes[i] !== 92) i++;
    if (i >= end) break;
    const flags = n(i++);
    const path: HatchPath = { flags, edges: [] };
    paths.push(path);
    if (flags & 2) {
      let hasBulge = false;
      let closed = false;
      if (at(72)) hasBulge = n(i++) !== 0;
      if (at(73)) closed = n(i++) !== 0;
      const count = at(93) ? n(i++) : 0;
      const vertices: { x: number; y: number; bulge: number }[] = [];
      for (let k = 0; k < count && i < end; k++) {
        if (!at(10)) break;
        const [x, y] = xy(i);
        i += codes[i + 1] === 20 ? 2 : 1;
        let bulge = 0;
        if (at(42)) bulge = n(i++);
        vertices.push({ x, y, bulge });
      }
      void hasBulge;
      path.polyline = { vertices, closed };
    } else {
      const count = at(93) ? n(i++) : 0;
      for (let k = 0; k < count && i < end; k++) {
        if (!at(72)) break;
        const et = n(i++);
        const start = i;
        // The edge's groups run until the next 72 (next edge), 97 (source objects) or 92.
        let stop = i;
        if (et === 4) {
          // Spline edges contain 73/74 etc.; find the end by the counts.
          const deg = at(94) ? n(i++) : 3;
          const rational = at(73) ? n(i++) !== 0 : false;
          const periodic = at(74) ? n(i++) !== 0 : false;
          const nk = at(95) ? n(i++) : 0;
          const nc = at(96) ? n(i++) : 0;
          const knots: number[] = [];
          const controlPoints: [number, number][] = [];
          const weights: number[] = [];
          const fitPoints: [number, number][] = [];
          for (let q = 0; q < nk && at(40); q++) knots.push(n(i++));
          for (let q = 0; q < nc && at(10); q++) {
            controlPoints.push(xy(i));
            i += codes[i + 1] === 20 ? 2 : 1;
            if (at(42)) weights.push(n(i++));
          }
          if (at(97)) {
            const nf = n(i++);
            for (let q = 0; q < nf && at(11); q++) {
              fitPoints.push(xy(i));
              i += codes[i + 1] === 21 ? 2 : 1;
            }
          }
          while (at(12) || at(22) || at(13) || at(23)) i++;
          path.edges.push({ kind: 'spline', degree: deg, rational, periodic, knots, controlPoints, weights, fitPoints });
          continue;
        }
        while (stop < end && codes[stop] !== 72 && codes[stop] !== 97 && codes[stop] !== 92 && codes[stop] !== 75) stop++;
        const find = (code: number): number => {
          for (let q = start; q < stop; q++) if (codes[q] === code) return q;
          return -1;
        };
        const p2 = (code: number): [number, number] => {
          const q = find(code);
          return q < 0 ? [0, 0] : xy(q);
        };
        const v1 = (code: number, def = 0): number => {
          const q = find(code);
          return q < 0 ? def : n(q);
        };
        let edge: HatchEdge | undefined;
        if (et === 1) edge = { kind: 'line', start: p2(10), end: p2(11) };
        else if (et === 2)
          edge = { kind: 'arc', center: p2(10), radius: v1(40), startAngle: v1(50), endAngle: v1(51), ccw: v1(73, 1) !== 0 };
        else if (et === 3)
          edge = {
            kind: 'ellipse',
            center: p2(10),
            majorAxis: p2(11),
            ratio: v1(40, 1),
            startAngle: v1(50),
            endAngle: v1(51, 360),
            ccw: v1(73, 1) !== 0,
          };
        if (edge) path.edges.push(edge);
        i = stop;
      }
    }
    // Source boundary objects.
    if (at(97)) {
      const ns = n(i++);
      for (let q = 0; q < ns && at(330); q++) i++;
    }
  }
  // Pattern data after the paths.
  let lines = 0;
  for (; i < end; i++) {
    const c = codes[i] as number;
    if (c === 75) e.style = n(i);
    else if (c === 76) e.patternType = n(i);
    else if (c === 52) e.patternAngle = n(i);
    else if (c === 41) e.patternScale = n(i);
    else if (c === 77) e.patternDouble = n(i) !== 0;
    else if (c === 78) {
      lines = n(i);
      i++;
      for (let l = 0; l < lines && at(53); l++) {
        const angle = n(i++);
        const base: [number, number] = [at(43) ? n(i++) : 0, at(44) ? n(i++) : 0];
        const offset: [number, number] = [at(45) ? n(i++) : 0, at(46) ? n(i++) : 0];
        const nd = at(79) ? n(i++) : 0;
        const dashes: number[] = [];
        for (let d = 0; d < nd && at(49); d++) dashes.push(n(i++));
        e.patternLines.push({ angle, base, offset, dashes });
      }
      i--;
    } else if (c === 450 && n(i) !== 0) {
      const colors: Color[] = [];
      let name = '';
      let angle = 0;
      let shift = 0;
      let single = false;
      let tint = 0;
      for (let q = i + 1; q < end; q++) {
        const cq = codes[q] as number;
        if (cq === 452) single = n(q) !== 0;
        else if (cq === 460) angle = n(q);
        else if (cq === 461) shift = n(q);
        else if (cq === 462) tint = n(q);
        else if (cq === 470) name = asStr(vals[q]);
        else if (cq === 421) colors.push({ rgb: n(q) & 0xffffff });
        else if (cq === 63) colors.push({ aci: n(q) });
      }
      // 63 and 421 describe the same colour: keep one entry per 421 when both are written.
      const rgbOnly = colors.filter((c2) => c2.rgb !== undefined);
      e.gradient = { name, colors: rgbOnly.length ? rgbOnly : colors, angle, shift, singleColor: single, tint };
      break;
    }
  }
  return e;
}

/** Dimension-style overrides an entity carries in its ACAD extended data (DSTYLE { code, value, ... }). */
function dimStyleOverrides(r: DxfRecord): Record<number, number | string> | undefined {
  const x = r.xdata('ACAD');
  let out: Record<number, number | string> | undefined;
  for (let i = 0; i + 1 < x.length; i++) {
    if (x[i]!.code !== 1000 || asStr(x[i]!.value).toUpperCase() !== 'DSTYLE') continue;
    for (let j = i + 1; j + 1 < x.length; j++) {
      const g = x[j]!;
      if (g.code === 1002) {
        if (asStr(g.value) === '}') break;
        continue;
      }
      if (g.code !== 1070) continue;
      const v = x[j + 1]!;
      (out ??= {})[asNum(g.value)] = v.code === 1000 || v.code === 1005 ? asStr(v.value) : asNum(v.value);
      j++;
    }
    break;
  }
  return out;
}

/** An MLEADER raw colour (0xC0 ByLayer, 0xC1 ByBlock, 0xC2 RGB, 0xC3 ACI) → a model colour; undefined for others (window background). */
function mleaderColor(raw: number): Color | undefined {
  const kind = (raw >>> 24) & 0xff;
  if (kind === 0xc0) return { aci: 256 };
  if (kind === 0xc1) return { aci: 0 };
  if (kind === 0xc2) return { rgb: raw & 0xffffff };
  if (kind === 0xc3) return { aci: raw & 0xff };
  return undefined;
}

/**
 * MULTILEADER: the context data (CONTEXT_DATA{ ... LEADER{ ... LEADER_LINE{ ... } } }) holds the
 * geometry as laid out (text location, scaled heights, leader vertices); the entity-level groups
 * after it the leader line properties, arrowheads, text frame and block attribute values.
 */
function mleader(r: DxfRecord): MLeaderEntity {
  const { codes, vals } = r;
  const e: MLeaderEntity = mk(r, { type: 'MULTILEADER', leaders: [] });
  let depth: 'none' | 'context' | 'leader' | 'line' = 'none';
  let afterContext = false;
  let leader: MLeaderEntity['leaders'][number] | undefined;
  let line: MLeaderEntity['leaders'][number]['lines'][number] | undefined;
  let hasBlock = false;
  let bgFill = false;
  let bgColor: Color | undefined;
  let bgScale = 1.5;
  let bgWindow = false;
  let ctxBlockColor: Color | undefined;
  let ctxBlockScale: Vec3 | undefined;
  let ctxBlockRotation: number | undefined;
  let ctxTextColor: Color | undefined;
  let ctxTextStyle: string | undefined;
  let ctxLeft: number | undefined;
  let ctxRight: number | undefined;
  let ctxBlock: string | undefined;
  let arrowIndex = 0;
  const n = (i: number): number => asNum(vals[i]);
  const s = (i: number): string => asStr(vals[i]);
  const lastAttr = (): { index: number; width: number; text: string } | undefined => e.blockAttributes?.[e.blockAttributes.length - 1];
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (depth === 'none') {
      if (c === 300 && s(i) === 'CONTEXT_DATA{') {
        depth = 'context';
        continue;
      }
      if (!afterContext) continue;
      switch (c) {
        case 340: if (e.styleHandle === undefined) e.styleHandle = s(i); break;
        case 170: e.leaderType = n(i); break;
        case 91: e.leaderColor = mleaderColor(n(i)); break;
        case 341: e.leaderLinetypeHandle = s(i); break;
        case 171: e.leaderLineweight = n(i); break;
        case 290: e.hasLanding = n(i) !== 0; break;
        case 291: e.hasDogleg = n(i) !== 0; break;
        case 342: e.arrowHandle = s(i); break;
        case 42: if (e.arrowSize === undefined) e.arrowSize = n(i); break;
        case 172: e.contentType = n(i); break;
        case 343: ctxTextStyle ??= s(i); break;
        case 173: e.textLeftAttachment = n(i); break;
        case 95: e.textRightAttachment = n(i); break;
        case 92: ctxTextColor ??= mleaderColor(n(i)); break;
        case 292: e.textFrame = n(i) !== 0; break;
        case 344: if (e.blockHandle === undefined) e.blockHandle = s(i); break;
        case 93: ctxBlockColor ??= mleaderColor(n(i)); break;
        case 10: ctxBlockScale ??= r.ptAt(i, 1); break;
        case 43: ctxBlockRotation ??= n(i) * RAD2DEG; break;
        case 94: arrowIndex = n(i); break;
        case 345: (e.arrowHeads ??= []).push({ index: arrowIndex, handle: s(i) }); break;
        case 330: (e.blockAttributes ??= []).push({ handle: s(i), index: 0, width: 0, text: '' }); break;
        case 177: { const a = lastAttr(); if (a) a.index = n(i); break; }
        case 44: { const a = lastAttr(); if (a) a.width = n(i); break; }
        case 302: { const a = lastAttr(); if (a) a.text = s(i); break; }
        case 179: e.textAttachmentPoint = n(i); break;
        case 271: e.textAttachmentDirection = n(i); break;
        case 272: e.textBottomAttachment ??= n(i); break;
        case 273: e.textTopAttachment ??= n(i); break;
      }
      continue;
    }
    if (depth === 'line') {
      if (c === 305) depth = 'leader';
      else if (!line) continue;
      else if (c === 10) line.vertices.push(r.ptAt(i));
      else if (c === 91) line.index = n(i);
      else if (c === 92) {
        // ByBlock (the default) = the leader's colour.
        const col = mleaderColor(n(i));
        if (col && col.aci !== 0) line.color = col;
      }
      continue;
    }
    if (depth === 'leader') {
      if (c === 303) depth = 'context';
      else if (c === 304) {
        depth = 'line';
        line = { vertices: [] };
        leader?.lines.push(line);
      } else if (!leader) continue;
      else if (c === 10) leader.lastPoint = r.ptAt(i);
      else if (c === 11) leader.doglegVector = r.ptAt(i);
      else if (c === 40) leader.doglegLength = n(i);
      else if (c === 271) leader.attachmentDirection = n(i);
      continue;
    }
    // Context data.
    switch (c) {
      case 301: depth = 'none'; afterContext = true; break;
      case 302:
        depth = 'leader';
        leader = { doglegLength: 0, lines: [] };
        e.leaders.push(leader);
        break;
      case 40: e.contentScale = n(i); break;
      case 10: e.contentBase = r.ptAt(i); break;
      case 41: e.textHeight = n(i); break;
      case 140: e.arrowSize = n(i); break;
      case 145: e.landingGap = n(i); break;
      case 174: ctxLeft = n(i); break;
      case 175: ctxRight = n(i); break;
      case 304: e.text = s(i); break;
      case 11: e.textNormal = r.ptAt(i, 1); break;
      case 340: ctxTextStyle = s(i); break;
      case 12: e.textPosition = r.ptAt(i); break;
      case 13: e.textDirection = r.ptAt(i); break;
      case 43: e.textWidth = n(i); break;
      case 44: e.textDefinedHeight = n(i); break;
      case 45: e.textLineSpacingFactor = n(i); break;
      case 170: e.textLineSpacingStyle = n(i); break;
      case 90: ctxTextColor = mleaderColor(n(i)); break;
      case 171: e.textAlignment = n(i); break;
      case 172: e.textFlow = n(i); break;
      case 91: bgColor = mleaderColor(n(i)); break;
      case 141: bgScale = n(i); break;
      case 291: bgWindow = n(i) !== 0; break;
      case 292: bgFill = n(i) !== 0; break;
      case 296: hasBlock = n(i) !== 0; break;
      case 341: ctxBlock = s(i); break;
      case 14: e.blockNormal = r.ptAt(i, 1); break;
      case 15: e.blockPosition = r.ptAt(i); break;
      case 16: ctxBlockScale = r.ptAt(i, 1); break;
      case 46: ctxBlockRotation = n(i) * RAD2DEG; break;
      case 93: ctxBlockColor = mleaderColor(n(i)); break;
      case 272: e.textBottomAttachment = n(i); break;
      case 273: e.textTopAttachment = n(i); break;
    }
  }
  if (ctxBlock !== undefined) e.blockHandle = ctxBlock;
  else if (!hasBlock && e.contentType !== 1 && e.blockHandle !== undefined && e.text) delete e.blockHandle;
  if (ctxTextStyle !== undefined) e.textStyleHandle = ctxTextStyle;
  if (ctxTextColor !== undefined) e.textColor = ctxTextColor;
  if (ctxBlockColor !== undefined) e.blockColor = ctxBlockColor;
  if (ctxBlockScale !== undefined) e.blockScale = ctxBlockScale;
  if (ctxBlockRotation !== undefined) e.blockRotation = ctxBlockRotation;
  if (ctxLeft !== undefined) e.textLeftAttachment = ctxLeft;
  if (ctxRight !== undefined) e.textRightAttachment = ctxRight;
  if (bgFill) e.textBackground = { ...(bgColor ? { color: bgColor } : {}), scale: bgScale > 0 ? bgScale : 1.5, useWindowColor: bgWindow || !bgColor };
  return e;
}

/** Builds a model entity from a record; UNKNOWN for types this reader does not model. */
export function buildEntity(r: DxfRecord): Entity {
  switch (r.type) {
    case 'LINE':
      return mk(r, { type: 'LINE', start: r.pt(10), end: r.pt(11) });
    case 'POINT':
      return mk(r, { type: 'POINT', position: r.pt(10), angle: r.num(50) });
    case 'CIRCLE':
      return mk(r, { type: 'CIRCLE', center: r.pt(10), radius: r.num(40) });
    case 'ARC':
      return mk(r, { type: 'ARC', center: r.pt(10), radius: r.num(40), startAngle: r.num(50), endAngle: r.num(51, 360) });
    case 'ELLIPSE':
      return mk(r, {
        type: 'ELLIPSE',
        center: r.pt(10),
        majorAxis: r.pt(11, [1, 0, 0]),
        ratio: r.num(40, 1),
        startParam: r.num(41),
        endParam: r.num(42, Math.PI * 2),
      });
    case 'LWPOLYLINE':
      return lwpolyline(r);
    case 'POLYLINE':
      return polyline(r);
    case 'SPLINE':
      return spline(r);
    case 'SOLID':
    case 'TRACE':
    case '3DFACE': {
      const p1 = r.pt(10);
      const p2 = r.pt(11);
      const p3 = r.pt(12);
      const p4 = r.has(13) ? r.pt(13) : p3;
      const e: Entity = mk(r, { type: r.type, points: [p1, p2, p3, p4] });
      if (r.type === '3DFACE') e.invisibleEdges = r.num(70);
      return e;
    }
    case 'TEXT':
    case 'ATTRIB':
    case 'ATTDEF':
      return text(r, r.type);
    case 'MTEXT':
      return mtext(r);
    case 'INSERT':
      return mk(r, {
        type: 'INSERT',
        name: r.str(2),
        insertion: r.pt(10),
        scale: [r.num(41, 1), r.num(42, 1), r.num(43, 1)],
        rotation: r.num(50),
        columnCount: Math.max(1, r.num(70, 1)),
        rowCount: Math.max(1, r.num(71, 1)),
        columnSpacing: r.num(44),
        rowSpacing: r.num(45),
        attributes: [],
      });
    case 'ARC_DIMENSION':
    case 'LARGE_RADIAL_DIMENSION':
    case 'DIMENSION': {
      const defPoints: Partial<Record<'p12' | 'p13' | 'p14' | 'p15' | 'p16', Vec3>> = {};
      for (const c of [12, 13, 14, 15, 16] as const) {
        const p = r.optPt(c);
        if (p) defPoints[`p${c}`] = p;
      }
      const flags = r.num(70);
      const e: Entity = mk(r, {
        type: 'DIMENSION',
        block: r.str(2),
        dimType: flags & 7,
        flags,
        style: r.str(3, 'STANDARD'),
        text: r.str(1),
        defPoint: r.pt(10),
        textMidpoint: r.pt(11),
        defPoints,
        textRotation: r.num(53),
        angle: r.num(50),
        attachment: r.num(71, 5),
      });
      const m = r.optNum(42);
      if (m !== undefined) e.measurement = m;
      return e;
    }
    case 'LEADER': {
      const vertices: Vec3[] = [];
      for (let i = r.indexOf(10); i >= 0; i = r.indexOf(10, i + 1)) vertices.push(r.ptAt(i));
      const e: Entity = mk(r, {
        type: 'LEADER',
        vertices,
        arrowhead: r.num(71, 1) !== 0,
        pathType: r.num(72),
        style: r.str(3, 'STANDARD'),
      });
      const a = r.optStr(340);
      if (a) e.annotation = a;
      const at = r.optNum(73);
      if (at !== undefined) e.annotationType = at;
      const hk = r.optNum(75);
      if (hk !== undefined) e.hookline = hk !== 0;
      const hd = r.optNum(74);
      if (hd !== undefined) e.hooklineDirection = hd;
      const th = r.optNum(40);
      if (th !== undefined) e.textHeight = th;
      const tw = r.optNum(41);
      if (tw !== undefined) e.textWidth = tw;
      const hv = r.optPt(211);
      if (hv) e.horizontalDirection = hv;
      const bc = r.optNum(77);
      if (bc !== undefined) e.blockColor = bc;
      const ov = dimStyleOverrides(r);
      if (ov) e.dimOverrides = ov;
      return e;
    }
    case 'MULTILEADER':
    case 'MLEADER':
      return mleader(r);
    case 'HATCH':
      return hatch(r);
    case 'IMAGE':
    case 'WIPEOUT': {
      const clipBoundary: [number, number][] = [];
      for (let i = r.indexOf(14); i >= 0; i = r.indexOf(14, i + 1)) {
        const p = r.ptAt(i);
        clipBoundary.push([p[0], p[1]]);
      }
      const size = r.pt(13);
      const e: Entity = mk(r, {
        type: r.type,
        insertion: r.pt(10),
        u: r.pt(11, [1, 0, 0]),
        v: r.pt(12, [0, 1, 0]),
        imageSize: [size[0], size[1]],
        displayFlags: r.num(70),
        clipping: r.num(280) !== 0,
        clipType: r.num(71, 1),
        clipBoundary,
      });
      const def = r.optStr(340);
      if (def) e.imageDefHandle = def;
      return e;
    }
    case 'ACAD_TABLE': {
      const rowHeights: number[] = [];
      const columnWidths: number[] = [];
      const cells: string[] = [];
      // The table part starts at "100 AcDbTable"; codes 90-92 also occur earlier (block reference) and per cell.
      let start = 0;
      for (let i = 0; i < r.length; i++) if (r.codes[i] === 100 && asStr(r.vals[i]) === 'AcDbTable') start = i;
      const at = (code: number): number => {
        for (let i = start; i < r.length; i++) if (r.codes[i] === code) return asNum(r.vals[i]);
        return 0;
      };
      let cell = -1;
      let hasText = false;
      for (let i = start; i < r.length; i++) {
        const c = r.codes[i];
        if (c === 141) rowHeights.push(asNum(r.vals[i]));
        else if (c === 142) columnWidths.push(asNum(r.vals[i]));
        else if (c === 171) {
          // A new cell: its text is the first 1 (or 302 in newer files), once.
          cell++;
          cells[cell] = '';
          hasText = false;
        } else if ((c === 1 || c === 302) && cell >= 0 && !hasText) {
          cells[cell] = asStr(r.vals[i]);
          hasText = true;
        }
      }
      return mk(r, {
        type: 'ACAD_TABLE',
        block: r.str(2),
        insertion: r.pt(10),
        rows: at(91),
        columns: at(92),
        rowHeights,
        columnWidths,
        cells,
      });
    }
    case 'XLINE':
    case 'RAY':
      return mk(r, { type: r.type, base: r.pt(10), direction: r.pt(11, [1, 0, 0]) });
    case 'VIEWPORT': {
      const frozenLayers: string[] = [];
      for (let i = r.indexOf(331); i >= 0; i = r.indexOf(331, i + 1)) frozenLayers.push(asStr(r.vals[i]));
      const height = r.num(41);
      const viewHeight = r.num(45, height);
      const status = r.num(68);
      const vc = r.pt(12);
      const flags = r.num(90);
      const e: Entity = mk(r, {
        type: 'VIEWPORT',
        center: r.pt(10),
        width: r.num(40),
        height,
        id: r.num(69),
        status,
        on: status !== 0 && !(flags & 0x20000),
        viewCenter: [vc[0], vc[1]],
        viewTarget: r.pt(17),
        viewDirection: r.pt(16, [0, 0, 1]),
        viewHeight,
        scale: viewHeight ? height / viewHeight : 1,
        twist: r.num(51),
        flags,
        frozenLayers,
      });
      const clip = r.optStr(340);
      if (clip) e.clipBoundaryHandle = clip;
      return e;
    }
    case 'MLINE':
      return mline(r);
    case 'MESH':
      return mesh(r);
    default: {
      const e: Entity = mk(r, { type: 'UNKNOWN', dxfType: r.type });
      const graphics = proxyGraphics(r);
      if (graphics) e.graphics = graphics;
      return e;
    }
  }
}

/**
 * The proxy entity graphics of an entity this reader does not model (ACAD_PROXY_ENTITY, R13's
 * AcDbZombieEntity, custom types such as TCH_WALL): the 310 groups right after the byte count (92,
 * or 160 in some writers), joined. Later 310 runs (the object data after 93 / 161 / 162) are not
 * graphics. Undefined when there is none or it is shorter than the metafile header.
 */
function proxyGraphics(r: DxfRecord): string | undefined {
  const { codes, vals } = r;
  const end = r.length;
  for (let i = 0; i + 1 < end; i++) {
    const c = codes[i];
    if ((c !== 92 && c !== 160) || codes[i + 1] !== 310) continue;
    const size = asNum(vals[i]);
    const parts: string[] = [];
    let j = i + 1;
    for (; j < end && codes[j] === 310; j++) parts.push(asStr(vals[j]).trim());
    let hex = parts.join('');
    if (size > 0 && hex.length > size * 2) hex = hex.slice(0, size * 2);
    return hex.length >= 16 ? hex : undefined;
  }
  return undefined;
}

function mline(r: DxfRecord): Entity {
  const { codes, vals } = r;
  const vertices: MLineVertex[] = [];
  let cur: MLineVertex | undefined;
  let el: number[] | undefined;
  let want = 0;
  for (let i = 0; i < r.length; i++) {
    const c = codes[i] as number;
    if (c === 11) {
      cur = { position: r.ptAt(i), direction: [1, 0, 0], miter: [0, 1, 0], params: [] };
      vertices.push(cur);
      el = undefined;
    } else if (!cur) continue;
    else if (c === 12) cur.direction = r.ptAt(i);
    else if (c === 13) cur.miter = r.ptAt(i);
    else if (c === 74) {
      el = [];
      want = asNum(vals[i]);
      cur.params.push(el);
    } else if (c === 41 && el && el.length < want) el.push(asNum(vals[i]));
  }
  const e: Entity = mk(r, {
    type: 'MLINE',
    style: r.str(2, 'STANDARD'),
    scale: r.num(40, 1),
    justification: r.num(70),
    closed: (r.num(71) & 2) !== 0,
    vertices,
  });
  const sh = r.optStr(340);
  if (sh) e.styleHandle = sh;
  return e;
}

function mesh(r: DxfRecord): Entity {
  const { codes, vals } = r;
  const vertices: Vec3[] = [];
  const faces: number[][] = [];
  const edges: [number, number][] = [];
  let i = r.indexOf(92);
  const nv = i >= 0 ? asNum(vals[i]) : 0;
  for (let k = i + 1; k < r.length && vertices.length < nv; k++) if (codes[k] === 10) vertices.push(r.ptAt(k));
  i = r.indexOf(93);
  if (i >= 0) {
    const size = asNum(vals[i]);
    const list: number[] = [];
    for (let k = i + 1; k < r.length && list.length < size && codes[k] === 90; k++) list.push(asNum(vals[k]));
    for (let k = 0; k < list.length; ) {
      const n = list[k] as number;
      if (!(n > 0)) break;
      faces.push(list.slice(k + 1, k + 1 + n));
      k += n + 1;
    }
  }
  i = r.indexOf(94);
  if (i >= 0) {
    const count = asNum(vals[i]);
    const list: number[] = [];
    for (let k = i + 1; k < r.length && list.length < count * 2 && codes[k] === 90; k++) list.push(asNum(vals[k]));
    for (let k = 0; k + 1 < list.length; k += 2) edges.push([list[k] as number, list[k + 1] as number]);
  }
  return mk(r, { type: 'MESH', vertices, faces, edges });
}
