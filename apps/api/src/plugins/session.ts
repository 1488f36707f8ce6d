import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { AUTH_LIMITS, SESSION_COOKIE } from '@xcad/protocol';

// The API's HttpOnly cookies: the usertoken, so the web's server-rendered pages know who is
// signed in (spec §3 userinfo.usertoken), and the visitor cookie that owns a visitor's conversion
// tasks (decision 0029). Secure whenever the request came over https (behind a trusted proxy too).
// Cookies are read with @fastify/cookie's parser; they are written by hand because the attribute order of
// the answer is pinned (the web and the tests read `Path=/; HttpOnly; SameSite=Lax; Max-Age=N`).

declare module 'fastify' {
  interface FastifyInstance {
    /** What a route needs to resolve a caller's session (plugins/route.ts). */
    sessions: SessionSource;
  }
  interface FastifyRequest {
    /** The usertoken the session cookie carries, if any: the one place a handler learns it. */
    readonly usertoken: string | undefined;
  }
}

export interface SessionSource {
  readonly db: Kysely<Database>;
  /** Server time in epoch milliseconds. */
  readonly clock: () => number;
}

/** The value of the request's cookie `name`, if it has a non-empty one. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined || header === '') return undefined;
  const value = request.server.parseCookie(header)[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Makes cookies readable (@fastify/cookie's parser, run only when a route asks: most calls carry
 * their usertoken in the signed body, and the time call is benchmarked against a bare route) and
 * the session's database and clock known to routes.
 */
export async function registerSessions(app: FastifyInstance, source: SessionSource): Promise<void> {
  await app.register(cookie, { hook: false });
  app.decorate('sessions', source);
  app.decorateRequest('usertoken', {
    getter(this: FastifyRequest) {
      return cookieOf(this, SESSION_COOKIE);
    },
  });
}

function attributesOf(request: FastifyRequest, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** Sets an HttpOnly cookie on the answer (beside any other the answer sets). */
export function setCookie(reply: FastifyReply, request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', `${name}=${value}; ${attributesOf(request, maxAgeSeconds)}`);
}

/** Sets the session cookie on an answer that opened a session. */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, usertoken: string): void {
  setCookie(reply, request, SESSION_COOKIE, usertoken, AUTH_LIMITS.sessionTtlSeconds);
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  setCookie(reply, request, SESSION_COOKIE, '', 0);
}
