import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type Endpoint } from '@xcad/protocol';
import { z } from 'zod';
import { resolveSignedIn, type SignedIn } from '../modules/auth/session.service';
import { readFields } from './fields';

// One way to declare a product API call (spec §7): the path, methods and request schema come from
// the endpoint registry in packages/protocol, the body is read once (the first broken rule answers
// 10020, decision 0010), the caller's session is resolved once, and the handler's answer is typed
// as the endpoint's response, envelope included (decision 0030).

/**
 * Who may call:
 * - `required`: a live session (the body's usertoken, else the session cookie); else 10060/10063.
 * - `if-given`: a visitor without a usertoken, but a usertoken given must be live.
 * - `optional`: anyone; a missing, dead or disabled session reads as a visitor (`null`).
 * - `none`: the session is not looked at.
 */
export type AuthMode = 'required' | 'if-given' | 'optional' | 'none';

export type SessionFor<A extends AuthMode> = A extends 'required' ? SignedIn : A extends 'none' ? undefined : SignedIn | null;

export interface RouteCall<E extends Endpoint, A extends AuthMode> {
  readonly fields: z.output<E['request']>;
  readonly session: SessionFor<A>;
  /** The caller's usertoken: the body's, else the session cookie's. */
  readonly usertoken: string | undefined;
  /** The signed body's device id ('' on an unsigned call without one). */
  readonly deviceId: string;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

export interface RouteOptions<E extends Endpoint, A extends AuthMode> {
  readonly auth: A;
  /** A larger body than the API's default (feedback screenshots). */
  readonly bodyLimit?: number;
  /**
   * The answer's JSON schema, for fast-json-stringify: only for a hot call whose answer is plain
   * (the time call, benchmarked against a bare Fastify route); it drops any field it does not name.
   */
  readonly responseJsonSchema?: Readonly<Record<string, unknown>>;
  readonly handler: (call: RouteCall<E, A>) => Promise<z.input<E['response']>>;
}

/** A string field of the parsed fields or the body, if it is one. */
function textOf(source: unknown, name: string): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The session of `usertoken` as `auth` reads it; also for the few unsigned routes that answer by cookie. */
export async function sessionOf<A extends AuthMode>(
  app: FastifyInstance,
  auth: A,
  usertoken: string | undefined,
  account?: string,
): Promise<SessionFor<A>> {
  return (await lookUp(app, auth, usertoken, account)) as SessionFor<A>;
}

async function lookUp(
  app: FastifyInstance,
  auth: AuthMode,
  usertoken: string | undefined,
  account: string | undefined,
): Promise<SignedIn | null | undefined> {
  if (auth === 'none') return undefined;
  const now = Math.floor(app.sessions.clock() / 1000);
  const credentials = { usertoken, account };
  if (auth === 'required') return resolveSignedIn(app.sessions.db, credentials, now);
  if (usertoken === undefined) return null;
  if (auth === 'if-given') return resolveSignedIn(app.sessions.db, credentials, now);
  try {
    return await resolveSignedIn(app.sessions.db, credentials, now);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** An unsigned call without fields of its own whose body is ignored (the time call): nothing to read. */
function readsNothing(endpoint: Endpoint): boolean {
  const request = endpoint.request;
  return (
    endpoint.signed === false &&
    request instanceof z.ZodObject &&
    Object.keys(request.shape).length === 0 &&
    request.def.catchall === undefined
  );
}

/**
 * The handler of a call without fields or session: it only answers. The time call is one, and is
 * benchmarked against a bare Fastify route (decision 0030): reading nothing keeps it near that.
 */
function bare<E extends Endpoint, A extends AuthMode>(options: RouteOptions<E, A>) {
  return (request: FastifyRequest, reply: FastifyReply) =>
    options.handler({
      fields: {} as z.output<E['request']>,
      session: undefined as SessionFor<A>,
      get usertoken() {
        return request.usertoken;
      },
      deviceId: textOf(request.body, 'deviceid') ?? '',
      request,
      reply,
    });
}

/** Registers `endpoint` on `app` (POST, or the endpoint's own methods) with `options.handler`. */
export function route<E extends Endpoint, A extends AuthMode>(
  app: FastifyInstance,
  endpoint: E,
  options: RouteOptions<NoInfer<E>, A>,
): void {
  app.route({
    method: [...(endpoint.methods ?? ['POST'])],
    url: endpoint.path,
    config: { signed: endpoint.signed !== false },
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    ...(options.responseJsonSchema === undefined ? {} : { schema: { response: { 200: options.responseJsonSchema } } }),
    handler:
      readsNothing(endpoint) && options.auth === 'none'
        ? bare(options)
        : async (request, reply) => {
            // datasign has refused a signed call whose body is no object; an unsigned one's is ignored.
            const body = typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {};
            const fields = readFields(endpoint.request, body) as z.output<E['request']>;
            // The session from the fields (ZSignedIn's usertoken and account), else the session cookie;
            // the device from the signed body's common fields, which datasign has checked already.
            const given = textOf(fields, 'usertoken');
            const usertoken = given === undefined || given === '' ? request.usertoken : given;
            const session = await sessionOf(app, options.auth, usertoken, textOf(fields, 'account'));
            const deviceId = textOf(request.body, 'deviceid') ?? '';
            return options.handler({ fields, session, usertoken, deviceId, request, reply });
          },
  });
}
