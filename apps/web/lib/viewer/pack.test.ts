import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildScenes } from '@xcad/cad/display';
import { readDxf } from '@xcad/cad/dxf';
import { describe, expect, it } from 'vitest';
import { noticesOf, packList, packScenes, transferablesOf } from './pack';
import { handMadeDxf } from './test-drawings';
import { FILL_BACKGROUND, FILL_FLOATS, LINE_FLOATS, WIDE_FLOATS, type PackedList } from './types';

function packed(dxf: string | Uint8Array) {
  const { drawing, warnings } = readDxf(typeof dxf === 'string' ? new TextEncoder().encode(dxf) : dxf);
  const result = buildScenes(drawing, { includeHiddenLayers: true, plot: false });
  return { ...packScenes(result.scenes), result, warnings };
}

/** World segments of a list, thin and wide: x0, y0, x1, y1, order, style (origins added back). */
function segmentsOf(list: PackedList): number[][] {
  const out: number[][] = [];
  for (const b of list.buckets) {
    const [ox, oy] = b.origin;
    const l = b.lines;
    for (let o = 0; o < l.length; o += 2 * LINE_FLOATS)
      out.push([
        (l[o] as number) + ox,
        (l[o + 1] as number) + oy,
        (l[o + LINE_FLOATS] as number) + ox,
        (l[o + LINE_FLOATS + 1] as number) + oy,
        l[o + 2] as number,
        l[o + 3] as number,
      ]);
    const w = b.wide;
    for (let o = 0; o < w.length; o += 6 * WIDE_FLOATS)
      out.push([
        (w[o] as number) + ox,
        (w[o + 1] as number) + oy,
        (w[o + 2] as number) + ox,
        (w[o + 3] as number) + oy,
        w[o + 6] as number,
        w[o + 7] as number,
      ]);
  }
  return out;
}

describe('packing display lists for the GPU', () => {
  it('turns strokes into segments in world coordinates with their draw order and style', () => {
    const { lists, scenes } = packed(handMadeDxf());
    expect(scenes).toHaveLength(1);
    const model = lists[scenes[0]?.list ?? -1] as PackedList;
    const segments = segmentsOf(model);
    // The 500 mm line, the four sides of the square, the note's line.
    expect(segments).toHaveLength(6);
    expect(segments).toContainEqual([100, 100, 400, 500, 0, expect.any(Number)]);
    expect(segments.filter((s) => s[4] === 1)).toHaveLength(4);
    const walls = model.layers.findIndex((l) => l.name === 'WALLS');
    const line = segments.find((s) => s[4] === 0) as number[];
    expect(model.styles[line[5] as number]?.layer).toBe(walls);
    expect(model.styles[line[5] as number]?.color).toBe(0xff0000);
    // The square's 0.70 mm lineweight survives, and makes its sides wide lines; the others are thin.
    const side = segments.find((s) => s[4] === 1) as number[];
    expect(model.styles[side[5] as number]?.lineweight).toBeCloseTo(0.7, 9);
    expect(model.segmentCount).toBe(6);
    const wide = model.buckets.reduce((n, b) => n + b.wide.length / WIDE_FLOATS / 6, 0);
    const thin = model.buckets.reduce((n, b) => n + b.lines.length / LINE_FLOATS / 2, 0);
    expect([thin, wide]).toEqual([2, 4]);
  });

  it('keeps a coarse copy of the thin lines that drops polyline vertices closer than a pixel at full view', () => {
    // A half circle in 20,000 steps of 0.06 units in a list 1,414 units across (tolerance 0.35), and a lone short line.
    const arc: number[] = [];
    for (let i = 0; i <= 20000; i++) arc.push(500 + 400 * Math.cos((i * Math.PI) / 20000), 400 * Math.sin((i * Math.PI) / 20000));
    const list = {
      styles: [{ color: -1, lineweight: 0.25, layer: 0 }],
      layers: [{ name: '0', color: -1, visible: true }],
      fonts: [],
      primitives: [
        { kind: 'path' as const, mode: 'stroke' as const, style: 0, coords: Float64Array.from(arc), starts: Uint32Array.of(0) },
        {
          kind: 'path' as const,
          mode: 'stroke' as const,
          style: 0,
          coords: Float64Array.of(0, 1000, 0.01, 1000),
          starts: Uint32Array.of(0),
        },
      ],
      bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 },
    };
    const packedList = packList(list, 0);
    const pairs = (key: 'lines' | 'coarse') => packedList.buckets.reduce((n, b) => n + b[key].length / LINE_FLOATS / 2, 0);
    expect(pairs('lines')).toBe(20001);
    expect(pairs('coarse')).toBeLessThan(20001 / 4);
    expect(pairs('coarse')).toBeGreaterThan(1000);
    expect(packedList.coarseTolerance).toBeCloseTo(Math.hypot(1000, 1000) / 4000, 9);
    // The lone line, however short, is in both; the arc still ends where it ends.
    const ends = packedList.buckets.flatMap((b) => {
      const out: number[][] = [];
      for (let o = 0; o < b.coarse.length; o += LINE_FLOATS)
        out.push([(b.coarse[o] as number) + b.origin[0], (b.coarse[o + 1] as number) + b.origin[1]]);
      return out;
    });
    expect(ends.some(([x, y]) => Math.abs((x as number) - 0.01) < 1e-3 && Math.abs((y as number) - 1000) < 1e-3)).toBe(true);
    expect(ends.some(([x, y]) => Math.abs((x as number) - 100) < 1e-3 && Math.abs(y as number) < 1e-3)).toBe(true);
    expect(ends.some(([x, y]) => Math.abs((x as number) - 900) < 1e-3 && Math.abs(y as number) < 1e-3)).toBe(true);
  });

  it('triangulates fills with the area of the hatch, keeping their order', () => {
    const { lists } = packed(handMadeDxf());
    const model = lists[0] as PackedList;
    let area = 0,
      vertices = 0;
    for (const b of model.buckets) {
      const f = b.fills;
      for (let o = 0; o < f.length; o += 3 * FILL_FLOATS) {
        const ax = f[o] as number,
          ay = f[o + 1] as number;
        const bx = f[o + FILL_FLOATS] as number,
          by = f[o + FILL_FLOATS + 1] as number;
        const cx = f[o + 2 * FILL_FLOATS] as number,
          cy = f[o + 2 * FILL_FLOATS + 1] as number;
        area += Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2;
        expect(f[o + 2]).toBe(2);
      }
      vertices += f.length / FILL_FLOATS;
    }
    expect(area).toBeCloseTo(200 * 200, 6);
    expect(vertices).toBe(model.triangleCount * 3);
  });

  it('keeps texts compact: one string, offsets, matrices', () => {
    const { lists } = packed(handMadeDxf());
    const t = (lists[0] as PackedList).texts;
    expect(t.count).toBe(1);
    expect(t.chars.slice(t.offsets[0], t.offsets[1])).toBe('XCAD 500');
    expect(t.matrices[4]).toBeCloseTo(550, 9);
    expect(t.matrices[5]).toBeCloseTo(150, 9);
    expect(t.orders[0]).toBe(3);
    expect(t.widths[0]).toBeGreaterThan(0);
  });

  it('lists every buffer once for transfer', () => {
    const { lists } = packed(handMadeDxf());
    const buffers = transferablesOf(lists);
    expect(new Set(buffers).size).toBe(buffers.length);
    expect(buffers.length).toBeGreaterThanOrEqual(3);
  });

  it('marks wipeouts to be painted in the background colour', () => {
    const fixture = fileURLToPath(new URL('../../../../packages/cad/test-fixtures/ezdxf_wipeout_door.dxf', import.meta.url));
    const { lists } = packed(new Uint8Array(readFileSync(fixture)));
    const colours = new Set<number>();
    for (const l of lists)
      for (const b of l.buckets) for (let o = 4; o < b.fills.length; o += FILL_FLOATS) colours.add(b.fills[o] as number);
    expect(colours.has(FILL_BACKGROUND)).toBe(true);
  });

  it('packs each display list once, however many tabs and viewports show it', () => {
    const fixture = fileURLToPath(new URL('../../../../packages/cad/test-fixtures/ezdxf_VP4.dxf', import.meta.url));
    const { lists, scenes, result } = packed(new Uint8Array(readFileSync(fixture)));
    expect(scenes[0]?.isModel).toBe(true);
    const engineLists = result.scenes.flatMap((s) => [s.list, ...s.viewports.map((v) => v.list)]);
    expect(lists).toHaveLength(new Set(engineLists).size);
    // Same engine list, same packed list: compare the two sides viewport by viewport.
    const bySceneName = new Map(result.scenes.map((s) => [s.name, s]));
    for (const s of scenes) {
      const engine = bySceneName.get(s.name);
      s.viewports.forEach((v, i) => {
        const other = engine?.viewports.findIndex((w) => w.list === engine?.viewports[i]?.list) ?? -1;
        expect(v.list).toBe(s.viewports[other]?.list);
        if (engine?.viewports[i]?.list === engine?.list) expect(v.list).toBe(s.list);
      });
    }
    expect(scenes.some((s) => !s.isModel && s.viewports.length > 0)).toBe(true);
  });

  it('reports missing fonts and objects it cannot draw', () => {
    const { result, warnings } = packed(handMadeDxf());
    // The drawing's own text is in txt.shx, drawn in the usual sans stand-in: no notice for it.
    expect(noticesOf(result, warnings).missingFonts).toEqual([]);
    const notices = noticesOf(
      {
        ...result,
        missingFonts: ['fancy.shx'],
        missingCharacters: ['한'],
        counts: { drawn: result.counts.drawn, skipped: { ACAD_PROXY_ENTITY: 3 } },
        warnings: [
          ...result.warnings,
          { code: 'xref', subject: 'site.dwg', message: 'x' },
          { code: 'limit', subject: 'points', message: 'y' },
        ],
      },
      warnings,
    );
    expect(notices.missingFonts).toEqual(['fancy.shx']);
    expect(notices.missingCharacters).toEqual(['한']);
    expect(notices.unsupported).toEqual([{ type: 'ACAD_PROXY_ENTITY', count: 3 }]);
    expect(notices.xrefs).toEqual(['site.dwg']);
    expect(notices.truncated).toBe(true);
    expect(notices.tarch).toBe(0);
  });

  it('counts TArch (天正) objects left out, so the page can tell to save as T3 in TArch', () => {
    const { result, warnings } = packed(handMadeDxf());
    const notices = noticesOf(
      { ...result, counts: { drawn: result.counts.drawn, skipped: { TCH_WALL: 4, TCH_OPENING: 2, MPOLYGON: 1 } } },
      warnings,
    );
    expect(notices.tarch).toBe(6);
    expect(notices.unsupported).toEqual([
      { type: 'TCH_WALL', count: 4 },
      { type: 'TCH_OPENING', count: 2 },
      { type: 'MPOLYGON', count: 1 },
    ]);
  });
});
