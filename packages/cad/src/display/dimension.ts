/** DIMENSION: drawn from its anonymous block (placeholder: block only). */
import type { DimensionEntity } from '../model';
import type { EntityHandler } from './context';

export const drawDimension: EntityHandler<DimensionEntity> = (e, ctx) => {
  if (e.block) ctx.drawBlock(e.block, ctx.ocs(e), e);
};
