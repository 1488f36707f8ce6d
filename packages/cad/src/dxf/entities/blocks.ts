/** Block references: INSERT (and MINSERT's rows and columns) and ACAD_TABLE (drawn by its block). */
import type { Entity } from '../../model';
import { asNum, asStr, type DxfRecord } from '../record';
import { mk } from './base';

export function insert(r: DxfRecord): Entity {
  return mk(r, {
    type: 'INSERT',
    name: r.str(2),
    insertion: r.pt(10),
    scale: [r.num(41, 1), r.num(42, 1), r.num(43, 1)],
    rotation: r.num(50),
    columnCount: Math.max(1, r.num(70, 1)),
    rowCount: Math.max(1, r.num(71, 1)),
    columnSpacing: r.num(44),
    rowSpacing: r.num(45),
    attributes: [],
  });
}

export function table(r: DxfRecord): Entity {
  const rowHeights: number[] = [];
  const columnWidths: number[] = [];
  const cells: string[] = [];
  // The table part starts at "100 AcDbTable"; codes 90-92 also occur earlier (block reference) and per cell.
  let start = 0;
  for (let i = 0; i < r.length; i++) if (r.codes[i] === 100 && asStr(r.vals[i]) === 'AcDbTable') start = i;
  const at = (code: number): number => {
    for (let i = start; i < r.length; i++) if (r.codes[i] === code) return asNum(r.vals[i]);
    return 0;
  };
  let cell = -1;
  let hasText = false;
  for (let i = start; i < r.length; i++) {
    const c = r.codes[i];
    if (c === 141) rowHeights.push(asNum(r.vals[i]));
    else if (c === 142) columnWidths.push(asNum(r.vals[i]));
    else if (c === 171) {
      // A new cell: its text is the first 1 (or 302 in newer files), once.
      cell++;
      cells[cell] = '';
      hasText = false;
    } else if ((c === 1 || c === 302) && cell >= 0 && !hasText) {
      cells[cell] = asStr(r.vals[i]);
      hasText = true;
    }
  }
  return mk(r, {
    type: 'ACAD_TABLE',
    block: r.str(2),
    insertion: r.pt(10),
    rows: at(91),
    columns: at(92),
    rowHeights,
    columnWidths,
    cells,
  });
}
