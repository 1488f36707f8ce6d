import type { FastifyPluginAsync } from 'fastify';
import { SUCCESS_CODE, SUCCESS_MESSAGE } from '@xcad/protocol';

// A declared response schema lets fast-json-stringify serialise the answer; the route is
// benchmarked against a bare Fastify route (issue 2), so it stays free of database work.
const getUtcTimeResponse = {
  type: 'object',
  properties: {
    code: { type: 'integer' },
    message: { type: 'string' },
    utctime: { type: 'integer' },
  },
  required: ['code', 'message', 'utctime'],
} as const;

/**
 * spec §7 `GET|POST /api/v4/getutctime`: server time in epoch seconds, which clients use to set
 * the `timestamp` of signed requests; so it is itself unsigned. Any payload is ignored.
 */
export const timeRoutes: FastifyPluginAsync = async (app) => {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/v4/getutctime',
    config: { signed: false },
    schema: { response: { 200: getUtcTimeResponse } },
    handler: async () => ({ code: SUCCESS_CODE, message: SUCCESS_MESSAGE, utctime: Math.floor(Date.now() / 1000) }),
  });
};
