/** LEADER and MULTILEADER (placeholder: the leader lines only). */
import type { LeaderEntity, MLeaderEntity } from '../model';
import type { EntityHandler } from './context';

export const drawLeader: EntityHandler<LeaderEntity> = (e, ctx) => {
  ctx.stroke3(ctx.style(e), ctx.matrix, e.vertices.flat(), false);
};

export const drawMLeader: EntityHandler<MLeaderEntity> = (e, ctx) => {
  const style = ctx.style(e);
  for (const l of e.leaders) for (const line of l.lines) ctx.stroke3(style, ctx.matrix, [...line.vertices.flat(), ...(l.lastPoint ?? [])], false);
};
