/**
 * ACAD_TABLE: drawn from its anonymous block when present (what AutoCAD saves: the grid lines and
 * the cell MTEXTs, relative to the table's insertion point); otherwise the grid is built from the
 * row heights and column widths, downwards and to the right of the insertion point (the table's
 * top-left corner), with the cell texts centred in their cells. An R2010+ DWG table, whose block
 * and cells the DWG reader cannot take, is drawn from the proxy graphics AutoCAD saves with it.
 */
import type { TableEntity, UnknownEntity } from '../model';
import { drawProxyGraphics } from './proxy';
import type { EntityHandler } from './context';
import { virtualMText } from './dimension';
import { multiply, translation } from '../geom/matrix';

export const drawTable: EntityHandler<TableEntity> = (e, ctx) => {
  const [x, y, z] = e.insertion;
  const block = e.block
    ? (ctx.drawing.blocks[e.block] ?? Object.values(ctx.drawing.blocks).find((b) => b.name.toUpperCase() === e.block.toUpperCase()))
    : undefined;
  if (block && block.entities.length) {
    ctx.drawBlock(block.name, multiply(ctx.ocs(e), translation(x, y, z)), e);
    return;
  }
  // R2010+ DWG tables (block and cells not decoded): AutoCAD's own drawing, kept as proxy graphics.
  if (e.graphics && drawProxyGraphics(asProxy(e), ctx)) return;
  const heights = e.rowHeights.filter((h) => Number.isFinite(h) && h > 0);
  const widths = e.columnWidths.filter((w) => Number.isFinite(w) && w > 0);
  if (!heights.length || !widths.length) return;
  const m = ctx.ocs(e, z);
  const style = ctx.style(e);
  const totalW = widths.reduce((s, w) => s + w, 0);
  const totalH = heights.reduce((s, h) => s + h, 0);
  let yy = y;
  ctx.stroke(style, m, [x, yy, x + totalW, yy], false);
  for (const h of heights) {
    yy -= h;
    ctx.stroke(style, m, [x, yy, x + totalW, yy], false);
  }
  let xx = x;
  ctx.stroke(style, m, [xx, y, xx, y - totalH], false);
  for (const w of widths) {
    xx += w;
    ctx.stroke(style, m, [xx, y, xx, y - totalH], false);
  }
  const cells = cellTexts(e.cells, heights.length * widths.length);
  if (!cells) return;
  let top = y;
  for (let r = 0; r < heights.length; r++) {
    const h = heights[r] as number;
    let left = x;
    for (let c = 0; c < widths.length; c++) {
      const w = widths[c] as number;
      const text = cells[r * widths.length + c] ?? '';
      if (text.trim())
        ctx.drawEntity(
          virtualMText(e, {
            text,
            insertion: [left + w / 2, top - h / 2, z],
            height: h * 0.5,
            rotation: 0,
            attachment: 5,
            style: 'STANDARD',
            width: w * 0.9,
          }),
        );
      left += w;
    }
    top -= h;
  }
};

const proxies = new WeakMap<TableEntity, UnknownEntity>();

/** The table as the proxy painter takes it (one per table, so its decoded bytes are kept). */
function asProxy(e: TableEntity): UnknownEntity {
  let p = proxies.get(e);
  if (!p) {
    const { type: _type, block: _b, insertion: _i, rows: _r, columns: _c, rowHeights: _h, columnWidths: _w, cells: _cells, ...base } = e;
    p = { ...base, type: 'UNKNOWN', dxfType: 'ACAD_TABLE' };
    proxies.set(e, p);
  }
  return p;
}

/**
 * One text per cell, row-major, or null when the stored list does not fit the grid. Newer files
 * write each cell's text twice (the cell's group 1 and its value's group 302): such pairs count once.
 */
function cellTexts(cells: string[], count: number): string[] | null {
  if (cells.length === count) return cells;
  const out: string[] = [];
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i] as string;
    out.push(t);
    if (t && cells[i + 1] === t) i++;
  }
  return out.length === count ? out : null;
}
