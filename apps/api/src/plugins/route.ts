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
  readonly handler: (call: RouteCall<E, A>) => Promise<z.input<E['response']>>;
}

// What the session and device are read from: the parsed fields (ZSignedIn's usertoken and
// account) and the signed body's common fields, which datasign has checked already.
const ZCaller = z.object({ usertoken: z.string().optional().catch(undefined), account: z.string().optional().catch(undefined) });
const ZDevice = z.object({ deviceid: z.string() });

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
    handler: async (request, reply) => {
      // datasign has refused a signed call whose body is no object; an unsigned one's is ignored.
      const body = typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body) ? request.body : {};
      const fields = readFields(endpoint.request, body) as z.output<E['request']>;
      const caller = ZCaller.safeParse(fields);
      const given = caller.success ? caller.data : {};
      const usertoken = given.usertoken === undefined || given.usertoken === '' ? request.usertoken : given.usertoken;
      const session = await sessionOf(app, options.auth, usertoken, given.account);
      const device = ZDevice.safeParse(request.body);
      return options.handler({ fields, session, usertoken, deviceId: device.success ? device.data.deviceid : '', request, reply });
    },
  });
}
