import type { FastifyPluginAsync } from 'fastify';
import type { ConsoleSmsProvider } from './console.provider';

export interface SmsOutboxRoutesOptions {
  outbox: Pick<ConsoleSmsProvider, 'messagesFor'>;
}

const outboxQuery = {
  type: 'object',
  properties: { account: { type: 'string', pattern: '^[0-9]{1,20}$' } },
  required: ['account'],
} as const;

const outboxResponse = {
  type: 'object',
  properties: {
    messages: {
      type: 'array',
      items: {
        type: 'object',
        properties: { account: { type: 'string' }, code: { type: 'string' }, text: { type: 'string' }, at: { type: 'string' } },
        required: ['account', 'code', 'text', 'at'],
      },
    },
  },
  required: ['messages'],
} as const;

/**
 * Issue 3: `GET /api/dev/sms-outbox?account=PHONE`, the codes the console provider "sent", newest
 * first, for browser tests and local sign-in. Registered only with that provider, so a server
 * sending real SMS has no such route. Outside /api/v4, hence unsigned.
 */
export const smsOutboxRoutes: FastifyPluginAsync<SmsOutboxRoutesOptions> = async (app, { outbox }) => {
  app.get<{ Querystring: { account: string } }>('/api/dev/sms-outbox', {
    schema: { querystring: outboxQuery, response: { 200: outboxResponse } },
    handler: async (request) => ({ messages: outbox.messagesFor(request.query.account) }),
  });
};
