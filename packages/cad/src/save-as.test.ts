import { describe, expect, it } from 'vitest';
import { writeDwg } from './dwg-writer';
import { sampleDrawing } from './dwg-writer/test-drawing';
import { writeDxf } from './dxf-writer';
import { readDxf } from './dxf';
import { readDwg } from './dwg-client';
import { change, SAVE_AS_HOWS, SaveAsLog, type SaveAsChange } from './save-as';

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

  it('calls only the last three hows dropped', () => {
    const log = new SaveAsLog();
    for (const how of SAVE_AS_HOWS) log.note(change('X', how, how));
    const dropped = log.changes.filter((c) => c.outcome === 'dropped').map((c) => c.how);
    expect(dropped.sort()).toEqual(['broken-input', 'no-graphics', 'not-in-version']);
    expect(log.changes).toHaveLength(SAVE_AS_HOWS.length);
  });
});

describe('writers report their changes', () => {
  const src = sampleDrawing();

  it('DXF R12: what R12 cannot hold, one change per (type, how), the same counts as the notes', () => {
    const { notes, changes } = writeDxf(src, { version: 'R12' });
    expect(find(changes, 'XLINE', 'not-in-version')).toEqual({ type: 'XLINE', count: 1, outcome: 'dropped', how: 'not-in-version' });
    expect(find(changes, 'MTEXT', 'text')?.outcome).toBe('lowered');
    expect(find(changes, 'HATCH', 'hatch-lines')?.count).toBe(src.modelSpace.filter((e) => e.type === 'HATCH').length);
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
});
