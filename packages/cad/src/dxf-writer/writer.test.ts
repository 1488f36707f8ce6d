/**
 * The DXF writer: hand-made drawings round-tripped through our reader per version, the R12
 * downgrade rules, binary DXF, and every committed fixture written in all seven versions and
 * loaded by ezdxf (one Python process for the whole batch) and by our reader.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearestAci } from '../geom/color';
import { emptyDrawing } from '../drawing';
import { detectDxf, readDxf } from '../dxf/index';
import type { Drawing, Entity, EntityBase, EntityOf, EntityType } from '../model';
import { openDrawing } from '../open';
import { convertToDxf } from './convert';
import { ellipsePoints } from './geometry';
import { ACADVER, chordTolerance, DXF_VERSIONS, writeDxf, type DxfVersion } from './writer';
import type { Vec3 } from '../geom/vector';

const here = dirname(fileURLToPath(import.meta.url));
const FIX = resolve(here, '../../test-fixtures');
const CHECK = join(here, 'ezdxf-check.py');
const tmp = mkdtempSync(join(tmpdir(), 'dxf-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// ---- hand-made drawings ------------------------------------------------------------------------

const base = (over: Partial<EntityBase> = {}): EntityBase => ({
  layer: 'WALLS',
  color: { aci: 256 },
  linetype: 'BYLAYER',
  ltscale: 1,
  lineweight: -1,
  visible: true,
  extrusion: [0, 0, 1],
  paperSpace: false,
  ...over,
});

function sampleDrawing(): Drawing {
  const d = emptyDrawing({
    acadVersion: 'AC1032',
    release: 'R2018',
    encoding: 'utf-8',
    vars: {},
    extMin: [0, 0, 0],
    extMax: [100, 100, 0],
  });
  d.layers.WALLS = {
    name: 'WALLS',
    color: { aci: 1 },
    linetype: 'Continuous',
    lineweight: 50,
    on: true,
    frozen: false,
    locked: false,
    plot: true,
  };
  d.layers['标注'] = {
    name: '标注',
    color: { aci: 3, rgb: 0x12ab34 },
    linetype: 'Continuous',
    lineweight: -3,
    on: false,
    frozen: false,
    locked: false,
    plot: true,
  };
  d.blocks.DOOR = {
    name: 'DOOR',
    basePoint: [0, 0, 0],
    flags: 2,
    anonymous: false,
    xref: false,
    layer: '0',
    entities: [
      { ...base({ layer: '0' }), type: 'LINE', start: [0, 0, 0], end: [1, 0, 0] },
      {
        ...base({ layer: '0' }),
        type: 'ATTDEF',
        text: '门',
        insertion: [0, 1, 0],
        height: 0.25,
        rotation: 0,
        widthFactor: 1,
        oblique: 0,
        style: 'Standard',
        halign: 0,
        valign: 0,
        generation: 0,
        tag: 'NAME',
        prompt: '名称',
        attributeFlags: 0,
      },
    ],
  };
  d.modelSpace = [
    { ...base(), type: 'LINE', start: [1.25, 2.5, 0], end: [10.125, -3.0625, 0] },
    { ...base({ color: { rgb: 0xff8000 } }), type: 'POINT', position: [5, 5, 0], angle: 0 },
    { ...base({ layer: '标注', color: { aci: 5 } }), type: 'CIRCLE', center: [20, 20, 0], radius: 7.5 },
    { ...base({ lineweight: 35 }), type: 'ARC', center: [30, 30, 0], radius: 4, startAngle: 15, endAngle: 250 },
    { ...base(), type: 'ELLIPSE', center: [50, 50, 0], majorAxis: [20, 5, 0], ratio: 0.4, startParam: 0, endParam: Math.PI * 2 },
    {
      ...base(),
      type: 'LWPOLYLINE',
      vertices: [
        { x: 0, y: 0, bulge: 0, startWidth: 0, endWidth: 0 },
        { x: 10, y: 0, bulge: 0.5, startWidth: 0.5, endWidth: 1 },
        { x: 10, y: 10, bulge: 0, startWidth: 0, endWidth: 0 },
      ],
      closed: true,
      plinegen: false,
      constantWidth: 0,
      elevation: 0,
    },
    {
      ...base(),
      type: 'POLYLINE',
      kind: '3d',
      flags: 8,
      closed: false,
      elevation: 0,
      defaultStartWidth: 0,
      defaultEndWidth: 0,
      m: 0,
      n: 0,
      meshClosedN: false,
      vertices: [
        { position: [0, 0, 0], bulge: 0, startWidth: 0, endWidth: 0, flags: 32 },
        { position: [1, 2, 3], bulge: 0, startWidth: 0, endWidth: 0, flags: 32 },
      ],
      faces: [],
    },
    {
      ...base(),
      type: 'SPLINE',
      degree: 3,
      flags: 8,
      closed: false,
      periodic: false,
      rational: false,
      knots: [0, 0, 0, 0, 1, 1, 1, 1],
      weights: [],
      controlPoints: [
        [0, 60, 0],
        [10, 80, 0],
        [20, 40, 0],
        [30, 60, 0],
      ],
      fitPoints: [],
    },
    {
      ...base(),
      type: 'SOLID',
      points: [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 0],
      ],
    },
    {
      ...base(),
      type: '3DFACE',
      points: [
        [0, 0, 0],
        [1, 0, 1],
        [1, 1, 1],
        [0, 1, 0],
      ],
      invisibleEdges: 2,
    },
    {
      ...base(),
      type: 'TEXT',
      text: '中文 text ½',
      insertion: [3, 4, 0],
      height: 2.5,
      rotation: 30,
      widthFactor: 0.8,
      oblique: 0,
      style: 'Standard',
      halign: 0,
      valign: 0,
      generation: 0,
    },
    {
      ...base(),
      type: 'MTEXT',
      text: '第一行\\P{\\H2;second} line',
      insertion: [60, 90, 0],
      height: 3,
      width: 0,
      attachment: 1,
      drawingDirection: 1,
      rotation: 0,
      style: 'Standard',
      lineSpacingFactor: 1,
      lineSpacingStyle: 1,
    },
    {
      ...base(),
      type: 'INSERT',
      name: 'DOOR',
      insertion: [40, 10, 0],
      scale: [2, 2, 1],
      rotation: 90,
      columnCount: 1,
      rowCount: 1,
      columnSpacing: 0,
      rowSpacing: 0,
      attributes: [
        {
          ...base({ layer: '0' }),
          type: 'ATTRIB',
          text: '前门',
          insertion: [40, 12, 0],
          height: 0.5,
          rotation: 90,
          widthFactor: 1,
          oblique: 0,
          style: 'Standard',
          halign: 0,
          valign: 0,
          generation: 0,
          tag: 'NAME',
          attributeFlags: 0,
        },
      ],
    },
    {
      ...base({ color: { aci: 4 } }),
      type: 'HATCH',
      pattern: 'SOLID',
      solid: true,
      associative: false,
      elevation: 0,
      paths: [
        {
          flags: 1,
          edges: [
            { kind: 'line', start: [70, 0], end: [90, 0] },
            { kind: 'line', start: [90, 0], end: [90, 10] },
            { kind: 'line', start: [90, 10], end: [70, 10] },
            { kind: 'line', start: [70, 10], end: [70, 0] },
          ],
        },
        {
          flags: 2,
          polyline: {
            vertices: [
              { x: 75, y: 2, bulge: 0 },
              { x: 80, y: 2, bulge: 0 },
              { x: 80, y: 6, bulge: 0 },
              { x: 75, y: 6, bulge: 0 },
            ],
            closed: true,
          },
          edges: [],
        },
      ],
      style: 0,
      patternType: 1,
      patternAngle: 0,
      patternScale: 1,
      patternDouble: false,
      patternLines: [],
    },
    { ...base(), type: 'XLINE', base: [0, 0, 0], direction: [1, 1, 0] },
  ];
  return d;
}

const countTypes = (es: Entity[]): Record<string, number> => {
  const c: Record<string, number> = {};
  for (const e of es) {
    const t = e.type === 'UNKNOWN' || e.type === 'ACIS' || e.type === 'UNDERLAY' ? e.dxfType : e.type;
    c[t] = (c[t] ?? 0) + 1;
  }
  return c;
};
const first = <T extends EntityType>(es: Entity[], type: T): EntityOf<T> => {
  const e = es.find((x) => x.type === type);
  expect(e, type).toBeDefined();
  return e as EntityOf<T>;
};
const close = (a: readonly number[], b: readonly number[]): void => {
  expect(a.length).toBe(b.length);
  a.forEach((v, i) => expect(Math.abs(v - (b[i] as number)), `${a.join(',')} vs ${b.join(',')}`).toBeLessThanOrEqual(1e-9));
};

describe('hand-made drawing, every version', () => {
  const src = sampleDrawing();
  const modern: DxfVersion[] = ['2000', '2004', '2007', '2010', '2013', '2018'];

  it.each(modern)('%s: same entities, geometry, layers, colours and blocks', (version) => {
    const { bytes, notes } = writeDxf(src, { version });
    const { drawing: d, warnings } = readDxf(bytes);
    expect(warnings).toEqual([]);
    expect(d.header.acadVersion).toBe(ACADVER[version]);
    expect(ACADVER[version]).toMatch(/^AC10(15|18|21|24|27|32)$/);
    expect(countTypes(d.modelSpace)).toEqual(countTypes(src.modelSpace));
    const m = d.modelSpace;
    const line = first(m, 'LINE');
    close(line.start, [1.25, 2.5, 0]);
    close(line.end, [10.125, -3.0625, 0]);
    expect(line.layer).toBe('WALLS');
    const arc = first(m, 'ARC');
    close([arc.startAngle, arc.endAngle, arc.radius], [15, 250, 4]);
    expect(arc.lineweight).toBe(35);
    const ell = first(m, 'ELLIPSE');
    close([...ell.majorAxis, ell.ratio, ell.endParam], [20, 5, 0, 0.4, Math.PI * 2]);
    const lw = first(m, 'LWPOLYLINE');
    expect(lw.closed).toBe(true);
    close(
      lw.vertices.flatMap((v) => [v.x, v.y, v.bulge, v.startWidth, v.endWidth]),
      [0, 0, 0, 0, 0, 10, 0, 0.5, 0.5, 1, 10, 10, 0, 0, 0],
    );
    const p3 = first(m, 'POLYLINE');
    expect(p3.kind).toBe('3d');
    close(p3.vertices[1]?.position ?? [], [1, 2, 3]);
    const sp = first(m, 'SPLINE');
    expect(sp.knots).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
    close(sp.controlPoints.flat(), [0, 60, 0, 10, 80, 0, 20, 40, 0, 30, 60, 0]);
    const face = first(m, '3DFACE');
    expect(face.invisibleEdges).toBe(2);
    const text = first(m, 'TEXT');
    expect(text.text).toBe('中文 text ½');
    close([text.rotation, text.widthFactor, text.height], [30, 0.8, 2.5]);
    expect(first(m, 'MTEXT').text).toBe('第一行\\P{\\H2;second} line');
    const ins = first(m, 'INSERT');
    expect(ins.name).toBe('DOOR');
    close([...ins.scale, ins.rotation], [2, 2, 1, 90]);
    expect(ins.attributes.map((a) => [a.tag, a.text])).toEqual([['NAME', '前门']]);
    const hatch = first(m, 'HATCH');
    expect(hatch.solid).toBe(true);
    expect(hatch.paths.map((p) => (p.polyline ? p.polyline.vertices.length : p.edges.length))).toEqual([4, 4]);
    // Colours: ACI kept; true colour kept from 2004, nearest ACI before.
    expect(first(m, 'CIRCLE').color.aci).toBe(5);
    const pt = first(m, 'POINT');
    if (version === '2000') {
      expect(pt.color).toEqual({ aci: nearestAci(0xff8000), rgb: undefined });
      expect(notes.some((n) => n.startsWith('true colour:'))).toBe(true);
    } else expect(pt.color.rgb).toBe(0xff8000);
    expect(d.layers['标注']?.on).toBe(false);
    expect(d.layers['标注']?.color.aci).toBe(3);
    expect(d.layers.WALLS?.lineweight).toBe(50);
    expect(d.blocks.DOOR?.entities.map((e) => e.type)).toEqual(['LINE', 'ATTDEF']);
    expect(d.layouts.map((l) => l.name)).toEqual(['Model', 'Layout1']);
  });

  it('R12: each native entity keeps its geometry; the others follow the downgrade rules', () => {
    const { bytes, notes } = writeDxf(src, { version: 'R12' });
    const { drawing: d, warnings } = readDxf(bytes);
    expect(warnings).toEqual([]);
    expect(d.header.acadVersion).toBe('AC1009');
    const c = countTypes(d.modelSpace);
    for (const t of ['LINE', 'POINT', 'CIRCLE', 'ARC', 'SOLID', '3DFACE', 'TEXT', 'INSERT'] as const)
      expect(c[t] ?? 0, t).toBeGreaterThanOrEqual(countTypes(src.modelSpace)[t] ?? 0);
    for (const t of ['ELLIPSE', 'LWPOLYLINE', 'SPLINE', 'MTEXT', 'HATCH', 'XLINE']) {
      expect(c[t], t).toBeUndefined();
      expect(
        notes.some((n) => n.startsWith(`${t}:`)),
        `${t} in ${notes.join(' | ')}`,
      ).toBe(true);
    }
    close(first(d.modelSpace, 'LINE').end, [10.125, -3.0625, 0]);
    // The LWPOLYLINE is the first 2D POLYLINE, bulges and widths kept.
    const pl = d.modelSpace.find((e): e is EntityOf<'POLYLINE'> => e.type === 'POLYLINE' && e.kind === '2d' && e.vertices.length === 3);
    expect(pl?.closed).toBe(true);
    close(
      pl?.vertices.flatMap((v) => [v.position[0], v.position[1], v.bulge, v.startWidth, v.endWidth]) ?? [],
      [0, 0, 0, 0, 0, 10, 0, 0.5, 0.5, 1, 10, 10, 0, 0, 0],
    );
    expect(d.blocks.DOOR?.entities.map((e) => e.type)).toEqual(['LINE', 'ATTDEF']);
    expect(first(d.modelSpace, 'INSERT').attributes[0]?.text).toBe('前门');
    expect(d.header.codePage).toBe('ANSI_936');
  });
});

// ---- R12 rules --------------------------------------------------------------------------------

const only = (e: Entity): Drawing => {
  const d = sampleDrawing();
  d.modelSpace = [e];
  return d;
};

describe('R12 downgrade rules', () => {
  it('MTEXT becomes one TEXT per line with the plain text, top line first', () => {
    const mt = sampleDrawing().modelSpace.find((e) => e.type === 'MTEXT') as Entity;
    const { drawing } = readDxf(writeDxf(only(mt), { version: 'R12' }).bytes);
    const texts = drawing.modelSpace.filter((e): e is EntityOf<'TEXT'> => e.type === 'TEXT');
    expect(texts.map((t) => t.text)).toEqual(['第一行', 'second line']);
    expect(texts[0]?.insertion[1]).toBeCloseTo(90 - 3, 9);
    expect((texts[0]?.insertion[1] ?? 0) - (texts[1]?.insertion[1] ?? 0)).toBeCloseTo(5, 9);
  });

  it('an ellipse becomes a closed polyline within the chord tolerance of the true ellipse', () => {
    const d = sampleDrawing();
    const ell = d.modelSpace.find((e) => e.type === 'ELLIPSE') as EntityOf<'ELLIPSE'>;
    const tol = chordTolerance(d);
    expect(tol).toBeCloseTo(Math.hypot(100, 100) * 1e-4, 12);
    const { drawing } = readDxf(writeDxf(only(ell), { version: 'R12' }).bytes);
    const pl = first(drawing.modelSpace, 'POLYLINE');
    expect(pl.closed).toBe(true);
    const pts = pl.vertices.map((v) => v.position);
    expect(pts.length).toBe(ellipsePoints(ell, tol).length);
    // Every point of the true ellipse lies within tol of the polyline, and every vertex on the ellipse.
    const segDist = (p: Vec3): number => {
      let best = Infinity;
      for (let i = 0; i < pts.length; i++) {
        const a = pts[i] as Vec3,
          b = pts[(i + 1) % pts.length] as Vec3;
        const dx = b[0] - a[0],
          dy = b[1] - a[1];
        const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)));
        best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
      }
      return best;
    };
    const a = Math.hypot(20, 5),
      b = a * 0.4,
      ux = 20 / a,
      uy = 5 / a;
    let worst = 0;
    for (let k = 0; k < 4000; k++) {
      const t = (k / 4000) * Math.PI * 2;
      const x = a * Math.cos(t),
        y = b * Math.sin(t);
      worst = Math.max(worst, segDist([50 + x * ux - y * uy, 50 + x * uy + y * ux, 0]));
    }
    expect(worst).toBeLessThanOrEqual(tol);
    expect(worst).toBeGreaterThan(tol / 10); // not absurdly fine either
  });

  it('a solid hatch becomes its boundary polylines plus SOLIDs covering exactly its area', () => {
    const h = sampleDrawing().modelSpace.find((e) => e.type === 'HATCH') as Entity;
    const { drawing } = readDxf(writeDxf(only(h), { version: 'R12' }).bytes);
    const rings = drawing.modelSpace.filter((e) => e.type === 'POLYLINE');
    expect(rings.length).toBe(2);
    const solids = drawing.modelSpace.filter((e): e is EntityOf<'SOLID'> => e.type === 'SOLID');
    expect(solids.length).toBeGreaterThan(0);
    expect(solids.every((s) => s.color.aci === 4)).toBe(true);
    // Trapezoids in SOLID order 1-2-4-3: area = (top + bottom) / 2 * height.
    const area = solids.reduce((t, s) => {
      const [p1, p2, p3, p4] = s.points;
      return t + ((p2[0] - p1[0] + (p4[0] - p3[0])) / 2) * (p3[1] - p1[1]);
    }, 0);
    expect(area).toBeCloseTo(20 * 10 - 5 * 4, 9);
  });

  it('a pattern hatch becomes its boundary plus pattern LINEs inside it', () => {
    const d = sampleDrawing();
    const h = d.modelSpace.find((e) => e.type === 'HATCH') as EntityOf<'HATCH'>;
    const pattern: Entity = {
      ...h,
      solid: false,
      pattern: 'ANSI31',
      patternLines: [{ angle: 45, base: [0, 0], offset: [-1, 1], dashes: [] }],
    };
    const { drawing } = readDxf(writeDxf(only(pattern), { version: 'R12' }).bytes);
    const lines = drawing.modelSpace.filter((e): e is EntityOf<'LINE'> => e.type === 'LINE');
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) {
      for (const p of [l.start, l.end]) {
        expect(p[0]).toBeGreaterThanOrEqual(70 - 1e-9);
        expect(p[0]).toBeLessThanOrEqual(90 + 1e-9);
        // Nothing inside the hole.
        const mx = (l.start[0] + l.end[0]) / 2,
          my = (l.start[1] + l.end[1]) / 2;
        expect(mx > 75 + 1e-6 && mx < 80 - 1e-6 && my > 2 + 1e-6 && my < 6 - 1e-6).toBe(false);
      }
    }
  });

  it('true colours become the nearest ACI, said once', () => {
    const d = sampleDrawing();
    const { bytes, notes } = writeDxf(d, { version: 'R12' });
    const back = readDxf(bytes).drawing;
    expect(first(back.modelSpace, 'POINT').color.aci).toBe(nearestAci(0xff8000));
    expect(notes.filter((n) => n.startsWith('true colour:')).length).toBe(1);
  });
});

// ---- encodings and binary -----------------------------------------------------------------------

describe('Chinese text and binary DXF', () => {
  it('before 2007: $DWGCODEPAGE ANSI_936, GBK bytes, \\U+ escapes for what GBK lacks', () => {
    const d = sampleDrawing();
    const t = d.modelSpace.find((e) => e.type === 'TEXT') as EntityOf<'TEXT'>;
    t.text = '中文 ก 😀';
    const { bytes } = writeDxf(d, { version: '2004' });
    const raw = Buffer.from(bytes);
    expect(raw.includes(Buffer.from([0xd6, 0xd0, 0xce, 0xc4]))).toBe(true); // 中文 in GBK
    expect(raw.toString('latin1')).toContain('\\U+0E01');
    expect(raw.toString('latin1')).toContain('ANSI_936');
    expect(first(readDxf(bytes).drawing.modelSpace, 'TEXT').text).toBe('中文 ก 😀');
    const utf8 = writeDxf(d, { version: '2007' }).bytes;
    expect(Buffer.from(utf8).includes(Buffer.from('中文 ก 😀'))).toBe(true);
  });

  it.each(['R12', '2000', '2018'] as DxfVersion[])('binary %s reads back as the ASCII file does', (version) => {
    const d = sampleDrawing();
    const bin = writeDxf(d, { version, binary: true }).bytes;
    const txt = writeDxf(d, { version }).bytes;
    expect(detectDxf(bin)).toBe('binary');
    expect(detectDxf(txt)).toBe('ascii');
    const a = readDxf(bin),
      b = readDxf(txt);
    expect(a.warnings).toEqual([]);
    expect(JSON.stringify(a.drawing.modelSpace)).toBe(JSON.stringify(b.drawing.modelSpace));
    expect(JSON.stringify(a.drawing.blocks)).toBe(JSON.stringify(b.drawing.blocks));
  });
});

// ---- fixtures × versions, ezdxf --------------------------------------------------------------

interface EzdxfResult {
  path: string;
  error?: string;
  msp?: number;
  layouts?: Record<string, number>;
  blocks?: number;
  texts?: string[];
}

interface Written {
  fixture: string;
  version: DxfVersion;
  binary: boolean;
  path: string;
  source: Drawing;
  back: Drawing;
  notes: string[];
}

const textsOf = (d: Drawing): string[] => {
  const out: string[] = [];
  const walk = (es: Entity[]): void => {
    for (const e of es) {
      if (e.type === 'TEXT' || e.type === 'ATTRIB' || e.type === 'ATTDEF' || e.type === 'MTEXT') out.push(e.text);
      if (e.type === 'INSERT') for (const a of e.attributes) out.push(a.text);
    }
  };
  walk(d.modelSpace);
  for (const b of Object.values(d.blocks)) if (!/^[*$](model|paper)_space/i.test(b.name)) walk(b.entities);
  return out;
};

function ezdxfLoad(paths: string[]): Map<string, EzdxfResult> {
  const stdout = execFileSync('/usr/bin/python3', [CHECK], {
    input: paths.join('\n'),
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 240_000,
  });
  const out = new Map<string, EzdxfResult>();
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as EzdxfResult;
    out.set(r.path, r);
  }
  return out;
}

/** Types the version writes as they are: any other type missing from the output needs a note. */
function accounted(w: Written): string[] {
  const problems: string[] = [];
  const src = countTypes([...w.source.modelSpace, ...w.source.layouts.filter((l) => !l.isModel).flatMap((l) => l.entities ?? [])]);
  const out = countTypes([...w.back.modelSpace, ...w.back.layouts.filter((l) => !l.isModel).flatMap((l) => l.entities ?? [])]);
  for (const [type, n] of Object.entries(src)) {
    const got = out[type] ?? 0;
    if (got >= n) continue;
    if (!w.notes.some((note) => note.startsWith(`${type}:`) || /paper layout left out/.test(note)))
      problems.push(`${w.fixture} ${w.version}: ${type} ${n} → ${got} without a note`);
  }
  return problems;
}

const fixtures = readdirSync(FIX).filter((f) => /\.(dxf|dwg)$/i.test(f));
const written: Written[] = [];
let ezdxf = new Map<string, EzdxfResult>();

beforeAll(async () => {
  const dir = join(tmp, 'fixtures');
  execFileSync('mkdir', ['-p', dir]);
  for (const f of fixtures) {
    const { drawing } = await openDrawing(readFileSync(join(FIX, f)), f);
    for (const version of DXF_VERSIONS)
      for (const binary of version === 'R12' || version === '2018' ? [false, true] : [false]) {
        const { bytes, notes } = writeDxf(drawing, { version, binary });
        const path = join(dir, `${f}.${version}${binary ? '.bin' : ''}.dxf`);
        writeFileSync(path, bytes);
        written.push({ fixture: f, version, binary, path, source: drawing, back: readDxf(bytes).drawing, notes });
      }
  }
  ezdxf = ezdxfLoad(written.map((w) => w.path));
}, 240_000);

describe('every fixture in every version', () => {
  it('writes every fixture (DXF and the DWG) in all seven versions', () => {
    expect(fixtures.some((f) => f.endsWith('.dwg'))).toBe(true);
    expect(written.length).toBe(fixtures.length * 9);
  });

  it('ezdxf loads every file, with the same model-space count as our reader', () => {
    const failures: string[] = [];
    for (const w of written) {
      const r = ezdxf.get(w.path);
      if (!r || r.error) failures.push(`${w.fixture} ${w.version}${w.binary ? ' binary' : ''}: ${r?.error ?? 'no answer'}`);
      else if (r.msp !== w.back.modelSpace.length)
        failures.push(`${w.fixture} ${w.version}: ezdxf ${r.msp} vs ours ${w.back.modelSpace.length}`);
    }
    expect(failures).toEqual([]);
  });

  it('our reader finds every entity again, or a note says where it went', () => {
    expect(written.flatMap(accounted)).toEqual([]);
  });

  it('keeps the blocks', () => {
    for (const w of written) {
      const names = (d: Drawing): string[] =>
        Object.keys(d.blocks)
          .filter((n) => !/^[*$](model|paper)_space/i.test(n))
          .sort();
      expect(names(w.back), `${w.fixture} ${w.version}`).toEqual(names(w.source));
    }
  });

  it('Chinese fixtures keep their text in every version (ezdxf reads the same strings)', () => {
    const zh = written.filter((w) => w.fixture.startsWith('gen_zh_'));
    expect(zh.length).toBeGreaterThan(0);
    for (const w of zh) {
      const got = ezdxf.get(w.path)?.texts ?? [];
      const want = textsOf(w.source).filter((t) => /[\u4e00-\u9fff]/.test(t));
      expect(want.length).toBeGreaterThan(0);
      // MTEXT becomes TEXT lines in R12: compare the Chinese characters (ezdxf and ours list them in different orders).
      const han = (list: string[]): string => [...list.join('').replace(/[^\u4e00-\u9fff]/g, '')].sort().join('');
      if (w.version === 'R12') {
        expect(han(got), w.path).toBe(han(textsOf(w.back)));
        expect(han(textsOf(w.back)), w.path).toBe(han(textsOf(w.source)));
      } else for (const t of want) expect(got, `${w.path}: ${t}`).toContain(t);
    }
  });
});

describe('convertToDxf', () => {
  it('opens a DWG and answers the DXF bytes, notes and the reader warnings', async () => {
    const r = await convertToDxf(readFileSync(join(FIX, 'acs_sample_AC1015.dwg')), 'acs_sample_AC1015.dwg', { version: '2000' });
    expect(readDxf(r.bytes).drawing.header.acadVersion).toBe('AC1015');
    expect(Array.isArray(r.warnings)).toBe(true);
    expect(r.notes.some((n) => n.startsWith('MULTILEADER:'))).toBe(true);
  });
});
