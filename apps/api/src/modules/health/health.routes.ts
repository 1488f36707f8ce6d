import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { isDatabaseReachable } from './health.repository';

export interface HealthRoutesOptions {
  db: Kysely<Database>;
  machineId: string;
}

const PRODUCT_HEADER = /^\d{1,10}$/;
const DB_PING_TIMEOUT_MS = 1000;
const HEALTH_PATH = '/health';

const healthResponse = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok'] },
    db: { type: 'string', enum: ['ok', 'down'] },
  },
  required: ['status', 'db'],
  additionalProperties: false,
} as const;

/**
 * spec §7 health check: mirrors are probed with `HEAD /health` under a 1000 ms budget and accepted
 * on 200 with `machine-id` equal to 20-201. HEAD answers from memory; GET also pings the database.
 */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { db, machineId }) => {
  function setHealthHeaders(request: FastifyRequest, reply: FastifyReply): void {
    reply.header('machine-id', machineId).header('cache-control', 'no-store');
    const product = request.headers['x-product'];
    if (typeof product === 'string' && PRODUCT_HEADER.test(product)) reply.header('x-product', product);
  }

  app.route({
    method: 'HEAD',
    url: HEALTH_PATH,
    schema: { response: { 200: { type: 'null' } } },
    handler: async (request, reply) => {
      setHealthHeaders(request, reply);
      return reply.code(200).send();
    },
  });

  app.get(HEALTH_PATH, { exposeHeadRoute: false, schema: { response: { 200: healthResponse } } }, async (request, reply) => {
    setHealthHeaders(request, reply);
    const isUp = await isDatabaseReachable(db, DB_PING_TIMEOUT_MS).catch((error: unknown) => {
      request.log.warn({ err: error }, 'health: database ping failed');
      return false;
    });
    return { status: 'ok', db: isUp ? 'ok' : 'down' };
  });
};
