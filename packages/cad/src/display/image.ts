/** IMAGE (its frame) and WIPEOUT (a background-coloured area). Placeholder. */
import type { ImageEntity } from '../model';
import type { EntityHandler } from './context';

export const drawImage: EntityHandler<ImageEntity> = (e, ctx) => {
  const [w, h] = e.imageSize;
  const p = (x: number, y: number): number[] => [e.insertion[0] + e.u[0] * x + e.v[0] * y, e.insertion[1] + e.u[1] * x + e.v[1] * y, e.insertion[2] + e.u[2] * x + e.v[2] * y];
  const ring = [...p(-0.5, -0.5), ...p(w - 0.5, -0.5), ...p(w - 0.5, h - 0.5), ...p(-0.5, h - 0.5)];
  ctx.stroke3(ctx.style(e), ctx.matrix, ring, true);
};
