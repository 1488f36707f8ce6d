/** ACAD_TABLE (placeholder: its anonymous block). */
import type { TableEntity } from '../model';
import type { EntityHandler } from './context';

export const drawTable: EntityHandler<TableEntity> = (e, ctx) => {
  if (e.block) ctx.drawBlock(e.block, ctx.matrix, e);
};
