import type { FastifyPluginAsync } from 'fastify';
import { endpoints, SUCCESS_CODE, SUCCESS_MESSAGE } from '@xcad/protocol';
import { route } from '../../plugins/route';

// fast-json-stringify serialises the answer: the route is benchmarked against a bare Fastify route.
const getUtcTimeResponse = {
  type: 'object',
  properties: { code: { type: 'integer' }, message: { type: 'string' }, utctime: { type: 'integer' } },
  required: ['code', 'message', 'utctime'],
} as const;

/**
 * spec §7 `GET|POST /api/v4/getutctime`: server time in epoch seconds, which clients use to set
 * the `timestamp` of signed requests; so it is itself unsigned. Any payload is ignored. The route
 * is benchmarked against a bare Fastify route (bench/), so it stays free of database work.
 */
export const timeRoutes: FastifyPluginAsync = async (app) => {
  route(app, endpoints.getutctime, {
    auth: 'none',
    responseJsonSchema: getUtcTimeResponse,
    handler: async () => ({ code: SUCCESS_CODE, message: SUCCESS_MESSAGE, utctime: Math.floor(Date.now() / 1000) }),
  });
};
