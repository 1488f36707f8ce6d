import type { FastifyError, FastifyPluginAsync } from 'fastify';
import { ANALYTICS_ERRORS, ANALYTICS_LIMITS, ApiError, OPERATOR_SECTIONS, ZAnalyticsBatch, ZAnalyticsReportQuery } from '@xcad/protocol';
import { analyticsRefusal, createAnalytics, type AnalyticsDeps } from './analytics.service';
import { dashboard } from './operator-dashboard.service';

// Analytics (decision 0022). Unsigned routes (not under /api/v4): the tracker posts from pages and the
// desktop shell, and the report pages read with the session cookie. Answers are plain JSON, not
// the product API's {code, message, ...} envelope; refusals are {code, message} with the HTTP
// status below (the codes and messages: ANALYTICS_ERRORS in @xcad/protocol).
//
//   POST /api/analytics/events   body {"events":[...]} (ZAnalyticsBatch: 1 to 50 events, at most
//        64 KB), as application/json or as text/plain (what navigator.sendBeacon sends for a
//        string). Each event is checked on its own against ZAnalyticsEvent and the time window
//        (ANALYTICS_LIMITS.maxAgeMs back, maxSkewMs ahead); bad ones are dropped and counted.
//        200 {"accepted":N,"rejected":M} once the accepted ones are stored
//        400 {code:10001} not JSON / not a batch; 413 over 64 KB
//        429 {code:10429, retryafter: seconds} (and Retry-After) over ANALYTICS_RATE_PER_MINUTE
//            events a minute from one address, or ANALYTICS_DEVICE_RATE_PER_MINUTE from one device id
//        5xx: nothing was stored, keep the events and retry later
//        The signed-in user is taken from the session cookie (xcad_session), never from the body.
//   GET  /api/analytics/report?from=YYYY-MM-DD&to=YYYY-MM-DD   (Beijing days, both included, <= 366)
//        200 ZAnalyticsReport; 401 {code:10060} signed out; 403 {code:10403} not an operator;
//        400 {code:10001} bad range. Notes: `days` lists every day of the range (zeros included);
//        visitors are distinct device ids; topPages are the 20 most viewed; logins and tasks are
//        sorted by attempts; a tool's medianMs is over its successful tasks (0 when none); the funnel
//        counts a device at a step only if it reached every step before it within the range;
//        orders and revenue count each transaction_id once.
//   GET  /api/operator/analytics/report?from=&to=   the same report in the back office (decision 0042):
//        through the operator guard (console session; 管理员, 财务, 内容编辑), 400 as above.
//   GET  /api/operator/dashboard   200 ZDashboard (decision 0042, every operator role)
//   GET  /api/analytics/me   200 ZAnalyticsAccess {"signedIn":bool,"operator":bool}, always 200.

export interface AnalyticsRoutesOptions {
  deps: AnalyticsDeps;
}

const NO_STORE = 'no-store';

export const analyticsRoutes: FastifyPluginAsync<AnalyticsRoutesOptions> = async (app, { deps }) => {
  const analytics = createAnalytics(deps);
  app.addHook('onReady', () => analytics.start());
  app.addHook('onClose', () => analytics.stop());

  // sendBeacon posts a string as text/plain;charset=UTF-8 (the API refuses text/plain elsewhere):
  // read as JSON, with the same guards against __proto__ and constructor keys as JSON bodies.
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  // A body over the limit gets its own message; every other failure goes on to the API's handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode !== 413) throw error;
    request.log.info({ reason: error.message }, 'analytics body over the limit');
    const { code, status, message } = ANALYTICS_ERRORS.bodyTooLarge;
    return reply.code(status).send({ code, message });
  });

  app.post('/api/analytics/events', { bodyLimit: ANALYTICS_LIMITS.maxBodyBytes }, async (request, reply) => {
    const batch = ZAnalyticsBatch.safeParse(request.body);
    if (!batch.success)
      throw analyticsRefusal(
        'malformed',
        `analytics body is not a batch: ${batch.error.issues.map((issue) => issue.path.join('.') || issue.code).join(',')}`,
      );
    try {
      const result = await analytics.collect(batch.data.events, { ip: request.ip, usertoken: request.usertoken });
      return reply.header('cache-control', NO_STORE).send(result);
    } catch (error) {
      // A 429 also says when to come back in the standard header.
      if (error instanceof ApiError && typeof error.extra['retryafter'] === 'number')
        reply.header('retry-after', String(error.extra['retryafter']));
      throw error;
    }
  });

  app.get('/api/analytics/report', async (request, reply) => {
    const usertoken = request.usertoken;
    const query = ZAnalyticsReportQuery.safeParse(request.query);
    // Who asks is checked before what they ask: a signed-out caller learns nothing from the range.
    const range = query.success ? query.data : { from: '', to: '' };
    const report = await analytics.report(usertoken, range);
    return reply.header('cache-control', NO_STORE).send(report);
  });

  // Decision 0042: the same report in the back office (统计), for 管理员, 财务 and 内容编辑 through the operator guard.
  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/analytics/report',
    roles: OPERATOR_SECTIONS.analytics.roles,
    handler: async (request) => {
      const query = ZAnalyticsReportQuery.safeParse(request.query);
      return analytics.rangeReport(query.success ? query.data : { from: '', to: '' });
    },
  });

  // Decision 0042: the console's 概览, for every operator.
  app.operatorRoute({ method: 'GET', url: '/api/operator/dashboard', roles: 'any', handler: async () => dashboard(deps.db, deps.clock()) });

  app.get('/api/analytics/me', async (request, reply) => {
    return reply.header('cache-control', NO_STORE).send(await analytics.access(request.usertoken));
  });
};
