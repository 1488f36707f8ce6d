/**
 * ACIS modeler data (the SAT text of DXF and DWG up to R2010, the SAB binary of R2013 and later)
 * read as far as a 2D wireframe needs: the records, their pointers, and every edge's curve as a
 * line, an ellipse arc or a B-spline, in world coordinates (the body's transform applied).
 *
 * Written from the public descriptions of the formats. A record is its type name ("edge",
 * "straight-curve"), a pointer to its attributes, from version 7.0 an integer tag and, for the
 * entities that can have one, a pattern pointer; then its own fields. Bad or truncated data throws
 * an AcisError with the reason; the caller reports the entity as not drawn.
 */
import type { Vec3 } from '../geom/vector';

export class AcisError extends Error {}

/** A pointer to record n (-1: none). */
interface Ptr {
  ptr: number;
}
/** SAB booleans: true = reversed / finite (F) / double, false = forward / infinite (I) / single. */
interface Flag {
  flag: boolean;
}
type Tok = number | string | Ptr | Flag;

interface AcisRecord {
  name: string;
  toks: Tok[];
}

export interface AcisFile {
  version: number;
  records: AcisRecord[];
  /** SAB: enumerations are numbers (a B-spline's closure among them). */
  binary: boolean;
}

const MAX_RECORDS = 2_000_000;

// ---- SAT -----------------------------------------------------------------------------------------

const END_MARKERS = new Set(['End-of-ACIS-data', 'End-of-ASM-data', 'Begin-of-ACIS-History-Data', 'Begin-of-ACIS-History-data']);

export function parseSat(text: string): AcisFile {
  // Header: "version records bodies flags", then (from ACIS 2) a product line and a line of units
  // and tolerances; version 1 data starts its records on the second line.
  let pos = 0;
  const lines: string[] = [];
  while (lines.length < 3 && pos < text.length) {
    let e = text.indexOf('\n', pos);
    if (e < 0) e = text.length;
    const line = text.slice(pos, e).trim();
    if (lines.length && line.endsWith('#')) break;
    pos = e + 1;
    if (line) lines.push(line);
  }
  const version = Number(lines[0]?.split(/\s+/)[0]);
  if (!lines.length || !Number.isFinite(version) || version < 100) throw new AcisError('no SAT header');
  const records: AcisRecord[] = [];
  let toks: Tok[] = [];
  let name = '';
  const n = text.length;
  let i = pos;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c <= 32) {
      i++;
      continue;
    }
    // @N string: N characters after one space.
    if (c === 64 /* @ */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) > 32) j++;
      const len = Number(text.slice(i + 1, j));
      if (!Number.isInteger(len) || len < 0) throw new AcisError('bad string length');
      const s = text.slice(j + 1, j + 1 + len);
      i = j + 1 + len;
      if (name) toks.push(s);
      continue;
    }
    let j = i;
    while (j < n && (c = text.charCodeAt(j)) > 32) j++;
    const word = text.slice(i, j);
    i = j;
    if (word === '#') {
      if (name) records.push({ name, toks });
      if (records.length > MAX_RECORDS) throw new AcisError('too many records');
      name = '';
      toks = [];
      continue;
    }
    if (!name) {
      if (END_MARKERS.has(word)) break;
      // Version 7 files may number their records: "-12 edge ...".
      if (/^-\d+$/.test(word)) continue;
      name = word;
      continue;
    }
    const ch = word.charCodeAt(0);
    if (ch === 36 /* $ */) toks.push({ ptr: Number(word.slice(1)) });
    else if ((ch >= 48 && ch <= 57) || ch === 45 || ch === 43 || ch === 46) {
      const v = Number(word);
      toks.push(Number.isFinite(v) ? v : word);
    } else toks.push(word);
  }
  if (!records.length) throw new AcisError('no records');
  return { version, records, binary: false };
}

// ---- SAB -----------------------------------------------------------------------------------------

const SAB_SIGNATURES = ['ACIS BinaryFile', 'ASM BinaryFile4'];

export function parseSab(b: Uint8Array): AcisFile {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const td = new TextDecoder('utf-8');
  let p = 0;
  const need = (k: number): void => {
    if (p + k > b.length) throw new AcisError('SAB data ends early');
  };
  const u8 = (): number => {
    need(1);
    return b[p++] as number;
  };
  const i32 = (): number => {
    need(4);
    const v = dv.getInt32(p, true);
    p += 4;
    return v;
  };
  const f64 = (): number => {
    need(8);
    const v = dv.getFloat64(p, true);
    p += 8;
    return v;
  };
  const str = (len: number): string => {
    need(len);
    const s = td.decode(b.subarray(p, p + len));
    p += len;
    return s;
  };
  const sig = SAB_SIGNATURES.find((s) => td.decode(b.subarray(0, s.length)) === s);
  if (!sig) throw new AcisError('not SAB data');
  p = sig.length;
  const version = i32();
  i32(); // records
  i32(); // bodies
  i32(); // flags
  // Product, ACIS version, date (tagged strings), then units and two tolerances (tagged doubles).
  for (let k = 0; k < 3; k++) {
    if (u8() !== 7) throw new AcisError('bad SAB header');
    str(u8());
  }
  for (let k = 0; k < 3; k++) {
    if (u8() !== 6) throw new AcisError('bad SAB header');
    f64();
  }
  const records: AcisRecord[] = [];
  let toks: Tok[] = [];
  let parts: string[] = [];
  let name = '';
  while (p < b.length) {
    const tag = u8();
    switch (tag) {
      case 0x04: // int
      case 0x15: // enum
        toks.push(i32());
        break;
      case 0x0c:
        toks.push({ ptr: i32() });
        break;
      case 0x06:
      case 0x17:
        toks.push(f64());
        break;
      case 0x07:
        toks.push(str(u8()));
        break;
      case 0x12:
        toks.push(str(i32()));
        break;
      case 0x0a:
        toks.push({ flag: true });
        break;
      case 0x0b:
        toks.push({ flag: false });
        break;
      case 0x13:
      case 0x14:
        toks.push(f64(), f64(), f64());
        break;
      case 0x0e:
        parts.push(str(u8()));
        break;
      case 0x0d: {
        parts.push(str(u8()));
        const full = parts.join('-');
        parts = [];
        if (!name) name = full;
        else toks.push(full);
        break;
      }
      case 0x0f:
        toks.push('{');
        break;
      case 0x10:
        toks.push('}');
        break;
      case 0x11:
        if (name) records.push({ name, toks });
        if (records.length > MAX_RECORDS) throw new AcisError('too many records');
        name = '';
        toks = [];
        break;
      default:
        throw new AcisError(`unknown SAB tag 0x${tag.toString(16)}`);
    }
    if (!name && typeof toks[0] === 'string' && END_MARKERS.has(toks[0])) break;
    // The end marker is written as entity-type names: End-of-ACIS-data / End-of-ASM-data.
    if (name === 'End-of-ACIS-data' || name === 'End-of-ASM-data') {
      name = '';
      break;
    }
  }
  if (!records.length) throw new AcisError('no records');
  return { version, records, binary: true };
}

export function hexBytes(hex: string): Uint8Array {
  const n = hex.length >> 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

// ---- geometry ------------------------------------------------------------------------------------

export type AcisCurve =
  | { kind: 'line'; a: Vec3; b: Vec3 }
  /** Points at t ∈ [t0, t1]: center + cos t · major + sin t · minor. */
  | { kind: 'ellipse'; center: Vec3; major: Vec3; minor: Vec3; t0: number; t1: number }
  /** Standard clamped knot vector; the edge's parameter range [t0, t1]. */
  | { kind: 'spline'; degree: number; knots: number[]; ctrl: Vec3[]; weights: number[] | null; t0: number; t1: number };

export interface AcisWire {
  curves: AcisCurve[];
  /** Edges whose curve type is not read, drawn as the straight line between their vertices. */
  approximated: number;
  /** Edges with nothing to draw (no vertices and an unread curve). */
  missing: number;
}

const isPtr = (t: Tok | undefined): t is Ptr => typeof t === 'object' && t !== null && 'ptr' in t;
const isFlag = (t: Tok | undefined): t is Flag => typeof t === 'object' && t !== null && 'flag' in t;
/** 'reversed' in SAT (1 in version 1 data), a true flag in SAB. */
const reversed = (t: Tok | undefined): boolean => t === 'reversed' || t === 1 || (isFlag(t) && t.flag);

/** Reads an ACIS file's edges. */
export class AcisModel {
  private readonly recs: AcisRecord[];
  private readonly version: number;
  private readonly binary: boolean;
  private readonly transforms = new Map<number, number[]>();

  constructor(file: AcisFile) {
    this.recs = file.records;
    this.version = file.version;
    this.binary = file.binary;
  }

  /** A record's own fields: after the attribute pointer, the tag (7.0+) and the pattern pointer (7.0+). */
  private data(i: number): Tok[] {
    const r = this.recs[i];
    if (!r) return [];
    const v7 = this.version >= 700;
    let k = 1;
    if (v7) {
      if (typeof r.toks[1] === 'number') k = 2;
      if (hasPattern(r.name) && isPtr(r.toks[k])) k++;
    }
    return r.toks.slice(k);
  }

  private name(i: number): string {
    return this.recs[i]?.name ?? '';
  }

  private ptrAt(d: Tok[], k: number): number {
    const t = d[k];
    return isPtr(t) ? t.ptr : -1;
  }

  private point(i: number): Vec3 | null {
    if (!this.name(i).endsWith('point')) return null;
    const d = this.data(i);
    const x = d[0],
      y = d[1],
      z = d[2];
    return typeof x === 'number' && typeof y === 'number' && typeof z === 'number' ? [x, y, z] : null;
  }

  private vertexPoint(i: number): Vec3 | null {
    if (!this.name(i).endsWith('vertex')) return null;
    const d = this.data(i);
    for (let k = d.length - 1; k >= 0; k--) {
      const t = d[k];
      if (isPtr(t) && t.ptr >= 0 && this.name(t.ptr).endsWith('point')) return this.point(t.ptr);
    }
    return null;
  }

  /** The transform of the body owning an edge (via coedge, loop, face, shell, lump), as 12 numbers (rows x, y, z, translation). */
  private transformFor(edge: Tok[], coedgeAt: number): number[] | null {
    let i = this.ptrAt(edge, coedgeAt);
    // coedge → owner (loop or wire) at field 5
    for (let guard = 0; guard < 8 && i >= 0; guard++) {
      const name = this.name(i);
      const d = this.data(i);
      if (name === 'body') return this.transform(this.ptrAt(d, 2));
      if (name === 'coedge' || name === 'tcoedge') i = this.ptrAt(d, 5);
      else if (name === 'loop') i = this.ptrAt(d, 2);
      else if (name === 'face') i = this.ptrAt(d, 2);
      else if (name === 'shell') i = this.ptrAt(d, 4);
      else if (name === 'lump') i = this.ptrAt(d, 2);
      else if (name === 'wire') i = lastPtr(d, (k) => ['shell', 'body'].includes(this.name(k)));
      else return null;
    }
    return null;
  }

  private transform(i: number): number[] | null {
    if (i < 0 || this.name(i) !== 'transform') return null;
    const cached = this.transforms.get(i);
    if (cached) return cached;
    const d = this.recs[i]?.toks ?? [];
    // After the attribute pointer (and the 7.0 tag): 9 rotation numbers, 3 translation, the scale.
    const nums: number[] = [];
    for (let k = 1; k < d.length; k++) {
      const t = d[k];
      if (typeof t === 'number') nums.push(t);
      else if (typeof t === 'string') {
        // SAB keeps the transform as one literal string written like the SAT record.
        for (const w of t.split(/\s+/)) {
          const v = Number(w);
          if (w && Number.isFinite(v)) nums.push(v);
        }
      }
    }
    if (this.version >= 700 && nums.length >= 14 && typeof d[1] === 'number') nums.shift();
    if (nums.length < 12) return null;
    const scale = nums.length >= 13 && (nums[12] as number) > 0 ? (nums[12] as number) : 1;
    const m = nums.slice(0, 12);
    for (let k = 0; k < 9; k++) m[k] = (m[k] as number) * scale;
    this.transforms.set(i, m);
    return m;
  }

  wire(): AcisWire {
    const out: AcisWire = { curves: [], approximated: 0, missing: 0 };
    const te = this.version >= 500;
    for (let i = 0; i < this.recs.length; i++) {
      const name = this.name(i);
      if (name !== 'edge' && name !== 'tedge') continue;
      const d = this.data(i);
      let k = 0;
      const sv = this.ptrAt(d, k++);
      let t0 = NaN,
        t1 = NaN;
      if (te && typeof d[k] === 'number') t0 = d[k++] as number;
      const ev = this.ptrAt(d, k++);
      if (te && typeof d[k] === 'number') t1 = d[k++] as number;
      const coedgeAt = k++;
      const curve = this.ptrAt(d, k++);
      const rev = reversed(d[k]);
      const a = sv >= 0 ? this.vertexPoint(sv) : null;
      const b = ev >= 0 ? this.vertexPoint(ev) : null;
      // Edge parameters are the curve's, negated when the edge runs against it.
      if (rev) [t0, t1] = [-t1, -t0];
      let c = this.curve(curve, a, b, sv === ev, rev, t0, t1);
      if (!c) {
        if (!a || !b || same(a, b)) {
          out.missing++;
          continue;
        }
        c = { kind: 'line', a, b };
        out.approximated++;
      }
      const m = this.transformFor(d, coedgeAt) ?? this.firstBodyTransform();
      out.curves.push(m ? transformCurve(c, m) : c);
    }
    return out;
  }

  private firstTransform: number[] | null | undefined;
  private firstBodyTransform(): number[] | null {
    if (this.firstTransform === undefined) {
      this.firstTransform = null;
      for (let i = 0; i < this.recs.length; i++)
        if (this.name(i) === 'body') {
          this.firstTransform = this.transform(this.ptrAt(this.data(i), 2));
          break;
        }
    }
    return this.firstTransform;
  }

  private curve(i: number, a: Vec3 | null, b: Vec3 | null, closed: boolean, rev: boolean, t0: number, t1: number): AcisCurve | null {
    const name = this.name(i);
    const d = this.data(i);
    if (name === 'straight-curve') {
      if (a && b) return same(a, b) ? null : { kind: 'line', a, b };
      const o = vec(d, 0),
        dir = vec(d, 3);
      if (!o || !dir || !Number.isFinite(t0) || !Number.isFinite(t1)) return null;
      return { kind: 'line', a: along(o, dir, t0), b: along(o, dir, t1) };
    }
    if (name === 'ellipse-curve') {
      const center = vec(d, 0),
        normal = vec(d, 3),
        major = vec(d, 6);
      const ratio = d[9];
      if (!center || !normal || !major || typeof ratio !== 'number') return null;
      const n = unit(normal);
      const minor = scale(crossV(n, major), ratio);
      let s = t0,
        e = t1;
      if (!(Number.isFinite(s) && Number.isFinite(e) && e > s)) {
        if (closed || !a || !b) {
          s = 0;
          e = Math.PI * 2;
        } else {
          // Version 4 edges keep no parameters: the vertices' angles, in the edge's direction.
          const pa = angleOn(a, center, major, minor);
          const pb = angleOn(b, center, major, minor);
          [s, e] = rev ? [pb, pa] : [pa, pb];
          while (e <= s + 1e-12) e += Math.PI * 2;
        }
      }
      return { kind: 'ellipse', center, major, minor, t0: s, t1: e };
    }
    if (name === 'intcurve-curve') return this.intcurve(d, rev, t0, t1);
    return null;
  }

  /** An intcurve: its sense, then a subtype whose B-spline (exact or approximating) is drawn. */
  private intcurve(d: Tok[], _edgeRev: boolean, t0: number, t1: number): AcisCurve | null {
    const curveRev = reversed(d[0]);
    const open = d.indexOf('{');
    if (open < 0) return null;
    const sp = this.bs3(d, open + 1);
    if (!sp) return null;
    // Edge range in the curve's parameters → the spline's (negated when the curve is reversed).
    let s = t0,
      e = t1;
    if (curveRev) [s, e] = [-e, -s];
    const lo = sp.knots[sp.degree] as number;
    const hi = sp.knots[sp.knots.length - sp.degree - 1] as number;
    if (!(Number.isFinite(s) && Number.isFinite(e) && e > s)) {
      s = lo;
      e = hi;
    }
    s = Math.max(lo, s);
    e = Math.min(hi, e);
    if (!(e > s)) return null;
    return { ...sp, kind: 'spline', t0: s, t1: e };
  }

  /** The first B-spline ("nubs" / "nurbs" and its data) of a subtype starting at token k. */
  private bs3(d: Tok[], k: number): { degree: number; knots: number[]; ctrl: Vec3[]; weights: number[] | null } | null {
    let depth = 1;
    for (; k < d.length && depth > 0; k++) {
      const t = d[k];
      if (t === '{') depth++;
      else if (t === '}') depth--;
      else if (t === 'nubs' || t === 'nurbs') return readBs3(d, k + 1, t === 'nurbs', this.binary);
      else if (t === 'nullbs') return null;
    }
    return null;
  }
}

function readBs3(
  d: Tok[],
  k: number,
  rational: boolean,
  binary: boolean,
): { degree: number; knots: number[]; ctrl: Vec3[]; weights: number[] | null } | null {
  const num = (): number => {
    const t = d[k++];
    if (typeof t !== 'number') throw new AcisError('bad spline data');
    return t;
  };
  const degree = num();
  // open / closed / periodic: a word in SAT, an enumeration (a number) in SAB.
  if (typeof d[k] === 'string' || binary) k++;
  const nKnots = num();
  if (!Number.isInteger(degree) || degree < 1 || degree > 25 || !Number.isInteger(nKnots) || nKnots < 2 || nKnots > 100_000)
    throw new AcisError('bad spline data');
  const knots: number[] = [];
  for (let i = 0; i < nKnots; i++) {
    const v = num();
    const mult = num();
    if (!Number.isInteger(mult) || mult < 1 || mult > degree + 1) throw new AcisError('bad spline data');
    for (let j = 0; j < mult; j++) knots.push(v);
  }
  // ACIS writes the end knots degree times; a standard clamped vector has them degree + 1 times.
  const last = knots.length - 1;
  if (knots[0] === knots[degree - 1] && knots[last] === knots[last - degree + 1]) {
    knots.unshift(knots[0] as number);
    knots.push(knots[last + 1] as number);
  }
  const nCtrl = knots.length - degree - 1;
  if (nCtrl < degree + 1) throw new AcisError('bad spline data');
  const ctrl: Vec3[] = [];
  const weights: number[] = [];
  for (let i = 0; i < nCtrl; i++) {
    ctrl.push([num(), num(), num()]);
    if (rational) weights.push(num());
  }
  return { degree, knots, ctrl, weights: rational ? weights : null };
}

/** SAT names of the entities whose 7.0 records carry a pattern pointer. */
function hasPattern(name: string): boolean {
  return (
    name === 'body' ||
    name === 'lump' ||
    name === 'shell' ||
    name === 'face' ||
    name === 'loop' ||
    name === 'coedge' ||
    name === 'tcoedge' ||
    name === 'edge' ||
    name === 'tedge' ||
    name === 'vertex' ||
    name === 'tvertex' ||
    name === 'wire' ||
    name === 'point' ||
    name.endsWith('-curve') ||
    name.endsWith('-surface')
  );
}

function lastPtr(d: Tok[], ok: (i: number) => boolean): number {
  for (let k = d.length - 1; k >= 0; k--) {
    const t = d[k];
    if (isPtr(t) && t.ptr >= 0 && ok(t.ptr)) return t.ptr;
  }
  return -1;
}

function vec(d: Tok[], k: number): Vec3 | null {
  const x = d[k],
    y = d[k + 1],
    z = d[k + 2];
  return typeof x === 'number' && typeof y === 'number' && typeof z === 'number' ? [x, y, z] : null;
}
const same = (a: Vec3, b: Vec3): boolean => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]) < 1e-12;
const along = (o: Vec3, dir: Vec3, t: number): Vec3 => [o[0] + dir[0] * t, o[1] + dir[1] * t, o[2] + dir[2] * t];
const scale = (v: Vec3, s: number): Vec3 => [v[0] * s, v[1] * s, v[2] * s];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const crossV = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
function unit(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}
function angleOn(p: Vec3, c: Vec3, major: Vec3, minor: Vec3): number {
  const r: Vec3 = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
  const x = dot(r, major) / (dot(major, major) || 1);
  const y = dot(r, minor) / (dot(minor, minor) || 1);
  return Math.atan2(y, x);
}

/** Row-vector transform: p · R + T (R rows 0-8, T 9-11). */
function tp(m: number[], p: Vec3): Vec3 {
  const [x, y, z] = p;
  return [
    x * (m[0] as number) + y * (m[3] as number) + z * (m[6] as number) + (m[9] as number),
    x * (m[1] as number) + y * (m[4] as number) + z * (m[7] as number) + (m[10] as number),
    x * (m[2] as number) + y * (m[5] as number) + z * (m[8] as number) + (m[11] as number),
  ];
}
function tv(m: number[], v: Vec3): Vec3 {
  const [x, y, z] = v;
  return [
    x * (m[0] as number) + y * (m[3] as number) + z * (m[6] as number),
    x * (m[1] as number) + y * (m[4] as number) + z * (m[7] as number),
    x * (m[2] as number) + y * (m[5] as number) + z * (m[8] as number),
  ];
}

function transformCurve(c: AcisCurve, m: number[]): AcisCurve {
  switch (c.kind) {
    case 'line':
      return { kind: 'line', a: tp(m, c.a), b: tp(m, c.b) };
    case 'ellipse':
      return { ...c, center: tp(m, c.center), major: tv(m, c.major), minor: tv(m, c.minor) };
    case 'spline':
      return { ...c, ctrl: c.ctrl.map((p) => tp(m, p)) };
  }
}

/** The edges of modeler data given as SAT text or SAB hex; throws AcisError with the reason. */
export function acisWire(sat: string | undefined, sabHex: string | undefined): AcisWire {
  if (sat) return new AcisModel(parseSat(sat)).wire();
  if (sabHex) return new AcisModel(parseSab(hexBytes(sabHex))).wire();
  throw new AcisError('no modeler data');
}
