import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { sendProtocolError } from '../../plugins/errors';
import type { ConsoleSmsProvider } from './console.provider';

export interface SmsOutboxRoutesOptions {
  outbox: Pick<ConsoleSmsProvider, 'messagesFor'>;
}

const ZOutboxQuery = z.object({ account: z.string().regex(/^[0-9]{1,20}$/) });

/**
 * `GET /api/dev/sms-outbox?account=PHONE`, the codes the console provider "sent", newest
 * first, for browser tests and local sign-in. Registered only with that provider, so a server
 * sending real SMS has no such route. Outside /api/v4, hence unsigned.
 */
export const smsOutboxRoutes: FastifyPluginAsync<SmsOutboxRoutesOptions> = async (app, { outbox }) => {
  app.get('/api/dev/sms-outbox', async (request, reply) => {
    const query = ZOutboxQuery.safeParse(request.query);
    if (!query.success) return sendProtocolError(reply, 'malformed');
    return { messages: outbox.messagesFor(query.data.account) };
  });
};
