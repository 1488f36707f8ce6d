import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Env } from '../env';

// Decision 0026: the development providers (SMS codes in an outbox, the dev
// WeChat and QQ sign-ins, the sandbox cashier) hand out sign-ins and paid orders to whoever asks.
// They serve a local trial only: a deployment at a public origin refuses to start with one of
// them unless the operator names that origin in UNSAFE_DEV_PROVIDERS_AT, and every /api/dev/* route
// answers only requests made on the API's host itself (loopback address, loopback host name),
// never one that came from or through a public origin, override or not.

const DEV_ROUTE_PREFIX = '/api/dev/';

type DevDoorsEnv = Pick<
  Env,
  | 'SMS_PROVIDER'
  | 'WECHAT_PROVIDER'
  | 'QQ_PROVIDER'
  | 'WXPAY_PROVIDER'
  | 'ALIPAY_PROVIDER'
  | 'SITE_URL'
  | 'PUBLIC_ORIGIN'
  | 'UNSAFE_DEV_PROVIDERS_AT'
>;

/** Whether a URL host name (brackets allowed around IPv6) names this machine's loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isLoopbackAddress(host);
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether an IP address is a loopback one (127.0.0.0/8, ::1, IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The development providers the environment selects, as `VARIABLE=value`. */
function developmentProvidersOf(env: DevDoorsEnv): string[] {
  const chosen = [
    env.SMS_PROVIDER === 'console' && 'SMS_PROVIDER=console',
    env.WECHAT_PROVIDER === 'dev' && 'WECHAT_PROVIDER=dev',
    env.QQ_PROVIDER === 'dev' && 'QQ_PROVIDER=dev',
    env.WXPAY_PROVIDER === 'sandbox' && 'WXPAY_PROVIDER=sandbox',
    env.ALIPAY_PROVIDER === 'sandbox' && 'ALIPAY_PROVIDER=sandbox',
  ];
  return chosen.filter((entry) => entry !== false);
}

/** The origins of SITE_URL and PUBLIC_ORIGIN that are not loopback ones: where the site is public. */
function publicOriginsOf(env: DevDoorsEnv): string[] {
  const origins = [env.SITE_URL, env.PUBLIC_ORIGIN].filter((url) => url !== undefined).map((url) => new URL(url));
  return [...new Set(origins.filter((url) => !isLoopbackHost(url.hostname)).map((url) => url.origin))];
}

export type DevDoorsAtStart = { kind: 'closed' | 'local' } | { kind: 'refused'; message: string } | { kind: 'overridden'; message: string };

/**
 * What start-up makes of the development providers: none configured (`closed`), a local site
 * (`local`), a public one that must not start (`refused`), or one whose operator allowed them at
 * exactly this origin (`overridden`, to be logged loudly).
 */
export function devDoorsAtStart(env: DevDoorsEnv): DevDoorsAtStart {
  const providers = developmentProvidersOf(env);
  if (providers.length === 0) return { kind: 'closed' };
  const origins = publicOriginsOf(env);
  if (origins.length === 0) return { kind: 'local' };
  const allowed = env.UNSAFE_DEV_PROVIDERS_AT === undefined ? undefined : new URL(env.UNSAFE_DEV_PROVIDERS_AT).origin;
  if (allowed !== undefined && origins.every((origin) => origin === allowed)) {
    return {
      kind: 'overridden',
      message: `UNSAFE_DEV_PROVIDERS_AT=${allowed}: development providers at a public origin (${providers.join(', ')}): sign-ins and payments here are not real; /api/dev/* answers only on this host's loopback`,
    };
  }
  const override =
    allowed === undefined
      ? `or, for a test host only, set UNSAFE_DEV_PROVIDERS_AT=${origins[0] ?? ''}`
      : `UNSAFE_DEV_PROVIDERS_AT names ${allowed}, not ${origins.join(' and ')}`;
  return {
    kind: 'refused',
    message: `development providers at the public origin ${origins.join(' and ')}: ${providers.join(', ')}; configure the real providers (see the README) ${override}`,
  };
}

/** Whether a request was made on this host: from a loopback address, to a loopback host name. */
function isLocalRequest(request: Pick<FastifyRequest, 'ip' | 'hostname'>): boolean {
  return isLoopbackAddress(request.ip) && isLoopbackHost(request.hostname);
}

/**
 * Answers every /api/dev/* request that was not made on this host like an unknown route (404), so
 * a public origin cannot even tell the routes are there; with the override, each use is logged.
 */
export function registerDevDoorsGuard(app: FastifyInstance, { isOverridden }: { isOverridden: boolean }): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(DEV_ROUTE_PREFIX)) {
      done();
      return;
    }
    const path = request.url.split('?', 1)[0];
    if (!isLocalRequest(request)) {
      request.log.info({ path, ip: request.ip, host: request.hostname }, 'development route refused: not a request made on this host');
      reply.callNotFound();
      return;
    }
    if (isOverridden) request.log.warn({ path }, 'development route used at a public deployment (UNSAFE_DEV_PROVIDERS_AT)');
    done();
  });
}
