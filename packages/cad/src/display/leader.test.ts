import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Drawing, MLeaderEntity } from '../model';
import { readDxf } from '../dxf/reader';
import { dxfText } from '../dxf/test-helpers';
import { buildScenes } from './builder';
import { subpaths } from './test-helpers';
import type { DisplayList, PathPrimitive, TextPrimitive } from './types';

type G = [number, string | number][];

function drawing(entities: G, dimstyles: G = [], blocks: G = [], recordTable: G = [], extraTables: G = []): Drawing {
  const g: G = [
    [0, 'SECTION'],
    [2, 'TABLES'],
    [0, 'TABLE'],
    [2, 'BLOCK_RECORD'],
    ...recordTable,
    [0, 'ENDTAB'],
    [0, 'TABLE'],
    [2, 'DIMSTYLE'],
    ...dimstyles,
    [0, 'ENDTAB'],
    ...extraTables,
    [0, 'ENDSEC'],
  ];
  g.push([0, 'SECTION'], [2, 'BLOCKS'], ...blocks, [0, 'ENDSEC'], [0, 'SECTION'], [2, 'ENTITIES'], ...entities, [0, 'ENDSEC'], [0, 'EOF']);
  return readDxf(new TextEncoder().encode(dxfText(g))).drawing;
}

function list(entities: G, dimstyles: G = [], blocks: G = [], recordTable: G = [], extraTables: G = []): DisplayList {
  return buildScenes(drawing(entities, dimstyles, blocks, recordTable, extraTables), { layouts: 'model' }).scenes[0]!.list;
}

const fills = (l: DisplayList): [number, number][][] =>
  l.primitives
    .filter((p): p is PathPrimitive => p.kind === 'path' && p.mode === 'fill')
    .map((p) =>
      Array.from({ length: p.coords.length / 2 }, (_, i): [number, number] => [p.coords[2 * i] as number, p.coords[2 * i + 1] as number]),
    );
const textPrims = (l: DisplayList): TextPrimitive[] => l.primitives.filter((p): p is TextPrimitive => p.kind === 'text');
const texts = (l: DisplayList): string =>
  textPrims(l)
    .map((p) => p.text)
    .join(' ');
/** World x extent of a text primitive's advance. */
const span = (t: TextPrimitive): [number, number] => [t.matrix[4], t.matrix[4] + t.matrix[0] * t.width];
/** Distinct baselines (world y of unrotated text), top first. */
const baselines = (l: DisplayList): number[] =>
  [...new Set(textPrims(l).map((t) => Math.round(t.matrix[5] * 1e6) / 1e6))].sort((a, b) => b - a);
const colorOf = (l: DisplayList, style: number): number => l.styles[style]!.color;
const rgbInt = (raw: number): number => raw | 0;

function leader(
  vertices: [number, number][],
  o: { arrow?: boolean; path?: number; style?: string; hook?: boolean; extra?: G; xdata?: G } = {},
): G {
  const g: G = [
    [0, 'LEADER'],
    [100, 'AcDbEntity'],
    [8, '0'],
    [100, 'AcDbLeader'],
    [3, o.style ?? 'STANDARD'],
    [71, o.arrow === false ? 0 : 1],
    [72, o.path ?? 0],
  ];
  g.push([73, o.hook ? 0 : 3], [74, 0], [75, o.hook ? 1 : 0], ...(o.extra ?? []), [76, vertices.length]);
  for (const [x, y] of vertices) g.push([10, x], [20, y], [30, 0]);
  g.push(...(o.xdata ?? []));
  return g;
}

describe('LEADER', () => {
  it('draws its path and a closed filled arrowhead at the first vertex, DIMASZ × DIMSCALE long', () => {
    const styles: G = [
      [0, 'DIMSTYLE'],
      [105, '30'],
      [2, 'BIG'],
      [70, 0],
      [40, 1.5],
      [41, 2],
    ];
    const l = list(
      leader(
        [
          [0, 0],
          [10, 10],
          [20, 10],
        ],
        { style: 'BIG' },
      ),
      styles,
    );
    expect(subpaths(l).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [10, 10],
        [20, 10],
      ],
    ]);
    const [arrow, ...more] = fills(l);
    expect(more).toHaveLength(0);
    expect(arrow![0]).toEqual([0, 0]);
    // The base of the arrowhead is 3 units back along the first segment, 1/3 of that wide.
    const base = arrow!.slice(1);
    const mid = [(base[0]![0] + base[1]![0]) / 2, (base[0]![1] + base[1]![1]) / 2];
    expect(Math.hypot(mid[0]!, mid[1]!)).toBeCloseTo(3, 9);
    expect(mid[0]).toBeCloseTo(mid[1]!, 9);
    expect(Math.hypot(base[0]![0] - base[1]![0], base[0]![1] - base[1]![1])).toBeCloseTo(1, 9);
  });

  it('no arrowhead when the flag is off; a spline path runs smoothly through the vertices', () => {
    const pts: [number, number][] = [
      [0, 0],
      [10, 10],
      [20, 0],
    ];
    const l = list(leader(pts, { arrow: false, path: 1 }));
    expect(fills(l)).toHaveLength(0);
    const [curve] = subpaths(l);
    expect(curve!.points.length).toBeGreaterThan(8);
    for (const p of pts) expect(curve!.points.some((q) => Math.hypot(q[0] - p[0], q[1] - p[1]) < 1e-9)).toBe(true);
  });

  // An MTEXT leader with a hook line along +x, text 2.5 high and 15 wide.
  const hooked = (xdata: G = []): G =>
    leader(
      [
        [0, 0],
        [10, 10],
        [12, 10],
      ],
      {
        arrow: false,
        style: 'TAD',
        hook: true,
        extra: [
          [40, 2.5],
          [41, 15],
        ],
        xdata,
      },
    );
  const tad: G = [
    [0, 'DIMSTYLE'],
    [105, '31'],
    [2, 'TAD'],
    [70, 0],
    [77, 1],
    [147, 0.5],
  ];

  it('runs the hook line on under its MTEXT (text above the line): DIMGAP + the text width', () => {
    const l = list(hooked(), tad);
    expect(subpaths(l).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [10, 10],
        [12, 10],
        [27.5, 10],
      ],
    ]);
  });

  it('keeps the hook line short when a DSTYLE override puts the text beside it (DIMTAD 0)', () => {
    const xdata: G = [
      [1001, 'ACAD'],
      [1000, 'DSTYLE'],
      [1002, '{'],
      [1070, 77],
      [1070, 0],
      [1002, '}'],
    ];
    const l = list(hooked(xdata), tad);
    expect(subpaths(l).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [10, 10],
        [12, 10],
      ],
    ]);
  });
});

interface MLOptions {
  text?: string;
  /** Text location (context 12). */
  at?: [number, number];
  height?: number;
  /** Defined width (context 43). */
  width?: number;
  /** Context 171: 1 left, 2 center, 3 right. */
  align?: number;
  /** Context 172. */
  flow?: number;
  gap?: number;
  arrowSize?: number;
  /** Groups added at the end of the MTEXT part of the context. */
  context?: G;
  /** Entity-level groups after the context. */
  entity?: G;
  lines?: [number, number][][];
  last?: [number, number];
  dogleg?: number;
  /** LEADER{ 271 }: 0 horizontal, 1 vertical attachment. */
  attachment?: number;
  noText?: boolean;
  /** Block content present (context 296). */
  hasBlock?: boolean;
  /** Raw MLEADER colours: text (context 90), leader lines (entity 91). */
  textColor?: number;
  leaderColor?: number;
  /** Entity 170: 0 invisible, 1 straight, 2 spline. */
  leaderType?: number;
  /** The entity's own colour (62). */
  aci?: number;
}

/** A MULTILEADER as AutoCAD writes it (groups in AutoCAD's order, values from acs_sample_AC1015). */
function mleader(o: MLOptions = {}): G {
  const [x, y] = o.at ?? [21, 11];
  const last = o.last ?? [18, 10];
  const dog = o.dogleg ?? 2;
  const g: G = [
    [0, 'MULTILEADER'],
    [5, '7B8'],
    [100, 'AcDbEntity'],
    [8, '0'],
    ...(o.aci !== undefined ? ([[62, o.aci]] as G) : []),
    [100, 'AcDbMLeader'],
    [270, 2],
    [300, 'CONTEXT_DATA{'],
  ];
  g.push(
    [40, 1],
    [10, last[0] + dog],
    [20, last[1]],
    [30, 0],
    [41, o.height ?? 2.5],
    [140, o.arrowSize ?? 1.5],
    [145, o.gap ?? 0.5],
    [174, 1],
    [175, 1],
    [176, 0],
    [177, 0],
  );
  if (o.noText) g.push([290, 0]);
  else {
    g.push(
      [290, 1],
      [304, o.text ?? 'Note text'],
      [11, 0],
      [21, 0],
      [31, 1],
      [12, x],
      [22, y],
      [32, 0],
      [13, 1],
      [23, 0],
      [33, 0],
      [42, 0],
      [43, o.width ?? 0],
      [44, 0],
      [45, 1],
      [170, 1],
    );
    g.push(
      [90, o.textColor ?? rgbInt(0xc0000000)],
      [171, o.align ?? 1],
      [172, o.flow ?? 5],
      [91, rgbInt(0xc0000000)],
      [141, 0],
      [92, 0],
      [291, 0],
      [292, 0],
      [173, 0],
      [293, 0],
      [142, 0],
      [143, 0],
      [294, 0],
      [295, 0],
    );
  }
  g.push(...(o.context ?? []));
  g.push([296, o.hasBlock ? 1 : 0], [110, 0], [120, 0], [130, 0], [111, 1], [121, 0], [131, 0], [112, 0], [122, 1], [132, 0], [297, 0]);
  g.push([302, 'LEADER{'], [290, 1], [291, 1], [10, last[0]], [20, last[1]], [30, 0], [11, 1], [21, 0], [31, 0], [90, 0], [40, dog]);
  for (const [i, line] of (o.lines ?? [[[0, 0]]]).entries()) {
    g.push([304, 'LEADER_LINE{']);
    for (const [px, py] of line) g.push([10, px], [20, py], [30, 0]);
    g.push([91, i], [305, '}']);
  }
  if (o.attachment !== undefined) g.push([271, o.attachment]);
  g.push([303, '}'], [272, 9], [273, 9], [301, '}']);
  g.push(
    [340, 'D8'],
    [90, 279552],
    [170, o.leaderType ?? 1],
    [91, o.leaderColor ?? rgbInt(0xc1000000)],
    [341, '14'],
    [171, -2],
    [290, 1],
    [291, 1],
    [41, dog],
    [42, o.arrowSize ?? 1.5],
    [172, o.noText ? 1 : 2],
  );
  g.push(...(o.entity ?? []));
  return g;
}

describe('MULTILEADER', () => {
  it('draws the leader line through the landing (dogleg) to the content, the arrowhead and the MTEXT', () => {
    const l = list(mleader());
    const lines = subpaths(l).map((s) => s.points);
    expect(lines).toContainEqual([
      [0, 0],
      [18, 10],
      [20, 10],
    ]);
    const [arrow] = fills(l);
    expect(arrow![0]).toEqual([0, 0]);
    expect(texts(l)).toContain('Note');
    expect(texts(l)).toContain('text');
    // Top-left attachment at the text location: the text starts at x = 21, its first line below y = 11.
    const t = textPrims(l)[0]!;
    expect(t.matrix[4]).toBeCloseTo(21, 6);
    expect(t.matrix[5]).toBeCloseTo(11 - 2.5, 6);
  });

  it('keeps a long text on one line when the defined width is 0', () => {
    const text = 'A rather long leader note that must stay on a single line';
    const l = list(mleader({ text }));
    expect(baselines(l)).toHaveLength(1);
    expect(texts(l)).toBe(text);
  });

  it('wraps the text at the defined width (context 43)', () => {
    const text = 'A rather long leader note that wraps';
    const l = list(mleader({ text, width: 20 }));
    const lines = baselines(l);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    // Lines 5/3 of the text height apart, each within the width.
    expect(lines[0]! - lines[1]!).toBeCloseTo((5 / 3) * 2.5, 6);
    for (const t of textPrims(l)) {
      const [x0, x1] = span(t);
      expect(x0).toBeGreaterThanOrEqual(21 - 1e-9);
      expect(x1).toBeLessThanOrEqual(21 + 20 * 1.02);
    }
    expect(texts(l).replace(/\s+/g, ' ')).toBe(text);
  });

  it('attaches the text by its left, centre or right at the location (context 171)', () => {
    const ends = (align: number): [number, number] => {
      const ts = textPrims(list(mleader({ align, at: [50, 11] })));
      return [Math.min(...ts.map((t) => span(t)[0])), Math.max(...ts.map((t) => span(t)[1]))];
    };
    const [l0, l1] = ends(1);
    const [c0, c1] = ends(2);
    const [r0, r1] = ends(3);
    expect(l0).toBeCloseTo(50, 6);
    expect(r1).toBeCloseTo(50, 6);
    expect((c0 + c1) / 2).toBeCloseTo(50, 6);
    // The same text, the same width.
    expect(l1 - l0).toBeCloseTo(r1 - r0, 6);
  });

  it('frames the text with the landing gap as margin (entity 292), reaching the content base point', () => {
    const l = list(mleader({ text: 'Framed', gap: 0.5, entity: [[292, 1]] }));
    const rects = subpaths(l)
      .map((s) => s.points)
      .filter((p) => p.length === 5 && p[0]![0] === p[4]![0] && p[0]![1] === p[4]![1]);
    expect(rects).toHaveLength(1);
    const r = rects[0]!;
    const xs = r.map((p) => p[0]),
      ys = r.map((p) => p[1]);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    // Top: the text top (the location, y = 11) plus the gap; left: the content base point (x = 20).
    expect(maxY).toBeCloseTo(11.5, 6);
    expect(minX).toBeCloseTo(20, 6);
    const [t] = textPrims(l);
    const [x0, x1] = span(t!);
    expect(x0).toBeGreaterThan(minX);
    expect(maxX).toBeCloseTo(x1 + 0.5, 6);
    // Bottom: the baseline of the (only) line less the gap.
    expect(minY).toBeCloseTo(t!.matrix[5] - 0.5, 6);
    // No frame without the flag.
    expect(subpaths(list(mleader({ text: 'Framed' }))).filter((s) => s.points.length === 5)).toHaveLength(0);
  });

  it('draws the arrowhead block (342 → block record) scaled by the arrow size, pointing at the tip', () => {
    const records: G = [
      [0, 'BLOCK_RECORD'],
      [5, '7A'],
      [2, 'MYARROW'],
    ];
    const blocks: G = [
      [0, 'BLOCK'],
      [8, '0'],
      [2, 'MYARROW'],
      [70, 0],
      [10, 0],
      [20, 0],
      [30, 0],
      [3, 'MYARROW'],
      [0, 'LINE'],
      [8, '0'],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, -1],
      [21, 0.5],
      [31, 0],
      [0, 'ENDBLK'],
    ];
    const l = list(mleader({ lines: [[[0, 10]]], last: [10, 10], arrowSize: 2, entity: [[342, '7A']] }), [], blocks, records);
    // The leader runs +x from the tip at (0, 10): the block turns to point -x, twice its size.
    const seg = subpaths(l)
      .map((s) => s.points)
      .find((p) => p.length === 2 && Math.abs(p[0]![0]) < 1e-9 && Math.abs(p[0]![1] - 10) < 1e-9);
    expect(seg).toBeDefined();
    expect(seg![1]![0]).toBeCloseTo(2, 9);
    expect(seg![1]![1]).toBeCloseTo(9, 9);
    expect(fills(l)).toHaveLength(0);
  });

  it('takes the leader and text colours from the entity (91) and the context (90); ByBlock = the entity colour', () => {
    // Text colour ACI 1 (red), leader colour RGB green.
    const l = list(mleader({ text: 'Coloured', textColor: rgbInt(0xc3000001), leaderColor: rgbInt(0xc2000000 | 0x00ff00) }));
    const [t] = textPrims(l);
    expect(colorOf(l, t!.style)).toBe(0xff0000);
    const line = subpaths(l).find((s) => s.points.length === 3)!;
    expect(colorOf(l, line.style)).toBe(0x00ff00);
    // ByBlock leader colour (the default) → the MULTILEADER's own colour (ACI 5, blue).
    const own = list(mleader({ aci: 5 }));
    const line2 = subpaths(own).find((s) => s.points.length === 3)!;
    expect(colorOf(own, line2.style)).toBe(0x0000ff);
  });

  it('uses the text style of the context (340 → STYLE handle)', () => {
    const style = (handle: string, name: string, widthFactor: number): G => [
      [0, 'STYLE'],
      [5, handle],
      [2, name],
      [70, 0],
      [40, 0],
      [41, widthFactor],
      [50, 0],
      [71, 0],
      [42, 2.5],
      [3, 'arial.ttf'],
      [4, ''],
    ];
    const styles: G = [[0, 'TABLE'], [2, 'STYLE'], ...style('11', 'Standard', 1), ...style('5A', 'WIDE', 2), [0, 'ENDTAB']];
    const plain = textPrims(list(mleader({ text: 'Styled' }), [], [], [], styles))[0]!;
    const wide = textPrims(list(mleader({ text: 'Styled', context: [[340, '5A']] }), [], [], [], styles))[0]!;
    // The style's width factor 2 stretches the text along its baseline.
    expect(span(wide)[1] - span(wide)[0]).toBeCloseTo(2 * (span(plain)[1] - span(plain)[0]), 6);
  });

  it('underlines the text from the connection point for "underline bottom line" attachments (5)', () => {
    const l = list(mleader({ text: 'Under', context: [[174, 5]] }));
    const [t] = textPrims(l);
    const under = subpaths(l)
      .map((s) => s.points)
      .find((p) => p.length === 2 && p[0]![0] === 20 && p[0]![1] === 10);
    expect(under).toBeDefined();
    // Across the text and the landing gap.
    expect(under![1]![0]).toBeCloseTo(20 + (span(t!)[1] - span(t!)[0]) + 0.5, 6);
    expect(under![1]![1]).toBeCloseTo(10, 9);
  });

  it('sets paragraphs side by side for a top-to-bottom flow (172 = 3), as AutoCAD draws them', () => {
    const l = list(mleader({ text: 'ONE\\PTWO', flow: 3, align: 3, at: [60, 10] }));
    expect(baselines(l)).toEqual([10]);
    expect(texts(l)).toBe('ONE TWO');
    expect(Math.max(...textPrims(l).map((t) => span(t)[1]))).toBeCloseTo(60, 6);
  });

  it('draws no leader lines for leader type 0, a curve for type 2', () => {
    const lines: [number, number][][] = [
      [
        [0, 0],
        [8, 8],
      ],
    ];
    const invisible = list(mleader({ lines, leaderType: 0 }));
    expect(subpaths(invisible)).toHaveLength(0);
    expect(fills(invisible)).toHaveLength(0);
    const spline = list(mleader({ lines, leaderType: 2 }));
    const [curve] = subpaths(spline);
    expect(curve!.points.length).toBeGreaterThan(8);
    expect(curve!.points[0]).toEqual([0, 0]);
  });

  it('draws block content at its position, scale and rotation, with its attribute values', () => {
    const records: G = [
      [0, 'BLOCK_RECORD'],
      [5, '7A'],
      [2, 'TAG'],
    ];
    const blocks: G = [
      [0, 'BLOCK'],
      [8, '0'],
      [2, 'TAG'],
      [70, 2],
      [10, 0],
      [20, 0],
      [30, 0],
      [3, 'TAG'],
      [0, 'LINE'],
      [8, '0'],
      [10, 0],
      [20, 0],
      [30, 0],
      [11, 1],
      [21, 0],
      [31, 0],
      [0, 'ATTDEF'],
      [5, 'AD1'],
      [8, '0'],
      [100, 'AcDbText'],
      [10, 0.5],
      [20, 0],
      [30, 0],
      [40, 0.25],
      [1, ''],
      [100, 'AcDbAttributeDefinition'],
      [3, 'Number?'],
      [2, 'NUM'],
      [70, 0],
      [0, 'ENDBLK'],
    ];
    const content: G = [
      [341, '7A'],
      [14, 0],
      [24, 0],
      [34, 1],
      [15, 30],
      [25, 5],
      [35, 0],
      [16, 2],
      [26, 2],
      [36, 1],
      [46, Math.PI / 2],
      [93, rgbInt(0xc1000000)],
    ];
    const attrs: G = [
      [330, 'AD1'],
      [177, 1],
      [44, 0],
      [302, 'A-7'],
    ];
    const l = list(mleader({ noText: true, hasBlock: true, context: content, entity: attrs }), [], blocks, records);
    // The unit line along x, doubled and turned a quarter: from (30, 5) up to (30, 7).
    const seg = subpaths(l)
      .map((s) => s.points)
      .find((p) => p.length === 2 && Math.abs(p[0]![0] - 30) < 1e-9 && Math.abs(p[0]![1] - 5) < 1e-9);
    expect(seg).toBeDefined();
    expect(seg![1]![0]).toBeCloseTo(30, 9);
    expect(seg![1]![1]).toBeCloseTo(7, 9);
    // The attribute value at the ATTDEF's place, transformed the same way: (0.5, 0) → (30, 6), height 0.5.
    const a = textPrims(l).find((t) => t.text === 'A-7');
    expect(a).toBeDefined();
    expect(a!.matrix[4]).toBeCloseTo(30, 6);
    expect(a!.matrix[5]).toBeCloseTo(6, 6);
  });

  it('reads the context and the entity-level groups into the model', () => {
    const d = drawing(
      mleader({
        text: 'X',
        width: 12,
        align: 3,
        entity: [
          [292, 1],
          [342, '7A'],
          [94, 1],
          [345, '7B'],
        ],
      }),
    );
    const e = d.modelSpace[0] as MLeaderEntity;
    expect(e.type).toBe('MULTILEADER');
    expect(e).toMatchObject({
      text: 'X',
      textPosition: [21, 11, 0],
      textHeight: 2.5,
      textWidth: 12,
      textAlignment: 3,
      textFlow: 5,
      landingGap: 0.5,
      contentScale: 1,
      contentBase: [20, 10, 0],
      textFrame: true,
      arrowHandle: '7A',
      arrowHeads: [{ index: 1, handle: '7B' }],
      leaderType: 1,
      leaderColor: { aci: 0 },
      leaderLineweight: -2,
      hasDogleg: true,
      contentType: 2,
      styleHandle: 'D8',
    });
    expect(e.leaders).toEqual([
      { lastPoint: [18, 10, 0], doglegVector: [1, 0, 0], doglegLength: 2, lines: [{ vertices: [[0, 0, 0]], index: 0 }] },
    ]);
    expect(e.blockHandle).toBeUndefined();
  });
});

// ---- corpus -----------------------------------------------------------------------------------

const ACS = '/work/shared/corpus/dxf/acs_sample_AC1015_ascii.dxf';

describe.runIf(existsSync(ACS))('MULTILEADER in acs_sample_AC1015_ascii.dxf (corpus)', () => {
  it('lays the texts out on as many lines as AutoCAD does (its proxy graphics)', () => {
    const d = readDxf(readFileSync(ACS)).drawing;
    const mls = d.modelSpace.filter((e): e is MLeaderEntity => e.type === 'MULTILEADER');
    expect(mls.length).toBeGreaterThanOrEqual(14);
    const lineCounts = new Map<string, number>();
    for (const e of mls) {
      const l = buildScenes({ ...d, modelSpace: [e] }, { layouts: 'model' }).scenes[0]!.list;
      const ts = textPrims(l);
      expect(ts.length).toBeGreaterThan(0);
      // Baselines across the text direction.
      const a = Math.atan2(ts[0]!.matrix[1], ts[0]!.matrix[0]);
      const h = e.textHeight ?? 1;
      const across = [...new Set(ts.map((t) => Math.round((-t.matrix[4] * Math.sin(a) + t.matrix[5] * Math.cos(a)) / (h * 0.01))))];
      lineCounts.set(e.handle!, across.length);
    }
    // Single-line texts, and the \P texts set side by side (top-to-bottom flow), stay on one line.
    for (const h of ['B1A', 'B25', 'B26', 'B27', 'B22', 'B23', 'B24']) expect(lineCounts.get(h), h).toBe(1);
    // Three paragraphs.
    for (const h of ['B1B', 'B1C', 'B1D', 'B1E', 'B1F', 'B20', 'B21']) expect(lineCounts.get(h), h).toBe(3);
    // 'MLeader text, hello!' in a defined width of 1.447 at height 0.18: AutoCAD breaks it once.
    expect(lineCounts.get('7B8')).toBe(2);
  });
});
