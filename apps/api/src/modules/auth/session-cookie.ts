import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_LIMITS, SESSION_COOKIE } from '@xcad/protocol';
import type { Credentials } from './session.service';

// The API's HttpOnly cookies: the usertoken, so the web's server-rendered pages know who is
// signed in (issue 3), and the visitor cookie that owns a visitor's conversion tasks (decision
// 0029). Secure whenever the request came over https (behind a trusted proxy too).

function attributesOf(request: FastifyRequest, maxAgeSeconds: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** Sets an HttpOnly cookie on the answer (beside any other the answer sets). */
export function setCookie(reply: FastifyReply, request: FastifyRequest, name: string, value: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', `${name}=${value}; ${attributesOf(request, maxAgeSeconds)}`);
}

/** The value of the request's cookie `name`, if it has a non-empty one. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

/** Sets the session cookie on an answer that opened a session. */
export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, usertoken: string): void {
  setCookie(reply, request, SESSION_COOKIE, usertoken, AUTH_LIMITS.sessionTtlSeconds);
}

/** Tells the browser to drop the session cookie. */
export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest): void {
  setCookie(reply, request, SESSION_COOKIE, '', 0);
}

/** The usertoken the session cookie carries, if the request has one. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return cookieOf(request, SESSION_COOKIE);
}

/** The usertoken of the body, else of the session cookie (the web's server-side calls). */
export function credentialsOf(request: FastifyRequest, fields: { usertoken?: string | undefined; account?: string | undefined }): Credentials {
  const usertoken = fields.usertoken === undefined || fields.usertoken === '' ? sessionTokenOf(request) : fields.usertoken;
  return { usertoken, account: fields.account };
}
