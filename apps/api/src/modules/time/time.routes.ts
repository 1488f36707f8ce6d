import type { FastifyPluginAsync } from 'fastify';
import { endpoints, SUCCESS_CODE, SUCCESS_MESSAGE } from '@xcad/protocol';
import { route } from '../../plugins/route';

/**
 * spec §7 `GET|POST /api/v4/getutctime`: server time in epoch seconds, which clients use to set
 * the `timestamp` of signed requests; so it is itself unsigned. Any payload is ignored. The route
 * is benchmarked against a bare Fastify route (bench/), so it stays free of database work.
 */
export const timeRoutes: FastifyPluginAsync = async (app) => {
  route(app, endpoints.getutctime, {
    auth: 'none',
    handler: async () => ({ code: SUCCESS_CODE, message: SUCCESS_MESSAGE, utctime: Math.floor(Date.now() / 1000) }),
  });
};
