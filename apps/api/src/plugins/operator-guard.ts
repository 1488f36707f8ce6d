import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, OPERATOR_COOKIE, OPERATOR_CSRF_HEADER, type TOperatorRole } from '@xcad/protocol';
import type { z } from 'zod';
import { operatorRefusal, resolveOperator, type OperatorContext } from '../modules/auth/operator.service';
import { cookieOf } from './session';

// The one operator guard of the back office (decision 0042). Every /api/operator/* route of every
// module is declared through `app.operatorRoute`, which, before the handler runs:
//   1. refuses a change (any method but GET) from another site: its Origin (or, without one, its
//      Referer) must be the site's own origin (403 25004);
//   2. resolves the console session from its own cookie (xcad_operator; 401 25001 without a live one,
//      30 minutes idle at most);
//   3. refuses a change without the session's CSRF token in x-csrf-token (403 25004);
//   4. checks the operator's roles against the route's (403 25003).
// Answers are never cached.

export interface OperatorRouteDef {
  method: 'GET' | 'POST';
  url: string;
  /** The roles that may call it ('any': every operator). */
  roles: readonly TOperatorRole[] | 'any';
  handler: (request: FastifyRequest, reply: FastifyReply, operator: OperatorContext) => Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    operatorRoute(def: OperatorRouteDef): void;
    /** Step 1 alone, for the sign-in calls (no session yet). */
    assertSameSite(request: FastifyRequest): void;
  }
}

export interface OperatorGuardOptions {
  /** The origins the console is served from (PUBLIC_ORIGIN, SITE_URL); the request's own is added. */
  origins: readonly string[];
}

function originOfUrl(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Reads an operator call's query or body with its schema: the first broken rule answers 400 with its message. */
export function operatorInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw new ApiError({
    code: 10020,
    httpStatus: 400,
    userMessage: issue?.message ?? '请求参数错误',
    logMessage: `operator input: ${field || 'body'} ${issue?.code ?? ''}`,
    extra: { field },
  });
}

export function registerOperatorGuard(app: FastifyInstance, options: OperatorGuardOptions): void {
  const configured = options.origins.map(originOfUrl).filter((origin): origin is string => origin !== undefined);

  function assertSameSite(request: FastifyRequest): void {
    const header = request.headers.origin;
    const claimed =
      originOfUrl(typeof header === 'string' && header !== 'null' ? header : undefined) ?? originOfUrl(request.headers.referer);
    const own = `${request.protocol}://${request.host}`;
    if (claimed === undefined || !(claimed === own || configured.includes(claimed))) {
      throw operatorRefusal('crossSite', `operator change from origin ${claimed ?? 'none'}`);
    }
  }

  app.decorate('assertSameSite', assertSameSite);
  app.decorate('operatorRoute', function operatorRoute(this: FastifyInstance, def: OperatorRouteDef) {
    this.route({
      method: def.method,
      url: def.url,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const isChange = def.method !== 'GET';
        if (isChange) assertSameSite(request);
        const operator = await resolveOperator(app.sessions.db, app.sessions.clock, cookieOf(request, OPERATOR_COOKIE));
        if (isChange) {
          const token = request.headers[OPERATOR_CSRF_HEADER];
          if (typeof token !== 'string' || !sameText(token, operator.csrf))
            throw operatorRefusal('crossSite', 'operator change without its csrf token');
        }
        if (def.roles !== 'any' && !operator.roles.some((role) => (def.roles as readonly TOperatorRole[]).includes(role))) {
          throw operatorRefusal('forbidden', `${def.method} ${def.url} refused to roles ${operator.roles.join(',')}`);
        }
        return def.handler(request, reply, operator);
      },
    });
  });
}

/** The audit actor of a request. */
export function actorOf(request: FastifyRequest, operator: OperatorContext) {
  return { operatorId: operator.userId, ip: request.ip };
}
