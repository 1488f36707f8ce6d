import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  OPERATOR_COOKIE,
  OPERATOR_LIMITS,
  ZOperatorLoginRequest,
  ZOperatorRoleChange,
  ZOperatorSmsRequest,
  ZReasonBody,
  ZUserSearchQuery,
} from '@xcad/protocol';
import { z } from 'zod';
import { actorOf, operatorInput } from '../../plugins/operator-guard';
import type { AuthDeps } from './auth.contract';
import {
  endUserSessions,
  grantRoleByOperator,
  listOperators,
  operatorLogin,
  operatorLogout,
  removeRoleByOperator,
  searchUsers,
  sendOperatorCode,
  setAccountStatus,
  userDetail,
  type OperatorContext,
} from './operator.service';

// The back office's calls of the auth module (decision 0042), all through the one operator guard
// (plugins/operator-guard.ts). Plain JSON; refusals {code, message} with OPERATOR_ERRORS' status.
//
//   POST /api/operator/login/sms  {phone}        200 {sent:true} (also for a phone that is not an
//        operator's, which gets no code); the SMS limits of decision 0010 apply (10061 ...)
//   POST /api/operator/login      {phone, code}  200 ZOperatorMe and the xcad_operator cookie
//        (HttpOnly, SameSite=Strict); a wrong code 12007, no live code 19310
//   POST /api/operator/logout                     200 {ok:true}, the cookie cleared      (any role)
//   GET  /api/operator/me                         200 ZOperatorMe                        (any role)
//   GET  /api/operator/operators                  200 {operators: ZOperatorRow[]}        (管理员)
//   POST /api/operator/operators/grant|remove  ZOperatorRoleChange  200 {userId, roles, changed} (管理员)
//   GET  /api/operator/users?q=&status=&page=     200 ZUserSearchPage                    (管理员, 客服)
//   GET  /api/operator/users/:id                  200 ZOperatorUserDetail                (管理员, 客服)
//   POST /api/operator/users/:id/disable|enable|end-sessions {reason}                   (管理员, 客服)
// The two sign-in calls check only that they come from the site itself (no session yet).

export interface OperatorAuthRoutesOptions {
  deps: AuthDeps;
}

const USER_ROLES = ['admin', 'support'] as const;
const ZUserId = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});

function setOperatorCookie(reply: FastifyReply, request: FastifyRequest, token: string, maxAge: number): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${OPERATOR_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`);
}

function publicMe(operator: OperatorContext) {
  const { sessionId: _sessionId, ...me } = operator;
  return me;
}

export const operatorAuthRoutes: FastifyPluginAsync<OperatorAuthRoutesOptions> = async (app, { deps }) => {
  app.post('/api/operator/login/sms', async (request, reply) => {
    app.assertSameSite(request);
    const { phone } = operatorInput(ZOperatorSmsRequest, request.body);
    await sendOperatorCode(deps, phone, { deviceId: `operator:${request.ip}`, ip: request.ip });
    return reply.header('cache-control', 'no-store').send({ sent: true });
  });

  app.post('/api/operator/login', async (request, reply) => {
    app.assertSameSite(request);
    const input = operatorInput(ZOperatorLoginRequest, request.body);
    const signIn = await operatorLogin(deps, input, { deviceId: `operator:${request.ip}`, ip: request.ip });
    setOperatorCookie(reply, request, signIn.token, OPERATOR_LIMITS.maxSeconds);
    return reply.header('cache-control', 'no-store').send(signIn.me);
  });

  app.operatorRoute({
    method: 'POST',
    url: '/api/operator/logout',
    roles: 'any',
    handler: async (request, reply, operator) => {
      await operatorLogout(deps.db, deps.clock, operator, request.ip);
      setOperatorCookie(reply, request, '', 0);
      return { ok: true };
    },
  });

  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/me',
    roles: 'any',
    handler: async (_request, _reply, operator) => publicMe(operator),
  });

  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/operators',
    roles: ['admin'],
    handler: async () => ({ operators: await listOperators(deps.db) }),
  });

  for (const verb of ['grant', 'remove'] as const) {
    app.operatorRoute({
      method: 'POST',
      url: `/api/operator/operators/${verb}`,
      roles: ['admin'],
      handler: async (request, _reply, operator) => {
        const change = operatorInput(ZOperatorRoleChange, request.body);
        const run = verb === 'grant' ? grantRoleByOperator : removeRoleByOperator;
        return run(deps.db, deps.clock, actorOf(request, operator), change);
      },
    });
  }

  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/users',
    roles: USER_ROLES,
    handler: async (request) => searchUsers(deps.db, operatorInput(ZUserSearchQuery, request.query)),
  });

  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/users/:id',
    roles: USER_ROLES,
    handler: async (request) => userDetail(deps.db, deps.clock, operatorInput(ZUserId, request.params).id),
  });

  const changes = {
    disable: (request: FastifyRequest, operator: OperatorContext, id: number, reason: string) =>
      setAccountStatus(deps.db, deps.clock, actorOf(request, operator), id, 'disabled', reason),
    enable: (request: FastifyRequest, operator: OperatorContext, id: number, reason: string) =>
      setAccountStatus(deps.db, deps.clock, actorOf(request, operator), id, 'active', reason),
    'end-sessions': (request: FastifyRequest, operator: OperatorContext, id: number, reason: string) =>
      endUserSessions(deps.db, deps.clock, actorOf(request, operator), id, reason),
  };
  for (const [verb, change] of Object.entries(changes)) {
    app.operatorRoute({
      method: 'POST',
      url: `/api/operator/users/:id/${verb}`,
      roles: USER_ROLES,
      handler: async (request, _reply, operator) => {
        const { id } = operatorInput(ZUserId, request.params);
        const { reason } = operatorInput(ZReasonBody, request.body);
        return change(request, operator, id, reason);
      },
    });
  }
};
