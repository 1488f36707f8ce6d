import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { claimNonce, purgeExpiredNonces, type Database } from '@xcad/db';
import { ZCommonFields, signaturePayload, type ProtocolErrorKind, type SignableFields } from '@xcad/protocol';
import { sendProtocolError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` opts an `/api/v4/` route out of request signing (e.g. getutctime). */
    signed?: boolean;
  }
}

export interface DatasignOptions {
  db: Kysely<Database>;
  secret: string;
  /** Largest accepted distance between a request's timestamp and server time, in seconds. */
  windowSeconds: number;
  /** How often expired replay keys are deleted. */
  purgeIntervalMs?: number;
  /** Server time in epoch milliseconds (tests move it). */
  clock?: () => number;
}

const SIGNED_PREFIX = '/api/v4/';
const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

function isPlainObject(value: unknown): value is SignableFields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(request: FastifyRequest, reply: FastifyReply, kind: ProtocolErrorKind, reason: string): FastifyReply {
  request.log.info({ reason }, 'signed request refused');
  return sendProtocolError(reply, kind);
}

/**
 * Verifies spec §7 request signing on every `/api/v4/` route registered after this call, unless
 * the route sets `config: { signed: false }`: the common fields are present, `datasign` matches,
 * `timestamp` lies within the window of server time, and this `datasign` has not been used
 * before (docs/decisions/0005).
 */
/**
 * spec §7 datasign checked with Node's native MD5: the same rule as `isDatasignValid` in the
 * protocol package (which browsers use), without blocking the server for long on large bodies
 * (feedback screenshots: the JavaScript MD5 takes ~0.5 s on 7 MB, native a few ms).
 */
function isSignatureValid(fields: SignableFields, secret: string): boolean {
  const given = fields['datasign'];
  // Hex only: the buffers compared below must have the same length (32 ASCII bytes).
  if (typeof given !== 'string' || !/^[0-9a-f]{32}$/i.test(given)) return false;
  const expected = createHash('md5')
    .update(signaturePayload(fields) + secret, 'utf8')
    .digest('hex');
  return timingSafeEqual(Buffer.from(given.toLowerCase()), Buffer.from(expected));
}

export function registerDatasign(app: FastifyInstance, options: DatasignOptions): void {
  const { db, secret, windowSeconds } = options;
  const clock = options.clock ?? Date.now;

  const verify = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    // GET carries its fields in the query; every other method in the body (JSON or form).
    const fields = METHODS_WITHOUT_BODY.has(request.method) ? request.query : request.body;
    if (!isPlainObject(fields)) return refuse(request, reply, 'malformed', 'fields are not an object');
    const common = ZCommonFields.safeParse(fields);
    if (!common.success) return refuse(request, reply, 'malformed', common.error.issues.map((issue) => issue.path.join('.')).join(','));
    if (!isSignatureValid(fields, secret)) return refuse(request, reply, 'badSignature', 'datasign mismatch');
    const now = Math.floor(clock() / 1000);
    if (Math.abs(now - common.data.timestamp) > windowSeconds) {
      return refuse(request, reply, 'staleTimestamp', `timestamp ${common.data.timestamp} vs server ${now}`);
    }
    // A signature is unique to its fields; remembering it for twice the window covers every
    // timestamp that could still pass the check above.
    const isFirstUse = await claimNonce(db, `datasign:${common.data.datasign.toLowerCase()}`, now + 2 * windowSeconds, now);
    if (!isFirstUse) return refuse(request, reply, 'replayed', 'datasign already used');
    return undefined;
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(SIGNED_PREFIX) || route.config?.signed === false) return;
    // preValidation sees the body as parsed but before schema validation, whose type coercion
    // and removal of unknown fields would change what was signed.
    const existing = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [verify, ...existing];
  });

  const purge = (): void => {
    purgeExpiredNonces(db, Math.floor(clock() / 1000)).catch((error: unknown) =>
      app.log.warn({ err: error }, 'purging expired request nonces failed'),
    );
  };
  const timer = setInterval(purge, options.purgeIntervalMs ?? 60_000);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
