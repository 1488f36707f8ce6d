import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { CONVERSION_LIMITS } from '@xcad/protocol';
import type { Env } from './env';
import { LIMIT_PURGE_INTERVAL_MS, limitStoreFromEnv } from './limits';
import { AccessLogController, createLogger, requestIdOf } from './logger';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { createAccounts } from './modules/auth/accounts.service';
import type { AuthDeps } from './modules/auth/auth.contract';
import { authRoutes } from './modules/auth/auth.routes';
import { operatorAuthRoutes } from './modules/auth/operator.routes';
import { CaptchaOutbox, captchaOutboxRoutes } from './modules/auth/captcha-outbox';
import { contentRoutes } from './modules/content/content.routes';
import { createBullmqJobs } from './modules/conversion/bullmq/bullmq-jobs';
import type { ConversionJobs } from './modules/conversion/conversion.jobs';
import { conversionRoutes } from './modules/conversion/conversion.routes';
import { cadFontsRoutes } from './modules/cad-fonts/cad-fonts.routes';
import { createLocalJobs } from './modules/conversion/jobs/local-queue';
import { courseRoutes } from './modules/course/course.routes';
import { drawingsRoutes } from './modules/drawings/drawings.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { healthRoutes } from './modules/health/health.routes';
import { oauthRoutes } from './modules/oauth/oauth.routes';
import { createPayProviders, type ConfiguredPayProviders } from './modules/pay/pay.factory';
import { operatorPayRoutes } from './modules/pay/operator-pay.routes';
import { payRoutes } from './modules/pay/pay.routes';
import { ConsoleSmsProvider } from './modules/sms/console.provider';
import { createSmsProvider } from './modules/sms/sms.factory';
import type { SmsProvider } from './modules/sms/sms.provider';
import type { SiteDeps } from './modules/site-deps';
import { smsOutboxRoutes } from './modules/sms/sms.routes';
import { softwareRoutes } from './modules/software/software.routes';
import { timeRoutes } from './modules/time/time.routes';
import { registerDatasign } from './plugins/datasign';
import { devDoorsAtStart, registerDevDoorsGuard } from './plugins/dev-doors';
import { registerErrorHandling } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { registerOperatorGuard } from './plugins/operator-guard';
import { registerSessions } from './plugins/session';
import { registerUnreadBodyDrain } from './plugins/unread-body';
import { storageFromEnv, type StreamingStorage } from './storage';
import { storageRoutes } from './storage/storage.routes';

export interface BuildAppOptions {
  env: Env;
  db: Kysely<Database>;
  /** A logger to use instead of one built from `env.LOG_LEVEL` (tests capture logs this way). */
  logger?: FastifyBaseLogger;
  /** The SMS provider to use instead of the one SMS_PROVIDER names (tests). */
  smsProvider?: SmsProvider;
  /** Server time in epoch milliseconds; tests pass a clock they can move (the 61st second, the next hour). */
  clock?: () => number;
  /** Where stored files live instead of STORAGE_DIR (tests pass a temporary directory). */
  storage?: StreamingStorage;
  /** The conversion jobs to use instead of the local database queue (tests of the upload side). */
  conversionJobs?: ConversionJobs;
  /** The smallest uploadfile chunk but the last instead of spec §9's 50 MB (tests of the upload's mechanics send small files in several chunks). */
  conversionMinChunkBytes?: number;
  /** Payment providers to use instead of those WXPAY_PROVIDER / ALIPAY_PROVIDER name (tests). */
  payProviders?: ConfiguredPayProviders;
  /** Sees every route as it is registered (the malformed-input sweep enumerates them this way). */
  onRoute?: (route: RouteOptions) => void;
}

/** The API, with every route registered but not listening; callers may add routes before use. */
export async function buildApp({
  env,
  db,
  logger,
  smsProvider,
  clock = Date.now,
  storage = storageFromEnv(env),
  payProviders,
  conversionJobs,
  onRoute,
  conversionMinChunkBytes = CONVERSION_LIMITS.chunkBytes,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger ?? createLogger(env),
    logController: new AccessLogController(),
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: env.TRUST_PROXY,
    bodyLimit: env.BODY_LIMIT_BYTES,
  });
  if (onRoute !== undefined) app.addHook('onRoute', onRoute);

  // Bodies are JSON or form-encoded (spec §7); anything else is refused as malformed.
  app.removeContentTypeParser('text/plain');
  await app.register(formbody);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id).header('x-content-type-options', 'nosniff');
    done();
  });

  registerErrorHandling(app);
  registerInputGuard(app);
  registerUnreadBodyDrain(app);
  registerDevDoorsGuard(app, { isOverridden: devDoorsAtStart(env).kind === 'overridden' });
  registerDatasign(app, { db, secret: env.PRODUCT_SIGN_SECRET, windowSeconds: env.SIGN_WINDOW_SECONDS, clock });
  await registerSessions(app, { db, clock });
  // Decision 0042: the one guard of every /api/operator/* call (session, role, CSRF).
  registerOperatorGuard(app, { origins: [env.PUBLIC_ORIGIN, ...(env.SITE_URL === undefined ? [] : [env.SITE_URL])] });

  // One store for every quota and rate limit, shared by the API processes (decision 0029).
  const limits = limitStoreFromEnv(env, db, app.log);
  const purgeLimits = (): void => {
    limits.purge(clock()).catch((error: unknown) => app.log.warn({ err: error }, 'purging ended limit windows failed'));
  };
  const limitPurge = setInterval(purgeLimits, LIMIT_PURGE_INTERVAL_MS);
  limitPurge.unref();
  app.addHook('onClose', async () => {
    clearInterval(limitPurge);
    await limits.close();
  });

  await app.register(healthRoutes, { db, machineId: env.MACHINE_ID });
  await app.register(timeRoutes);
  await app.register(contentRoutes, { db, publicOrigin: env.PUBLIC_ORIGIN });
  await app.register(storageRoutes, { storage });

  const sms = smsProvider ?? createSmsProvider(env, app.log);
  // Decision 0010: the dev outbox exists only while codes are not really sent.
  if (sms instanceof ConsoleSmsProvider) await app.register(smsOutboxRoutes, { outbox: sms });

  const authDeps: AuthDeps = { db, env, sms, log: app.log, clock, limits };
  if (sms instanceof ConsoleSmsProvider) {
    authDeps.captchaOutbox = new CaptchaOutbox(clock);
    await app.register(captchaOutboxRoutes, { outbox: authDeps.captchaOutbox });
  }
  await app.register(authRoutes, { deps: authDeps });
  // WeChat and QQ sign-ins complete through the auth module's accounts.
  await app.register(oauthRoutes, { deps: authDeps, accounts: createAccounts(authDeps) });

  // Decision 0012: the site's own features beside the content API.
  const siteDeps: SiteDeps = { db, env, storage, log: app.log, clock };
  for (const routes of [drawingsRoutes, courseRoutes, softwareRoutes, feedbackRoutes]) await app.register(routes, { deps: siteDeps });

  // Decision 0018: memberships, orders, payments and invoices.
  const pay = payProviders ?? createPayProviders(env, app.log);
  await app.register(payRoutes, { deps: { db, env, log: app.log, clock, providers: pay.providers }, sandbox: pay.sandbox });

  // Decision 0019: online conversion. The local queue runs in this process once it is ready and lets
  // running conversions finish (or hands them back) when it closes.
  const jobs =
    conversionJobs ??
    (env.CONVERSION_QUEUE === 'bullmq'
      ? createBullmqJobs({ env, log: app.log })
      : createLocalJobs({ db, storage, log: app.log, clock, env }));
  await app.register(conversionRoutes, {
    deps: { db, env, storage, log: app.log, clock, jobs, limits, minChunkBytes: conversionMinChunkBytes },
  });
  app.addHook('onReady', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());

  // Decision 0025: subsets of the CAD engine's shipped CJK fonts, for the viewer.
  await app.register(cadFontsRoutes);

  // Decision 0042: the back office's calls, each in its domain's module.
  await app.register(operatorAuthRoutes, { deps: authDeps });
  await app.register(operatorPayRoutes, { db, clock });
  await app.register(auditRoutes, { db });

  // Decision 0022: the analytics collector, the operator's report, and the events' housekeeping.
  await app.register(analyticsRoutes, { deps: { db, env, log: app.log, clock, limits } });
  return app;
}
