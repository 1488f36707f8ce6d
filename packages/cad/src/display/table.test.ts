import { describe, expect, it } from 'vitest';
import { modelList, subpaths } from './test-helpers';

type G = [number, string | number][];

function table(block: string | null, cells: string[]): G {
  const g: G = [
    [0, 'ACAD_TABLE'],
    [100, 'AcDbEntity'],
    [8, '0'],
    [100, 'AcDbBlockReference'],
  ];
  if (block) g.push([2, block]);
  g.push([10, 100], [20, 50], [30, 0], [100, 'AcDbTable'], [91, 2], [92, 2], [141, 5], [141, 4], [142, 10], [142, 20]);
  for (const c of cells) g.push([171, 1], [1, c], [302, c]);
  return g;
}

describe('ACAD_TABLE', () => {
  it('draws its anonymous block relative to the insertion point', () => {
    const list = modelList({
      blocks: [
        {
          name: '*T1',
          entities: [
            [0, 'LINE'],
            [8, '0'],
            [10, 0],
            [20, 0],
            [30, 0],
            [11, 30],
            [21, 0],
            [31, 0],
          ],
        },
      ],
      entities: table('*T1', []),
    });
    expect(subpaths(list).map((s) => s.points)).toEqual([
      [
        [100, 50],
        [130, 50],
      ],
    ]);
  });

  it('without a block: the grid from row heights and column widths, down and right of the insertion, and the cell texts', () => {
    const list = modelList({ entities: table(null, ['A', 'B', 'C', 'D']) });
    const lines = subpaths(list).map((s) => s.points);
    // Three horizontal lines (y 50, 45, 41) and three vertical ones (x 100, 110, 130).
    for (const y of [50, 45, 41])
      expect(lines).toContainEqual([
        [100, y],
        [130, y],
      ]);
    for (const x of [100, 110, 130])
      expect(lines).toContainEqual([
        [x, 50],
        [x, 41],
      ]);
    expect(lines).toHaveLength(6);
    const texts = list.primitives.flatMap((p) => (p.kind === 'text' ? [p.text] : []));
    expect(texts.join('')).toBe('ABCD');
  });
});
