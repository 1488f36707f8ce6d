/** Block references: INSERT and MINSERT with their attributes, ACAD_TABLE (drawn by its block). */
import type { InsertEntity, TableEntity } from '@xcad/cad/model';
import { hex, RAD2DEG } from '../access';
import { T } from '../types';
import type { EntityContext, Owner } from './context';
import { textBase } from './text';

export function insert(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): InsertEntity {
  const a = r.a;
  const w = r.a.w;
  const multi = type === T.MINSERT;
  let scale = a.p3(tio, type, 'scale', [1, 1, 1]);
  // R11 inserts written without a scale leave it zero.
  if (scale[0] === 0 && scale[1] === 0 && scale[2] === 0) scale = [1, 1, 1];
  const name = r.name(r.names.blocks, a.ptr(tio, type, 'block_header'), '') || a.str(tio, type, 'block_name');
  if (!name)
    r.warnings.push(
      `${multi ? 'MINSERT' : 'INSERT'} ${hex(w.dwg_obj_get_handle_value(obj))}: LibreDWG did not resolve its block; it is not drawn`,
    );
  const e: InsertEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'INSERT',
    name,
    insertion: a.p3(tio, type, 'ins_pt'),
    scale,
    rotation: a.d(tio, type, 'rotation') * RAD2DEG,
    columnCount: multi ? Math.max(1, a.u16(tio, type, 'num_cols')) : 1,
    rowCount: multi ? Math.max(1, a.u16(tio, type, 'num_rows')) : 1,
    columnSpacing: multi ? a.d(tio, type, 'col_spacing') : 0,
    rowSpacing: multi ? a.d(tio, type, 'row_spacing') : 0,
    attributes: [],
  };
  const xdict = a.refHandle(a.common<number>(tio, 'xdicobjhandle') ?? 0);
  if (xdict) r.xdictInserts.push([e, xdict]);
  if (a.u8(tio, type, 'has_attribs')) {
    for (const sub of r.owned(obj, tio, type, 'attribs', 'first_attrib', 'last_attrib')) {
      if (w.dwg_object_get_fixedtype(sub) !== T.ATTRIB) continue;
      const stio = w.dwg_object_to_entity_tio(sub);
      if (!stio) continue;
      const attrib = textBase(r, sub, stio, T.ATTRIB, { handle: e.handle ?? owner.handle, paperSpace: owner.paperSpace }, 'ATTRIB');
      e.attributes.push(attrib);
      if (!r.names.preR13 && !a.ptr(stio, T.ATTRIB, 'style')) r.unstyledAttribs.push([e, attrib]);
    }
  }
  return e;
}

export function table(r: EntityContext, obj: number, tio: number, type: number, owner: Owner): TableEntity {
  const a = r.a;
  const rows = a.u32(tio, type, 'num_rows');
  const columns = a.u32(tio, type, 'num_cols');
  const rh = a.ptr(tio, type, 'row_heights');
  const cw = a.ptr(tio, type, 'col_widths');
  const cells: string[] = [];
  const cp = a.ptr(tio, type, 'cells');
  const cellSize = a.subSize('TABLE_Cell');
  const to = a.subOff('TABLE_Cell', 'text_value');
  if (cp && cellSize > 0 && to >= 0 && rows * columns <= 1_000_000)
    for (let i = 0; i < rows * columns; i++) cells.push(a.strAt(a.u32At(cp + i * cellSize + to)));
  const block = r.name(r.names.blocks, a.ptr(tio, type, 'block_header'), '');
  // R2010+ tables: LibreDWG decodes neither the cells nor the block reference nor the insertion
  // point; the proxy graphics AutoCAD saves with the table are its drawing of it.
  const graphics = block ? undefined : r.graphics(obj);
  if (!block && !graphics)
    r.warnings.push(
      `ACAD_TABLE ${hex(r.a.w.dwg_obj_get_handle_value(obj))}: LibreDWG does not decode this table's geometry (R2010+ tables) and it has no proxy graphics; it is not drawn`,
    );
  const e: TableEntity = {
    ...r.base(obj, tio, type, owner),
    type: 'ACAD_TABLE',
    block,
    insertion: a.p3(tio, type, 'ins_pt'),
    rows,
    columns,
    rowHeights: rh && rows <= 100_000 ? a.doublesAt(rh, rows) : [],
    columnWidths: cw && columns <= 100_000 ? a.doublesAt(cw, columns) : [],
    cells,
  };
  if (graphics) e.graphics = graphics;
  return e;
}
