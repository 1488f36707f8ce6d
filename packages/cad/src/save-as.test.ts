import { describe, expect, it } from 'vitest';
import { writeDwg } from './dwg-writer';
import { sampleDrawing } from './dwg-writer/test-drawing';
import { writeDxf } from './dxf-writer';
import { readDxf } from './dxf';
import { readDwg } from './dwg-client';
import { buildScenes } from './display';
import type { Drawing, Entity } from './model';
import { change, SAVE_AS_HOWS, SaveAsLog, type SaveAsChange } from './save-as';
import { graphicsLowering } from './save-as-graphics';

const find = (changes: SaveAsChange[], type: string, how: string): SaveAsChange | undefined =>
  changes.find((c) => c.type === type && c.how === how);

describe('SaveAsLog', () => {
  it('counts notes per English line and per (type, how), dropped first, then by count', () => {
    const log = new SaveAsLog();
    log.note(change('MLINE', 'polyline', 'written as one polyline per element line'));
    log.note(change('MLINE', 'polyline', 'written as one polyline per element line'));
    log.note(change('XLINE', 'not-in-version', 'left out (R12 has no XLINE)'));
    log.note(change('LINE', 'nearest-colour', 'changed to the nearest ACI colour', 'true colour'));
    log.note(change('CIRCLE', 'nearest-colour', 'changed to the nearest ACI colour', 'true colour'));
    log.note(change('CIRCLE', 'nearest-colour', 'changed to the nearest ACI colour', 'true colour'));
    log.note(change('CIRCLE', 'nearest-colour', 'changed to the nearest ACI colour', 'true colour'));
    expect(log.notes).toEqual([
      'MLINE: 2 written as one polyline per element line',
      'XLINE: 1 left out (R12 has no XLINE)',
      'true colour: 4 changed to the nearest ACI colour',
    ]);
    expect(log.changes).toEqual([
      { type: 'XLINE', count: 1, outcome: 'dropped', how: 'not-in-version' },
      { type: 'CIRCLE', count: 3, outcome: 'lowered', how: 'nearest-colour' },
      { type: 'MLINE', count: 2, outcome: 'lowered', how: 'polyline' },
      { type: 'LINE', count: 1, outcome: 'lowered', how: 'nearest-colour' },
    ]);
  });

  it('calls only the frame kept for a dropped picture and the last three hows dropped', () => {
    const log = new SaveAsLog();
    for (const how of SAVE_AS_HOWS) log.note(change('X', how, how));
    const dropped = log.changes.filter((c) => c.outcome === 'dropped').map((c) => c.how);
    expect(dropped.sort()).toEqual(['broken-input', 'frame', 'no-graphics', 'not-in-version']);
    expect(log.changes).toHaveLength(SAVE_AS_HOWS.length);
  });
});

describe('writers report their changes', () => {
  const src = sampleDrawing();

  it('DXF R12: what R12 cannot hold, one change per (type, how), the same counts as the notes', () => {
    const { notes, changes } = writeDxf(src, { version: 'R12' });
    // A construction line is written as the line across the drawing the display draws.
    expect(find(changes, 'XLINE', 'line')).toEqual({ type: 'XLINE', count: 1, outcome: 'lowered', how: 'line' });
    expect(find(changes, 'MTEXT', 'text')?.outcome).toBe('lowered');
    const hatches = src.modelSpace.filter((e) => e.type === 'HATCH');
    expect(find(changes, 'HATCH', 'hatch-lines')?.count).toBe(hatches.filter((h) => !h.gradient).length);
    // A gradient becomes bands of SOLIDs (decision 0037).
    expect(find(changes, 'HATCH', 'solid-fill')?.count).toBe(hatches.filter((h) => h.gradient).length);
    expect(find(changes, 'MLINE', 'polyline')?.count).toBe(1);
    expect(find(changes, 'MESH', 'polyface')?.count).toBe(1);
    expect(find(changes, 'TCH_WALL', 'no-graphics')?.outcome).toBe('dropped');
    // Dropped first, then by count descending.
    const firstLowered = changes.findIndex((c) => c.outcome === 'lowered');
    expect(changes.slice(firstLowered).every((c) => c.outcome === 'lowered')).toBe(true);
    const lowered = changes.slice(firstLowered).map((c) => c.count);
    expect(lowered).toEqual([...lowered].sort((a, b) => b - a));
    // The English lines count the same objects.
    const counted = (n: string): number => Number(/^[^:]*: (\d+) /.exec(n)?.[1] ?? NaN);
    expect(notes.reduce((s, n) => s + counted(n), 0)).toBe(changes.reduce((s, c) => s + c.count, 0));
  });

  it('an object written as many pieces counts once (a true-colour solid hatch in R12 is many SOLIDs)', () => {
    const d = sampleDrawing();
    // Without the gradient hatch, whose bands are in true colours too.
    d.modelSpace = d.modelSpace.filter((e) => e.type !== 'HATCH' || !e.gradient);
    const hatch = d.modelSpace.find((e) => e.type === 'HATCH' && e.solid);
    if (!hatch) throw new Error('sample drawing changed');
    hatch.color = { rgb: 0x336699 };
    const { bytes, changes } = writeDxf(d, { version: 'R12' });
    expect(readDxf(bytes).drawing.modelSpace.filter((e) => e.type === 'SOLID').length).toBeGreaterThan(2);
    expect(find(changes, 'HATCH', 'nearest-colour')?.count).toBe(1);
    expect(find(changes, 'SOLID', 'nearest-colour')).toBeUndefined();
  });

  it('lineweights in R12 and transparency before 2004 are reported as details left out', () => {
    const d = sampleDrawing();
    const line = d.modelSpace.find((e) => e.type === 'LINE');
    const circle = d.modelSpace.find((e) => e.type === 'CIRCLE');
    if (!line || !circle) throw new Error('sample drawing changed');
    line.lineweight = 50;
    circle.transparency = 0x0200007f;
    const r12 = writeDxf(d, { version: 'R12' }).changes;
    expect(find(r12, 'LINE', 'detail')?.count).toBeGreaterThanOrEqual(1);
    expect(find(r12, 'LAYER', 'detail')?.count).toBe(Object.values(d.layers).filter((l) => l.lineweight >= 0).length);
    expect(find(writeDxf(d, { version: '2000' }).changes, 'CIRCLE', 'detail')?.count).toBe(1);
    expect(find(writeDwg(d, { version: '2000' }).changes, 'CIRCLE', 'detail')?.count).toBe(1);
    expect(find(writeDxf(d, { version: '2004' }).changes, 'CIRCLE', 'detail')).toBeUndefined();
  });

  it('DXF 2018 and DWG 2018 report nothing for what they hold natively', () => {
    for (const { changes } of [writeDxf(src, { version: '2018' }), writeDwg(src, { version: '2018' })]) {
      expect(find(changes, 'LINE', 'nearest-colour')).toBeUndefined();
      expect(find(changes, 'XLINE', 'not-in-version')).toBeUndefined();
      expect(find(changes, 'HATCH', 'hatch-lines')).toBeUndefined();
    }
  });

  it('DWG 2000: true colours and gradients are reported as lowered per object type', () => {
    const { changes } = writeDwg(src, { version: '2000' });
    expect(find(changes, 'POINT', 'nearest-colour')?.count).toBe(1);
    expect(find(changes, 'HATCH', 'solid-fill')?.outcome).toBe('lowered');
    expect(find(changes, 'TCH_WALL', 'no-graphics')?.outcome).toBe('dropped');
  });
});

describe('what every target holds is kept', () => {
  it('the wipeout frame setting (wipeouts drawn with or without their frame) survives DXF and DWG', async () => {
    const src = sampleDrawing();
    for (const frame of [0, 1]) {
      src.header.vars.$WIPEOUTFRAME = frame;
      expect(readDxf(writeDxf(src, { version: '2004' }).bytes).drawing.header.vars.$WIPEOUTFRAME).toBe(frame);
      for (const version of ['2000', '2018'] as const)
        expect((await readDwg(writeDwg(src, { version }).bytes)).drawing.header.vars.$WIPEOUTFRAME, version).toBe(frame);
    }
  }, 60_000);

  it('entities are written in their draw order (SORTENTSTABLE), so what was drawn on top stays on top', async () => {
    const src = sampleDrawing();
    src.blockRecords = [{ name: '*Model_Space', handle: '1F' }];
    const line = src.modelSpace.find((e) => e.type === 'LINE');
    const circle = src.modelSpace.find((e) => e.type === 'CIRCLE');
    const text = src.modelSpace.find((e) => e.type === 'TEXT');
    if (!line || !circle || !text) throw new Error('sample drawing changed');
    src.modelSpace = [line, circle, text];
    src.modelSpace.forEach((e, i) => (e.handle = (0x100 + i).toString(16).toUpperCase()));
    // The first entity is drawn last.
    src.drawOrder = { '1F': { '100': 'FFF' } };
    const expected = ['CIRCLE', 'TEXT', 'LINE'];
    expect(readDxf(writeDxf(src, { version: '2000' }).bytes).drawing.modelSpace.map((e) => e.type)).toEqual(expected);
    expect((await readDwg(writeDwg(src, { version: '2004' }).bytes)).drawing.modelSpace.map((e) => e.type)).toEqual(expected);
  }, 60_000);

  it('dimension styles keep their text style, arrow block and linetypes (new handles naming the same records)', async () => {
    const src = sampleDrawing();
    src.blockRecords = [{ name: 'DOOR', handle: 'C80' }];
    src.textStyles.Standard = {
      ...(src.textStyles.Standard ?? {
        name: 'Standard',
        flags: 0,
        font: 'txt',
        bigFont: '',
        fixedHeight: 0,
        widthFactor: 1,
        oblique: 0,
        generation: 0,
      }),
      handle: '11',
    };
    src.linetypes.DASHED = { ...(src.linetypes.DASHED as NonNullable<(typeof src.linetypes)['DASHED']>), handle: '6D9' };
    src.dimStyles.ISO = { name: 'ISO', vars: { 40: 1, 41: 3, 140: 3.5, 340: '11', 342: 'C80', 345: '6D9', 371: 25 } };
    const named = (d: Drawing): Record<string, unknown> => {
      const v = Object.values(d.dimStyles).find((s) => s.name === 'ISO')?.vars ?? {};
      const byHandle = (h: unknown): string | undefined => (typeof h === 'string' ? h.toUpperCase() : undefined);
      return {
        text: Object.values(d.textStyles).find((s) => s.handle?.toUpperCase() === byHandle(v[340]))?.name,
        arrow: d.blockRecords.find((r) => r.handle?.toUpperCase() === byHandle(v[342]))?.name,
        linetype: Object.values(d.linetypes).find((l) => l.handle?.toUpperCase() === byHandle(v[345]))?.name,
        lineweight: v[371],
      };
    };
    const want = { text: 'Standard', arrow: 'DOOR', linetype: 'DASHED', lineweight: 25 };
    expect(named(readDxf(writeDxf(src, { version: '2007' }).bytes).drawing)).toEqual(want);
    expect(named((await readDwg(writeDwg(src, { version: '2007' }).bytes)).drawing)).toEqual(want);
  }, 60_000);

  it('a spline LEADER stays a spline in DWG', async () => {
    const src = sampleDrawing();
    const leader = src.modelSpace.find((e) => e.type === 'LEADER');
    if (leader?.type !== 'LEADER') throw new Error('sample drawing changed');
    leader.pathType = 1;
    leader.annotationType = 3;
    for (const version of ['2000', '2018'] as const) {
      const back = (await readDwg(writeDwg(src, { version }).bytes)).drawing.modelSpace.find((e) => e.type === 'LEADER');
      expect(back?.type === 'LEADER' && [back.pathType, back.annotationType], version).toEqual([1, 3]);
    }
  }, 60_000);

  it('a LEADER keeps its arrowhead and hook-line side in DWG 2010, 2013 and 2018', async () => {
    const src = sampleDrawing();
    const leader = src.modelSpace.find((e) => e.type === 'LEADER');
    if (leader?.type !== 'LEADER') throw new Error('sample drawing changed');
    for (const version of ['2010', '2013', '2018'] as const)
      for (const [arrowhead, side] of [
        [true, 1],
        [true, 0],
        [false, 1],
        [false, 0],
      ] as const) {
        leader.arrowhead = arrowhead;
        leader.hooklineDirection = side;
        const back = (await readDwg(writeDwg(src, { version }).bytes)).drawing.modelSpace.find((e) => e.type === 'LEADER');
        expect(back?.type === 'LEADER' && [back.arrowhead, back.hooklineDirection], `${version} ${arrowhead} ${side}`).toEqual([
          arrowhead,
          side,
        ]);
      }
  }, 60_000);

  it('a block attribute keeps its text style in DWG 2010, 2013 and 2018', async () => {
    const src = sampleDrawing();
    const insert = src.modelSpace.find((e) => e.type === 'INSERT' && e.attributes.length > 0);
    const def = Object.values(src.blocks)
      .flatMap((b) => b.entities)
      .find((e) => e.type === 'ATTDEF');
    if (insert?.type !== 'INSERT' || def?.type !== 'ATTDEF' || !src.textStyles.HZ) throw new Error('sample drawing changed');
    def.style = 'HZ';
    for (const a of insert.attributes) a.style = 'HZ';
    for (const version of ['2007', '2010', '2013', '2018'] as const) {
      const back = (await readDwg(writeDwg(src, { version }).bytes)).drawing.modelSpace.find((e) => e.type === 'INSERT');
      expect(back?.type === 'INSERT' && back.attributes.map((a) => a.style), version).toEqual(insert.attributes.map(() => 'HZ'));
    }
  }, 60_000);

  it("a layout's own viewport is written first, so a DWG reader takes the right one for the sheet", async () => {
    const src = sampleDrawing();
    const layout = src.layouts.find((l) => l.name === '布局1');
    const content = layout?.entities?.find((e) => e.type === 'VIEWPORT');
    if (!layout || content?.type !== 'VIEWPORT') throw new Error('sample drawing changed');
    // The sheet viewport listed after the content one, as some files have it.
    const sheet = {
      ...content,
      id: 1,
      center: [210, 148.5, 0] as [number, number, number],
      width: 430,
      height: 307,
      viewCenter: [210, 148.5] as [number, number],
      viewHeight: 307,
      scale: 1,
    };
    layout.entities = [content, sheet];
    layout.viewports = [content, sheet];
    const back = (await readDwg(writeDwg(src, { version: '2004' }).bytes)).drawing.layouts.find((l) => l.name === '布局1');
    const ids = (back?.entities ?? []).filter((e) => e.type === 'VIEWPORT').map((e) => (e.type === 'VIEWPORT' ? [e.id, e.width] : []));
    expect(ids).toEqual([
      [1, 430],
      [2, 250],
    ]);
  }, 60_000);

  it.each([0, -1])(
    'layouts whose viewports have no numbers (id %i: LibreDWG DXF, dxf-json) keep their sheets in DXF and after save-as DWG',
    async (id) => {
      const src = sampleDrawing();
      const first = src.layouts.find((l) => l.name === '布局1');
      const second = src.layouts.find((l) => l.name === 'Second');
      const content = first?.viewports[0];
      if (!first || !second || !content) throw new Error('sample drawing changed');
      // A sheet: paper space shown at 1:1 around the page centre (where the model has ink).
      const sheet = (): typeof content => ({
        ...content,
        id,
        status: 0,
        center: [100, 60, 0],
        width: 430,
        height: 300,
        viewCenter: [100, 60],
        viewHeight: 300,
        scale: 1,
      });
      // 布局1: its sheet, then the window on the model; Second: a sheet alone (a layout never opened).
      const numbered = { ...content, id };
      first.entities = [sheet(), numbered, ...(first.entities ?? []).filter((e) => e !== content)];
      first.viewports = [first.entities[0] as typeof content, numbered];
      second.entities = [sheet()];
      second.viewports = [second.entities[0] as typeof content];
      const inked = (d: Drawing): string[] =>
        buildScenes(d, { layouts: 'all' })
          .scenes.filter((s) => s.bounds !== null)
          .map((s) => s.name);
      const ids = (d: Drawing): number[][] =>
        ['布局1', 'Second'].map((n) => d.layouts.find((l) => l.name === n)?.viewports.map((v) => v.id) ?? []);
      const dxf = readDxf(writeDxf(src, { version: '2000' }).bytes).drawing;
      // The DWG writer cannot number viewports: a reader takes the first one of a layout for its sheet.
      const dwg = (await readDwg(writeDwg(dxf, { version: '2018' }).bytes)).drawing;
      expect(inked(dxf)).toEqual(['Model', '布局1']);
      expect(inked(dwg)).toEqual(inked(dxf));
      expect(ids(dxf)).toEqual([[1, id], [1]]);
      expect(ids(dwg)).toEqual([[1, 2], [1]]);
    },
    60_000,
  );

  it('an R12 viewport keeps its view (the MVIEW extended data is written and read)', () => {
    const back = readDxf(writeDxf(sampleDrawing(), { version: 'R12' }).bytes).drawing;
    const vp = back.layouts.flatMap((l) => l.entities ?? []).find((e) => e.type === 'VIEWPORT' && e.id === 2);
    expect(vp?.type === 'VIEWPORT' && [vp.viewCenter, vp.viewHeight, vp.width]).toEqual([[100, 60], 150, 250]);
  });

  it('a viewport clipped by a paper-space polyline keeps its clip boundary', async () => {
    const src = sampleDrawing();
    const layout = src.layouts.find((l) => l.name === '布局1');
    const vp = layout?.entities?.find((e) => e.type === 'VIEWPORT');
    if (!layout || vp?.type !== 'VIEWPORT') throw new Error('sample drawing changed');
    vp.flags |= 0x10000;
    vp.clipBoundaryHandle = 'ABC';
    const boundary: Entity = {
      ...vp,
      handle: 'ABC',
      type: 'LWPOLYLINE',
      vertices: [
        [30, 20],
        [260, 40],
        [200, 190],
      ].map(([x, y]) => ({ x: x as number, y: y as number, bulge: 0, startWidth: 0, endWidth: 0 })),
      closed: true,
      plinegen: false,
      constantWidth: 0,
      elevation: 0,
    };
    layout.entities = [vp, boundary, ...(layout.entities ?? []).filter((e) => e !== vp)];
    const clipOf = (d: Drawing): unknown => {
      const l = d.layouts.find((x) => x.name === '布局1');
      const v = l?.entities?.find((e) => e.type === 'VIEWPORT' && e.clipBoundaryHandle !== undefined);
      const h = v?.type === 'VIEWPORT' ? v.clipBoundaryHandle?.toUpperCase() : undefined;
      const b = l?.entities?.find((e) => e.handle?.toUpperCase() === h);
      return b?.type === 'LWPOLYLINE' ? b.vertices.map((p) => [p.x, p.y]) : b;
    };
    const want = [
      [30, 20],
      [260, 40],
      [200, 190],
    ];
    expect(clipOf(readDxf(writeDxf(src, { version: '2004' }).bytes).drawing)).toEqual(want);
    expect(clipOf((await readDwg(writeDwg(src, { version: '2004' }).bytes)).drawing)).toEqual(want);
  }, 60_000);

  it('an R12 TrueType style without a font file names its family file, so it is not drawn in txt', () => {
    const src = sampleDrawing();
    src.textStyles.ArialStyle = {
      name: 'ArialStyle',
      flags: 0,
      font: '',
      bigFont: '',
      fixedHeight: 0,
      widthFactor: 1,
      oblique: 0,
      generation: 0,
      fontFamily: 'Arial',
    };
    const back = readDxf(writeDxf(src, { version: 'R12' }).bytes).drawing;
    expect(back.textStyles.ArialStyle?.font).toBe('Arial.ttf');
  });
});

describe("add-ons' extended data", () => {
  /** A LINE carrying every kind of extended data item, a CIRCLE whose data names the LINE by handle. */
  function withXdata(): Drawing {
    const d = sampleDrawing();
    const line = d.modelSpace.find((e) => e.type === 'LINE') as Entity;
    const circle = d.modelSpace.find((e) => e.type === 'CIRCLE') as Entity;
    line.handle = '1A0';
    line.xdata = [
      {
        app: 'TZ_WALL',
        items: [
          { code: 1000, value: '墙体 240' },
          { code: 1002, value: '{' },
          { code: 1003, value: '0' },
          { code: 1004, value: '0A1B2C' },
          { code: 1010, value: [1.5, -2.25, 3] },
          { code: 1040, value: 0.125 },
          { code: 1070, value: -7 },
          { code: 1071, value: 70000 },
          { code: 1002, value: '}' },
        ],
      },
    ];
    circle.xdata = [{ app: 'LinkApp', items: [{ code: 1005, value: '1A0' }] }];
    return d;
  }
  const lineOf = (d: Drawing) => d.modelSpace.find((e) => e.xdata?.some((x) => x.app === 'TZ_WALL'));
  const circleOf = (d: Drawing) => d.modelSpace.find((e) => e.type === 'CIRCLE' && e.xdata?.length);

  it.each(['R12', '2004', '2018'] as const)('DXF %s keeps them, a handle naming the same object in the new file', (version) => {
    const src = withXdata();
    const back = readDxf(writeDxf(src, { version }).bytes).drawing;
    const line = lineOf(back);
    expect(line?.xdata).toEqual(lineOf(src)?.xdata);
    expect(circleOf(back)?.xdata).toEqual([{ app: 'LinkApp', items: [{ code: 1005, value: line?.handle }] }]);
  });

  it.each(['2000', '2004', '2007', '2018'] as const)('DWG %s keeps them (read back by LibreDWG)', async (version) => {
    const src = withXdata();
    const back = (await readDwg(writeDwg(src, { version }).bytes)).drawing;
    const line = lineOf(back);
    expect(line?.xdata).toEqual(lineOf(src)?.xdata);
    expect(circleOf(back)?.xdata).toEqual([{ app: 'LinkApp', items: [{ code: 1005, value: line?.handle }] }]);
  });

  it('an object written as several others leaves its data out and says so', () => {
    const src = withXdata();
    const mtext = src.modelSpace.find((e) => e.type === 'MTEXT') as Entity;
    mtext.xdata = [{ app: 'NOTE_APP', items: [{ code: 1000, value: 'x' }] }];
    const { bytes, changes } = writeDxf(src, { version: 'R12' });
    expect(changes.some((c) => c.type === 'MTEXT' && c.how === 'detail')).toBe(true);
    const back = readDxf(bytes).drawing;
    expect(back.modelSpace.some((e) => e.xdata?.some((x) => x.app === 'NOTE_APP'))).toBe(false);
  });
});

describe('a damaged input', () => {
  it('a reference to a block the drawing does not define is left out and reported, in DXF and DWG', async () => {
    const d = sampleDrawing();
    const insert = d.modelSpace.find((e) => e.type === 'INSERT');
    expect(insert).toBeDefined();
    d.modelSpace.push({ ...(insert as Entity & { type: 'INSERT' }), name: 'NO_SUCH_BLOCK', attributes: [] });
    for (const { bytes, changes } of [writeDxf(d, { version: '2018' }), writeDwg(d, { version: '2018' })]) {
      expect(changes.find((c) => c.type === 'INSERT' && c.how === 'broken-input')?.count).toBe(1);
      const back = bytes[0] === 0x41 ? (await readDwg(bytes)).drawing : readDxf(bytes).drawing;
      expect(back.modelSpace.some((e) => e.type === 'INSERT' && e.name.toUpperCase() === 'NO_SUCH_BLOCK')).toBe(false);
    }
  });
});

describe('TrueType text styles', () => {
  it('keep their family, no font file and the font flags (bold) in DXF and DWG; R12 names the family file', async () => {
    const d = sampleDrawing();
    d.textStyles['HEADING'] = {
      name: 'HEADING',
      flags: 0,
      font: '',
      bigFont: '',
      fontFamily: 'Arial',
      fontFlags: 0x2000022,
      fixedHeight: 0,
      widthFactor: 1,
      oblique: 0,
      generation: 0,
    };
    const style = (dd: Drawing) => Object.values(dd.textStyles).find((s) => s.name === 'HEADING');
    const want = { font: '', fontFamily: 'Arial', fontFlags: 0x2000022 };
    expect(style(readDxf(writeDxf(d, { version: '2018' }).bytes).drawing)).toMatchObject(want);
    expect(style(readDxf(writeDxf(d, { version: '2000' }).bytes).drawing)).toMatchObject(want);
    expect(style((await readDwg(writeDwg(d, { version: '2018' }).bytes)).drawing)).toMatchObject(want);
    expect(style((await readDwg(writeDwg(d, { version: '2004' }).bytes)).drawing)).toMatchObject(want);
    expect(style(readDxf(writeDxf(d, { version: 'R12' }).bytes).drawing)?.font).toBe('Arial.ttf');
  });
});

describe('a feature control frame (TOLERANCE) kept where the version holds one', () => {
  const fixture = new URL('../test-fixtures/gen_tolerance.dxf', import.meta.url);
  const tolerances = (d: Drawing) =>
    d.modelSpace
      .filter((e): e is Extract<Entity, { type: 'TOLERANCE' }> => e.type === 'TOLERANCE')
      .map((e) => ({
        text: e.text,
        style: e.style.toUpperCase(),
        at: e.insertion.map((v) => Math.round(v * 1000) / 1000),
        dir: e.direction,
      }));

  it('writes it as itself in DXF 2000+ and DWG, read back the same, and as its graphics in R12', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readDxf(new Uint8Array(readFileSync(fixture))).drawing;
    const original = tolerances(source);
    expect(original.length).toBeGreaterThan(0);

    const dxf = writeDxf(source, { version: '2004' });
    expect(dxf.changes.find((c) => c.type === 'TOLERANCE')).toBeUndefined();
    expect(tolerances(readDxf(dxf.bytes).drawing)).toEqual(original);

    const dwg = writeDwg(source, { version: '2004' });
    expect(dwg.changes.find((c) => c.type === 'TOLERANCE')).toBeUndefined();
    expect(tolerances((await readDwg(dwg.bytes)).drawing)).toEqual(original);

    const r12 = writeDxf(source, { version: 'R12', graphics: graphicsLowering(source) });
    expect(r12.changes.find((c) => c.type === 'TOLERANCE')?.outcome).toBe('lowered');
    expect(tolerances(readDxf(r12.bytes).drawing)).toEqual([]);
  });
});
