/**
 * Hand-written ACIS modeler data for tests: a box, a cylinder, a region with a hole and a spline
 * edge, as SAT text (version 4.0 or 7.0 records) and as the enciphered DXF 3DSOLID / REGION records
 * AutoCAD writes up to R2010.
 */
type V = [number, number, number];
type G = [number, string | number][];

class SatWriter {
  private readonly recs: string[] = [];
  constructor(private readonly version: 400 | 700) {}

  /** Adds a record; `pattern`: the entity has the 7.0 pattern pointer. Returns its index. */
  add(name: string, fields: (string | number)[], pattern = true): number {
    const head = this.version >= 700 ? (pattern ? ['$-1', -1, '$-1'] : ['$-1', -1]) : ['$-1'];
    this.recs.push([name, ...head, ...fields, '#'].join(' '));
    return this.recs.length - 1;
  }
  set(i: number, name: string, fields: (string | number)[]): void {
    const head = this.version >= 700 ? ['$-1', -1, '$-1'] : ['$-1'];
    this.recs[i] = [name, ...head, ...fields, '#'].join(' ');
  }
  text(): string {
    const product = this.version >= 700 ? '@7 unknown 14 ACIS 7.0 NT 24 Sun Nov 29 19:00:00 2026' : '16 Autodesk AutoCAD 12 ACIS 4.0 NT 0';
    const units = this.version >= 700 ? '1 9.9999999999999995e-07 1e-10' : '1 9.9999999999999995e-07 1e-10';
    return [`${this.version} 0 1 0`, product, units, ...this.recs, 'End-of-ACIS-data'].join('\n');
  }
}

interface EdgeSpec {
  a: V;
  b: V;
  /** The curve record, written after the edge ("straight-curve ..." fields). */
  curve: [string, (string | number)[]];
  /** Edge parameters (7.0). */
  t?: [number, number];
}

const p = (v: V): string => v.join(' ');

/** A body with one lump, shell, face and loop owning every edge (enough for a wireframe). */
export function satBody(version: 400 | 700, edges: EdgeSpec[], transform?: number[]): string {
  const w = new SatWriter(version);
  const body = w.add('body', []);
  const lump = w.add('lump', []);
  const shell = w.add('shell', []);
  const face = w.add('face', []);
  const loop = w.add('loop', []);
  const tr = transform ? w.add('transform', [...transform, 'rotate', 'no_reflect', 'no_shear'], false) : -1;
  w.set(body, 'body', [`$${lump}`, '$-1', `$${tr}`]);
  w.set(lump, 'lump', ['$-1', `$${shell}`, `$${body}`]);
  w.set(shell, 'shell', ['$-1', '$-1', `$${face}`, '$-1', `$${lump}`]);
  w.set(loop, 'loop', ['$-1', '$-1', `$${face}`]);
  let firstCoedge = -1;
  for (const e of edges) {
    const pa = w.add('point', [p(e.a)]);
    const pb = e.a === e.b ? pa : w.add('point', [p(e.b)]);
    const va = w.add('vertex', ['$-1', `$${pa}`]);
    const vb = e.a === e.b ? va : w.add('vertex', ['$-1', `$${pb}`]);
    const curve = w.add(e.curve[0], e.curve[1]);
    const coedge = w.add('coedge', []);
    const [t0, t1] = e.t ?? [0, 1];
    const edge =
      version >= 700
        ? w.add('edge', [`$${va}`, t0, `$${vb}`, t1, `$${coedge}`, `$${curve}`, 'forward', '@7', 'unknown'])
        : w.add('edge', [`$${va}`, `$${vb}`, `$${coedge}`, `$${curve}`, 'forward']);
    w.set(coedge, 'coedge', [`$${coedge}`, `$${coedge}`, '$-1', `$${edge}`, 'forward', `$${loop}`, '$-1']);
    if (firstCoedge < 0) firstCoedge = coedge;
  }
  w.set(face, 'face', ['$-1', `$${loop}`, `$${shell}`, '$-1', '$-1', 'forward', 'single']);
  w.set(loop, 'loop', ['$-1', `$${firstCoedge}`, `$${face}`]);
  return w.text();
}

const line = (a: V, b: V): EdgeSpec => ({ a, b, curve: ['straight-curve', [p(a), p([b[0] - a[0], b[1] - a[1], b[2] - a[2]]), 'I', 'I']] });

/** A 40 × 20 × 10 box (12 straight edges), turned about x by `tilt` degrees by its body transform. */
export function boxSat(version: 400 | 700, tilt = 0, offset: V = [0, 0, 0]): string {
  const c = [0, 40].flatMap((x) => [0, 20].flatMap((y) => [0, 10].map((z): V => [x, y, z])));
  const edges: EdgeSpec[] = [];
  for (let i = 0; i < 8; i++)
    for (let j = i + 1; j < 8; j++) {
      const a = c[i] as V,
        b = c[j] as V;
      const diff = (a[0] !== b[0] ? 1 : 0) + (a[1] !== b[1] ? 1 : 0) + (a[2] !== b[2] ? 1 : 0);
      if (diff === 1) edges.push(line(a, b));
    }
  return satBody(version, edges, rotationX(tilt, offset));
}

/** A cylinder of radius 10, height 30 about z: its two circular edges (one vertex each), tilted about x. */
export function cylinderSat(tilt = 0, offset: V = [0, 0, 0]): string {
  const circle = (z: number): EdgeSpec => {
    const a: V = [10, 0, z];
    return { a, b: a, t: [0, 2 * Math.PI], curve: ['ellipse-curve', [p([0, 0, z]), '0 0 1', '10 0 0', 1, 'I', 'I']] };
  };
  return satBody(700, [circle(0), circle(30)], rotationX(tilt, offset));
}

/** A 60 × 40 region with a round hole of radius 8 at (20, 20), moved by `offset`. */
export function regionWithHoleSat(offset: V = [0, 0, 0]): string {
  const q: V[] = [
    [0, 0, 0],
    [60, 0, 0],
    [60, 40, 0],
    [0, 40, 0],
  ];
  const edges = q.map((a, i) => line(a, q[(i + 1) % 4] as V));
  const a: V = [28, 20, 0];
  edges.push({ a, b: a, t: [0, 2 * Math.PI], curve: ['ellipse-curve', ['20 20 0', '0 0 1', '8 0 0', 1, 'I', 'I']] });
  return satBody(700, edges, rotationX(0, offset));
}

/** One edge on a degree-2 B-spline (an exact intcurve) from (0,0,0) through the control point (10,20,0) to (20,0,0). */
export function splineSat(): string {
  const a: V = [0, 0, 0],
    b: V = [20, 0, 0];
  return satBody(700, [
    {
      a,
      b,
      t: [0, 1],
      curve: [
        'intcurve-curve',
        ['forward', '{', 'exactcur', 'full', 'nubs', 2, 'open', 2, 0, 2, 1, 2, '0 0 0', '10 20 0', '20 0 0', 0, '}', 'I', 'I'],
      ],
    },
  ]);
}

function rotationX(deg: number, o: V): number[] {
  const r = (deg * Math.PI) / 180;
  const c = Math.cos(r),
    s = Math.sin(r);
  // Rows: the images of x, y, z; then the translation and the scale.
  return [1, 0, 0, 0, c, s, 0, -s, c, ...o, 1];
}

/** The cipher AutoCAD applies to SAT text in DXF (its own inverse). */
export function encipher(s: string): string {
  return [...s].map((ch) => (ch.charCodeAt(0) > 32 ? String.fromCharCode(159 - ch.charCodeAt(0)) : ch)).join('');
}

/** A DXF record of `type` (3DSOLID, REGION, BODY) holding `sat`, as R2000-R2010 write it. */
export function acisRecord(type: string, sat: string, extra: G = []): G {
  const g: G = [[0, type], [8, '0'], ...extra, [100, 'AcDbModelerGeometry'], [70, 1]];
  for (const l of sat.split('\n')) {
    const enc = encipher(l);
    // Lines longer than a group holds continue in group 3.
    g.push([1, enc.slice(0, 255)]);
    for (let i = 255; i < enc.length; i += 255) g.push([3, enc.slice(i, i + 255)]);
  }
  if (type === '3DSOLID') g.push([100, 'AcDb3dSolid'], [350, 0]);
  return g;
}
