import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { ZMembershipChange } from '@xcad/protocol';
import { z } from 'zod';
import { actorOf, operatorInput } from '../../plugins/operator-guard';
import { changeMembershipByOperator, userPayOverview } from './operator-pay.service';

// The back office's calls of the pay module about one user (decision 0042), through the operator guard.
//
//   GET  /api/operator/users/:id/pay           200 ZOperatorUserPay                      (管理员, 客服, 财务)
//   POST /api/operator/users/:id/memberships   ZMembershipChange  200 {userId, productId, before, after, action}
//        (管理员, 客服); 400 {code:10020, field} a broken rule; 404 unknown user or product

const ZUserId = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});

export interface OperatorPayRoutesOptions {
  db: Kysely<Database>;
  clock: () => number;
}

export const operatorPayRoutes: FastifyPluginAsync<OperatorPayRoutesOptions> = async (app, { db, clock }) => {
  const now = () => Math.floor(clock() / 1000);
  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/users/:id/pay',
    roles: ['admin', 'support', 'finance'],
    handler: async (request) => userPayOverview(db, now(), operatorInput(ZUserId, request.params).id),
  });
  app.operatorRoute({
    method: 'POST',
    url: '/api/operator/users/:id/memberships',
    roles: ['admin', 'support'],
    handler: async (request, _reply, operator) => {
      const { id } = operatorInput(ZUserId, request.params);
      const change = operatorInput(ZMembershipChange, request.body);
      return changeMembershipByOperator(db, now(), actorOf(request, operator), id, change);
    },
  });
};
