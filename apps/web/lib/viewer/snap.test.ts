import { buildScenes } from '@xcad/cad/display';
import { readDxf } from '@xcad/cad/dxf';
import { describe, expect, it } from 'vitest';
import { packScenes } from './pack';
import { snapInList } from './snap';
import { handMadeDxf } from './test-drawings';
import type { PackedList } from './types';

const model = (): PackedList => {
  const { drawing } = readDxf(new TextEncoder().encode(handMadeDxf()));
  return packScenes(buildScenes(drawing, { includeHiddenLayers: true, plot: false }).scenes).lists[0] as PackedList;
};

describe('object snap', () => {
  it('snaps to the exact end point near the pointer', () => {
    const list = model();
    const hit = snapInList(list, [1, 0, 0, 1, 0, 0], new Uint8Array(list.styles.length), 401.5, 498.2, 5);
    expect(hit).toMatchObject({ x: 400, y: 500, kind: 'end' });
  });

  it('snaps to a middle point when no end is near, and to nothing when nothing is', () => {
    const list = model();
    const hidden = new Uint8Array(list.styles.length);
    expect(snapInList(list, [1, 0, 0, 1, 0, 0], hidden, 751, 301, 5)).toMatchObject({ x: 750, y: 300, kind: 'mid' });
    expect(snapInList(list, [1, 0, 0, 1, 0, 0], hidden, 700, 700, 5)).toBeNull();
  });

  it('ignores hidden layers', () => {
    const list = model();
    const hidden = new Uint8Array(list.styles.length);
    const walls = list.layers.findIndex((l) => l.name === 'WALLS');
    list.styles.forEach((s, i) => {
      if (s.layer === walls) hidden[i] = 1;
    });
    expect(snapInList(list, [1, 0, 0, 1, 0, 0], hidden, 400, 500, 5)).toBeNull();
  });

  it('works through a viewport matrix (scene = paper, list = model)', () => {
    const list = model();
    // Model → paper: half scale, shifted by (10, 20).
    const hit = snapInList(list, [0.5, 0, 0, 0.5, 10, 20], new Uint8Array(list.styles.length), 210.4, 270.3, 2);
    expect(hit).toMatchObject({ x: 210, y: 270, kind: 'end' });
  });
});
