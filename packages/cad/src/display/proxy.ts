/**
 * Proxy entity graphics, painting: the commands proxy-decode.ts reads, drawn through the
 * DrawContext. The DXF reader and the DWG adapter keep the graphics as hex in
 * `UnknownEntity.graphics`; attribute commands change the layer, colour, linetype, lineweight and
 * fill of what follows; matrices pushed apply to what follows until popped.
 *
 * Unknown commands are skipped by their size; a command running past the end stops the drawing
 * there (what came before is kept); every count is bounded by the bytes left, so damaged data can
 * neither throw out of `drawProxyGraphics` nor loop.
 */
import { CadLimitError } from '../errors';
import type { Color, EntityBase, LwPolylineEntity, TextEntity, UnknownEntity } from '../model';
import type { Vec3 } from '../geom/vector';
import type { DashPattern, DrawContext } from './context';
import { IDENTITY, apply3, multiply, ocsToWcs, type Mat } from '../geom/matrix';
import { SubContext } from './proxy-context';
import { circleThrough, degenerate, planeAxes } from './proxy-geometry';
import { bytesOf, Cursor, PROXY, readLwPolyline, styleForFont, tablesOf, type Tables } from './proxy-decode';

const TAU = Math.PI * 2;
/** Linetype indices meaning ByLayer / ByBlock instead of a table entry. */
const LT_BYLAYER = 0x7fff;
const LT_BYBLOCK = 0x7ffe;
/** Matrices nested deeper than this are ignored (a damaged file pushing without popping). */
const MAX_MATRIX_DEPTH = 64;

// ---- the interpreter ------------------------------------------------------------------------------

class ProxyPainter {
  private readonly tables: Tables;
  private readonly virt: EntityBase;
  private fillOn = false;
  private stack: Mat[] = [];
  /** Proxy coordinates → the current block space, and → world (the builder's matrix composed). */
  private local: Mat = IDENTITY;
  private world: Mat;
  private sub: SubContext;
  private styleIndex = -1;
  private dash: DashPattern | null | undefined;
  drawn = 0;

  constructor(
    private readonly e: UnknownEntity,
    private readonly ctx: DrawContext,
  ) {
    this.tables = tablesOf(ctx.drawing);
    this.world = ctx.matrix;
    this.sub = new SubContext(ctx, ctx.matrix);
    this.virt = {
      handle: e.handle,
      layer: e.layer,
      color: { ...e.color },
      linetype: e.linetype,
      ltscale: e.ltscale,
      lineweight: e.lineweight,
      visible: true,
      extrusion: [0, 0, 1],
      paperSpace: e.paperSpace,
    };
    if (e.owner !== undefined) this.virt.owner = e.owner;
  }

  // -- traits --

  private changed(): void {
    this.styleIndex = -1;
    this.dash = undefined;
  }
  private style(): number {
    if (this.styleIndex < 0) this.styleIndex = this.ctx.style(this.virt);
    return this.styleIndex;
  }
  private dashes(): DashPattern | null {
    if (this.dash === undefined) this.dash = this.ctx.dashes(this.virt);
    return this.dash;
  }
  private setColor(c: Color): void {
    this.virt.color = c;
    this.changed();
  }
  private trueColor(v: number): void {
    const method = v >>> 24;
    switch (method) {
      case 0xc0:
        return this.setColor({ aci: 256 });
      case 0xc1:
        return this.setColor({ aci: 0 });
      case 0xc2:
        return this.setColor({ rgb: v & 0xffffff });
      case 0xc3:
        return this.setColor({ aci: v & 0xff || 7 });
      case 0xc5:
        return this.setColor({ aci: 7 });
      case 0xc8:
        return;
      default:
        if (v >= 0 && v <= 256) this.setColor({ aci: v });
    }
  }
  private setMatrix(): void {
    this.local = this.stack.length ? (this.stack[this.stack.length - 1] as Mat) : IDENTITY;
    this.world = this.local === IDENTITY ? this.ctx.matrix : multiply(this.ctx.matrix, this.local);
    this.sub = new SubContext(this.ctx, this.world);
  }
  /** A 4×4 matrix as AcGeMatrix3d stores it (row-major, translation in the last column). */
  private pushMatrix(c: Cursor): void {
    const v: number[] = [];
    for (let i = 0; i < 16; i++) v.push(c.f64());
    if (!c.ok || this.stack.length >= MAX_MATRIX_DEPTH) return;
    // A writer using the transposed (row-vector) layout puts the translation in the last row.
    const lastRowMoves = v[12] !== 0 || v[13] !== 0 || v[14] !== 0;
    const lastColMoves = v[3] !== 0 || v[7] !== 0 || v[11] !== 0;
    const m: number[] =
      lastRowMoves && !lastColMoves
        ? [v[0], v[4], v[8], v[12], v[1], v[5], v[9], v[13], v[2], v[6], v[10], v[14]].map((x) => x as number)
        : v.slice(0, 12);
    if (!m.every(Number.isFinite)) return;
    this.stack.push(multiply(this.local, m));
    this.setMatrix();
  }

  // -- primitives --

  private strokeXyz(xyz: number[], closed: boolean): void {
    if (xyz.length < 6 || degenerate(xyz)) return;
    this.ctx.stroke3(this.style(), this.world, xyz, closed, { dashes: this.dashes() });
    this.drawn++;
  }
  /** Fills rings of x, y, z points (transformed here, so planes other than z = 0 come out right). */
  private fillXyz(rings: number[][]): void {
    const flat: number[][] = [];
    for (const r of rings) {
      if (r.length < 9) continue;
      const out = new Array<number>((r.length / 3) * 2);
      for (let i = 0, k = 0; i + 2 < r.length; i += 3) {
        const [x, y] = apply3(this.world, r[i] as number, r[i + 1] as number, r[i + 2] as number);
        out[k++] = x;
        out[k++] = y;
      }
      flat.push(out);
    }
    if (!flat.length) return;
    this.ctx.fill(this.style(), IDENTITY, flat);
    this.drawn++;
  }
  /** A ring or a closed outline, by the fill attribute. */
  private area(xyz: number[]): void {
    if (this.fillOn && xyz.length >= 9) this.fillXyz([xyz]);
    else this.strokeXyz(xyz, true);
  }
  private arcXyz(c: Vec3, r: number, axes: { x: Vec3; y: Vec3 }, a0: number, sweep: number): number[] {
    const segs = Math.min(4096, this.ctx.arcSegments(r, sweep, this.world));
    const out = new Array<number>((segs + 1) * 3);
    for (let i = 0; i <= segs; i++) {
      const a = a0 + (sweep * i) / segs;
      const cs = Math.cos(a) * r,
        sn = Math.sin(a) * r;
      out[3 * i] = c[0] + cs * axes.x[0] + sn * axes.y[0];
      out[3 * i + 1] = c[1] + cs * axes.x[1] + sn * axes.y[1];
      out[3 * i + 2] = c[2] + cs * axes.x[2] + sn * axes.y[2];
    }
    return out;
  }
  private circle(c: Vec3, r: number, normal: Vec3): void {
    if (!(r > 0)) return;
    const pts = this.arcXyz(c, r, planeAxes(normal), 0, TAU);
    pts.length -= 3;
    this.area(pts);
  }
  /** An arc; arcType 1 closes it through the centre (a sector), 2 by its chord. */
  private arc(c: Vec3, r: number, axes: { x: Vec3; y: Vec3 }, a0: number, sweep: number, arcType: number): void {
    if (!(r > 0) || !sweep || !Number.isFinite(sweep)) return;
    const s = Math.max(-TAU, Math.min(TAU, sweep));
    const pts = this.arcXyz(c, r, axes, a0, s);
    if (arcType === 1) {
      pts.push(c[0], c[1], c[2]);
      this.area(pts);
    } else if (arcType === 2) this.area(pts);
    else this.strokeXyz(pts, false);
  }

  private text(
    pos: Vec3,
    normal: Vec3,
    dir: Vec3,
    s: string,
    height: number,
    width: number,
    oblique: number,
    generation: number,
    style: string,
  ): void {
    if (!s || !(height > 0)) return;
    const { n } = planeAxes(normal);
    const m = ocsToWcs(n);
    // WCS → OCS is the transpose of the (orthonormal) OCS matrix.
    const toOcs = (p: Vec3): Vec3 => [
      (m[0] as number) * p[0] + (m[4] as number) * p[1] + (m[8] as number) * p[2],
      (m[1] as number) * p[0] + (m[5] as number) * p[1] + (m[9] as number) * p[2],
      (m[2] as number) * p[0] + (m[6] as number) * p[1] + (m[10] as number) * p[2],
    ];
    const d = toOcs(dir);
    const rotation = d[0] || d[1] ? (Math.atan2(d[1], d[0]) * 180) / Math.PI : 0;
    const t: TextEntity = {
      ...this.virt,
      color: { ...this.virt.color },
      extrusion: n,
      type: 'TEXT',
      text: s,
      insertion: toOcs(pos),
      height,
      rotation,
      widthFactor: width > 0 && Number.isFinite(width) ? width : 1,
      oblique: Number.isFinite(oblique) ? (oblique * 180) / Math.PI : 0,
      style,
      halign: 0,
      valign: 0,
      generation,
    };
    this.sub.drawEntity(t);
    this.drawn++;
  }

  /** TEXT (10) and UNICODE_TEXT (36): position, normal, direction, height, width factor, oblique, string. */
  private simpleText(c: Cursor, unicode: boolean): void {
    const pos = c.pt(),
      normal = c.pt(),
      dir = c.pt();
    const height = c.f64(),
      width = c.f64(),
      oblique = c.f64();
    const s = unicode ? c.str16() : c.str8(this.tables.decoder);
    this.text(pos, normal, dir, s, height, width, oblique, 0, '');
  }

  /** TEXT2 (11) and UNICODE_TEXT2 (38): the string first, then its length, raw flag, metrics, flags and the font. */
  private fullText(c: Cursor, unicode: boolean): void {
    const pos = c.pt(),
      normal = c.pt(),
      dir = c.pt();
    let s = unicode ? c.str16() : c.str8(this.tables.decoder);
    const length = c.i32();
    const raw = c.i32();
    const height = c.f64(),
      width = c.f64(),
      oblique = c.f64();
    c.f64(); // tracking percentage
    const backwards = c.i32(),
      upsideDown = c.i32();
    c.i32(); // vertical
    const underline = c.i32(),
      overline = c.i32();
    let font = '',
      bigFont = '',
      typeface = '';
    if (unicode) {
      c.i32(); // bold
      c.i32(); // italic
      c.i32(); // charset
      c.i32(); // pitch and family
      typeface = c.str16();
      font = c.str16();
      bigFont = c.str16();
    } else {
      font = c.str8(this.tables.decoder);
      bigFont = c.str8(this.tables.decoder);
    }
    if (length > 0 && length < s.length) s = s.slice(0, length);
    // Raw text: no %% codes; '%%%' is how TEXT writes a single '%'.
    if (raw && s.includes('%%')) s = s.replace(/%/g, '%%%');
    if (underline) s = `%%u${s}`;
    if (overline) s = `%%o${s}`;
    const style = font || typeface ? styleForFont(this.ctx.drawing, font, bigFont, typeface) : '';
    this.text(pos, normal, dir, s, height, width, oblique, (backwards ? 2 : 0) | (upsideDown ? 4 : 0), style);
  }

  private lwpolyline(u8: Uint8Array, start: number, end: number): void {
    const v = this.ctx.drawing.header.acadVersion;
    const data = readLwPolyline(u8, start, end, !!v && v <= 'AC1014');
    if (!data || !data.vertices.length) return;
    const lw: LwPolylineEntity = {
      ...this.virt,
      color: { ...this.virt.color },
      extrusion: planeAxes(data.extrusion).n,
      type: 'LWPOLYLINE',
      vertices: data.vertices,
      closed: (data.flags & 512) !== 0,
      plinegen: (data.flags & 256) !== 0,
      constantWidth: data.constantWidth,
      elevation: data.elevation,
    };
    if (data.thickness) lw.thickness = data.thickness;
    this.sub.drawEntity(lw);
    this.drawn++;
  }

  private shell(c: Cursor): void {
    const nv = c.i32();
    if (nv < 1 || nv > c.left() / 24) return;
    const v = c.points(nv);
    const entries = c.i32();
    const faces: { outer: number[]; holes: number[][] }[] = [];
    let read = 0;
    while (c.ok && read < entries && c.left() >= 4) {
      const count = c.i32();
      const k = Math.abs(count);
      read += 1 + k;
      if (k > c.left() / 4) break;
      const ring: number[] = [];
      for (let i = 0; i < k; i++) {
        const idx = c.i32();
        if (idx >= 0 && idx < nv) ring.push(v[3 * idx] as number, v[3 * idx + 1] as number, v[3 * idx + 2] as number);
      }
      const last = faces[faces.length - 1];
      if (count < 0 && last) last.holes.push(ring);
      else faces.push({ outer: ring, holes: [] });
    }
    for (const f of faces) {
      if (this.fillOn) this.fillXyz([f.outer, ...f.holes]);
      else for (const r of [f.outer, ...f.holes]) this.strokeXyz(r, true);
    }
  }

  private mesh(c: Cursor): void {
    const rows = c.i32(),
      cols = c.i32();
    if (rows < 1 || cols < 1 || rows * cols > c.left() / 24) return;
    const v = c.points(rows * cols);
    for (let r = 0; r < rows; r++) this.strokeXyz(v.slice(r * cols * 3, (r + 1) * cols * 3), false);
    for (let k = 0; k < cols; k++) {
      const col: number[] = [];
      for (let r = 0; r < rows; r++)
        col.push(v[(r * cols + k) * 3] as number, v[(r * cols + k) * 3 + 1] as number, v[(r * cols + k) * 3 + 2] as number);
      this.strokeXyz(col, false);
    }
  }

  private xline(c: Cursor, ray: boolean): void {
    const p1 = c.pt(),
      p2 = c.pt();
    if (!c.ok) return;
    // The builder clips construction lines to the drawing; it needs them in the current block space.
    const base = apply3(this.local, p1[0], p1[1], p1[2]);
    const to = apply3(this.local, p2[0], p2[1], p2[2]);
    const direction: Vec3 = [to[0] - base[0], to[1] - base[1], to[2] - base[2]];
    if (!direction.some((x) => x !== 0)) return;
    this.ctx.drawEntity({ ...this.virt, color: { ...this.virt.color }, type: ray ? 'RAY' : 'XLINE', base, direction });
    this.drawn++;
  }

  // -- the command loop --

  run(u8: Uint8Array): void {
    if (u8.length < 8) return;
    const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
    const total = dv.getInt32(0, true);
    const end = total >= 8 && total <= u8.length ? total : u8.length;
    // The command count bounds the loop when it is given; the sizes alone otherwise.
    const count = dv.getInt32(4, true);
    const limit = count > 0 ? count : Infinity;
    let pos = 8;
    for (let k = 0; k < limit && pos + 8 <= end; k++) {
      const size = dv.getInt32(pos, true);
      const type = dv.getInt32(pos + 4, true);
      if (size < 8 || pos + size > end) break;
      try {
        this.command(type, u8, dv, pos + 8, pos + size);
      } catch (err) {
        if (err instanceof CadLimitError) throw err;
        // A command that cannot be drawn is skipped; the rest still is.
      }
      pos += size;
    }
  }

  private command(type: number, u8: Uint8Array, dv: DataView, start: number, end: number): void {
    const c = new Cursor(dv, start, end);
    switch (type) {
      case PROXY.CIRCLE: {
        const center = c.pt(),
          r = c.f64(),
          n = c.pt();
        if (c.ok) this.circle(center, r, n);
        return;
      }
      case PROXY.CIRCLE_3P: {
        const p1 = c.pt(),
          p2 = c.pt(),
          p3 = c.pt();
        const circ = c.ok ? circleThrough(p1, p2, p3) : null;
        if (circ) this.circle(circ.c, circ.r, circ.n);
        return;
      }
      case PROXY.ARC: {
        const center = c.pt(),
          r = c.f64(),
          n = c.pt(),
          startVec = c.pt(),
          sweep = c.f64();
        const arcType = c.left() >= 4 ? c.i32() : 0;
        if (c.ok) this.arc(center, r, planeAxes(n, startVec), 0, sweep, arcType);
        return;
      }
      case PROXY.ARC_3P: {
        const p1 = c.pt(),
          p2 = c.pt(),
          p3 = c.pt();
        const arcType = c.left() >= 4 ? c.i32() : 0;
        const circ = c.ok ? circleThrough(p1, p2, p3) : null;
        if (!circ) {
          if (c.ok) this.strokeXyz([...p1, ...p3], false);
          return;
        }
        // In the plane of the points (normal p1p2 × p1p3, counter-clockwise from p1 through p2 to p3).
        const axes = planeAxes(circ.n, [p1[0] - circ.c[0], p1[1] - circ.c[1], p1[2] - circ.c[2]]);
        const angle = (p: Vec3): number => {
          const d: Vec3 = [p[0] - circ.c[0], p[1] - circ.c[1], p[2] - circ.c[2]];
          const a = Math.atan2(
            d[0] * axes.y[0] + d[1] * axes.y[1] + d[2] * axes.y[2],
            d[0] * axes.x[0] + d[1] * axes.x[1] + d[2] * axes.x[2],
          );
          return a < 0 ? a + TAU : a;
        };
        this.arc(circ.c, circ.r, axes, 0, angle(p3), arcType);
        return;
      }
      case PROXY.POLYLINE:
      case PROXY.POLYLINE_NORMALS: {
        const pts = c.points(c.i32());
        this.strokeXyz(pts, false);
        return;
      }
      case PROXY.POLYGON: {
        const pts = c.points(c.i32());
        this.area(pts);
        return;
      }
      case PROXY.MESH:
        return this.mesh(c);
      case PROXY.SHELL:
        return this.shell(c);
      case PROXY.TEXT:
        return this.simpleText(c, false);
      case PROXY.UNICODE_TEXT:
        return this.simpleText(c, true);
      case PROXY.TEXT2:
        return this.fullText(c, false);
      case PROXY.UNICODE_TEXT2:
        return this.fullText(c, true);
      case PROXY.XLINE:
      case PROXY.RAY:
        return this.xline(c, type === PROXY.RAY);
      case PROXY.LWPOLYLINE:
        return this.lwpolyline(u8, start, end);
      case PROXY.COLOR: {
        const v = c.u32();
        if (c.ok && v <= 256) this.setColor({ aci: v });
        return;
      }
      case PROXY.TRUE_COLOR: {
        const v = c.u32();
        if (c.ok) this.trueColor(v);
        return;
      }
      case PROXY.LAYER: {
        const name = c.ok ? this.tables.layers[c.u32()] : undefined;
        if (name !== undefined && c.ok) {
          this.virt.layer = name;
          this.changed();
        }
        return;
      }
      case PROXY.LINETYPE: {
        const i = c.u32();
        if (!c.ok) return;
        this.virt.linetype = i === LT_BYLAYER ? 'BYLAYER' : i === LT_BYBLOCK ? 'BYBLOCK' : (this.tables.linetypes[i] ?? 'BYLAYER');
        this.changed();
        return;
      }
      case PROXY.LINEWEIGHT: {
        const v = c.i32();
        if (!c.ok) return;
        this.virt.lineweight = v >= -3 && v <= 211 ? v : -3;
        this.changed();
        return;
      }
      case PROXY.LTSCALE: {
        const v = c.f64();
        if (c.ok && v > 0) {
          this.virt.ltscale = v;
          this.changed();
        }
        return;
      }
      case PROXY.FILL: {
        const v = c.i32();
        // AcGiFillType: 1 always, 2 never.
        if (c.ok) this.fillOn = v === 1;
        return;
      }
      case PROXY.PUSH_MATRIX:
      case PROXY.PUSH_MATRIX2:
        return this.pushMatrix(c);
      case PROXY.POP_MATRIX:
        if (this.stack.length) {
          this.stack.pop();
          this.setMatrix();
        }
        return;
      default:
        // Extents, markers, thickness, plot style, clipping, materials, mappers, elliptic arcs and
        // unknown commands: nothing to draw.
        return;
    }
  }
}

/**
 * Draws the proxy graphics of an entity read as UNKNOWN. Returns true when something was drawn;
 * false when there is no usable graphics (the caller then reports the entity as not drawn).
 */
export function drawProxyGraphics(e: UnknownEntity, ctx: DrawContext): boolean {
  if (!e.graphics) return false;
  const bytes = bytesOf(e);
  if (bytes.length <= 8) return false;
  const painter = new ProxyPainter(e, ctx);
  try {
    painter.run(bytes);
  } catch (err) {
    if (err instanceof CadLimitError) throw err;
    // Never lose the drawing over damaged graphics: keep what was drawn.
  }
  return painter.drawn > 0;
}
